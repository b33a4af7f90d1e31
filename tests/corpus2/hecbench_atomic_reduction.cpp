// HeCBench, atomicReduction: zjin-lcf/HeCBench, src/atomicReduction-cuda/kernels.h, kernels
// atomic_reduction (a grid-stride loop summing into a register, then one atomicAdd per thread into
// out[0]) and atomic_reduction_v2 (two elements a trip, in[i] and in[i + 1], from i = 2 * idx with
// a stride of twice the grid), ported by hand; host code in src/atomicReduction-cuda/reduction.cu.
// arrayLength is the kernels' int parameter; the block size is chosen on the host from
// {128, 256, 512, 1024} (a warden block shape is static: ported for 256 here), and the grids are
// blocks = min(ceil(arrayLength / block_size), 2048) for atomic_reduction and blocks / 2 for v2;
// the host zeroes out[0] before each launch. The grid-stride loop is written as the original writes
// it, `for (i = idx; i < arrayLength; i += blockDim.x * gridDim.x)`: a for_range from the thread's
// global id with the run-time step k.block_dim() * k.grid_dim().
//
// Verdict: both ACCEPTED at compile time with no launch obligation. atomic_reduction runs clean
// and equals the reference on the original's launches (one where the grid is capped at 2048
// blocks, so threads loop). atomic_reduction_v2 RUNS AS WRITTEN on even lengths (the benchmark's
// 52428800): it has no guard on in[i + 1], and is correct because i is always even (it starts at
// 2 * idx and steps by an even stride) and arrayLength is even, so i < arrayLength gives
// i + 1 <= arrayLength - 1. Launch's bounds follow that: a loop whose start and step are
// multiples of g takes multiples of g only, so its last value is arrayLength - 1 rounded down to
// one. An odd length really overruns (in[arrayLength] on the last pair), and is refused (E101).
// (Before issue 32's item 3 the parity was not tracked, and every length was refused.) The
// variant with the loop bound arrayLength - 1 runs too.
#include "../corpus/corpus.hpp"

#include <algorithm>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int block_size = 256;

// __global__ void atomic_reduction(int *in, int* out, int arrayLength)
constexpr auto atomic_reduction = [](auto k, auto in, auto out, auto arrayLength) {
  return w::local(k, 0, [&](auto k, auto sum) {  // int sum = 0
    auto idx = k.block_id() * k.block_dim() + k.thread_id();
    return w::seq(w::for_range(k, idx, arrayLength, k.block_dim() * k.grid_dim(), [&](auto, auto i) { return sum += in[i]; }),
                  w::atomic_add(out[0], sum));
  });
};
// __global__ void atomic_reduction_v2(int *in, int* out, int arrayLength)
constexpr auto atomic_reduction_v2 = [](auto k, auto in, auto out, auto arrayLength) {
  return w::local(k, 0, [&](auto k, auto sum) {
    auto idx = k.block_id() * k.block_dim() + k.thread_id();
    return w::seq(w::for_range(k, idx * 2, arrayLength, k.block_dim() * k.grid_dim() * 2, [&](auto, auto i) { return sum += in[i] + in[i + 1]; }),
                  w::atomic_add(out[0], sum));
  });
};

// Variant, not the original: the loop bound arrayLength - 1 (the same trips for an even length).
constexpr auto atomic_reduction_v2_bound = [](auto k, auto in, auto out, auto arrayLength) {
  return w::local(k, 0, [&](auto k, auto sum) {
    auto idx = k.block_id() * k.block_dim() + k.thread_id();
    return w::seq(w::for_range(k, idx * 2, arrayLength - 1, k.block_dim() * k.grid_dim() * 2, [&](auto, auto i) { return sum += in[i] + in[i + 1]; }),
                  w::atomic_add(out[0], sum));
  });
};

using Blk = w::block<block_size>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(atomic_reduction_k, w::kernel<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction).named("atomic_reduction", "in", "out", "arrayLength"));
WARDEN_KERNEL(atomic_reduction_v2_k,
              w::kernel<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction_v2).named("atomic_reduction_v2", "in", "out", "arrayLength"));
WARDEN_KERNEL(atomic_reduction_v2_bound_k, w::kernel<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction_v2_bound)
                                               .named("atomic_reduction_v2", "in", "out", "arrayLength"));

TEST_CASE("hecbench atomic_reduction and atomic_reduction_v2 accepted, clean, equal to the reference - v2 refused on an odd length (E101)",
          "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction_v2) == code::none);
  CHECK(w::obligations_of(atomic_reduction_k).empty());
  STATIC_REQUIRE(code_of<Blk, w::in<int>, w::atomic<int>, V>(atomic_reduction_v2_bound) == code::none);
  CHECK(w::obligations_of(atomic_reduction_v2_k).empty());

  // 1000 (one partial block), 20000, and 2048 * 256 + 1000 (the grid capped at 2048 blocks).
  for (int arrayLength : {1000, 20000, 2048 * block_size + 1000}) {
    CAPTURE(arrayLength);
    std::vector<int> array(at(arrayLength));
    int checksum = 0;
    for (int i = 0; i < arrayLength; ++i) checksum += array[at(i)] = (i * 7919) % 5;
    const int blocks = std::min((arrayLength + block_size - 1) / block_size, 2048);
    auto din = w::to_device(array);
    w::device_buffer<int> out = w::to_device(std::vector<int>{0});
    CHECK(w::record(atomic_reduction_k, w::grid(blocks), din, out, arrayLength).clean());
    CHECK(w::to_host(out)[0] == checksum);
    // v2 as written: i is even, so in[i + 1] stays below these even lengths.
    out = w::to_device(std::vector<int>{0});
    CHECK(w::record(atomic_reduction_v2_k, w::grid(blocks / 2), din, out, arrayLength).clean());
    CHECK(w::to_host(out)[0] == checksum);
    // An odd length: the last pair's in[i + 1] is in[arrayLength], refused before the kernel runs.
    {
      auto odd = w::to_device(std::vector<int>(at(arrayLength - 1), 1));
      out = w::to_device(std::vector<int>{0});
      try {
        (void)w::record(atomic_reduction_v2_k, w::grid(blocks / 2), odd, out, arrayLength - 1);
        FAIL("atomic_reduction_v2 launched on an odd length");
      } catch (const w::bounds_error& e) {
        CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] atomic_reduction_v2_k: load in[i1 + 1] reaches index " +
                                                         std::to_string(arrayLength - 1)));
      }
    }
    // Its plain C++ run on the same launch reads only in [0, arrayLength).
    const int threads = blocks / 2 * block_size;
    int plain = 0;
    bool in_bounds = true;
    for (int idx = 0; idx < threads; ++idx)
      for (int i = idx * 2; i < arrayLength; i += threads * 2) {
        in_bounds = in_bounds && i + 1 < arrayLength;
        plain += array[at(i)] + array[at(i + 1)];
      }
    CHECK(in_bounds);
    CHECK(plain == checksum);
    // The variant with the loop bound arrayLength - 1 runs clean.
    out = w::to_device(std::vector<int>{0});
    CHECK(w::record(atomic_reduction_v2_bound_k, w::grid(blocks / 2), din, out, arrayLength).clean());
    CHECK(w::to_host(out)[0] == checksum);
  }
}
