#pragma once
// Matrix transpose through a padded shared tile: a 16 x 16 block reads a 16 x 16 tile of `in`
// (rows x cols, row-major) with coalesced loads, waits, and writes it transposed into `out`
// (cols x rows) with coalesced stores. The tile's rows are padded to 17 floats so that the
// column reads of the second phase fall in different shared-memory banks. Defining
// WARDEN_DEFECT builds the broken variant (transpose_broken.fail.cpp): no barrier between the
// phases (W020).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int transpose_tile = 16;

WARDEN_KERNEL(transpose, w::kernel<w::block<transpose_tile, transpose_tile>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
    [](auto k, auto in, auto out, auto rows, auto cols) {
      return w::shared<float, transpose_tile, transpose_tile, 1>(k, [&](auto k, auto tile) {
        auto tx = k.thread_id();
        auto ty = k.thread_id_y();
        auto x = k.block_id() * transpose_tile + tx;    // column read
        auto y = k.block_id_y() * transpose_tile + ty;  // row read
        auto ox = k.block_id_y() * transpose_tile + tx; // column written (a row of in)
        auto oy = k.block_id() * transpose_tile + ty;   // row written (a column of in)
#ifdef WARDEN_DEFECT
        return w::seq(w::when(y < rows && x < cols, tile(ty, tx) = in[y * cols + x]),
                      w::when(oy < cols && ox < rows, out[oy * rows + ox] = tile(tx, ty)));
#else
        return w::seq(w::when(y < rows && x < cols, tile(ty, tx) = in[y * cols + x]),
                      w::sync(),
                      w::when(oy < cols && ox < rows, out[oy * rows + ox] = tile(tx, ty)));
#endif
      });
    }).named("transpose", "in", "out", "rows", "cols"));

}  // namespace examples
