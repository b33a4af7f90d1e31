// NVIDIA developer blog (Parallel Forall), "Faster Parallel Reductions on Kepler":
// NVIDIA-developer-blog/code-samples, posts/parallel_reduction_with_shfl/device_reduce_warp_atomic.h
// and warp_reduce.h (commit 1c96aecd), kernel device_reduce_warp_atomic_kernel with
// warpReduceSum, ported by hand. Each thread sums its grid-stride share of in[0 .. N), the warp
// adds its 32 sums with __shfl_down at offsets 16, 8, 4, 2, 1, and lane 0 of each warp does
// atomicAdd(out, sum). N is the kernel's int parameter. Launch as device_reduce_warp_atomic:
// threads = 256, blocks = min((N + threads - 1) / threads, 2048), out zeroed first
// (cudaMemsetAsync). Language pieces: the for loop i += blockDim.x * gridDim.x is w::grid_stride
// over [0, N); for (offset = warpSize / 2; offset > 0; offset /= 2) is w::for_halving from 16;
// __shfl_down(val, offset) (all 32 lanes, the pre-CUDA 9 form) is w::shuffle_down; atomicAdd(out,
// sum) is an atomic on out[0].
//
// ACCEPTED, no launch obligation: the loads are read-only, the shuffles run in every lane of
// every warp (nothing before them splits a warp: the grid-stride loop ends for all), and the only
// store is the atomic on out[0]. Runs clean and the sum equals the checksum.
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

// __global__ void device_reduce_warp_atomic_kernel(int *in, int *out, int N)
constexpr auto device_reduce_warp_atomic_kernel = [](auto k, auto in, auto out, auto N) {
  return w::local(k, 0, [&](auto k, auto sum) {  // int sum = int(0);
    return w::seq(w::grid_stride(k, N, [&](auto, auto i) { return sum += in[i]; }),
                  w::for_halving(k, warpSize / 2, [&](auto k, auto offset) {  // warpReduceSum
                    return w::shuffle_down(k, sum, offset, [&](auto, auto other) { return sum += other; });
                  }),
                  w::when(k.thread_id() % warpSize == 0, w::atomic_add(out[0], sum)));
  });
};

using Blk = w::block<256>;

}  // namespace

WARDEN_KERNEL(warp_atomic_k, w::kernel<Blk, w::in<int>, w::atomic<int>, w::value<int>>(device_reduce_warp_atomic_kernel)
                                 .named("device_reduce_warp_atomic_kernel", "in", "out", "N"));

TEST_CASE("corpus2 nvblog device_reduce_warp_atomic_kernel: accepted, clean, equal to the sum", "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::in<int>, w::atomic<int>, w::value<int>>(device_reduce_warp_atomic_kernel) == code::none);
  const std::string ob = w::obligations_of(warp_atomic_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  // A partial block, a partial warp in the last block, and more than 2048 blocks' worth (the grid
  // is capped at 2048, so threads loop).
  for (int N : {1000, 70001, 600000}) {
    CAPTURE(N);
    std::vector<int> vals(at(N));
    int checksum = 0;
    unsigned state = 7u;  // main: vals[i] = rand() % 4; a fixed LCG here
    for (auto& v : vals) checksum += v = static_cast<int>((state = state * 1664525u + 1013904223u) >> 24) % 4;
    const int threads = 256;
    const int blocks = std::min((N + threads - 1) / threads, 2048);
    auto in = w::to_device(vals);
    auto out = w::to_device(std::vector<int>(1024, 0));  // cudaMalloc(&out, sizeof(int) * 1024); memset of out[0]
    CHECK(w::record(warp_atomic_k, w::grid(blocks), in, out, N).clean());
    CHECK(w::to_host(out)[0] == checksum);
  }
}
