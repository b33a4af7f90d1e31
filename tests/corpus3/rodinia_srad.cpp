// Rodinia, srad (version 1): yuhc/gpu-rodinia (commit 9c10d3ea), cuda/srad/srad_v1/srad_kernel.cu
// and srad2_kernel.cu, kernels srad and srad2 (host loop in cuda/srad/srad_v1/main.cu; fp is float
// and NUMBER_THREADS 512 in define.c), ported by hand. Speckle-reducing anisotropic diffusion on an
// Nr x Nc image stored column-major (element ei = row + Nr * col), one thread per element,
// ei = bx * NUMBER_THREADS + tx, guarded by ei < d_Ne. srad: the four directional derivatives from
// the neighbours d_I[d_iN[row] + Nr * col], d_I[d_iS[row] + Nr * col], d_I[row + Nr * d_jW[col]],
// d_I[row + Nr * d_jE[col]] (iN, iS, jW, jE are the host's neighbour-index arrays, clamped at the
// border), the diffusion coefficient saturated to [0, 1], all stored at [ei]. srad2: the divergence
// from d_c[ei], d_c[d_iS[row] + Nr * col], d_c[row + Nr * d_jE[col]] and the derivatives at [ei],
// and the update d_I[ei] += 0.25 * lambda * D.
// Translation: row and col, `row = (ei+1) % d_Nr - 1; col = (ei+1) / d_Nr + 1 - 1;` then reassigned
// under `if ((ei+1) % d_Nr == 0) { row = d_Nr - 1; col = col - 1; }`, are the selects of the two
// values (as the other ports write a reassigned int); the float variables (d_Jc, d_dN_loc, ...,
// d_G2, d_L, d_num, d_den, d_qsqr, d_c_loc; d_cN, ..., d_D) are w::locals, assigned as written (d_den
// twice); the literals 0.5, 1.0/16.0, 0.25, 1.0 are doubles as written, so those steps compute in
// double and store into floats; the saturation if / else if is w::when(...).otherwise(w::when(...)).
// d_Ne is a `long` (w::value<long>); d_lambda and d_Nc are parameters srad does not read. The host
// passes d_dW and d_dE to the parameters named d_dE and d_dW (in that order, to both kernels): the
// test binds them as main() does. Launch as main(): threads 512, blocks = Ne / 512 (+1 on a
// remainder); per iteration srad then srad2 (after the host's reduce of the image statistics, here
// computed on the host). 50 x 40 (2000 elements: 4 blocks, the last overhangs), 64 x 32 (2048, whole
// blocks), 37 x 29; two iterations each.
//
// Verdict: both ACCEPTED at compile time with no launch obligation (every store is at [ei]), and
// both RUN AS WRITTEN. Before issue 56 both were refused at launch with E101 on every launch ("load
// d_I[d_iN[select(...)] + (d_Nr * select((ei+1) % d_Nr == 0, (ei+1) / d_Nr + 1 - 1 - 1, ...))] may
// reach index -50, but d_I ... has 2000 elements; d_iN holds 0 to 48"; RESULTS_rodinia.md): the
// intervals bound the select's side (ei + 1) / d_Nr - 1 as if it could be taken at ei = 0, where
// it is -1, but it is taken only where (ei + 1) % d_Nr == 0, i.e. ei + 1 >= d_Nr. The launch now
// decides such an index as an integer set (check/launch/presburger.hpp), the loads of d_iN, d_iS,
// d_jW and d_jE written as values within what it measured of them, the select with its condition:
// no element outside. A neighbour array that points past the image is still refused (below).
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NUMBER_THREADS = 512;

// __global__ void srad(fp d_lambda, int d_Nr, int d_Nc, long d_Ne, int *d_iN, int *d_iS, int *d_jE,
//     int *d_jW, fp *d_dN, fp *d_dS, fp *d_dE, fp *d_dW, fp d_q0sqr, fp *d_c, fp *d_I)
constexpr auto srad = [](auto k, auto /*d_lambda*/, auto d_Nr, auto /*d_Nc*/, auto d_Ne, auto d_iN, auto d_iS, auto d_jE, auto d_jW, auto d_dN,
                         auto d_dS, auto d_dE, auto d_dW, auto d_q0sqr, auto d_c, auto d_I) {
  auto bx = k.block_id();
  auto tx = k.thread_id();
  auto ei = bx * NUMBER_THREADS + tx;
  auto row = w::select((ei + 1) % d_Nr == 0, d_Nr - 1, (ei + 1) % d_Nr - 1);
  auto col = w::select((ei + 1) % d_Nr == 0, (ei + 1) / d_Nr + 1 - 1 - 1, (ei + 1) / d_Nr + 1 - 1);
  return w::when(
      ei < d_Ne, w::local(k, d_I[ei], [&](auto k, auto d_Jc) {
        return w::locals(
            k, d_I[d_iN[row] + d_Nr * col] - d_Jc, d_I[d_iS[row] + d_Nr * col] - d_Jc, d_I[row + d_Nr * d_jW[col]] - d_Jc,
            d_I[row + d_Nr * d_jE[col]] - d_Jc, [&](auto k, auto d_dN_loc, auto d_dS_loc, auto d_dW_loc, auto d_dE_loc) {
              return w::local(k, (d_dN_loc * d_dN_loc + d_dS_loc * d_dS_loc + d_dW_loc * d_dW_loc + d_dE_loc * d_dE_loc) / (d_Jc * d_Jc), [&](auto k, auto d_G2) {
                return w::local(k, (d_dN_loc + d_dS_loc + d_dW_loc + d_dE_loc) / d_Jc, [&](auto k, auto d_L) {
                  return w::locals(k, 0.f, 0.f, 0.f, 0.f, [&](auto, auto d_num, auto d_den, auto d_qsqr, auto d_c_loc) {
                    return w::seq(d_num = (0.5 * d_G2) - ((1.0 / 16.0) * (d_L * d_L)), d_den = 1 + (0.25 * d_L), d_qsqr = d_num / (d_den * d_den),
                                  d_den = (d_qsqr - d_q0sqr) / (d_q0sqr * (1 + d_q0sqr)), d_c_loc = 1.0 / (1.0 + d_den),
                                  w::when(d_c_loc < 0, d_c_loc = 0).otherwise(w::when(d_c_loc > 1, d_c_loc = 1)),
                                  d_dN[ei] = d_dN_loc, d_dS[ei] = d_dS_loc, d_dW[ei] = d_dW_loc, d_dE[ei] = d_dE_loc, d_c[ei] = d_c_loc);
                  });
                });
              });
            });
      }));
};

// __global__ void srad2(fp d_lambda, int d_Nr, int d_Nc, long d_Ne, int *d_iN, int *d_iS, int *d_jE,
//     int *d_jW, fp *d_dN, fp *d_dS, fp *d_dE, fp *d_dW, fp *d_c, fp *d_I)
constexpr auto srad2 = [](auto k, auto d_lambda, auto d_Nr, auto /*d_Nc*/, auto d_Ne, auto /*d_iN*/, auto d_iS, auto d_jE, auto /*d_jW*/, auto d_dN,
                          auto d_dS, auto d_dE, auto d_dW, auto d_c, auto d_I) {
  auto bx = k.block_id();
  auto tx = k.thread_id();
  auto ei = bx * NUMBER_THREADS + tx;
  auto row = w::select((ei + 1) % d_Nr == 0, d_Nr - 1, (ei + 1) % d_Nr - 1);
  auto col = w::select((ei + 1) % d_Nr == 0, (ei + 1) / d_Nr + 1 - 1 - 1, (ei + 1) / d_Nr + 1 - 1);
  return w::when(ei < d_Ne, w::locals(k, d_c[ei], d_c[d_iS[row] + d_Nr * col], d_c[ei], d_c[row + d_Nr * d_jE[col]],
                                      [&](auto k, auto d_cN, auto d_cS, auto d_cW, auto d_cE) {
                                        return w::local(k, d_cN * d_dN[ei] + d_cS * d_dS[ei] + d_cW * d_dW[ei] + d_cE * d_dE[ei],
                                                        [&](auto, auto d_D) { return d_I[ei] = d_I[ei] + 0.25 * d_lambda * d_D; });
                                      }));
};

using Blk = w::block<NUMBER_THREADS>;
using FP = w::value<float>;
using I = w::value<int>;
using L = w::value<long>;
using IDX = w::in<int>;

}  // namespace

#define SRAD_PARAMS Blk, FP, I, I, L, IDX, IDX, IDX, IDX, w::out<float>, w::out<float>, w::out<float>, w::out<float>, FP, w::out<float>, w::in<float>
#define SRAD2_PARAMS Blk, FP, I, I, L, IDX, IDX, IDX, IDX, w::in<float>, w::in<float>, w::in<float>, w::in<float>, w::in<float>, w::inout<float>

WARDEN_KERNEL(srad_k, w::kernel<SRAD_PARAMS>(srad).named("srad", "d_lambda", "d_Nr", "d_Nc", "d_Ne", "d_iN", "d_iS", "d_jE", "d_jW", "d_dN", "d_dS",
                                                          "d_dE", "d_dW", "d_q0sqr", "d_c", "d_I"));
WARDEN_KERNEL(srad2_k, w::kernel<SRAD2_PARAMS>(srad2).named("srad2", "d_lambda", "d_Nr", "d_Nc", "d_Ne", "d_iN", "d_iS", "d_jE", "d_jW", "d_dN",
                                                             "d_dS", "d_dE", "d_dW", "d_c", "d_I"));

TEST_CASE("rodinia srad_v1 srad and srad2: accepted, run as written, clean and equal to the reference, a neighbour past the image refused", "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<SRAD_PARAMS>(srad) == code::none);
  STATIC_REQUIRE(code_of<SRAD2_PARAMS>(srad2) == code::none);
  const std::string ob1 = w::obligations_of(srad_k), ob2 = w::obligations_of(srad2_k);
  CAPTURE(ob1, ob2);
  CHECK(ob1.empty());
  CHECK(ob2.empty());
  // Both run as written on every launch below, clean, and the image equals the reference.

  const float lambda = 0.5f;
  for (auto [Nr, Nc] : {std::array{50, 40}, std::array{64, 32}, std::array{37, 29}}) {
    CAPTURE(Nr, Nc);
    const int Ne = Nr * Nc;
    std::vector<int> iN(at(Nr)), iS(at(Nr)), jW(at(Nc)), jE(at(Nc));
    for (int i = 0; i < Nr; i++) iN[at(i)] = i - 1, iS[at(i)] = i + 1;
    for (int j = 0; j < Nc; j++) jW[at(j)] = j - 1, jE[at(j)] = j + 1;
    iN[0] = 0, iS[at(Nr - 1)] = Nr - 1, jW[0] = 0, jE[at(Nc - 1)] = Nc - 1;
    std::vector<float> image(at(Ne));
    for (int e = 0; e < Ne; ++e) image[at(e)] = std::exp(static_cast<float>(40 + (e * 37) % 97) / 255);  // extract's exp(I / 255)

    std::vector<float> I = image, dN(at(Ne)), dS(at(Ne)), dW(at(Ne)), dE(at(Ne)), c(at(Ne));
    auto d_I = w::to_device(image);
    auto d_iN = w::to_device(iN), d_iS = w::to_device(iS), d_jW = w::to_device(jW), d_jE = w::to_device(jE);
    w::device_buffer<float> d_dN(at(Ne)), d_dS(at(Ne)), d_dW(at(Ne)), d_dE(at(Ne)), d_c(at(Ne));
    int blocks_x = Ne / NUMBER_THREADS;
    if (Ne % NUMBER_THREADS != 0) blocks_x = blocks_x + 1;
    bool clean = true;
    for (int iter = 0; iter < 2; ++iter) {
      float total = 0, total2 = 0;  // the host's reduce of prepare's sums
      for (float v : I) total += v, total2 += v * v;
      const float meanROI = total / static_cast<float>(Ne), meanROI2 = meanROI * meanROI;
      const float varROI = (total2 / static_cast<float>(Ne)) - meanROI2, q0sqr = varROI / meanROI2;
      for (int e = 0; e < Ne; ++e) {  // srad, as the kernel computes it
        const int row = e % Nr, col = e / Nr;
        const float Jc = I[at(e)];
        const float n = I[at(iN[at(row)] + Nr * col)] - Jc, s = I[at(iS[at(row)] + Nr * col)] - Jc, wv = I[at(row + Nr * jW[at(col)])] - Jc,
                    ev = I[at(row + Nr * jE[at(col)])] - Jc;
        const float G2 = (n * n + s * s + wv * wv + ev * ev) / (Jc * Jc), L = (n + s + wv + ev) / Jc;
        const float num = static_cast<float>((0.5 * G2) - ((1.0 / 16.0) * (L * L)));
        float den = static_cast<float>(1 + (0.25 * L));
        const float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        float cl = static_cast<float>(1.0 / (1.0 + den));
        cl = cl < 0 ? 0.f : (cl > 1 ? 1.f : cl);
        dN[at(e)] = n, dS[at(e)] = s, dW[at(e)] = wv, dE[at(e)] = ev, c[at(e)] = cl;
      }
      std::vector<float> nextI = I;
      for (int e = 0; e < Ne; ++e) {  // srad2
        const int row = e % Nr, col = e / Nr;
        const float D = c[at(e)] * dN[at(e)] + c[at(iS[at(row)] + Nr * col)] * dS[at(e)] + c[at(e)] * dW[at(e)] + c[at(row + Nr * jE[at(col)])] * dE[at(e)];
        nextI[at(e)] = static_cast<float>(I[at(e)] + 0.25 * lambda * D);
      }
      I = nextI;
      // srad<<<blocks, threads>>>(lambda, Nr, Nc, Ne, d_iN, d_iS, d_jE, d_jW, d_dN, d_dS, d_dW, d_dE, q0sqr, d_c, d_I)
      const auto grid = w::grid(blocks_x);
      auto r1 = w::record_anyway(srad_k, grid, lambda, Nr, Nc, static_cast<long>(Ne), d_iN, d_iS, d_jE, d_jW, d_dN, d_dS, d_dW, d_dE, q0sqr, d_c, d_I);
      auto r2 = w::record_anyway(srad2_k, grid, lambda, Nr, Nc, static_cast<long>(Ne), d_iN, d_iS, d_jE, d_jW, d_dN, d_dS, d_dW, d_dE, d_c, d_I);
      CHECK(r1.refusal() == "");  // the launch's checks accept both
      CHECK(r2.refusal() == "");
      clean = clean && r1.clean() && r2.clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(d_I), I, 1e-5);

    // The twin that reads outside: iS's last row points one row past the image's last, so the
    // last column's south neighbour is element Ne. Refused before anything runs (E101), naming
    // what the launch measured of iS.
    iS[at(Nr - 1)] = Nr;
    auto bad_iS = w::to_device(iS);
    try {
      w::launch(w::on_cpu, srad_k, w::grid(blocks_x), lambda, Nr, Nc, static_cast<long>(Ne), d_iN, bad_iS, d_jE, d_jW, d_dN, d_dS, d_dW,
                d_dE, 0.5f, d_c, d_I);
      FAIL("a south neighbour past the image ran");
    } catch (const w::bounds_error& e) {
      CHECK(std::string(e.what()).find("E101 [out-of-bounds] srad_k: load d_I[d_iS[") == 0);
      CHECK(std::string(e.what()).find(", but d_I (parameter 14, in) has " + std::to_string(Ne) + " elements") != std::string::npos);
    }
  }
}
