// PolyBench/GPU 1.0, gesummv (y = alpha A x + beta B x): cavazos-lab/PolyBench-ACC,
// CUDA/linear-algebra/kernels/gesummv/gesummv.cu, kernel gesummv_kernel, ported by hand.
// N is a #define (gesummv.cuh), a compile-time stride; n, alpha, beta are the kernel's parameters.
// tmp and y accumulate from what the host put there (the original zeroes them with cudaMemcpy of
// zeroed host arrays). Launch as the original: block(256, 1), ceil(N / 256) blocks.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N = 100;  // #define N (gesummv.cuh), scaled to the cpu backend

// __global__ void gesummv_kernel(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE* A, DATA_TYPE* B,
//                                DATA_TYPE* tmp, DATA_TYPE* x, DATA_TYPE* y)
constexpr auto gesummv_kernel = [](auto k, auto n, auto alpha, auto beta, auto A, auto B, auto tmp, auto x, auto y) {
  auto i = k.global_id();
  return w::when(i < n, w::for_range(k, 0, n, [&](auto, auto j) {
                   return w::seq(tmp[i] += A[i * N + j] * x[j], y[i] += B[i * N + j] * x[j]);
                 }),
                 y[i] = alpha * tmp[i] + beta * y[i]);
};

using Blk = w::block<256>;

}  // namespace

WARDEN_KERNEL(gesummv_k, w::kernel<Blk, w::value<int>, w::value<float>, w::value<float>, w::in<float>, w::in<float>, w::inout<float>,
                                   w::in<float>, w::inout<float>>(gesummv_kernel)
                             .named("gesummv_kernel", "n", "alpha", "beta", "A", "B", "tmp", "x", "y"));

TEST_CASE("corpus polybench gesummv: accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, w::value<int>, w::value<float>, w::value<float>, w::in<float>, w::in<float>, w::inout<float>, w::in<float>,
                         w::inout<float>>(gesummv_kernel) == code::none);
  CHECK(w::obligations_of(gesummv_k).empty());
  const float alpha = 43532.f / 1e4f, beta = 12313.f / 1e4f;
  std::vector<float> A(N * N), Bm(N * N), x(N);
  for (int i = 0; i < N; ++i) {
    x[at(i)] = static_cast<float>(i) / N;
    for (int j = 0; j < N; ++j) {
      A[at(i * N + j)] = static_cast<float>(i * j % 13) / N;
      Bm[at(i * N + j)] = static_cast<float>((i + j) % 7) / N;
    }
  }
  // n = N on one block of 256 (the grid overhangs), a smaller n on two blocks.
  for (auto [n, blocks] : {std::pair{N, 1}, std::pair{37, 2}}) {
    CAPTURE(n, blocks);
    std::vector<float> tmp_ref(N, 0.f), y_ref(N, 0.f);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        tmp_ref[at(i)] += A[at(i * N + j)] * x[at(j)];
        y_ref[at(i)] += Bm[at(i * N + j)] * x[at(j)];
      }
      y_ref[at(i)] = alpha * tmp_ref[at(i)] + beta * y_ref[at(i)];
    }
    auto dA = w::to_device(A);
    auto dB = w::to_device(Bm);
    auto dx = w::to_device(x);
    auto dtmp = w::to_device(std::vector<float>(N, 0.f));
    auto dy = w::to_device(std::vector<float>(N, 0.f));
    CHECK(w::record(gesummv_k, w::grid(blocks), n, alpha, beta, dA, dB, dtmp, dx, dy).clean());
    corpus::check_close(w::to_host(dtmp), tmp_ref);
    corpus::check_close(w::to_host(dy), y_ref);
  }
}
