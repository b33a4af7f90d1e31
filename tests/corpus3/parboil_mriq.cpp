// Parboil, mri-q (the Q matrix of a non-Cartesian MRI reconstruction): jovan-djukic/parboil
// (commit 5d2d7c0f, a mirror of Parboil 2.5), benchmarks/mri-q/src/cuda/computeQ.cu, kernels
// ComputePhiMag_GPU and ComputeQ_GPU (with their host functions computePhiMag_GPU and
// computeQ_GPU in the same file), ported by hand.
//
// ComputePhiMag_GPU: one thread per k-space sample, indexK = blockIdx.x *
// KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x, guarded by indexK < numK, phiMag[indexK] = real^2
// + imag^2. Launch: block(512), grid(ceil(numK / 512)).
//
// ComputeQ_GPU: one thread per voxel, xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK +
// threadIdx.x, with no guard: it loads x, y, z, Qr, Qi at xIndex, adds PhiMag * cos(2 pi K . X)
// to Qr and PhiMag * sin(...) to Qi for the k-space samples of the __constant__ kValues
// ck[KERNEL_Q_K_ELEMS_PER_GRID] (1024), and stores Qr, Qi back. The samples are taken one first if
// numK is odd (ck[0], then kIndex++ and kGlobalIndex++), then two at a time, ck[kIndex] and
// ck[kIndex + 1], in `for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex
// += 2, kGlobalIndex += 2)`. numK and kGlobalIndex (the tile's first sample) are int parameters.
// Launch as computeQ_GPU: block(256), grid(ceil(numX / 256)), once per tile of 1024 samples
// (QGrids = ceil(numK / 1024)), after cudaMemcpyToSymbol(ck, kVals + QGridBase, numElems) (the
// elements past numElems keep the previous tile's values); Qr and Qi start at zero (main.cu's
// cudaMemset) and accumulate over the tiles. Here numX = 512 (2 blocks), numK = 1100 (tiles of 1024
// and 76 samples) and 700 (one tile).
//
// Translation: ck is an in<kValues> parameter of 1024 elements (the guide: __constant__ arrays are
// in<T> parameters), one buffer that the test updates before each launch as cudaMemcpyToSymbol
// does; `ck[i].Kx` is w::field. sX .. sQi are w::locals. The loop's two counters start at
// numK % 2 and kGlobalIndex + numK % 2 and step together, so the port counts its trips t: kIndex
// = numK % 2 + 2 t, kGlobalIndex = kGlobalIndex + numK % 2 + 2 t, a w::for_until over t < 512
// (KERNEL_Q_K_ELEMS_PER_GRID / 2, the most trips kIndex < 1024 allows) that stops when the
// original's condition fails. cos and sin of a float (cosf, sinf) are w::cos, w::sin. (Tried in a
// scratch copy: the literal form, kIndex and kGlobalIndex as mutable w::locals stepped by += 2 in a
// w::for_until(k, 0, 512, ...) whose stop reads them, is accepted at compile time but refused at
// launch on every launch, E101 "load ck[kIndex]: the index cannot be bounded (it depends on loaded
// data, a thread-private variable or a function)"; it also draws g++ -Wdeprecated-copy warnings
// where a local's handle is passed by value to a helper lambda such as Kx(kIndex).)
//
// Verdict: both kernels ACCEPTED with no launch obligation. ComputePhiMag_GPU RUNS AS WRITTEN.
// ComputeQ_GPU RUNS AS WRITTEN on the benchmark's shapes (numX a multiple of 256; numK even, or
// odd within one tile): clean, Qr and Qi equal to the reference, over one or two tiles. Refused at
// launch, E101, where the original really overruns: an odd numK over one tile (1101: the first
// tile's pairs start at kIndex 1 and reach ck[1023 + 1], past the 1024-element constant array,
// "load ck[((numK % 2) + (2 * i6)) + 1] reaches index 1024, but ck (parameter 7, in) has 1024
// elements"), and numX not a multiple of 256 (the unguarded x[xIndex] of the last block).
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr float PIx2 = 6.2831853071795864769252867665590058f;
constexpr int KERNEL_PHI_MAG_THREADS_PER_BLOCK = 512;
constexpr int KERNEL_Q_THREADS_PER_BLOCK = 256;
constexpr int KERNEL_Q_K_ELEMS_PER_GRID = 1024;

struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

// __global__ void ComputePhiMag_GPU(float *phiR, float *phiI, float *phiMag, int numK)
constexpr auto ComputePhiMag_GPU = [](auto k, auto phiR, auto phiI, auto phiMag, auto numK) {
  auto indexK = k.block_id() * KERNEL_PHI_MAG_THREADS_PER_BLOCK + k.thread_id();
  return w::when(indexK < numK, w::locals(k, phiR[indexK], phiI[indexK], [&](auto, auto real, auto imag) {
                   return phiMag[indexK] = real * real + imag * imag;
                 }));
};

// __global__ void ComputeQ_GPU(int numK, int kGlobalIndex, float *x, float *y, float *z, float *Qr, float *Qi),
// with __constant__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID]
constexpr auto ComputeQ_GPU = [](auto k, auto numK, auto kGlobalIndex, auto x, auto y, auto z, auto Qr, auto Qi, auto ck) {
  auto xIndex = k.block_id() * KERNEL_Q_THREADS_PER_BLOCK + k.thread_id();
  auto Kx = [&](auto i) { return w::field<&kValues::Kx>(ck[i]); };
  auto Ky = [&](auto i) { return w::field<&kValues::Ky>(ck[i]); };
  auto Kz = [&](auto i) { return w::field<&kValues::Kz>(ck[i]); };
  auto PhiMag = [&](auto i) { return w::field<&kValues::PhiMag>(ck[i]); };
  return w::locals(k, x[xIndex], y[xIndex], z[xIndex], Qr[xIndex], Qi[xIndex], [&](auto k, auto sX, auto sY, auto sZ, auto sQr, auto sQi) {
    return w::seq(
        w::when(numK % 2 != 0, w::local(k, PIx2 * (Kx(0) * sX + Ky(0) * sY + Kz(0) * sZ), [&](auto, auto expArg) {
                  return w::seq(sQr += PhiMag(0) * w::cos(expArg), sQi += PhiMag(0) * w::sin(expArg));
                })),
        w::for_until(
            k, 0, KERNEL_Q_K_ELEMS_PER_GRID / 2,
            [&](auto, auto t) { return !((numK % 2 + 2 * t < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex + numK % 2 + 2 * t < numK)); },
            [&](auto k, auto t) {
              auto kIndex = numK % 2 + 2 * t;
              auto kIndex1 = kIndex + 1;
              return w::locals(k, PIx2 * (Kx(kIndex) * sX + Ky(kIndex) * sY + Kz(kIndex) * sZ),
                               PIx2 * (Kx(kIndex1) * sX + Ky(kIndex1) * sY + Kz(kIndex1) * sZ), [&](auto, auto expArg, auto expArg1) {
                                 return w::seq(sQr += PhiMag(kIndex) * w::cos(expArg), sQi += PhiMag(kIndex) * w::sin(expArg),
                                               sQr += PhiMag(kIndex1) * w::cos(expArg1), sQi += PhiMag(kIndex1) * w::sin(expArg1));
                               });
            }),
        Qr[xIndex] = sQr, Qi[xIndex] = sQi);
  });
};

using V = w::value<int>;

}  // namespace

#define PHIMAG_PARAMS w::block<KERNEL_PHI_MAG_THREADS_PER_BLOCK>, w::in<float>, w::in<float>, w::out<float>, V
#define Q_PARAMS w::block<KERNEL_Q_THREADS_PER_BLOCK>, V, V, w::in<float>, w::in<float>, w::in<float>, w::inout<float>, w::inout<float>, w::in<kValues>

WARDEN_KERNEL(phimag_k, w::kernel<PHIMAG_PARAMS>(ComputePhiMag_GPU).named("ComputePhiMag_GPU", "phiR", "phiI", "phiMag", "numK"));
WARDEN_KERNEL(q_k, w::kernel<Q_PARAMS>(ComputeQ_GPU).named("ComputeQ_GPU", "numK", "kGlobalIndex", "x", "y", "z", "Qr", "Qi", "ck"));

namespace {

struct mriq_data {
  std::vector<float> phiR, phiI, kx, ky, kz, x, y, z;
};

mriq_data make_data(int numK, int numX) {
  mriq_data d{std::vector<float>(at(numK)), std::vector<float>(at(numK)), std::vector<float>(at(numK)), std::vector<float>(at(numK)),
              std::vector<float>(at(numK)), std::vector<float>(at(numX)), std::vector<float>(at(numX)), std::vector<float>(at(numX))};
  for (int i = 0; i < numK; ++i) {
    d.phiR[at(i)] = static_cast<float>(i % 17) / 17.f - 0.5f;
    d.phiI[at(i)] = static_cast<float>(i % 11) / 11.f - 0.25f;
    d.kx[at(i)] = static_cast<float>(i % 23) / 23.f - 0.5f;
    d.ky[at(i)] = static_cast<float>(i % 29) / 29.f - 0.5f;
    d.kz[at(i)] = static_cast<float>(i % 31) / 31.f - 0.5f;
  }
  for (int i = 0; i < numX; ++i) {
    d.x[at(i)] = static_cast<float>(i % 8) / 8.f;
    d.y[at(i)] = static_cast<float>(i / 8 % 8) / 8.f;
    d.z[at(i)] = static_cast<float>(i / 64) / 8.f;
  }
  return d;
}

}  // namespace

TEST_CASE("parboil mri-q ComputePhiMag_GPU and ComputeQ_GPU: accepted, clean and equal to the reference for whole blocks, an odd numK over "
          "one tile refused E101 (a true overrun of ck)",
          "[corpus3][parboil]") {
  STATIC_REQUIRE(code_of<PHIMAG_PARAMS>(ComputePhiMag_GPU) == code::none);
  STATIC_REQUIRE(code_of<Q_PARAMS>(ComputeQ_GPU) == code::none);
  CHECK(w::obligations_of(phimag_k).empty());
  CHECK(w::obligations_of(q_k).empty());

  const int numX = 512;
  for (int numK : {1100, 700, 701}) {
    CAPTURE(numK);
    const mriq_data d = make_data(numK, numX);
    auto d_phiR = w::to_device(d.phiR), d_phiI = w::to_device(d.phiI);
    w::device_buffer<float> d_phiMag(at(numK));
    const int phiMagBlocks = (numK + KERNEL_PHI_MAG_THREADS_PER_BLOCK - 1) / KERNEL_PHI_MAG_THREADS_PER_BLOCK;
    CHECK(w::record(phimag_k, w::grid(phiMagBlocks), d_phiR, d_phiI, d_phiMag, numK).clean());
    const std::vector<float> phiMag = w::to_host(d_phiMag);
    std::vector<float> phiMag_ref(at(numK));
    for (int i = 0; i < numK; ++i) phiMag_ref[at(i)] = d.phiR[at(i)] * d.phiR[at(i)] + d.phiI[at(i)] * d.phiI[at(i)];
    corpus::check_close(phiMag, phiMag_ref);

    std::vector<kValues> kVals(at(numK));
    for (int i = 0; i < numK; ++i) kVals[at(i)] = kValues{d.kx[at(i)], d.ky[at(i)], d.kz[at(i)], phiMag[at(i)]};
    // The reference: every sample once, in the kernel's order (the odd one first in each tile).
    std::vector<float> Qr_ref(at(numX), 0.f), Qi_ref(at(numX), 0.f);
    for (int base = 0; base < numK; base += KERNEL_Q_K_ELEMS_PER_GRID)
      for (int xi = 0; xi < numX; ++xi)
        for (int kg = base; kg < std::min(numK, base + KERNEL_Q_K_ELEMS_PER_GRID); ++kg) {
          const kValues& v = kVals[at(kg)];
          const float expArg = PIx2 * (v.Kx * d.x[at(xi)] + v.Ky * d.y[at(xi)] + v.Kz * d.z[at(xi)]);
          Qr_ref[at(xi)] += v.PhiMag * std::cos(expArg);
          Qi_ref[at(xi)] += v.PhiMag * std::sin(expArg);
        }
    std::vector<kValues> ck(KERNEL_Q_K_ELEMS_PER_GRID, kValues{0.f, 0.f, 0.f, 0.f});  // __constant__ ck
    auto dx = w::to_device(d.x), dy = w::to_device(d.y), dz = w::to_device(d.z);
    auto dQr = w::to_device(std::vector<float>(at(numX), 0.f)), dQi = w::to_device(std::vector<float>(at(numX), 0.f));
    const int QGrids = (numK + KERNEL_Q_K_ELEMS_PER_GRID - 1) / KERNEL_Q_K_ELEMS_PER_GRID;
    const int QBlocks = (numX + KERNEL_Q_THREADS_PER_BLOCK - 1) / KERNEL_Q_THREADS_PER_BLOCK;
    bool clean = true;
    for (int QGrid = 0; QGrid < QGrids; ++QGrid) {
      const int QGridBase = QGrid * KERNEL_Q_K_ELEMS_PER_GRID;
      const int numElems = std::min(KERNEL_Q_K_ELEMS_PER_GRID, numK - QGridBase);
      std::copy(kVals.begin() + QGridBase, kVals.begin() + QGridBase + numElems, ck.begin());  // cudaMemcpyToSymbol(ck, ...)
      auto d_ck = w::to_device(ck);
      clean = clean && w::record(q_k, w::grid(QBlocks), numK, QGridBase, dx, dy, dz, dQr, dQi, d_ck).clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(dQr), Qr_ref, 1e-3);
    corpus::check_close(w::to_host(dQi), Qi_ref, 1e-3);
  }

  // An odd numK over one tile: the first tile's loop starts at kIndex 1 and, with kGlobalIndex still
  // below numK at kIndex 1023, loads ck[1024], past the 1024-element constant array. Refused.
  {
    const int numK = 1101;
    const mriq_data d = make_data(numK, numX);
    std::vector<kValues> ck(KERNEL_Q_K_ELEMS_PER_GRID, kValues{0.f, 0.f, 0.f, 1.f});
    auto dx = w::to_device(d.x), dy = w::to_device(d.y), dz = w::to_device(d.z);
    auto d_ck = w::to_device(ck);
    auto dQr = w::to_device(std::vector<float>(at(numX), 0.f)), dQi = w::to_device(std::vector<float>(at(numX), 0.f));
    try {
      (void)w::record(q_k, w::grid(2), numK, 0, dx, dy, dz, dQr, dQi, d_ck);
      FAIL("an odd numK over one tile launched");
    } catch (const w::bounds_error& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
      CHECK_THAT(e.what(), Catch::Matchers::Contains("load ck[((numK % 2) + (2 * i6)) + 1] may reach index 1024"));
    }
  }
  // numX not a multiple of 256: the unguarded loads x[xIndex] of the last block overrun x. Refused.
  {
    const int numK = 700, numX_odd = 300;
    const mriq_data d = make_data(numK, numX_odd);
    auto dx = w::to_device(d.x), dy = w::to_device(d.y), dz = w::to_device(d.z);
    auto d_ck = w::to_device(std::vector<kValues>(KERNEL_Q_K_ELEMS_PER_GRID, kValues{0.f, 0.f, 0.f, 1.f}));
    auto dQr = w::to_device(std::vector<float>(at(numX_odd), 0.f)), dQi = w::to_device(std::vector<float>(at(numX_odd), 0.f));
    CHECK_THROWS_AS(w::record(q_k, w::grid((numX_odd + 255) / 256), numK, 0, dx, dy, dz, dQr, dQi, d_ck), w::bounds_error);
  }
}
