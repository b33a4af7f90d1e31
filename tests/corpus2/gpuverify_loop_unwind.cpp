// GPUVerify test suite: mc-imperial/gpuverify, testsuite/CUDA/loop_unwind/kernel.cu, kernel
// `helloCUDA` (marked `//xfail:NOT_ALL_VERIFIED`, "possible write-write race on B", run with
// --blockDim=512 --gridDim=64 --loop-unwind=2). Ported by hand:
//   __shared__ float B[256];
//   for (int i = 0; i < 10; i++) B[i] = A[i];
// Launch as the test: 64 blocks of 512 threads (and one block of 512). A holds 10 floats.
//
// RACY, as the suite marks it: every thread of a block stores B[0] .. B[9] of the block's shared
// array, with no barrier and no guard on the thread (a shared-memory write-write race, no barrier;
// the values stored agree, but the stores race all the same).
// VERDICT: refused at compile time, W020 [shared-race]. The test's own launch (64 blocks) is
// refused even for the trusting() copy, at launch, E102 [grid-shape]: the kernel never names a block
// index, so launch refuses a grid of more than one block in x. The trusting() copy recorded on one
// block of 512 reports the race (not clean).
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

// __global__ void helloCUDA(float* A)
constexpr auto helloCUDA = [](auto k, auto A) {
  return w::shared<float, 256>(k, [&](auto k, auto B) {  // __shared__ float B[256];
    return w::for_range(k, 0, 10, [&](auto, auto i) { return B[i] = A[i]; });
  });
};

using Blk = w::block<512>;

}  // namespace

WARDEN_KERNEL(hello_trusting_k, w::kernel<Blk, w::in<float>>(w::testing::trusting(helloCUDA)).named("helloCUDA", "A"));

TEST_CASE("corpus2 gpuverify loop_unwind: racy on shared memory, refused W020, the race is real", "[corpus2][gpuverify]") {
  // All 512 threads of a block store B[i] in one phase.
  STATIC_REQUIRE(code_of<Blk, w::in<float>>(helloCUDA) == code::W020);
  auto da = w::to_device(std::vector<float>{0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f});
  try {
    (void)w::record(hello_trusting_k, w::grid(64), da);  // --gridDim=64
    FAIL("a 64-block grid launched");
  } catch (const w::grid_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E102"));
  }
  const auto r = w::record(hello_trusting_k, w::grid(1), da);
  CHECK_FALSE(r.clean());
  CHECK(r.report().find("write-write race") != std::string::npos);
  CHECK(w::testing::named_pair_meets<Blk, w::in<float>>(helloCUDA, r));  // the pair W020 names is this race
}
