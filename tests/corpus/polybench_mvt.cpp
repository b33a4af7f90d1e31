// PolyBench/GPU 1.0, mvt (x1 += A y1, x2 += A^T y2): cavazos-lab/PolyBench-ACC,
// CUDA/linear-algebra/kernels/mvt/mvt.cu, kernels mvt_kernel1 and mvt_kernel2, ported by hand.
// N is a #define (mvt.cuh), a compile-time stride; n is the kernels' int parameter.
//
// Like atax, the original launches block(32, 8) (DIM_THREAD_BLOCK_X/Y in mvt.cuh) for kernels that
// index by threadIdx.x alone: eight threads per row run x1[i] += ... unsynchronised, a real race,
// refused here (W011: each thread loads and stores x1[i]). The port launches block<32>.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N = 72;  // #define N (mvt.cuh), scaled to the cpu backend

// __global__ void mvt_kernel1(int n, DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1)
constexpr auto mvt_kernel1 = [](auto k, auto n, auto a, auto x1, auto y_1) {
  auto i = k.global_id();
  return w::when(i < n, w::for_range(k, 0, n, [&](auto, auto j) { return x1[i] += a[i * N + j] * y_1[j]; }));
};
// __global__ void mvt_kernel2(int n, DATA_TYPE *a, DATA_TYPE *x2, DATA_TYPE *y_2)
constexpr auto mvt_kernel2 = [](auto k, auto n, auto a, auto x2, auto y_2) {
  auto i = k.global_id();
  return w::when(i < n, w::for_range(k, 0, n, [&](auto, auto j) { return x2[i] += a[j * N + i] * y_2[j]; }));
};

using B = w::block<32>;
using B8 = w::block<32, 8>;  // the original's dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y)

}  // namespace

WARDEN_KERNEL(mvt_k1, w::kernel<B, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel1)
                          .named("mvt_kernel1", "n", "a", "x1", "y_1"));
WARDEN_KERNEL(mvt_k2, w::kernel<B, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel2)
                          .named("mvt_kernel2", "n", "a", "x2", "y_2"));

TEST_CASE("corpus polybench mvt: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel1) == code::none);
  STATIC_REQUIRE(code_of<B, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel2) == code::none);
  CHECK(w::obligations_of(mvt_k1).empty());
  CHECK(w::obligations_of(mvt_k2).empty());
  // The original's block(32, 8): eight threads per row update one element.
  STATIC_REQUIRE(code_of<B8, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel1) == code::W011);
  STATIC_REQUIRE(code_of<B8, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(mvt_kernel2) == code::W011);

  std::vector<float> a(N * N), y1(N), y2(N), x1(N), x2(N);
  for (int i = 0; i < N; ++i) {
    x1[at(i)] = static_cast<float>(i) / N;
    x2[at(i)] = static_cast<float>(i + 1) / N;
    y1[at(i)] = static_cast<float>(i + 3) / N;
    y2[at(i)] = static_cast<float>(i + 4) / N;
    for (int j = 0; j < N; ++j) a[at(i * N + j)] = static_cast<float>(i * j % 11) / N;
  }
  // n = N on ceil(N / 32) = 3 blocks (96 threads for 72 rows: the grid overhangs); n = 64 exactly.
  for (auto [n, blocks] : {std::pair{N, 3}, std::pair{64, 2}, std::pair{5, 1}}) {
    CAPTURE(n, blocks);
    std::vector<float> x1_ref = x1, x2_ref = x2;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) x1_ref[at(i)] += a[at(i * N + j)] * y1[at(j)];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) x2_ref[at(i)] += a[at(j * N + i)] * y2[at(j)];
    auto da = w::to_device(a);
    auto dx1 = w::to_device(x1);
    auto dx2 = w::to_device(x2);
    auto dy1 = w::to_device(y1);
    auto dy2 = w::to_device(y2);
    CHECK(w::record(mvt_k1, w::grid(blocks), n, da, dx1, dy1).clean());
    CHECK(w::record(mvt_k2, w::grid(blocks), n, da, dx2, dy2).clean());
    corpus::check_close(w::to_host(dx1), x1_ref);
    corpus::check_close(w::to_host(dx2), x2_ref);
  }
}
