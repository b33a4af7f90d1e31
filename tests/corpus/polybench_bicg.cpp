// PolyBench/GPU 1.0, bicg (s = A^T r, q = A p): cavazos-lab/PolyBench-ACC,
// CUDA/linear-algebra/kernels/bicg/bicg.cu, kernels bicg_kernel1 and bicg_kernel2, ported by hand.
// NY is a #define (bicg.cuh), a compile-time stride; nx, ny are the kernels' int parameters.
// Launch as the original: block(256, 1), ceil(n / 256) blocks.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NX = 96;  // #define NX / NY (bicg.cuh), scaled to the cpu backend
constexpr int NY = 80;

// __global__ void bicg_kernel1(int nx, int ny, DATA_TYPE *A, DATA_TYPE *r, DATA_TYPE *s)
constexpr auto bicg_kernel1 = [](auto k, auto nx, auto ny, auto A, auto r, auto s) {
  auto j = k.global_id();
  return w::when(j < ny, s[j] = 0.0f, w::for_range(k, 0, nx, [&](auto, auto i) { return s[j] += r[i] * A[i * NY + j]; }));
};
// __global__ void bicg_kernel2(int nx, int ny, DATA_TYPE *A, DATA_TYPE *p, DATA_TYPE *q)
constexpr auto bicg_kernel2 = [](auto k, auto nx, auto ny, auto A, auto p, auto q) {
  auto i = k.global_id();
  return w::when(i < nx, q[i] = 0.0f, w::for_range(k, 0, ny, [&](auto, auto j) { return q[i] += A[i * NY + j] * p[j]; }));
};

using B = w::block<256>;  // DIM_THREAD_BLOCK_X 256, DIM_THREAD_BLOCK_Y 1

}  // namespace

WARDEN_KERNEL(bicg_k1, w::kernel<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(bicg_kernel1)
                           .named("bicg_kernel1", "nx", "ny", "A", "r", "s"));
WARDEN_KERNEL(bicg_k2, w::kernel<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(bicg_kernel2)
                           .named("bicg_kernel2", "nx", "ny", "A", "p", "q"));

TEST_CASE("corpus polybench bicg: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(bicg_kernel1) == code::none);
  STATIC_REQUIRE(code_of<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(bicg_kernel2) == code::none);
  CHECK(w::obligations_of(bicg_k1).empty());
  CHECK(w::obligations_of(bicg_k2).empty());

  std::vector<float> A(NX * NY), r(NX), p(NY);
  for (int i = 0; i < NX; ++i) {
    r[at(i)] = static_cast<float>(i % 9) * 0.5f;
    for (int j = 0; j < NY; ++j) A[at(i * NY + j)] = static_cast<float>((i + 1) * (j + 1) % 17) / NX;
  }
  for (int j = 0; j < NY; ++j) p[at(j)] = static_cast<float>(j % 7) - 3.f;
  // The full dataset (1 block each, 96 and 80 of 256 threads: the grid overhangs), a smaller one,
  // and two blocks where one would do.
  for (auto [nx, ny, blocks] : {std::tuple{NX, NY, 1}, std::tuple{33, 70, 1}, std::tuple{NX, NY, 2}}) {
    CAPTURE(nx, ny, blocks);
    std::vector<float> s_ref(NY, -1.f), q_ref(NX, -1.f);
    for (int j = 0; j < ny; ++j) {
      s_ref[at(j)] = 0.f;
      for (int i = 0; i < nx; ++i) s_ref[at(j)] += r[at(i)] * A[at(i * NY + j)];
    }
    for (int i = 0; i < nx; ++i) {
      q_ref[at(i)] = 0.f;
      for (int j = 0; j < ny; ++j) q_ref[at(i)] += A[at(i * NY + j)] * p[at(j)];
    }
    auto dA = w::to_device(A);
    auto dr = w::to_device(r);
    auto dp = w::to_device(p);
    auto ds = w::to_device(std::vector<float>(NY, -1.f));
    auto dq = w::to_device(std::vector<float>(NX, -1.f));
    CHECK(w::record(bicg_k1, w::grid(blocks), nx, ny, dA, dr, ds).clean());
    CHECK(w::record(bicg_k2, w::grid(blocks), nx, ny, dA, dp, dq).clean());
    corpus::check_close(w::to_host(ds), s_ref);
    corpus::check_close(w::to_host(dq), q_ref);
  }
}
