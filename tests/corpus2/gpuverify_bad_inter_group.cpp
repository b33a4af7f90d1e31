// GPUVerify test suite: mc-imperial/gpuverify, testsuite/CUDA/warpsync/bad_inter_group/kernel.cu,
// kernel `foo` (marked `//xfail:NOT_ALL_VERIFIED`, "possible read-write race on A", run with
// --blockDim=128 --gridDim=128 --warp-sync=32). Ported by hand:
//   A[blockIdx.x * blockDim.x + threadIdx.x] += A[(blockIdx.x + 1) * blockDim.x + threadIdx.x];
// Launch as the test: 128 threads, 128 blocks (and 4 blocks, a small launch). The original has no
// bound; A must hold (gridDim.x + 1) * blockDim.x elements for the last block's loads (GPUVerify
// does not check bounds), and the buffers here are sized so.
//
// RACY, as the suite marks it: block b loads the slice that block b + 1 updates, and blocks never
// synchronise (a global read-write race between blocks only; within a block every thread touches
// its own elements, so warp-synchronous execution does not help).
// VERDICT: refused at compile time, W011 [read-write-race]. The trusting() copy of the same body,
// recorded on the test's launch, reports the race (not clean).
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

// __global__ void foo(int* A)
constexpr auto foo = [](auto k, auto A) {
  return A[k.block_id() * k.block_dim() + k.thread_id()] += A[(k.block_id() + 1) * k.block_dim() + k.thread_id()];
};

using Blk = w::block<128>;

}  // namespace

WARDEN_KERNEL(foo_trusting_k, w::kernel<Blk, w::inout<int>>(w::testing::trusting(foo)).named("foo", "A"));

TEST_CASE("corpus2 gpuverify warpsync/bad_inter_group: racy between blocks, refused W011, the race is real", "[corpus2][gpuverify]") {
  // Block b loads A[(b + 1) * 128 + t], which block b + 1 updates; blocks never synchronise.
  STATIC_REQUIRE(code_of<Blk, w::inout<int>>(foo) == code::W011);
  for (int blocks : {128, 4}) {
    CAPTURE(blocks);
    std::vector<int> a(static_cast<std::size_t>(128 * (blocks + 1)), 1);
    auto da = w::to_device(a);
    const auto r = w::record(foo_trusting_k, w::grid(blocks), da);
    CHECK_FALSE(r.clean());
    const std::string report = r.report();
    CAPTURE(report);
    CHECK(report.find("read-write") != std::string::npos);
    CHECK(w::testing::named_pair_meets<Blk, w::inout<int>>(foo, r));  // the pair W011 names is this race
  }
}
