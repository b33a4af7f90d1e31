// PolyBench/GPU 1.0, 2mm (D = alpha A B C + beta D, as tmp = alpha A B; D = tmp C + beta D):
// cavazos-lab/PolyBench-ACC, CUDA/linear-algebra/kernels/2mm/2mm.cu, kernels mm2_kernel1 and
// mm2_kernel2, ported by hand. NI..NL are #defines (2mm.cuh), compile-time strides; ni..nl,
// alpha, beta are the kernels' parameters. Launch as the original: block(32, 8),
// grid(ceil(NJ / 32), ceil(NI / 8)) and grid(ceil(NL / 32), ceil(NI / 8)).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 24, NJ = 40, NK = 20, NL = 36;  // #defines (2mm.cuh), scaled to the cpu backend

// __global__ void mm2_kernel1(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
//                             DATA_TYPE *tmp, DATA_TYPE *A, DATA_TYPE *B)
constexpr auto mm2_kernel1 = [](auto k, auto ni, auto nj, auto nk, auto nl, auto alpha, auto beta, auto tmp, auto A, auto B) {
  (void)nl, (void)beta;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < ni) && (j < nj), tmp[i * NJ + j] = 0.f, w::for_range(k, 0, nk, [&](auto, auto kk) {
                   return tmp[i * NJ + j] += alpha * A[i * NK + kk] * B[kk * NJ + j];
                 }));
};
// __global__ void mm2_kernel2(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
//                             DATA_TYPE *tmp, DATA_TYPE *C, DATA_TYPE *D)
constexpr auto mm2_kernel2 = [](auto k, auto ni, auto nj, auto nk, auto nl, auto alpha, auto beta, auto tmp, auto C, auto D) {
  (void)nk, (void)alpha;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < ni) && (j < nl), D[i * NL + j] *= beta, w::for_range(k, 0, nj, [&](auto, auto kk) {
                   return D[i * NL + j] += tmp[i * NJ + kk] * C[kk * NL + j];
                 }));
};

using Blk = w::block<32, 8>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

WARDEN_KERNEL(mm2_k1, w::kernel<Blk, V, V, V, V, F, F, w::inout<float>, w::in<float>, w::in<float>>(mm2_kernel1)
                          .named("mm2_kernel1", "ni", "nj", "nk", "nl", "alpha", "beta", "tmp", "A", "B"));
WARDEN_KERNEL(mm2_k2, w::kernel<Blk, V, V, V, V, F, F, w::in<float>, w::in<float>, w::inout<float>>(mm2_kernel2)
                          .named("mm2_kernel2", "ni", "nj", "nk", "nl", "alpha", "beta", "tmp", "C", "D"));

TEST_CASE("corpus polybench 2mm: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, F, F, w::inout<float>, w::in<float>, w::in<float>>(mm2_kernel1) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, F, F, w::in<float>, w::in<float>, w::inout<float>>(mm2_kernel2) == code::none);
  const std::string ob1 = w::obligations_of(mm2_k1), ob2 = w::obligations_of(mm2_k2);
  CAPTURE(ob1, ob2);
  CHECK(ob1.find("if nj <= 40") != std::string::npos);  // columns j < nj in rows NJ apart
  CHECK(ob2.find("if nl <= 36") != std::string::npos);

  const float alpha = 32412.f / 1e4f, beta = 2123.f / 1e4f;
  std::vector<float> A(NI * NK), Bm(NK * NJ), C(NJ * NL), D(NI * NL);
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NK; ++j) A[at(i * NK + j)] = static_cast<float>(i * j % 7) / NI;
  for (int i = 0; i < NK; ++i)
    for (int j = 0; j < NJ; ++j) Bm[at(i * NJ + j)] = static_cast<float>(i * (j + 1) % 5) / NJ;
  for (int i = 0; i < NJ; ++i)
    for (int j = 0; j < NL; ++j) C[at(i * NL + j)] = static_cast<float>(i * (j + 3) % 11) / NL;
  for (int i = 0; i < NI; ++i)
    for (int j = 0; j < NL; ++j) D[at(i * NL + j)] = static_cast<float>(i * (j + 2) % 13) / NK;
  // The full sizes on the original grids (2 x 3 blocks: 64 threads for 40 and 36 columns, the
  // grid overhangs); smaller sizes on the same grids.
  for (auto [ni, nj, nk, nl] : {std::tuple{NI, NJ, NK, NL}, std::tuple{13, 29, 7, 33}}) {
    CAPTURE(ni, nj, nk, nl);
    std::vector<float> tmp_ref(NI * NJ, -1.f), D_ref = D;
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) {
        tmp_ref[at(i * NJ + j)] = 0.f;
        for (int kk = 0; kk < nk; ++kk) tmp_ref[at(i * NJ + j)] += alpha * A[at(i * NK + kk)] * Bm[at(kk * NJ + j)];
      }
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nl; ++j) {
        D_ref[at(i * NL + j)] *= beta;
        for (int kk = 0; kk < nj; ++kk) D_ref[at(i * NL + j)] += tmp_ref[at(i * NJ + kk)] * C[at(kk * NL + j)];
      }
    auto dA = w::to_device(A), dB = w::to_device(Bm), dC = w::to_device(C), dD = w::to_device(D);
    auto dtmp = w::to_device(std::vector<float>(NI * NJ, -1.f));
    CHECK(w::record(mm2_k1, w::grid((NJ + 31) / 32, (NI + 7) / 8), ni, nj, nk, nl, alpha, beta, dtmp, dA, dB).clean());
    CHECK(w::record(mm2_k2, w::grid((NL + 31) / 32, (NI + 7) / 8), ni, nj, nk, nl, alpha, beta, dtmp, dC, dD).clean());
    corpus::check_close(w::to_host(dtmp), tmp_ref);
    corpus::check_close(w::to_host(dD), D_ref, 1e-4);
  }
  // nj = NJ + 1: row i's column NJ is row i + 1's column 0. Refused before running.
  auto big_tmp = w::to_device(std::vector<float>(NI * NJ + NJ + 1, 0.f));
  auto big_B = w::to_device(std::vector<float>(NK * NJ + 1, 0.f));
  auto dA = w::to_device(A);
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, mm2_k1, w::grid(2, 3), NI, NJ + 1, 1, NL, alpha, beta, big_tmp, dA, big_B); })
            .find("E106") == 0);
}
