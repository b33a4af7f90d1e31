// Parboil, sgemm (C = alpha A B^T + beta C, column-major, after Volkov's register-tiled sgemm):
// jovan-djukic/parboil (commit 5d2d7c0f, a mirror of Parboil 2.5), benchmarks/sgemm/src/cuda/
// sgemm_kernel.cu, kernel mysgemmNT, ported by hand. A block of TILE_N x TILE_TB_HEIGHT = 16 x 8
// threads computes a TILE_M x TILE_N = 128 x 16 tile of C: thread mid = threadIdx.y * blockDim.x +
// threadIdx.x owns row m = blockIdx.x * TILE_M + mid and keeps 16 partial results c[0..15] (columns
// n0 = blockIdx.y * TILE_N .. + 15) in registers. For i = 0, 8, .. < k: each thread stores one
// element of B into the shared b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb]
// (n = blockIdx.y * TILE_N + threadIdx.x), barrier, then for j < 8: a = A[m + (i + j) * lda] and c[kk]
// += a * b_s[j][kk] for kk < 16, barrier. Last, t = ldc * blockIdx.y * TILE_N + m and C[t + i *
// ldc] = C[t + i * ldc] * beta + alpha * c[i] for i < 16. There is no guard anywhere: regtileSgemm
// says the sizes must be multiples of the tile (m of 128, n of 16; k of 8 for the loads) and
// launches grid(m / TILE_M, n / TILE_N), threads(TILE_N, TILE_TB_HEIGHT); with lda = m, ldb = n,
// ldc = m (main.cc's call regtileSgemm('N', 'T', matArow, matBcol, matAcol, 1.0f, ..., matArow,
// ..., matBcol, 0.0f, ..., matArow)). Here (m, n, k) = (256, 32, 24) and (128, 48, 16).
//
// Translation: float c[TILE_N] is a w::registers<float, TILE_N>, zero to begin with; the loops
// that index it (kk < TILE_N, and the final i < TILE_N) are w::unroll<TILE_N>, which nvcc would
// unroll in full anyway (register arrays take only w::unroll counters). The k loop is a for_range
// stepping by TILE_TB_HEIGHT, j < 8 a for_range, `float a` a w::local. The kernel's parameter k
// keeps its name, so the kernel context is kc. A and B are in<float>, C inout<float>.
//
// Verdict: ACCEPTED under one launch obligation, ldc - 128 * grid_dim.x >= 0 (the columns of C,
// ldc apart, hold all the grid's rows), which the host's ldc = m, grid m / TILE_M always meets; the
// shared b_s, the barriers and the unguarded loads are accepted as written. RUNS AS WRITTEN: clean
// and equal to the reference on whole tiles.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_N = 16, TILE_TB_HEIGHT = 8, TILE_M = TILE_N * TILE_TB_HEIGHT;

// __global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float* C, int ldc, int k, float alpha, float beta)
constexpr auto mysgemmNT = [](auto kc, auto A, auto lda, auto B, auto ldb, auto C, auto ldc, auto k, auto alpha, auto beta) {
  return w::registers<float, TILE_N>(kc, [&](auto kc, auto c) {
    auto mid = kc.thread_id_y() * kc.block_dim() + kc.thread_id();
    auto m = kc.block_id() * TILE_M + mid;
    auto n = kc.block_id_y() * TILE_N + kc.thread_id();
    return w::shared<float, TILE_TB_HEIGHT, TILE_N>(kc, [&](auto kc, auto b_s) {
      auto t = ldc * kc.block_id_y() * TILE_N + m;
      return w::seq(w::for_range(kc, 0, k, TILE_TB_HEIGHT, [&](auto kc, auto i) {
                      return w::seq(b_s(kc.thread_id_y(), kc.thread_id()) = B[n + (i + kc.thread_id_y()) * ldb], w::sync(),
                                    w::for_range(kc, 0, TILE_TB_HEIGHT, [&](auto kc, auto j) {
                                      return w::local(kc, A[m + (i + j) * lda], [&](auto kc, auto a) {
                                        return w::unroll<TILE_N>(kc, [&](auto, auto kk) { return c[kk] += a * b_s(j, kk); });
                                      });
                                    }),
                                    w::sync());
                    }),
                    w::unroll<TILE_N>(kc, [&](auto, auto i) { return C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i]; }));
    });
  });
};

using Blk = w::block<TILE_N, TILE_TB_HEIGHT>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

#define SGEMM_PARAMS Blk, w::in<float>, V, w::in<float>, V, w::inout<float>, V, V, F, F

WARDEN_KERNEL(sgemm_k, w::kernel<SGEMM_PARAMS>(mysgemmNT).named("mysgemmNT", "A", "lda", "B", "ldb", "C", "ldc", "k", "alpha", "beta"));

TEST_CASE("parboil sgemm mysgemmNT: accepted, clean on whole tiles, equal to the reference", "[corpus3][parboil]") {
  STATIC_REQUIRE(code_of<SGEMM_PARAMS>(mysgemmNT) == code::none);
  const std::string ob = w::obligations_of(sgemm_k);
  CAPTURE(ob);
  // The columns of C (ldc apart) hold the grid's rows: apart if ldc >= TILE_M * gridDim.x, which
  // the host's ldc = m, grid m / TILE_M always meets.
  CHECK(ob == "W011 holds for C[(((ldc * block_id.y) * 16) + ((block_id.x * 128) + ((thread_id.y * block_dim.x) + thread_id.x))) + (i2 * "
              "ldc)] and C[(((ldc * block_id.y) * 16) + ((block_id.x * 128) + ((thread_id.y * block_dim.x) + thread_id.x))) + (i2 * ldc)] if "
              "ldc - 128 * grid_dim.x >= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads "
              "meet)\n");

  for (auto [m, n, k] : {std::tuple{256, 32, 24}, std::tuple{128, 48, 16}}) {
    CAPTURE(m, n, k);
    const float alpha = 1.f, beta = 0.5f;
    std::vector<float> A(at(m * k)), Bm(at(n * k)), C(at(m * n));  // A m x k, B^T: k x n rows of n, C m x n; column-major
    for (int i = 0; i < m * k; ++i) A[at(i)] = static_cast<float>(i % 13) / 13.f - 0.5f;
    for (int i = 0; i < n * k; ++i) Bm[at(i)] = static_cast<float>(i % 7) / 7.f + 0.25f;
    for (int i = 0; i < m * n; ++i) C[at(i)] = static_cast<float>(i % 5);
    std::vector<float> ref = C;
    for (int row = 0; row < m; ++row)
      for (int col = 0; col < n; ++col) {
        float s = 0.f;
        for (int l = 0; l < k; ++l) s += A[at(row + l * m)] * Bm[at(col + l * n)];
        ref[at(row + col * m)] = C[at(row + col * m)] * beta + alpha * s;
      }
    auto dA = w::to_device(A), dB = w::to_device(Bm), dC = w::to_device(C);
    CHECK(w::record(sgemm_k, w::grid(m / TILE_M, n / TILE_N), dA, m, dB, n, dC, m, k, alpha, beta).clean());
    corpus::check_close(w::to_host(dC), ref, 1e-4);
  }
}
