#pragma once
// reverse-in-block in warden: each block reverses its 256-element slice through a shared tile.
// Every thread stores one element into the tile, the block waits at sync(), then every thread
// loads the mirrored element: without the barrier a thread could read a tile element its
// neighbour has not stored yet (W020). The grid covers the input exactly (n a multiple of 256);
// a partial last block would read tile elements nobody stored, so launch rejects it (E101).
// Defining WARDEN_DEFECT builds the broken variant (reverse_block_broken.fail.cpp): no barrier.
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int reverse_block_size = 256;

WARDEN_KERNEL(reverse_block, w::kernel<w::block<reverse_block_size>, w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, reverse_block_size>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto g = k.global_id();
#ifdef WARDEN_DEFECT
        return w::seq(tile[t] = in[g], out[g] = tile[reverse_block_size - 1 - t]);
#else
        return w::seq(tile[t] = in[g],
                      w::sync(),  // without it the tile is read before every thread stored (W020)
                      out[g] = tile[reverse_block_size - 1 - t]);
#endif
      });
    }).named("reverse_block", "in", "out"));

}  // namespace examples
