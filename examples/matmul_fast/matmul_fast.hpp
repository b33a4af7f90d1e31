#pragma once
// Register-tiled matrix multiply C = A B (n x n, row-major), the design of the fast SGEMM kernels
// (CUTLASS's thread-block and thread tiles): a block of 16 x 16 threads computes a 128 x 128 tile
// of C, each thread an 8 x 8 block of it, held in registers (w::registers) and updated by fully
// unrolled loops (w::unroll). The k dimension goes in steps of 8: each step stages A's 128 x 8 and
// B's 8 x 128 slices in shared memory (four elements per thread each, zero outside the matrix),
// waits, and every thread does 8 x 8 x 8 multiply-adds from the tiles, reading 16 values for 64
// multiply-adds; a second barrier ends the step. Thread (tx, ty) owns rows ty + 16 i and columns
// tx + 16 j of the block's tile, so that a warp's reads of a tile row are consecutive words (no bank
// conflict) and its stores of C are consecutive. Defining WARDEN_DEFECT builds the broken variant
// (matmul_fast_broken.fail.cpp): the end-of-step barrier is missing, so the next step's stores race
// with this step's reads (W021).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int matmul_fast_tile = 128;  // C's tile per block, square
inline constexpr int matmul_fast_step = 8;    // k per step
inline constexpr int matmul_fast_per_thread = 8;  // C's block per thread, square: 16 x 8 = 128

WARDEN_KERNEL(matmul_fast, w::kernel<w::block<16, 16>, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(
    [](auto k, auto a, auto b, auto c, auto n) {
      return w::shared<float, matmul_fast_tile, matmul_fast_step>(k, [&](auto k, auto ta) {
        return w::shared<float, matmul_fast_step, matmul_fast_tile>(k, [&](auto k, auto tb) {
          auto tx = k.thread_id();
          auto ty = k.thread_id_y();
          auto t = ty * 16 + tx;
          auto row0 = k.block_id_y() * matmul_fast_tile;
          auto col0 = k.block_id() * matmul_fast_tile;
          return w::registers<float, matmul_fast_per_thread, matmul_fast_per_thread>(k, [&](auto k, auto acc) {
            return w::seq(
                w::for_range(k, 0, (n + matmul_fast_step - 1) / matmul_fast_step, [&](auto k, auto kt) {
                  return w::seq(
                      // A's slice: rows t / 8 + 32 p, column t % 8 (a warp reads 4 rows of 32 bytes).
                      w::unroll<4>(k, [&](auto, auto p) {
                        auto r = t / 8 + 32 * p;
                        auto col = kt * matmul_fast_step + t % 8;
                        return w::when(row0 + r < n && col < n, ta(r, t % 8) = a[(row0 + r) * n + col]).otherwise(ta(r, t % 8) = 0.f);
                      }),
                      // B's slice: row t / 128 + 2 p, column t % 128 (a warp reads 128 bytes).
                      w::unroll<4>(k, [&](auto, auto p) {
                        auto r = kt * matmul_fast_step + t / 128 + 2 * p;
                        return w::when(r < n && col0 + t % 128 < n, tb(t / 128 + 2 * p, t % 128) = b[r * n + (col0 + t % 128)])
                            .otherwise(tb(t / 128 + 2 * p, t % 128) = 0.f);
                      }),
                      w::sync(),
                      w::unroll<matmul_fast_step>(k, [&](auto k, auto kk) {
                        return w::unroll<matmul_fast_per_thread>(k, [&](auto k, auto i) {
                          return w::unroll<matmul_fast_per_thread>(
                              k, [&](auto, auto j) { return acc(i, j) += ta(ty + 16 * i, kk) * tb(kk, tx + 16 * j); });
                        });
                      })
#ifndef WARDEN_DEFECT
                          ,
                      w::sync()
#endif
                  );
                }),
                w::unroll<matmul_fast_per_thread>(k, [&](auto k, auto i) {
                  return w::unroll<matmul_fast_per_thread>(k, [&](auto, auto j) {
                    auto row = row0 + ty + 16 * i;
                    auto col = col0 + tx + 16 * j;
                    return w::when(row < n && col < n, c[row * n + col] = acc(i, j));
                  });
                }));
          });
        });
      });
    }).named("matmul_fast", "a", "b", "c", "n"));

}  // namespace examples
