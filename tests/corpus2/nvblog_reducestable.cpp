// NVIDIA developer blog (Parallel Forall), "Faster Parallel Reductions on Kepler":
// NVIDIA-developer-blog/code-samples, posts/parallel_reduction_with_shfl/device_reduce_stable.h,
// block_reduce.h and warp_reduce.h (commit 1c96aecd), kernel device_reduce_stable_kernel with
// blockReduceSum, ported by hand. Each thread sums its grid-stride share of in[0 .. N); each warp
// reduces its sums with __shfl_down (warpReduceSum), lane 0 puts the warp's sum in shared[wid]
// (static __shared__ int shared[32]), and after a barrier warp 0 loads
// (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0 and reduces again; thread 0 writes
// out[blockIdx.x]. N is the kernel's int parameter. Launch as device_reduce_stable: first
// <<<blocks, 512>>>(in, out, N) with blocks = min((N + 511) / 512, 1024), then
// <<<1, 1024>>>(out, out, blocks): the same kernel at a second block size (two warden kernels,
// the block shape being static), reading and writing one buffer. Language pieces: the grid-stride
// for loop is w::grid_stride over [0, N); warpReduceSum's halving loop is w::for_halving from 16
// around w::shuffle_down; the ?: is w::select.
//
// ACCEPTED at both block sizes, no launch obligation: the warp sums go to distinct shared[wid]
// (lane 0 of each warp), are read a barrier later and only where that warp existed, the shuffles
// run in whole warps (all lanes, or warp 0 under wid == 0), and thread 0 of each block writes
// out[blockIdx.x]. The first launch runs clean and its partial sums are exact. The second launch
// as written, <<<1, 1024>>>(out, out, blocks), is REFUSED AT LAUNCH, E100 [aliasing]: one buffer
// bound to the in and the out parameter. It is race free as written (each thread t reads out[t]
// before the barrier, thread 0 writes out[0] after it), so this is a false positive of the
// aliasing rule; it needed the result in a buffer of its own, after which it runs clean and the
// total equals the checksum.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int warpSize = 32;

// __device__ int warpReduceSum(int val), on a thread-private val.
constexpr auto warpReduceSum = [](auto k, auto val) {
  return w::for_halving(k, warpSize / 2, [&](auto k, auto offset) {
    return w::shuffle_down(k, val, offset, [&](auto, auto other) { return val += other; });
  });
};

// __global__ void device_reduce_stable_kernel(int *in, int *out, int N)
constexpr auto device_reduce_stable_kernel = [](auto k, auto in, auto out, auto N) {
  return w::local(k, 0, [&](auto k, auto sum) {  // int sum = int(0);
    return w::shared<int, 32>(k, [&](auto k, auto shared) {  // blockReduceSum: static __shared__ int shared[32]
      auto lane = k.thread_id() % warpSize;
      auto wid = k.thread_id() / warpSize;
      return w::seq(w::grid_stride(k, N, [&](auto, auto i) { return sum += in[i]; }),
                    warpReduceSum(k, sum),
                    w::when(lane == 0, shared[wid] = sum), w::sync(),
                    sum = w::select(k.thread_id() < k.block_dim() / warpSize, shared[lane], 0),
                    w::when(wid == 0, warpReduceSum(k, sum)),
                    w::when(k.thread_id() == 0, out[k.block_id()] = sum));
    });
  });
};

using Blk512 = w::block<512>;
using Blk1024 = w::block<1024>;
#define STABLE_PARAMS w::in<int>, w::out<int>, w::value<int>

}  // namespace

WARDEN_KERNEL(stable512_k, w::kernel<Blk512, STABLE_PARAMS>(device_reduce_stable_kernel).named("device_reduce_stable_kernel", "in", "out", "N"));
WARDEN_KERNEL(stable1024_k, w::kernel<Blk1024, STABLE_PARAMS>(device_reduce_stable_kernel).named("device_reduce_stable_kernel", "in", "out", "N"));

TEST_CASE("corpus2 nvblog device_reduce_stable_kernel: accepted, the first launch runs, the second (out, out) is refused E100",
          "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk512, STABLE_PARAMS>(device_reduce_stable_kernel) == code::none);
  STATIC_REQUIRE(code_of<Blk1024, STABLE_PARAMS>(device_reduce_stable_kernel) == code::none);
  CHECK(w::obligations_of(stable512_k).empty());
  CHECK(w::obligations_of(stable1024_k).empty());
  for (int N : {1000, 100000, 600001}) {
    CAPTURE(N);
    std::vector<int> vals(at(N));
    int checksum = 0;
    unsigned state = 11u;  // main: vals[i] = rand() % 4; a fixed LCG here
    for (auto& v : vals) checksum += v = static_cast<int>((state = state * 1664525u + 1013904223u) >> 24) % 4;
    const int threads = 512;
    const int blocks = std::min((N + threads - 1) / threads, 1024);
    // Reference partial sums: block b covers i with (i / 512) % blocks == b.
    std::vector<int> partial(1024, 0);
    for (int i = 0; i < N; ++i) partial[at((i / threads) % blocks)] += vals[at(i)];
    auto in = w::to_device(vals);
    auto out = w::to_device(std::vector<int>(1024, 0));  // cudaMalloc(&out, sizeof(int) * 1024)
    CHECK(w::record(stable512_k, w::grid(blocks), in, out, N).clean());
    CHECK(w::to_host(out) == partial);
    // device_reduce_stable_kernel<<<1, 1024>>>(out, out, blocks): in and out are one buffer. Race
    // free on a GPU (each thread t loads only out[t], t < blocks <= 1024, before the barrier;
    // thread 0 stores out[0] after it), but warden refuses a writable parameter sharing its
    // buffer: E100.
    try {
      (void)w::record(stable1024_k, w::grid(1), out, out, blocks);
      FAIL("the aliased launch ran");
    } catch (const w::aliasing_error& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E100"));
    }
    // What it needs: a buffer of its own for the result.
    auto total = w::to_device(std::vector<int>(1024, 0));
    CHECK(w::record(stable1024_k, w::grid(1), out, total, blocks).clean());
    CHECK(w::to_host(total)[0] == checksum);
  }
}
