// PolyBench/GPU 1.0, 3DCONV: cavazos-lab/PolyBench-ACC, CUDA/stencils/convolution-3d/3DConvolution.cu,
// kernel convolution3D_kernel, ported by hand. NJ, NK are #defines (3DConvolution.cuh),
// compile-time strides; ni, nj, nk and the plane i are the kernel's int parameters (the host
// launches it once per plane, i = 1 .. NI - 2). The weights are locals assigned integer constants
// (c11 = +2; ...). The original's stencil repeats some taps (A[i-1][j-1][k-1] three times); the
// port keeps its terms exactly. Launch as the original: block(32, 8),
// grid(ceil(NK / 32), ceil(NJ / 8)).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 10, NJ = 20, NK = 40;  // #defines (3DConvolution.cuh), scaled to the cpu backend

constexpr float c11 = +2, c21 = +5, c31 = -8;
constexpr float c12 = -3, c22 = +6, c32 = -9;
constexpr float c13 = +4, c23 = +7, c33 = +10;

// __global__ void convolution3D_kernel(int ni, int nj, int nk, DATA_TYPE* A, DATA_TYPE* B, int i)
constexpr auto convolution3D_kernel = [](auto kc, auto ni, auto nj, auto nk, auto A, auto B, auto i) {
  auto k = kc.global_id();
  auto j = kc.global_id_y();
  auto a = [&](auto di, auto dj, auto dk) { return A[(i + di) * (NK * NJ) + (j + dj) * NK + (k + dk)]; };
  return w::when((i < (ni - 1)) && (j < (nj - 1)) && (k < (nk - 1)) && (i > 0) && (j > 0) && (k > 0),
                 B[i * (NK * NJ) + j * NK + k] = c11 * a(-1, -1, -1) + c13 * a(+1, -1, -1) + c21 * a(-1, -1, -1) + c23 * a(+1, -1, -1) +
                                                 c31 * a(-1, -1, -1) + c33 * a(+1, -1, -1) + c12 * a(0, -1, 0) + c22 * a(0, 0, 0) +
                                                 c32 * a(0, +1, 0) + c11 * a(-1, -1, +1) + c13 * a(+1, -1, +1) + c21 * a(-1, 0, +1) +
                                                 c23 * a(+1, 0, +1) + c31 * a(-1, +1, +1) + c33 * a(+1, +1, +1));
};

using Blk = w::block<32, 8>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(conv3d_k, w::kernel<Blk, V, V, V, w::in<float>, w::out<float>, V>(convolution3D_kernel)
                            .named("convolution3D_kernel", "ni", "nj", "nk", "A", "B", "i"));

TEST_CASE("corpus polybench 3DCONV: accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, V, w::in<float>, w::out<float>, V>(convolution3D_kernel) == code::none);
  const std::string ob = w::obligations_of(conv3d_k);
  CAPTURE(ob);
  CHECK(ob.find("if nk <= 42") != std::string::npos);  // 0 < k < nk - 1 in rows NK apart

  std::vector<float> A(NI * NJ * NK);
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NJ; ++j)
      for (int k = 0; k < NK; ++k) A[at(i * NJ * NK + j * NK + k)] = static_cast<float>((i * 3 + j * 5 + k) % 12) / 12.f;
  auto ref_at = [&](int i, int j, int k) {
    auto a = [&](int di, int dj, int dk) { return A[at((i + di) * (NK * NJ) + (j + dj) * NK + (k + dk))]; };
    return c11 * a(-1, -1, -1) + c13 * a(+1, -1, -1) + c21 * a(-1, -1, -1) + c23 * a(+1, -1, -1) + c31 * a(-1, -1, -1) +
           c33 * a(+1, -1, -1) + c12 * a(0, -1, 0) + c22 * a(0, 0, 0) + c32 * a(0, +1, 0) + c11 * a(-1, -1, +1) + c13 * a(+1, -1, +1) +
           c21 * a(-1, 0, +1) + c23 * a(+1, 0, +1) + c31 * a(-1, +1, +1) + c33 * a(+1, +1, +1);
  };
  // The original grid (2 x 3 blocks: 64 x 24 threads for 40 x 20, overhanging both ways) and a
  // smaller volume, one launch per plane as the host loop does.
  for (auto [ni, nj, nk] : {std::tuple{NI, NJ, NK}, std::tuple{6, 9, 31}}) {
    CAPTURE(ni, nj, nk);
    std::vector<float> ref(A.size(), 0.f);
    for (int i = 1; i < ni - 1; ++i)
      for (int j = 1; j < nj - 1; ++j)
        for (int k = 1; k < nk - 1; ++k) ref[at(i * NJ * NK + j * NK + k)] = ref_at(i, j, k);
    auto dA = w::to_device(A);
    auto dB = w::to_device(std::vector<float>(A.size(), 0.f));
    for (int i = 1; i < NI - 1; ++i) CHECK(w::record(conv3d_k, w::grid((NK + 31) / 32, (NJ + 7) / 8), ni, nj, nk, dA, dB, i).clean());
    corpus::check_close(w::to_host(dB), ref);
  }
  // nk = NK + 3 = 43 (with buffers large enough to pass E101): k reaches into the next row of NK
  // columns, so two threads may store one element. Refused before running (E106), naming nk.
  auto big = w::to_device(std::vector<float>(A.size() + 64, 0.f));
  auto big2 = w::to_device(std::vector<float>(A.size() + 64, 0.f));
  const std::string refusal = corpus::e106_of([&] { w::launch(w::on_cpu, conv3d_k, w::grid((NK + 35) / 32, (NJ + 7) / 8), NI, NJ, NK + 3, big, big2, 1); });
  CAPTURE(refusal);
  CHECK(refusal.find("E106") == 0);
  CHECK(refusal.find("nk = 43") != std::string::npos);
}
