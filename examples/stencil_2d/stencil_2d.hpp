#pragma once
// A 2-D five-point stencil (out = north + south + west + east - 4 * centre, zero outside the
// grid) through an 18 x 18 shared tile: each 16 x 16 block loads its 16 x 16 interior plus a
// one-element halo on each side, waits, then reads its five neighbours from the tile. Threads on
// the block's edges load the halo. Defining WARDEN_DEFECT builds the broken variant
// (stencil_2d_broken.fail.cpp): the east halo is never loaded, so the east neighbour of the
// block's last column is read without any store (W022).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int stencil_tile = 16;

WARDEN_KERNEL(stencil_2d, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
    [](auto k, auto in, auto out, auto rows, auto cols) {
      return w::shared<float, 18, 18>(k, [&](auto k, auto tile) {
        auto tx = k.thread_id();
        auto ty = k.thread_id_y();
        auto row = k.global_id_y();
        auto col = k.global_id();
        auto inside = row < rows && col < cols;
        return w::seq(
            w::when(inside, tile(ty + 1, tx + 1) = in[row * cols + col]).otherwise(tile(ty + 1, tx + 1) = 0.f),
            w::when(tx == 0, w::when(row < rows && col >= 1 && col - 1 < cols, tile(ty + 1, 0) = in[row * cols + col - 1])
                                 .otherwise(tile(ty + 1, 0) = 0.f)),
#ifndef WARDEN_DEFECT
            w::when(tx == 15, w::when(row < rows && col + 1 < cols, tile(ty + 1, 17) = in[row * cols + col + 1])
                                  .otherwise(tile(ty + 1, 17) = 0.f)),
#endif
            w::when(ty == 0, w::when(row >= 1 && row - 1 < rows && col < cols, tile(0, tx + 1) = in[(row - 1) * cols + col])
                                 .otherwise(tile(0, tx + 1) = 0.f)),
            w::when(ty == 15, w::when(row + 1 < rows && col < cols, tile(17, tx + 1) = in[(row + 1) * cols + col])
                                  .otherwise(tile(17, tx + 1) = 0.f)),
            w::sync(),
            w::when(inside, out[row * cols + col] = tile(ty, tx + 1) + tile(ty + 2, tx + 1) + tile(ty + 1, tx) +
                                                    tile(ty + 1, tx + 2) - 4.f * tile(ty + 1, tx + 1)));
      });
    }).named("stencil_2d", "in", "out", "rows", "cols"));

}  // namespace examples
