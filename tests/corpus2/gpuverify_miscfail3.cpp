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
// VERDICT: refused at compile time, W011 [read-write-race], with or without the __requires facts
// ("load A[thread_id.x + offset] vs store A[thread_id.x]: threads of one block may meet in one
// phase"); as for value_causing_race, no launch obligation (offset == 0) is formed, so the
// race-free launch offset = 0 is refused too. The trusting() copy, recorded, reports the race for
// offset = 1 and 1023, and runs clean, equal to the reference, for offset = 0.
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

TEST_CASE("corpus2 gpuverify misc/fail/miscfail3 (and miscfail4): racy for offset > 0, refused W011, the race is real",
          "[corpus2][gpuverify]") {
  // Thread t loads A[t + offset], which thread t + offset updates in the same phase.
  STATIC_REQUIRE(code_of<Blk, w::inout<int>, V>(inline_test) == code::W011);
  STATIC_REQUIRE(code_of<Blk, w::inout<int>, V>(inline_test_requires) == code::W011);
  for (int offset : {1, 1023}) {
    CAPTURE(offset);
    auto da = w::to_device(std::vector<int>(at(1024 + offset), 1));
    const auto r = w::record(inline_test_trusting_k, w::grid(1), da, offset);
    CHECK_FALSE(r.clean());
    CHECK(r.report().find("read-write race") != std::string::npos);
  }
  std::vector<int> a(1024);
  for (int i = 0; i < 1024; ++i) a[at(i)] = i - 300;
  std::vector<int> ref = a;
  for (int& v : ref) v += v;
  auto da = w::to_device(a);
  CHECK(w::record(inline_test_trusting_k, w::grid(1), da, 0).clean());
  CHECK(w::to_host(da) == ref);
}
