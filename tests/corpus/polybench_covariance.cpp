// PolyBench/GPU 1.0, covariance: cavazos-lab/PolyBench-ACC, CUDA/datamining/covariance/covariance.cu,
// kernels mean_kernel, reduce_kernel and covar_kernel, ported by hand. M is a #define
// (covariance.cuh), a compile-time stride, as is FLOAT_N (3214212.01); m, n are the kernels' int
// parameters. Launch shapes as the original: block(256, 1) for mean and covar, block(32, 8) for
// reduce. (The original's reduce grid, (M / 32, N / 32) blocks of 32 x 8, covers only a quarter
// of the rows; the port launches enough blocks to cover the data.)
//
// covar_kernel: thread j1 fills row j1 of the upper triangle (j2 >= j1) and mirrors each entry
// into column j1 below the diagonal (symmat[j2 * M + j1]); it re-reads its own symmat[j1 * M + j2].
// No two threads touch one element: the upper-triangle entries (j1, j2 >= j1) belong to row j1's
// thread, the lower ones (j2 > j1, j1) to column j1's thread, and the diagonal to both stores of
// one thread.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int M = 40, N = 30;            // #defines (covariance.cuh), scaled to the cpu backend
constexpr float FLOAT_N = 3214212.01f;  // #define FLOAT_N 3214212.01, cast to DATA_TYPE

// __global__ void mean_kernel(int m, int n, DATA_TYPE *mean, DATA_TYPE *data)
constexpr auto mean_kernel = [](auto k, auto m, auto n, auto mean, auto data) {
  auto j = k.global_id();
  return w::when(j < m, mean[j] = 0.0f, w::for_range(k, 0, n, [&](auto, auto i) { return mean[j] += data[i * M + j]; }),
                 mean[j] /= FLOAT_N);
};
// __global__ void reduce_kernel(int m, int n, DATA_TYPE *mean, DATA_TYPE *data)
constexpr auto reduce_kernel = [](auto k, auto m, auto n, auto mean, auto data) {
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < n) && (j < m), data[i * M + j] -= mean[j]);
};
// __global__ void covar_kernel(int m, int n, DATA_TYPE *symmat, DATA_TYPE *data)
constexpr auto covar_kernel = [](auto k, auto m, auto n, auto symmat, auto data) {
  auto j1 = k.global_id();
  return w::when(j1 < m, w::for_range(k, j1, m, [&](auto k, auto j2) {
                   return w::seq(symmat[j1 * M + j2] = 0.0f,
                                 w::for_range(k, 0, n, [&](auto, auto i) { return symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2]; }),
                                 symmat[j2 * M + j1] = symmat[j1 * M + j2]);
                 }));
};

using B256 = w::block<256>;
using B32x8 = w::block<32, 8>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(mean_k, w::kernel<B256, V, V, w::inout<float>, w::in<float>>(mean_kernel).named("mean_kernel", "m", "n", "mean", "data"));
WARDEN_KERNEL(reduce_k, w::kernel<B32x8, V, V, w::in<float>, w::inout<float>>(reduce_kernel).named("reduce_kernel", "m", "n", "mean", "data"));
// Accepted with its pairs left to the launch (issue 32, item 1; before, refused W010 symmat[j1 * M +
// j2] against itself, "threads of different blocks may meet"): the triangular loop j2 = j1 .. m - 1
// (a start that is the thread id, an end that is a parameter) gets no bound below M, so rows M
// apart are not proved apart, and the mirrored store symmat[j2 * M + j1] against row j1's entries
// needs the triangles j2 >= j1 / j2 > j1 kept apart. The indices read m through the loop: the
// launch lists every pair with its own m and finds them apart.
WARDEN_KERNEL(covar_k, w::kernel<B256, V, V, w::inout<float>, w::in<float>>(covar_kernel).named("covar_kernel", "m", "n", "symmat", "data"));

TEST_CASE("corpus polybench covariance: all three accepted (covar with its pairs left to the launch), clean and equal to the reference",
          "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B256, V, V, w::inout<float>, w::in<float>>(mean_kernel) == code::none);
  STATIC_REQUIRE(code_of<B32x8, V, V, w::in<float>, w::inout<float>>(reduce_kernel) == code::none);
  STATIC_REQUIRE(w::testing::left_to_launch<B256, V, V, w::inout<float>, w::in<float>>(covar_kernel));
  CHECK(w::obligations_of(covar_k).find("W010 holds for symmat[") == 0);
  CHECK(w::obligations_of(mean_k).empty());
  const std::string ob = w::obligations_of(reduce_k);
  CAPTURE(ob);
  CHECK(ob.find("if m <= 40") != std::string::npos);

  std::vector<float> data(N * M);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) data[at(i * M + j)] = static_cast<float>(i * j) / M + static_cast<float>(j % 3);
  // (m, n): the full sizes (one block of 256 for 40 columns: the grid overhangs), a smaller one.
  for (auto [m, n] : {std::pair{M, N}, std::pair{23, 11}}) {
    CAPTURE(m, n);
    std::vector<float> mean_r(M, -1.f), data_r = data, sym_r(M * M, -1.f);
    for (int j = 0; j < m; ++j) {
      mean_r[at(j)] = 0.f;
      for (int i = 0; i < n; ++i) mean_r[at(j)] += data[at(i * M + j)];
      mean_r[at(j)] /= FLOAT_N;
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) data_r[at(i * M + j)] -= mean_r[at(j)];
    for (int j1 = 0; j1 < m; ++j1)
      for (int j2 = j1; j2 < m; ++j2) {
        sym_r[at(j1 * M + j2)] = 0.f;
        for (int i = 0; i < n; ++i) sym_r[at(j1 * M + j2)] += data_r[at(i * M + j1)] * data_r[at(i * M + j2)];
        sym_r[at(j2 * M + j1)] = sym_r[at(j1 * M + j2)];
      }
    auto dmean = w::to_device(std::vector<float>(M, -1.f));
    auto ddata = w::to_device(data);
    auto dsym = w::to_device(std::vector<float>(M * M, -1.f));
    CHECK(w::record(mean_k, w::grid(1), m, n, dmean, ddata).clean());
    CHECK(w::record(reduce_k, w::grid((M + 31) / 32, (N + 7) / 8), m, n, dmean, ddata).clean());
    CHECK(w::record(covar_k, w::grid(1), m, n, dsym, ddata).clean());
    corpus::check_close(w::to_host(dmean), mean_r);
    corpus::check_close(w::to_host(ddata), data_r);
    corpus::check_close(w::to_host(dsym), sym_r, 1e-4);
  }
  // m = M + 2 (buffers large enough for E101): row j's columns reach into row j + 1, so two
  // threads may update one element. Refused before running (E106), naming m.
  auto big_mean = w::to_device(std::vector<float>(M + 8, 0.f));
  auto big_data = w::to_device(std::vector<float>(N * M + 8, 0.f));
  const std::string refusal =
      corpus::e106_of([&] { w::launch(w::on_cpu, reduce_k, w::grid((M + 33) / 32, (N + 7) / 8), M + 2, N - 1, big_mean, big_data); });
  CAPTURE(refusal);
  CHECK(refusal.find("E106") == 0);
  CHECK(refusal.find("m = 42") != std::string::npos);
}
