// "Programming Massively Parallel Processors", chapter 5, the square tiled matrix multiply, as
// published (with two bugs) in tugot17/pmpp, chapter-5/code/matrix_multiplication/
// matrix_multiplication.cu (commit 4d623fd8), kernel tiledSquareMatrixMulKernel, ported by hand.
// RACY as written: it sets bx = blockDim.x and by = blockDim.y (not blockIdx), so every block
// computes and stores the same P elements, a write-write race between blocks; and the host
// launches it <<<dimBlock, dimGrid>>> with dimBlock(4, 4) and dimGrid(cdiv(m, 16), cdiv(m, 16)),
// i.e. a grid of 4 x 4 blocks of m / 16 x m / 16 threads, so a 16 x 16 tile is filled by
// (m / 16)^2 threads only. TILE_WIDTH 16 is a #define; width is the kernel's int parameter. Port
// for m = 64 (the host asserts m % 16 == 0): block (4, 4), grid (4, 4).
//
// REFUSED at compile time, W022 [uninitialised-shared-load]: the 4 x 4 block stores only the
// 4 x 4 corner of each 16 x 16 tile and then reads all of it (the second bug, a real one). The
// write-write race between blocks is caught at launch: a diagnostic variant (not the original)
// with the inner loop cut to the stored corner compiles, and its launch on the original's 4 x 4
// grid is refused, E102, because the kernel never names blockIdx. No launch of it is in bounds
// (row = blockDim.y * 16 + threadIdx.y >= m: E101), so the race cannot be recorded.
#include "../corpus/corpus.hpp"

#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_WIDTH = 16;

// __global__ void tiledSquareMatrixMulKernel(float* M, float* N, float* P, int width)
constexpr auto tiledSquareMatrixMulKernel = [](auto k, auto M, auto N, auto P, auto width) {
  return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Mds) {
    return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Nds) {
      auto bx = k.block_dim();  // int bx = blockDim.x; (sic)
      auto by = k.block_dim_y();
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      auto row = by * TILE_WIDTH + ty;
      auto col = bx * TILE_WIDTH + tx;
      return w::local(k, 0.f, [&](auto k, auto Pvalue) {
        return w::seq(w::for_range(k, 0, width / TILE_WIDTH, [&](auto k, auto ph) {
                        return w::seq(Mds(ty, tx) = M[row * width + ph * TILE_WIDTH + tx],
                                      Nds(ty, tx) = N[(ty + ph * TILE_WIDTH) * width + col], w::sync(),
                                      w::for_range(k, 0, TILE_WIDTH, [&](auto, auto kk) { return Pvalue += Mds(ty, kk) * Nds(kk, tx); }),
                                      w::sync());
                      }),
                      P[row * width + col] = Pvalue);
      });
    });
  });
};

// Not the original: the inner loop cut to the 4 x 4 part of the tiles the block stores (kk < 4),
// to see what the checker says of the rest once the uninitialised loads are gone.
constexpr auto tiled_stored_part = [](auto k, auto M, auto N, auto P, auto width) {
  return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Mds) {
    return w::shared<float, TILE_WIDTH, TILE_WIDTH>(k, [&](auto k, auto Nds) {
      auto bx = k.block_dim();  // int bx = blockDim.x; (sic)
      auto by = k.block_dim_y();
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      auto row = by * TILE_WIDTH + ty;
      auto col = bx * TILE_WIDTH + tx;
      return w::local(k, 0.f, [&](auto k, auto Pvalue) {
        return w::seq(w::for_range(k, 0, width / TILE_WIDTH, [&](auto k, auto ph) {
                        return w::seq(Mds(ty, tx) = M[row * width + ph * TILE_WIDTH + tx],
                                      Nds(ty, tx) = N[(ty + ph * TILE_WIDTH) * width + col], w::sync(),
                                      w::for_range(k, 0, 4, [&](auto, auto kk) { return Pvalue += Mds(ty, kk) * Nds(kk, tx); }),
                                      w::sync());
                      }),
                      P[row * width + col] = Pvalue);
      });
    });
  });
};

using Blk = w::block<4, 4>;  // the launch's second argument, dimGrid(cdiv(64, 16), cdiv(64, 16))

}  // namespace

WARDEN_KERNEL(stored_part_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(tiled_stored_part)
                                 .named("tiledSquareMatrixMulKernel", "M", "N", "P", "width"));

TEST_CASE("corpus2 pmpp tiledSquareMatrixMulKernel as published (bx = blockDim.x): racy, refused", "[corpus2][pmpp]") {
  // As written: the first finding is the tile load Mds[ty][k] (and Nds[k][tx]) for k >= 4, which
  // no thread of the 4 x 4 block stores (W022; on a GPU, garbage).
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(tiledSquareMatrixMulKernel) == code::W022);
  // The race between blocks: with the inner loop cut to the stored part, the kernel compiles (within
  // one block each thread stores its own P element), but it never names blockIdx, so the launch's
  // 4 x 4 grid, whose blocks would all store the same P elements, is refused before running (E102).
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(tiled_stored_part) == code::none);
  const int m = 64;
  auto d_M = w::to_device(std::vector<float>(at(m * m), 1.f));
  auto d_N = w::to_device(std::vector<float>(at(m * m), 1.f));
  w::device_buffer<float> d_P(at(m * m));
  try {
    (void)w::record(stored_part_k, w::grid(4, 4), d_M, d_N, d_P, m);
    FAIL("the 4 x 4 grid launched");
  } catch (const w::grid_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E102"));
  }
  // And one block alone still reads past M: row = blockDim.y * 16 + ty = 64 + ty >= m (E101), the
  // other bug; no launch of this kernel is in bounds, so none can be recorded.
  try {
    (void)w::record(stored_part_k, w::grid(1, 1), d_M, d_N, d_P, m);
    FAIL("one block launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
  }
}
