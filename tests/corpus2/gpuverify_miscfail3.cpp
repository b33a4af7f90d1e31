// GPUVerify test suite: mc-imperial/gpuverify, testsuite/CUDA/misc/fail/miscfail3/kernel.cu, kernel
// inline_test calling the __device__ inline function `inlined` (marked `//xfail:NOT_ALL_VERIFIED`,
// "possible read-write race", run with --blockDim=1024 --gridDim=1; misc/fail/miscfail4 is the
// same body with __requires(offset >= 0) and __requires(offset < 1024), the second variant here,
// as w::given). Ported by hand, the call inlined:
//   int temp = A[threadIdx.x + offset]; A[threadIdx.x] += temp;
// offset is the kernel's int parameter. Launch as the test: one block of 1024 threads; A holds
// 1024 + offset ints (the original has no bound).
//
// RACY, as the suite marks it: for 0 < offset < 1024 thread t loads A[t + offset], which thread
// t + offset updates in the same phase (a global read-write race inside a block). offset = 0 is
// race-free (each thread doubles its own element).
// VERDICT: the pair is left to the launch (global_at_launch; before issue 32's item 1 it was refused
// at compile time, W011, for every offset, the race-free offset = 0 too): A[thread_id.x + offset]
// reads the parameter. The racy launches, offset = 1 and 1023, are REFUSED AT LAUNCH (E106), naming
// two threads and the element; offset = 0 runs clean, equal to the reference, with or without the
// __requires facts. The trusting() copy, recorded, reports the race for offset = 1 and 1023.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void inline_test(int* A, int offset) { inlined(A, offset); }
constexpr auto inline_test = [](auto k, auto A, auto offset) {
  return w::local(k, A[k.thread_id() + offset], [&](auto, auto temp) { return A[k.thread_id()] += temp; });
};
// miscfail4: the same under __requires(offset >= 0); __requires(offset < 1024).
constexpr auto inline_test_requires = [](auto k, auto A, auto offset) {
  return w::given(offset >= 0 && offset < 1024,
                  w::local(k, A[k.thread_id() + offset], [&](auto, auto temp) { return A[k.thread_id()] += temp; }));
};

using Blk = w::block<1024>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(inline_test_trusting_k, w::kernel<Blk, w::inout<int>, V>(w::testing::trusting(inline_test)).named("inline_test", "A", "offset"));
WARDEN_KERNEL(inline_test_k, w::kernel<Blk, w::inout<int>, V>(inline_test).named("inline_test", "A", "offset"));
WARDEN_KERNEL(inline_test_requires_k, w::kernel<Blk, w::inout<int>, V>(inline_test_requires).named("inline_test", "A", "offset"));

TEST_CASE("corpus2 gpuverify misc/fail/miscfail3 (and miscfail4): racy for offset > 0, refused at those launches (E106), the race is real",
          "[corpus2][gpuverify]") {
  // Thread t loads A[t + offset], which thread t + offset updates in the same phase.
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::inout<int>, V>(inline_test));
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::inout<int>, V>(inline_test_requires));
  for (int offset : {1, 1023}) {
    CAPTURE(offset);
    auto da = w::to_device(std::vector<int>(at(1024 + offset), 1));
    const auto r = w::record(inline_test_trusting_k, w::grid(1), da, offset);
    auto refused = [&](const auto& kernel) {
      const std::string e = corpus::e106_of([&] { w::launch(w::on_cpu, kernel, w::grid(1), da, offset); });
      CHECK(w::testing::launch_pair_meets(kernel, e, r));  // the pair E106 names is this run's race
      CAPTURE(e);
      CHECK(e.find("W011 for A[thread_id.x + offset] and A[thread_id.x]: decided with this launch's numbers (offset = " +
                   std::to_string(offset) + "), thread 0 of block 0 and thread " + std::to_string(offset) +
                   " of block 0 both reach element " + std::to_string(offset)) != std::string::npos);
    };
    refused(inline_test_k);
    refused(inline_test_requires_k);
    CHECK_FALSE(r.clean());
    CHECK(r.report().find("read-write race") != std::string::npos);
  }
  std::vector<int> a(1024);
  for (int i = 0; i < 1024; ++i) a[at(i)] = i - 300;
  std::vector<int> ref = a;
  for (int& v : ref) v += v;
  auto da = w::to_device(a);
  CHECK(w::record(inline_test_k, w::grid(1), da, 0).clean());
  CHECK(w::to_host(da) == ref);
  CHECK(w::record(inline_test_requires_k, w::grid(1), da, 0).clean());
}
