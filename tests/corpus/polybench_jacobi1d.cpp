// PolyBench/GPU 1.0, jacobi-1d-imper: cavazos-lab/PolyBench-ACC,
// CUDA/stencils/jacobi-1d-imper/jacobi1D.cu, kernels runJacobiCUDA_kernel1 (three-point average
// into B) and runJacobiCUDA_kernel2 (copy back), ported by hand; n is the kernels' int parameter.
// The original guards with i > 1 (element 1 is never updated, unlike the C reference's
// 1 <= i < n - 1); the port keeps that guard and the reference here follows the kernel. The host
// runs both kernels once per time step. Launch as the original: block(256, 1), ceil(N / 256) blocks.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TSTEPS = 5, N = 300;  // #defines (jacobi1D.cuh), scaled to the cpu backend

// __global__ void runJacobiCUDA_kernel1(int n, DATA_TYPE* A, DATA_TYPE* B)
constexpr auto jacobi_kernel1 = [](auto k, auto n, auto A, auto B) {
  auto i = k.global_id();
  return w::when((i > 1) && (i < (n - 1)), B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]));
};
// __global__ void runJacobiCUDA_kernel2(int n, DATA_TYPE* A, DATA_TYPE* B)
constexpr auto jacobi_kernel2 = [](auto k, auto n, auto A, auto B) {
  auto j = k.global_id();
  return w::when((j > 1) && (j < (n - 1)), A[j] = B[j]);
};

using Blk = w::block<256>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(jacobi1d_k1, w::kernel<Blk, V, w::in<float>, w::out<float>>(jacobi_kernel1).named("runJacobiCUDA_kernel1", "n", "A", "B"));
WARDEN_KERNEL(jacobi1d_k2, w::kernel<Blk, V, w::out<float>, w::in<float>>(jacobi_kernel2).named("runJacobiCUDA_kernel2", "n", "A", "B"));

TEST_CASE("corpus polybench jacobi-1d: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, w::in<float>, w::out<float>>(jacobi_kernel1) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, w::out<float>, w::in<float>>(jacobi_kernel2) == code::none);
  CHECK(w::obligations_of(jacobi1d_k1).empty());
  CHECK(w::obligations_of(jacobi1d_k2).empty());

  std::vector<float> A(N), Bv(N);
  for (int i = 0; i < N; ++i) {
    A[at(i)] = (static_cast<float>(i) + 2) / N;
    Bv[at(i)] = (static_cast<float>(i) + 3) / N;
  }
  // n = N on ceil(N / 256) = 2 blocks (512 threads for 300: the grid overhangs); n = 256 on 1.
  for (auto [n, blocks] : {std::pair{N, 2}, std::pair{256, 1}}) {
    CAPTURE(n, blocks);
    std::vector<float> A_r = A, B_r = Bv;
    auto dA = w::to_device(A), dB = w::to_device(Bv);
    for (int t = 0; t < TSTEPS; ++t) {
      for (int i = 2; i < n - 1; ++i) B_r[at(i)] = 0.33333f * (A_r[at(i - 1)] + A_r[at(i)] + A_r[at(i + 1)]);
      for (int j = 2; j < n - 1; ++j) A_r[at(j)] = B_r[at(j)];
      CHECK(w::record(jacobi1d_k1, w::grid(blocks), n, dA, dB).clean());
      CHECK(w::record(jacobi1d_k2, w::grid(blocks), n, dA, dB).clean());
    }
    corpus::check_close(w::to_host(dA), A_r);
    corpus::check_close(w::to_host(dB), B_r);
  }
}
