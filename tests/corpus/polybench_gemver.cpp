// PolyBench/GPU 1.0, gemver: cavazos-lab/PolyBench-ACC, CUDA/linear-algebra/kernels/gemver/gemver.cu,
// kernels gemver_kernel1 (A += u1 v1^T + u2 v2^T), gemver_kernel2 (x += beta A^T y + z) and
// gemver_kernel3 (w += alpha A x), ported by hand. N is a #define (gemver.cuh), a compile-time
// stride; n, alpha, beta are the kernels' parameters. Launch shapes as the original:
// block(32, 8) for kernel 1, block(256, 1) for kernels 2 and 3.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N = 64;  // #define N (gemver.cuh), scaled to the cpu backend

// __global__ void gemver_kernel1(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *v1,
//                                DATA_TYPE *v2, DATA_TYPE *u1, DATA_TYPE *u2)
constexpr auto gemver_kernel1 = [](auto k, auto n, auto alpha, auto beta, auto a, auto v1, auto v2, auto u1, auto u2) {
  (void)alpha, (void)beta;  // unused, as in the original
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < n) && (j < n), a[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j]);
};
// __global__ void gemver_kernel2(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *x,
//                                DATA_TYPE *y, DATA_TYPE *z)
constexpr auto gemver_kernel2 = [](auto k, auto n, auto alpha, auto beta, auto a, auto x, auto y, auto z) {
  (void)alpha;
  auto i = k.global_id();
  return w::when(i < n, w::for_range(k, 0, n, [&](auto, auto j) { return x[i] += beta * a[j * N + i] * y[j]; }), x[i] += z[i]);
};
// __global__ void gemver_kernel3(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *x, DATA_TYPE *w)
constexpr auto gemver_kernel3 = [](auto k, auto n, auto alpha, auto beta, auto a, auto x, auto wv) {
  (void)beta;
  auto i = k.global_id();
  return w::when((i >= 0) && (i < n), w::for_range(k, 0, n, [&](auto, auto j) { return wv[i] += alpha * a[i * N + j] * x[j]; }));
};

using B1 = w::block<32, 8>;
using B2 = w::block<256>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

WARDEN_KERNEL(gemver_k1, w::kernel<B1, V, F, F, w::inout<float>, w::in<float>, w::in<float>, w::in<float>, w::in<float>>(gemver_kernel1)
                             .named("gemver_kernel1", "n", "alpha", "beta", "a", "v1", "v2", "u1", "u2"));
WARDEN_KERNEL(gemver_k2, w::kernel<B2, V, F, F, w::in<float>, w::inout<float>, w::in<float>, w::in<float>>(gemver_kernel2)
                             .named("gemver_kernel2", "n", "alpha", "beta", "a", "x", "y", "z"));
WARDEN_KERNEL(gemver_k3, w::kernel<B2, V, F, F, w::in<float>, w::in<float>, w::inout<float>>(gemver_kernel3)
                             .named("gemver_kernel3", "n", "alpha", "beta", "a", "x", "w"));

TEST_CASE("corpus polybench gemver: three kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B1, V, F, F, w::inout<float>, w::in<float>, w::in<float>, w::in<float>, w::in<float>>(gemver_kernel1) ==
                 code::none);
  STATIC_REQUIRE(code_of<B2, V, F, F, w::in<float>, w::inout<float>, w::in<float>, w::in<float>>(gemver_kernel2) == code::none);
  STATIC_REQUIRE(code_of<B2, V, F, F, w::in<float>, w::in<float>, w::inout<float>>(gemver_kernel3) == code::none);
  // Rows N apart hold j < n: apart while n <= N.
  const std::string ob = w::obligations_of(gemver_k1);
  CAPTURE(ob);
  CHECK(ob.find("if n <= 64") != std::string::npos);
  CHECK(w::obligations_of(gemver_k2).empty());
  CHECK(w::obligations_of(gemver_k3).empty());

  const float alpha = 43532.f / 1e4f, beta = 12313.f / 1e4f;
  std::vector<float> a(N * N), u1(N), u2(N), v1(N), v2(N), x(N, 0.f), y(N), z(N), wv(N, 0.f);
  for (int i = 0; i < N; ++i) {
    u1[at(i)] = static_cast<float>(i) / N;
    u2[at(i)] = static_cast<float>(i + 1) / N / 2.f;
    v1[at(i)] = static_cast<float>(i + 1) / N / 4.f;
    v2[at(i)] = static_cast<float>(i + 1) / N / 6.f;
    y[at(i)] = static_cast<float>(i + 1) / N / 8.f;
    z[at(i)] = static_cast<float>(i + 1) / N / 9.f;
    for (int j = 0; j < N; ++j) a[at(i * N + j)] = static_cast<float>(i * j % 5) / N;
  }
  // n = N on the original grids (2 x 8 blocks of 32 x 8; one block of 256 threads for 64 rows:
  // that grid overhangs); n = 45 on the same grids (both overhang).
  for (int n : {N, 45}) {
    CAPTURE(n);
    std::vector<float> a_ref = a, x_ref = x, w_ref = wv;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a_ref[at(i * N + j)] += u1[at(i)] * v1[at(j)] + u2[at(i)] * v2[at(j)];
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) x_ref[at(i)] += beta * a_ref[at(j * N + i)] * y[at(j)];
      x_ref[at(i)] += z[at(i)];
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) w_ref[at(i)] += alpha * a_ref[at(i * N + j)] * x_ref[at(j)];
    auto da = w::to_device(a);
    auto du1 = w::to_device(u1), du2 = w::to_device(u2), dv1 = w::to_device(v1), dv2 = w::to_device(v2);
    auto dx = w::to_device(x), dy = w::to_device(y), dz = w::to_device(z), dw = w::to_device(wv);
    CHECK(w::record(gemver_k1, w::grid(N / 32, N / 8), n, alpha, beta, da, dv1, dv2, du1, du2).clean());
    CHECK(w::record(gemver_k2, w::grid(1), n, alpha, beta, da, dx, dy, dz).clean());
    CHECK(w::record(gemver_k3, w::grid(1), n, alpha, beta, da, dx, dw).clean());
    corpus::check_close(w::to_host(da), a_ref);
    corpus::check_close(w::to_host(dx), x_ref);
    corpus::check_close(w::to_host(dw), w_ref, 1e-4);
  }
  // n = N + 1 makes row i's last column row i + 1's first: refused before running.
  auto big = w::to_device(std::vector<float>((N + 2) * N, 0.f));
  auto vec = w::to_device(std::vector<float>(N + 1, 0.f));
  auto vec2 = w::to_device(std::vector<float>(N + 1, 0.f));
  auto vec3 = w::to_device(std::vector<float>(N + 1, 0.f));
  auto vec4 = w::to_device(std::vector<float>(N + 1, 0.f));
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, gemver_k1, w::grid(3, 9), N + 1, alpha, beta, big, vec, vec2, vec3, vec4); })
            .find("E106") == 0);
}
