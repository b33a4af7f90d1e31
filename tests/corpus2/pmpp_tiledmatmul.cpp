// "Programming Massively Parallel Processors" (Hwu, Kirk, El Hajj), chapter 5, the tiled matrix
// multiply with boundary checks, as published in tugot17/pmpp, chapter-5/code/matrix_mul_benchmark.cu
// (commit 0b5769f9), kernel TiledMatrixMulKernel, ported by hand. P (m x o) = M (m x n) N (n x o)
// through two TILE_WIDTH x TILE_WIDTH shared tiles, phase by phase along n; a load outside a
// matrix puts 0 in the tile, and the store is guarded by row < m && col < o. TILE_WIDTH 32 is a
// #define; m, n and o are the kernel's int parameters. Launch as matrixMulTiling:
// dimBlock(TILE_WIDTH, TILE_WIDTH), dimGrid((o + 31) / 32, (m + 31) / 32).
//
// ACCEPTED at compile time, no launch obligation: each thread stores its own tile elements
// (ty, tx), reads the tiles only between the two barriers of a phase, and stores its own P
// element under the guard. RUNS AS WRITTEN on every size (the sample's own launch is m = n = o =
// 4096), clean and equal to the reference. (Before issue 32's item 3, every launch with n not a
// multiple of 32 was refused, E101, a false positive: the guarded load M[row * n + ph * TILE_WIDTH
// + tx] (guard ph * TILE_WIDTH + tx < n), parsed as (row * n + ph * TILE_WIDTH) + tx, was bounded
// term by term. Launch now bounds a sum through any guarded sum of some of its terms.) The variant
// that groups the column as the guard writes it, M[row * n + (ph * TILE_WIDTH + tx)], runs too.
#include "../corpus/corpus.hpp"

#include <string>
#include <tuple>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_WIDTH = 32;

// __global__ void TiledMatrixMulKernel(float *M, float *N, float *P, int m, int n, int o)
constexpr auto TiledMatrixMulKernel = [](auto k, auto M, auto N, auto P, auto m, auto n, auto o) {
  return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Mds) {
    return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Nds) {
      auto by = k.block_id_y();
      auto bx = k.block_id();
      auto ty = k.thread_id_y();
      auto tx = k.thread_id();
      auto row = by * TILE_WIDTH + ty;
      auto col = bx * TILE_WIDTH + tx;
      return w::local(k, 0.f, [&](auto k, auto PValue) {
        return w::seq(
            w::for_range(k, 0, (n + TILE_WIDTH - 1) / TILE_WIDTH, [&](auto k, auto ph) {
              return w::seq(w::when(row < m && (ph * TILE_WIDTH + tx) < n, Mds(ty, tx) = M[row * n + ph * TILE_WIDTH + tx])
                                .otherwise(Mds(ty, tx) = 0.f),
                            w::when((ph * TILE_WIDTH + ty) < n && (col < o), Nds(ty, tx) = N[(ph * TILE_WIDTH + ty) * o + col])
                                .otherwise(Nds(ty, tx) = 0.f),
                            w::sync(),
                            w::for_range(k, 0, TILE_WIDTH, [&](auto, auto kk) { return PValue += Mds(ty, kk) * Nds(kk, tx); }),
                            w::sync());
            }),
            w::when(row < m && col < o, P[row * o + col] = PValue));
      });
    });
  });
};

// The same kernel with the column of M grouped as the guard writes it: row * n + (ph * TILE_WIDTH + tx).
constexpr auto tiled_grouped = [](auto k, auto M, auto N, auto P, auto m, auto n, auto o) {
  return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Mds) {
    return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Nds) {
      auto by = k.block_id_y();
      auto bx = k.block_id();
      auto ty = k.thread_id_y();
      auto tx = k.thread_id();
      auto row = by * TILE_WIDTH + ty;
      auto col = bx * TILE_WIDTH + tx;
      return w::local(k, 0.f, [&](auto k, auto PValue) {
        return w::seq(
            w::for_range(k, 0, (n + TILE_WIDTH - 1) / TILE_WIDTH, [&](auto k, auto ph) {
              return w::seq(w::when(row < m && (ph * TILE_WIDTH + tx) < n, Mds(ty, tx) = M[row * n + (ph * TILE_WIDTH + tx)])
                                .otherwise(Mds(ty, tx) = 0.f),
                            w::when((ph * TILE_WIDTH + ty) < n && (col < o), Nds(ty, tx) = N[(ph * TILE_WIDTH + ty) * o + col])
                                .otherwise(Nds(ty, tx) = 0.f),
                            w::sync(),
                            w::for_range(k, 0, TILE_WIDTH, [&](auto, auto kk) { return PValue += Mds(ty, kk) * Nds(kk, tx); }),
                            w::sync());
            }),
            w::when(row < m && col < o, P[row * o + col] = PValue));
      });
    });
  });
};

using Blk = w::block<TILE_WIDTH, TILE_WIDTH>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(tiled_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>, V, V, V>(TiledMatrixMulKernel)
                           .named("TiledMatrixMulKernel", "M", "N", "P", "m", "n", "o"));

WARDEN_KERNEL(tiled_grouped_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>, V, V, V>(tiled_grouped)
                                   .named("TiledMatrixMulKernel", "M", "N", "P", "m", "n", "o"));
namespace {

std::vector<float> matrix(int count, int mod, float scale, float shift) {
  std::vector<float> v(at(count));
  for (int i = 0; i < count; ++i) v[at(i)] = static_cast<float>(i % mod) * scale + shift;
  return v;
}

std::vector<float> reference(const std::vector<float>& M, const std::vector<float>& N, int m, int n, int o) {
  std::vector<float> P(at(m * o), 0.f);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < o; ++c) {
      float sum = 0.f;
      for (int j = 0; j < n; ++j) sum += M[at(r * n + j)] * N[at(j * o + c)];
      P[at(r * o + c)] = sum;
    }
  return P;
}

// dimGrid((o + dimBlock.x - 1) / dimBlock.x, (m + dimBlock.y - 1) / dimBlock.y)
auto grid_of(int m, int o) { return w::grid((o + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH); }

}  // namespace

TEST_CASE("corpus2 pmpp TiledMatrixMulKernel: accepted, runs clean on every size, a short M refused E101", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, V, V, V>(TiledMatrixMulKernel) == code::none);
  CHECK(w::obligations_of(tiled_k).empty());
  // n in whole tiles or not: clean, equal to the reference.
  for (auto [m, n, o] : {std::tuple{64, 64, 64}, std::tuple{50, 64, 33}, std::tuple{33, 96, 70}, std::tuple{50, 70, 33},
                         std::tuple{64, 70, 64}}) {
    CAPTURE(m, n, o);
    auto M = matrix(m * n, 13, 1.f / 13.f, -0.5f), N = matrix(n * o, 7, 1.f / 7.f, 0.25f);
    auto d_M = w::to_device(M);
    auto d_N = w::to_device(N);
    w::device_buffer<float> d_P(at(m * o));
    CHECK(w::record(tiled_k, grid_of(m, o), d_M, d_N, d_P, m, n, o).clean());
    corpus::check_close(w::to_host(d_P), reference(M, N, m, n, o), 1e-4);
  }
  // The load M[row * n + ph * TILE_WIDTH + tx] reaches m * n - 1 (row m - 1, column n - 1): an M
  // one element short is refused before the kernel runs.
  for (auto [m, n, o] : {std::tuple{50, 70, 33}, std::tuple{64, 64, 64}}) {
    CAPTURE(m, n, o);
    auto d_M = w::to_device(std::vector<float>(at(m * n - 1), 1.f));
    auto d_N = w::to_device(std::vector<float>(at(n * o), 1.f));
    w::device_buffer<float> d_P(at(m * o));
    try {
      (void)w::record(tiled_k, grid_of(m, o), d_M, d_N, d_P, m, n, o);
      FAIL("an M one element short launched");
    } catch (const w::bounds_error& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
      CHECK_THAT(e.what(), Catch::Matchers::Contains("load M["));
    }
  }
}

TEST_CASE("corpus2 pmpp TiledMatrixMulKernel, M's column grouped as its guard: accepted, clean on every size", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, V, V, V>(tiled_grouped) == code::none);
  CHECK(w::obligations_of(tiled_grouped_k).empty());
  for (auto [m, n, o] : {std::tuple{50, 70, 33}, std::tuple{33, 100, 96}, std::tuple{64, 64, 64}}) {
    CAPTURE(m, n, o);
    auto M = matrix(m * n, 13, 1.f / 13.f, -0.5f), N = matrix(n * o, 7, 1.f / 7.f, 0.25f);
    auto d_M = w::to_device(M);
    auto d_N = w::to_device(N);
    w::device_buffer<float> d_P(at(m * o));
    CHECK(w::record(tiled_grouped_k, grid_of(m, o), d_M, d_N, d_P, m, n, o).clean());
    corpus::check_close(w::to_host(d_P), reference(M, N, m, n, o), 1e-4);
  }
}
