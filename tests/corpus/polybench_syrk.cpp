// PolyBench/GPU 1.0, syrk (C = alpha A A^T + beta C): cavazos-lab/PolyBench-ACC,
// CUDA/linear-algebra/kernels/syrk/syrk.cu, kernel syrk_kernel, ported by hand.
// NI, NJ are #defines (syrk.cuh), compile-time strides; ni, nj, alpha, beta are the kernel's
// parameters. Launch as the original: block(32, 8), grid(ceil(NI / 32), ceil(NI / 8)).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 40;  // #define NI / NJ (syrk.cuh), scaled to the cpu backend
constexpr int NJ = 24;

// __global__ void syrk_kernel(int ni, int nj, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *c)
constexpr auto syrk_kernel = [](auto k, auto ni, auto nj, auto alpha, auto beta, auto a, auto c) {
  auto j = k.global_id();    // blockIdx.x * blockDim.x + threadIdx.x
  auto i = k.global_id_y();  // blockIdx.y * blockDim.y + threadIdx.y
  return w::when((i < ni) && (j < ni), c[i * NI + j] *= beta,
                 w::for_range(k, 0, nj, [&](auto, auto kk) { return c[i * NI + j] += alpha * a[i * NJ + kk] * a[j * NJ + kk]; }));
};

using B = w::block<32, 8>;

}  // namespace

WARDEN_KERNEL(syrk_k, w::kernel<B, w::value<int>, w::value<int>, w::value<float>, w::value<float>, w::in<float>, w::inout<float>>(syrk_kernel)
                          .named("syrk_kernel", "ni", "nj", "alpha", "beta", "a", "c"));

TEST_CASE("corpus polybench syrk: accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B, w::value<int>, w::value<int>, w::value<float>, w::value<float>, w::in<float>, w::inout<float>>(syrk_kernel) ==
                 code::none);
  // Rows NI apart hold columns j < ni: they stay apart while ni <= NI (the original's _PB_NI <= NI).
  CHECK(w::obligations_of(syrk_k) ==
        "W011 holds for c[(global_id.y * 40) + global_id.x] and c[(global_id.y * 40) + global_id.x] if ni <= 40 (or one of them "
        "runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  const float alpha = 32412.f / 1e4f, beta = 2123.f / 1e4f;
  std::vector<float> a(NI * NJ), c(NI * NI);
  for (int i = 0; i < NI; ++i) {
    for (int j = 0; j < NJ; ++j) a[at(i * NJ + j)] = static_cast<float>(i * j % 10) / NI;
    for (int j = 0; j < NI; ++j) c[at(i * NI + j)] = static_cast<float>((i * j + 2) % 9) / NI;
  }
  // The original grid for NI = 40: 2 x 5 blocks (64 x 40 threads, overhanging along x); a smaller ni.
  for (auto [ni, nj] : {std::pair{NI, NJ}, std::pair{29, 11}}) {
    CAPTURE(ni, nj);
    std::vector<float> ref = c;
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < ni; ++j) {
        ref[at(i * NI + j)] *= beta;
        for (int kk = 0; kk < nj; ++kk) ref[at(i * NI + j)] += alpha * a[at(i * NJ + kk)] * a[at(j * NJ + kk)];
      }
    auto da = w::to_device(a);
    auto dc = w::to_device(c);
    CHECK(w::record(syrk_k, w::grid((NI + 31) / 32, (NI + 7) / 8), ni, nj, alpha, beta, da, dc).clean());
    corpus::check_close(w::to_host(dc), ref);
  }
  // ni = NI + 1: thread (i, NI) and thread (i + 1, 0) update one element. Refused before running
  // (buffers large enough that E101 does not fire first).
  auto big_a = w::to_device(std::vector<float>((NI + 1) * NJ, 1.f));
  auto big_c = w::to_device(std::vector<float>((NI + 2) * NI, 1.f));
  const std::string m = corpus::e106_of([&] { w::launch(w::on_cpu, syrk_k, w::grid(2, 6), NI + 1, NJ, alpha, beta, big_a, big_c); });
  CAPTURE(m);
  CHECK(m.find("E106") == 0);
  CHECK(m.find("this launch has ni = 41") != std::string::npos);
}
