// GPUVerify test suite: mc-imperial/gpuverify, testsuite/CUDA/cooperative_groups/fail/race/kernel.cu,
// kernel `race` (marked `//xfail:NOT_ALL_VERIFIED`, run with --blockDim=32 --gridDim=2). Ported by
// hand. Each thread copies its right neighbour down one place:
//   int idx = blockDim.x * bid + tid; int temp = A[idx + 1]; A[idx] = temp;
// Launch as the test: 32 threads, 2 blocks. The original has no bound; A must hold
// blockDim.x * gridDim.x + 1 elements for the last thread's load (GPUVerify does not check bounds),
// so the buffers here have 65 (and 129 for the four-block launch).
//
// RACY, as the suite marks it: thread idx loads A[idx + 1], which thread idx + 1 stores, with no
// barrier between (a global read-write race inside a block, e.g. threads 0 and 1 of block 0, and
// across blocks: thread 31 of block 0 loads A[32], which thread 0 of block 1 stores).
// VERDICT: refused at compile time, W011 [read-write-race]. The trusting() copy of the same body,
// recorded on the test's launch, reports the race (not clean).
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

// __global__ void race(int* A)
constexpr auto race = [](auto k, auto A) {
  auto tid = k.thread_id();
  auto bid = k.block_id();
  auto idx = k.block_dim() * bid + tid;
  return w::local(k, A[idx + 1], [&](auto, auto temp) { return A[idx] = temp; });  // int temp = A[idx + 1];
};

using Blk = w::block<32>;

}  // namespace

WARDEN_KERNEL(race_trusting_k, w::kernel<Blk, w::inout<int>>(w::testing::trusting(race)).named("race", "A"));

TEST_CASE("corpus2 gpuverify cooperative_groups/fail/race: racy, refused W011, the race is real", "[corpus2][gpuverify]") {
  // Thread idx loads A[idx + 1], which thread idx + 1 stores in the same phase.
  STATIC_REQUIRE(code_of<Blk, w::inout<int>>(race) == code::W011);
  for (int blocks : {2, 4}) {
    CAPTURE(blocks);
    std::vector<int> a(static_cast<std::size_t>(32 * blocks + 1));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i);
    auto da = w::to_device(a);
    const auto r = w::record(race_trusting_k, w::grid(blocks), da);
    CHECK_FALSE(r.clean());
    CHECK(r.report().find("read-write") != std::string::npos);
    CHECK(w::testing::named_pair_meets<Blk, w::inout<int>>(race, r));  // the pair W011 names is this race
  }
}
