#pragma once
// Tiled matrix multiply C = A B (n x n, row-major): a 16 x 16 block computes a 16 x 16 tile of C,
// walking the k dimension in 16-wide steps. Each step stages a tile of A and a tile of B in
// shared memory (zero outside the matrix), waits, accumulates 16 products per thread, and waits
// again before the next step overwrites the tiles. Defining WARDEN_DEFECT builds the broken
// variant (matmul_broken.fail.cpp): the second barrier is missing, so the next step's stores race
// with this step's reads (W021).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int matmul_tile = 16;

WARDEN_KERNEL(matmul, w::kernel<w::block<matmul_tile, matmul_tile>, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(
    [](auto k, auto a, auto b, auto c, auto n) {
      return w::shared<float, matmul_tile, matmul_tile>(k, [&](auto k, auto ta) {
        return w::shared<float, matmul_tile, matmul_tile>(k, [&](auto k, auto tb) {
          auto tx = k.thread_id();
          auto ty = k.thread_id_y();
          auto row = k.global_id_y();
          auto col = k.global_id();
          return w::local(k, 0.f, [&](auto k, auto acc) {
            return w::seq(
                w::for_range(k, 0, (n + matmul_tile - 1) / matmul_tile, [&](auto k, auto kt) {
                  return w::seq(
                      w::when(row < n && kt * matmul_tile + tx < n, ta(ty, tx) = a[row * n + (kt * matmul_tile + tx)])
                          .otherwise(ta(ty, tx) = 0.f),
                      w::when(col < n && kt * matmul_tile + ty < n, tb(ty, tx) = b[(kt * matmul_tile + ty) * n + col])
                          .otherwise(tb(ty, tx) = 0.f),
                      w::sync(),
                      w::for_range(k, 0, matmul_tile, [&](auto, auto j) { return acc += ta(ty, j) * tb(j, tx); })
#ifndef WARDEN_DEFECT
                          ,
                      w::sync()
#endif
                  );
                }),
                w::when(row < n && col < n, c[row * n + col] = acc));
          });
        });
      });
    }).named("matmul", "a", "b", "c", "n"));

}  // namespace examples
