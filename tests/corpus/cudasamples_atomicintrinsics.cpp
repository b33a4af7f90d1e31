// NVIDIA cuda-samples, simpleAtomicIntrinsics: NVIDIA/cuda-samples (commit c94ff366),
// Samples/0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh, kernel
// testKernel, ported by hand: every thread of the grid applies each of eleven atomic operations
// to its own element of g_odata (add, sub, exchange, max, min, inc, dec, compare-and-swap, and,
// or, xor). Launch as the sample: testKernel<<<64, 256>>>(dOData), g_odata zeroed but for elements
// 8 and 10 (0xff); checked as computeGold (simpleAtomicIntrinsics_cpu.cpp) checks it.
// Language pieces: `atomicInc((unsigned int *)&g_odata[5], 17)` on the int array is
// w::atomic_inc(w::as<unsigned>(g_odata[5]), 17u), the element taken as its unsigned kind for
// one update, as the cast does (likewise atomicDec); g_odata is w::atomic<int>, every access to it
// an atomic.
//
// ACCEPTED, no launch obligation: every access of g_odata is atomic. One change: `atomicOr(&g_odata[9],
// 1 << tid)` shifts by tid up to 16,383, past int's 31 bits, which C++ leaves undefined (the
// device's shl gives 0 there, x86 masks the count). warden does not refuse it: E104 guards the
// integer values that decide an index, a guard, a loop bound or a lane, which the checker reasons
// about, and this one is an atomic's operand. The port writes `1 << (tid & 31)`, what the sample's
// x86 reference computes; it ORs the same bits as the device: all 32, computeGold's -1.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr auto testKernel = [](auto k, auto g_odata) {
  auto tid = k.global_id();  // blockDim.x * blockIdx.x + threadIdx.x
  return w::seq(w::atomic_add(g_odata[0], 10),                                // Atomic addition
                w::atomic_sub(g_odata[1], 10),                                // Atomic subtraction (final should be 0)
                w::atomic_exchange(g_odata[2], tid),                          // Atomic exchange
                w::atomic_max(g_odata[3], tid),                               // Atomic maximum
                w::atomic_min(g_odata[4], tid),                               // Atomic minimum
                w::atomic_inc(w::as<unsigned>(g_odata[5]), 17u),              // Atomic increment (modulo 17+1)
                w::atomic_dec(w::as<unsigned>(g_odata[6]), 137u),             // Atomic decrement
                w::atomic_compare_exchange(g_odata[7], tid - 1, tid),         // Atomic compare-and-swap
                w::atomic_and(g_odata[8], 2 * tid + 7),                       // Atomic AND
                w::atomic_or(g_odata[9], 1 << (tid & 31)),                    // Atomic OR (1 << tid: see above)
                w::atomic_xor(g_odata[10], tid));                             // Atomic XOR
};

using Blk = w::block<256>;
using Data = w::atomic<int>;

}  // namespace

WARDEN_KERNEL(atomics_k, w::kernel<Blk, Data>(testKernel).named("testKernel", "g_odata"));

TEST_CASE("corpus cuda-samples simpleAtomicIntrinsics testKernel: w::as<unsigned> for atomicInc and atomicDec", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, Data>(testKernel) == code::none);
  CHECK(w::obligations_of(atomics_k).empty());
  const unsigned numThreads = 256, numBlocks = 64;
  const int len = static_cast<int>(numThreads * numBlocks);
  std::vector<int> init(11, 0);
  init[8] = init[10] = 0xff;
  auto data = w::to_device(init);
  CHECK(w::record(atomics_k, w::grid(static_cast<int>(numBlocks)), data).clean());
  const std::vector<int> got = w::to_host(data);
  // computeGold
  int add = 0, sub = 0, max = -(1 << 8), min = 1 << 8, inc = 0, dec = 0, bit_and = 0xff, bit_or = 0, bit_xor = 0xff;
  for (int i = 0; i < len; ++i) {
    add += 10;
    sub -= 10;
    max = std::max(max, i);
    min = std::min(min, i);
    inc = (inc >= 17) ? 0 : inc + 1;
    dec = ((dec == 0) || (dec > 137)) ? 137 : dec - 1;
    bit_and &= 2 * i + 7;
    bit_or |= 1 << (i & 31);
    bit_xor ^= i;
  }
  CHECK(got[0] == add);
  CHECK(got[1] == sub);
  CHECK((got[2] >= 0 && got[2] < len));
  CHECK(got[3] == max);
  CHECK(got[4] == min);
  CHECK(got[5] == inc);
  CHECK(got[6] == dec);
  CHECK((got[7] >= 0 && got[7] < len));
  CHECK(got[8] == bit_and);
  CHECK(got[9] == bit_or);
  CHECK(got[9] == -1);
  CHECK(got[10] == bit_xor);
}
