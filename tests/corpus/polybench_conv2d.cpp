// PolyBench/GPU 1.0, 2DCONV: cavazos-lab/PolyBench-ACC, CUDA/stencils/convolution-2d/2DConvolution.cu,
// kernel convolution2D_kernel (a 3 x 3 convolution with constant weights), ported by hand. NJ is
// a #define (2DConvolution.cuh), a compile-time stride; ni, nj are the kernel's int parameters.
// The weights are locals of the kernel assigned double constants (c11 = +0.2; ...), so floats.
// Launch as the original: block(32, 8), grid(ceil(NI / 32), ceil(NJ / 8)) with j along x (the
// original sizes the grid with NI along x, which covers the data only because NI == NJ).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 48, NJ = 48;  // #defines (2DConvolution.cuh), scaled to the cpu backend

constexpr float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
constexpr float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
constexpr float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;

// __global__ void convolution2D_kernel(int ni, int nj, DATA_TYPE *A, DATA_TYPE *B)
constexpr auto convolution2D_kernel = [](auto k, auto ni, auto nj, auto A, auto B) {
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0),
                 B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)] +
                                 c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)] +
                                 c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)]);
};

using Blk = w::block<32, 8>;
using V = w::value<int>;

float reference_at(const std::vector<float>& A, int i, int j) {
  auto a = [&](int r, int c) { return A[at(r * NJ + c)]; };
  return c11 * a(i - 1, j - 1) + c21 * a(i - 1, j + 0) + c31 * a(i - 1, j + 1) + c12 * a(i + 0, j - 1) + c22 * a(i + 0, j + 0) +
         c32 * a(i + 0, j + 1) + c13 * a(i + 1, j - 1) + c23 * a(i + 1, j + 0) + c33 * a(i + 1, j + 1);
}

}  // namespace

WARDEN_KERNEL(conv2d_k, w::kernel<Blk, V, V, w::in<float>, w::out<float>>(convolution2D_kernel).named("convolution2D_kernel", "ni", "nj", "A", "B"));

TEST_CASE("corpus polybench 2DCONV: accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, w::in<float>, w::out<float>>(convolution2D_kernel) == code::none);
  // 0 < j < nj - 1 in rows NJ apart: apart while nj <= NJ + 2 (exact).
  CHECK(w::obligations_of(conv2d_k) ==
        "W010 holds for B[(global_id.y * 48) + global_id.x] and B[(global_id.y * 48) + global_id.x] if nj <= 50 (or one of them runs in "
        "no thread, or launch lists both with its own values and no two threads meet)\n");
  std::vector<float> A(NI * NJ);
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j) A[at(i * NJ + j)] = static_cast<float>((i * 7 + j * 3) % 19) / 19.f;
  // The original grid (2 x 6 blocks: 64 threads for 48 columns, overhanging); a smaller image.
  for (auto [ni, nj] : {std::pair{NI, NJ}, std::pair{20, 33}}) {
    CAPTURE(ni, nj);
    std::vector<float> ref(NI * NJ, -7.f);
    for (int i = 1; i < ni - 1; ++i)
      for (int j = 1; j < nj - 1; ++j) ref[at(i * NJ + j)] = reference_at(A, i, j);
    auto dA = w::to_device(A);
    auto dB = w::to_device(std::vector<float>(NI * NJ, -7.f));
    CHECK(w::record(conv2d_k, w::grid((NI + 31) / 32, (NJ + 7) / 8), ni, nj, dA, dB).clean());
    corpus::check_close(w::to_host(dB), ref);
  }
  // nj = NJ + 3: row i's column NJ + 1 is row i + 1's column 1. Refused before running.
  auto big = w::to_device(std::vector<float>(NI * NJ + 4, 0.f));
  auto big2 = w::to_device(std::vector<float>(NI * NJ + 4, 0.f));
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, conv2d_k, w::grid(2, 6), NI - 1, NJ + 3, big, big2); }).find("E106") == 0);
}
