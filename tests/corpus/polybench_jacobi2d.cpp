// PolyBench/GPU 1.0, jacobi-2d-imper: cavazos-lab/PolyBench-ACC,
// CUDA/stencils/jacobi-2d-imper/jacobi2D.cu, kernels runJacobiCUDA_kernel1 (five-point average
// into B) and runJacobiCUDA_kernel2 (copy back into A), ported by hand. N is a #define
// (jacobi2D.cuh), a compile-time stride; n is the kernels' int parameter. The host runs both
// kernels once per time step. Launch as the original: block(32, 8), grid(ceil(N / 32), ceil(N / 8)).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TSTEPS = 4, N = 40;  // #defines (jacobi2D.cuh), scaled to the cpu backend

// __global__ void runJacobiCUDA_kernel1(int n, DATA_TYPE* A, DATA_TYPE* B)
constexpr auto jacobi_kernel1 = [](auto k, auto n, auto A, auto B) {
  auto i = k.global_id_y();
  auto j = k.global_id();
  return w::when((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)),
                 B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] + A[(i - 1) * N + j]));
};
// __global__ void runJacobiCUDA_kernel2(int n, DATA_TYPE* A, DATA_TYPE* B)
constexpr auto jacobi_kernel2 = [](auto k, auto n, auto A, auto B) {
  auto i = k.global_id_y();
  auto j = k.global_id();
  return w::when((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)), A[i * N + j] = B[i * N + j]);
};

using Blk = w::block<32, 8>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(jacobi2d_k1, w::kernel<Blk, V, w::in<float>, w::out<float>>(jacobi_kernel1).named("runJacobiCUDA_kernel1", "n", "A", "B"));
WARDEN_KERNEL(jacobi2d_k2, w::kernel<Blk, V, w::out<float>, w::in<float>>(jacobi_kernel2).named("runJacobiCUDA_kernel2", "n", "A", "B"));

TEST_CASE("corpus polybench jacobi-2d: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, w::in<float>, w::out<float>>(jacobi_kernel1) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, w::out<float>, w::in<float>>(jacobi_kernel2) == code::none);
  const std::string ob1 = w::obligations_of(jacobi2d_k1), ob2 = w::obligations_of(jacobi2d_k2);
  CAPTURE(ob1, ob2);
  // 1 <= j < n - 1 in rows N apart: the n - 2 columns fit in a row while n <= N + 2 (exact).
  CHECK(ob1 == "W010 holds for B[(global_id.y * 40) + global_id.x] and B[(global_id.y * 40) + global_id.x] if n <= 42 (or one of them "
               "runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  CHECK(ob2.find("if n <= 42") != std::string::npos);

  std::vector<float> A(N * N), Bv(N * N);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      A[at(i * N + j)] = (static_cast<float>(i) * (j + 2) + 10) / N;
      Bv[at(i * N + j)] = (static_cast<float>(i - 4) * (j - 1) + 11) / N;
    }
  // n = N on the original grid (2 x 5 blocks: 64 threads for 40 columns, overhanging); n = 23.
  for (int n : {N, 23}) {
    CAPTURE(n);
    std::vector<float> A_r = A, B_r = Bv;
    auto dA = w::to_device(A), dB = w::to_device(Bv);
    for (int t = 0; t < TSTEPS; ++t) {
      for (int i = 1; i < n - 1; ++i)
        for (int j = 1; j < n - 1; ++j)
          B_r[at(i * N + j)] = 0.2f * (A_r[at(i * N + j)] + A_r[at(i * N + (j - 1))] + A_r[at(i * N + (1 + j))] + A_r[at((1 + i) * N + j)] +
                                       A_r[at((i - 1) * N + j)]);
      for (int i = 1; i < n - 1; ++i)
        for (int j = 1; j < n - 1; ++j) A_r[at(i * N + j)] = B_r[at(i * N + j)];
      CHECK(w::record(jacobi2d_k1, w::grid((N + 31) / 32, (N + 7) / 8), n, dA, dB).clean());
      CHECK(w::record(jacobi2d_k2, w::grid((N + 31) / 32, (N + 7) / 8), n, dA, dB).clean());
    }
    corpus::check_close(w::to_host(dA), A_r);
    corpus::check_close(w::to_host(dB), B_r);
  }
  // n = N + 3: row i's column N + 1 is row i + 1's column 1. Refused before running.
  auto big = w::to_device(std::vector<float>((N + 2) * N + 2, 0.f));
  auto big2 = w::to_device(std::vector<float>((N + 2) * N + 2, 0.f));
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, jacobi2d_k2, w::grid(2, 6), N + 3, big, big2); }).find("E106") == 0);
}
