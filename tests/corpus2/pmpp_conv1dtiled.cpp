// "Programming Massively Parallel Processors", 3rd edition, chapter 7, the tiled 1-D convolution
// with halo cells (left halo from the previous tile, right halo from the next, ghost cells 0), as
// published in ddoddii/Multicore-GPU-Programming, convolution/1d_kernel_tiled.cu (commit 4376d974),
// kernel convolution_1D_tiled_kernel, ported by hand. Mask_Width and Width are the kernel's int
// parameters; MAX_MASK_WIDTH 10 and MASK_WIDTH 5 are the file's #defines; M is a
// __constant__ float M[MAX_MASK_WIDTH] (an in<float> table of 10 here, as the guide advises for
// __constant__ arrays). The file has no host code and leaves TILE_SIZE to be defined: the kernel
// is written for blockDim.x == TILE_SIZE (one thread per output element of a tile, as in the
// book), and P[i] and N[blockIdx.x * blockDim.x + threadIdx.x] have no guard, so Width is whole
// tiles. Ported with TILE_SIZE = blockDim.x = 256 and grid = Width / TILE_SIZE, Mask_Width =
// MASK_WIDTH = 5 (and 3, 9).
//
// Now (issue 32, items 1 and 4): ACCEPTED, its tiles left to the launch (n reads Mask_Width), which
// lists the footprints with Mask_Width written in: the original runs as written, clean, on 2
// widths x 3 mask widths. Before (commit 2179101):
// REFUSED at compile time, W020 [shared-race], a false positive: the three tile stores (left
// halo N_ds[t - (blockDim.x - n)] for t >= blockDim.x - n, centre N_ds[n + t], right halo
// N_ds[n + blockDim.x + t] for t < n) are distinct elements, but with n = Mask_Width / 2 computed
// in the kernel the checker lets n differ between the two threads it compares and finds a
// "meeting" of threads 0 and 1 at element -1. (Mask_Width >> 1 is refused the same way; with n a
// constant, MASK_WIDTH / 2, the kernel is accepted.) Run without the race rules, the original is
// clean on 2 widths x 3 mask widths and matches the reference.
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int MAX_MASK_WIDTH = 10;
constexpr int MASK_WIDTH = 5;
constexpr int TILE_SIZE = 256;

// __global__ void convolution_1D_tiled_kernel(float *N, float *P, int Mask_Width, int Width)
constexpr auto convolution_1D_tiled_kernel = [](auto k, auto N, auto P, auto Mask_Width, auto Width, auto M) {
  return w::shared<float, TILE_SIZE + MAX_MASK_WIDTH - 1>(k, [&](auto k, auto N_ds) {
    auto t = k.thread_id();
    auto i = k.block_id() * k.block_dim() + t;
    auto n = Mask_Width / 2;
    auto halo_index_left = (k.block_id() - 1) * k.block_dim() + t;
    auto halo_index_right = (k.block_id() + 1) * k.block_dim() + t;
    return w::seq(w::when(t >= k.block_dim() - n, N_ds[t - (k.block_dim() - n)] = w::select(halo_index_left < 0, 0.f, N[halo_index_left])),
                  N_ds[n + t] = N[k.block_id() * k.block_dim() + t],
                  w::when(t < n, N_ds[n + k.block_dim() + t] = w::select(halo_index_right >= Width, 0.f, N[halo_index_right])),
                  w::sync(),
                  w::local(k, 0.f, [&](auto k, auto Pvalue) {
                    return w::seq(w::for_range(k, 0, Mask_Width, [&](auto, auto j) { return Pvalue += N_ds[t + j] * M[j]; }),
                                  P[i] = Pvalue);
                  }));
  });
};

// Not the original: n taken from the file's #define (MASK_WIDTH / 2, a constant) instead of the
// run-time Mask_Width / 2, to locate the cause of the refusal. Launched only with Mask_Width = 5.
constexpr auto conv_const = [](auto k, auto N, auto P, auto Mask_Width, auto Width, auto M) {
  return w::shared<float, TILE_SIZE + MAX_MASK_WIDTH - 1>(k, [&](auto k, auto N_ds) {
    auto t = k.thread_id();
    auto i = k.block_id() * k.block_dim() + t;
    auto n = MASK_WIDTH / 2;
    auto halo_index_left = (k.block_id() - 1) * k.block_dim() + t;
    auto halo_index_right = (k.block_id() + 1) * k.block_dim() + t;
    return w::seq(w::when(t >= k.block_dim() - n, N_ds[t - (k.block_dim() - n)] = w::select(halo_index_left < 0, 0.f, N[halo_index_left])),
                  N_ds[n + t] = N[k.block_id() * k.block_dim() + t],
                  w::when(t < n, N_ds[n + k.block_dim() + t] = w::select(halo_index_right >= Width, 0.f, N[halo_index_right])),
                  w::sync(),
                  w::local(k, 0.f, [&](auto k, auto Pvalue) {
                    return w::seq(w::for_range(k, 0, Mask_Width, [&](auto, auto j) { return Pvalue += N_ds[t + j] * M[j]; }),
                                  P[i] = Pvalue);
                  }));
  });
};

using Blk = w::block<TILE_SIZE>;
using V = w::value<int>;
#define CONV_PARAMS Blk, w::in<float>, w::out<float>, V, V, w::in<float>

}  // namespace

// The original as written.
WARDEN_KERNEL(conv_unchecked, w::kernel<CONV_PARAMS>(convolution_1D_tiled_kernel)
                                  .named("convolution_1D_tiled_kernel", "N", "P", "Mask_Width", "Width", "M"));
WARDEN_KERNEL(conv_const_k, w::kernel<CONV_PARAMS>(conv_const).named("convolution_1D_tiled_kernel", "N", "P", "Mask_Width", "Width", "M"));

namespace {

std::vector<float> reference(const std::vector<float>& N, const std::vector<float>& M, int Mask_Width) {
  const int Width = static_cast<int>(N.size()), n = Mask_Width / 2;
  std::vector<float> P(N.size());
  for (int i = 0; i < Width; ++i) {
    float sum = 0.f;
    for (int j = 0; j < Mask_Width; ++j) {
      const int x = i - n + j;
      sum += (x < 0 || x >= Width ? 0.f : N[at(x)]) * M[at(j)];
    }
    P[at(i)] = sum;
  }
  return P;
}

}  // namespace

TEST_CASE("corpus2 pmpp convolution_1D_tiled_kernel: race free, accepted with its tiles left to the launch (n = Mask_Width / 2 at run time)", "[corpus2][pmpp]") {
  // The left-halo stores N_ds[t - (blockDim.x - n)] of two threads t != u are distinct for any n;
  // at compile time n is unknown (before: W020, threads 0 and 1 "meeting" at element -1), so the
  // launch decides, with Mask_Width written in.
  STATIC_REQUIRE(code_of<CONV_PARAMS>(convolution_1D_tiled_kernel) == code::none);
  // With n a constant (MASK_WIDTH / 2) the same kernel is accepted: the run-time division is the cause.
  STATIC_REQUIRE(code_of<CONV_PARAMS>(conv_const) == code::none);

  std::vector<float> M(MAX_MASK_WIDTH, 0.f);  // __constant__ float M[MAX_MASK_WIDTH]
  for (int j = 0; j < MAX_MASK_WIDTH; ++j) M[at(j)] = 0.5f - 0.125f * static_cast<float>(j);
  auto d_M = w::to_device(M);
  for (int Width : {TILE_SIZE * 4, TILE_SIZE * 7})
    for (int Mask_Width : {MASK_WIDTH, 3, 9}) {
      CAPTURE(Width, Mask_Width);
      std::vector<float> N(at(Width));
      for (int i = 0; i < Width; ++i) N[at(i)] = static_cast<float>(i % 23) * 0.25f - 2.f;
      auto d_N = w::to_device(N);
      w::device_buffer<float> d_P(at(Width));
      CHECK(w::record(conv_unchecked, w::grid(Width / TILE_SIZE), d_N, d_P, Mask_Width, Width, d_M).clean());
      corpus::check_close(w::to_host(d_P), reference(N, M, Mask_Width));
      if (Mask_Width == MASK_WIDTH) {
        w::device_buffer<float> d_P2(at(Width));
        CHECK(w::record(conv_const_k, w::grid(Width / TILE_SIZE), d_N, d_P2, Mask_Width, Width, d_M).clean());
        corpus::check_close(w::to_host(d_P2), reference(N, M, Mask_Width));
      }
    }
}
