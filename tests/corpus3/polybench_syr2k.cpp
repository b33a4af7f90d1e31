// PolyBench/GPU 1.0, syr2k (C = alpha A B^T + alpha B A^T + beta C): cavazos-lab/PolyBench-ACC
// (commit c983b47a), CUDA/linear-algebra/kernels/syr2k/syr2k.cu, kernel syr2k_kernel, ported by
// hand. One thread per element of the NI x NI matrix c: j = blockIdx.x * blockDim.x + threadIdx.x,
// i = blockIdx.y * blockDim.y + threadIdx.y, guarded by (i < NI) && (j < NI); c[i * NI + j] *= beta,
// then a loop over k < NJ adding alpha * a[i][k] * b[j][k] + alpha * b[i][k] * a[j][k]. NI and NJ
// are #defines (syr2k.cuh), and the kernel's guard and loop read them, not its parameters ni and
// nj (which it never reads). Launch as syr2kCuda: block(32, 8) (DIM_THREAD_BLOCK_X/Y),
// grid(ceil(NI / 32), ceil(NI / 8)). Here NI = 40, NJ = 24: a 2 x 5 grid, 64 threads across 40
// columns, so the grid overhangs the matrix.
//
// Translation: direct (a, b in<float>, c inout<float>, ni, nj, alpha, beta values).
//
// Verdict: ACCEPTED with no launch obligation (the guard and strides are the constants NI, NJ), and
// RUNS AS WRITTEN: clean and equal to the reference.
// The checker also raises its W051 [uncoalesced] lint (a warning, not a refusal): "load
// in#5[(block_id.x * block_dim.x + thread_id.x) * 24 + i0]: the 32 lanes of a warp touch 32 sectors
// of 32 bytes, where 4 hold their 128 bytes". It is right: b[j * NJ + k] steps NJ floats per lane.
// The file sets WARDEN_LINTS 0 (docs/diagnostics.md, "Silencing") to build warning-free without
// touching the kernel.
#define WARDEN_LINTS 0
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 40, NJ = 24;  // #define NI / NJ (syr2k.cuh), scaled to the cpu backend
constexpr int DIM_THREAD_BLOCK_X = 32, DIM_THREAD_BLOCK_Y = 8;

// __global__ void syr2k_kernel(int ni, int nj, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
constexpr auto syr2k_kernel = [](auto k, auto ni, auto nj, auto alpha, auto beta, auto a, auto b, auto c) {
  (void)ni, (void)nj;
  auto j = k.block_id() * k.block_dim() + k.thread_id();
  auto i = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  return w::when((i < NI) && (j < NI), c[i * NI + j] *= beta, w::for_range(k, 0, NJ, [&](auto, auto kk) {
                   return c[i * NI + j] += alpha * a[i * NJ + kk] * b[j * NJ + kk] + alpha * b[i * NJ + kk] * a[j * NJ + kk];
                 }));
};

using Blk = w::block<DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

#define SYR2K_PARAMS Blk, V, V, F, F, w::in<float>, w::in<float>, w::inout<float>

WARDEN_KERNEL(syr2k_k, w::kernel<SYR2K_PARAMS>(syr2k_kernel).named("syr2k_kernel", "ni", "nj", "alpha", "beta", "a", "b", "c"));

TEST_CASE("polybench syr2k_kernel: accepted, clean on the original's overhanging grid, equal to the reference", "[corpus3][polybench]") {
  STATIC_REQUIRE(code_of<SYR2K_PARAMS>(syr2k_kernel) == code::none);
  const std::string ob = w::obligations_of(syr2k_k);
  CAPTURE(ob);
  CHECK(ob.empty());

  // init_arrays, with alpha and beta scaled down so that the sums stay small
  const float alpha = 32412.f / 1e4f, beta = 2123.f / 1e4f;
  std::vector<float> A(NI * NJ), Bm(NI * NJ), C(NI * NI);
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j) {
      A[at(i * NJ + j)] = static_cast<float>(i * j % 7) / NI;
      Bm[at(i * NJ + j)] = static_cast<float>((i + 2) * j % 5) / NI;
    }
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NI; ++j) C[at(i * NI + j)] = static_cast<float>(i * j % 11) / NI;
  std::vector<float> ref = C;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NI; ++j) {
      ref[at(i * NI + j)] *= beta;
      for (int kk = 0; kk < NJ; ++kk)
        ref[at(i * NI + j)] += alpha * A[at(i * NJ + kk)] * Bm[at(j * NJ + kk)] + alpha * Bm[at(i * NJ + kk)] * A[at(j * NJ + kk)];
    }
  auto dA = w::to_device(A), dB = w::to_device(Bm), dC = w::to_device(C);
  const auto grid = w::grid((NI + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
  CHECK(w::record(syr2k_k, grid, NI, NJ, alpha, beta, dA, dB, dC).clean());
  corpus::check_close(w::to_host(dC), ref, 1e-4);
}
