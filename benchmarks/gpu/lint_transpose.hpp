#pragma once
// What following W050 [bank-conflict] buys, for the GPU benchmark: a 32 x 32 transpose tile (the
// block 32 x 8, each thread moving 4 rows), unpadded and padded. Unpadded, the column read
// tile(tx, ty + 8 r) puts a warp's 32 lanes 32 words apart, all in one bank: W050 reports 32 ways
// (tests/compile_warn/transpose_unpadded.warn.cpp is the warning itself). Padded to 33 words a
// row, every lane has a bank of its own. The unpadded kernel is under w::lint_off<w::W050>: its
// conflict is the point of the comparison, not a mistake to warn about in the benchmark's build.
#include <warden/warden.hpp>

#include <type_traits>

namespace lint_cases {

namespace w = warden;

template <int Pad>
inline constexpr auto transpose32 = [](auto k, auto in, auto out, auto n) {
  return w::shared<float, 32, 32, Pad>(k, [&](auto k, auto tile) {
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    auto x = k.block_id() * 32 + tx;
    auto ox = k.block_id_y() * 32 + tx;
    auto body = w::seq(w::unroll<4>(k, [&](auto, auto r) {
                         auto y = k.block_id_y() * 32 + ty + 8 * r;
                         return w::when(y < n && x < n, tile(ty + 8 * r, tx) = in[y * n + x]);
                       }),
                       w::sync(),
                       w::unroll<4>(k, [&](auto, auto r) {
                         auto oy = k.block_id() * 32 + ty + 8 * r;
                         return w::when(oy < n && ox < n, out[oy * n + ox] = tile(tx, ty + 8 * r));
                       }));
    // (The tile's own pad, not Pad: nvcc does not see a variable template's parameter in here.)
    if constexpr (std::remove_cvref_t<decltype(tile)>::pad == 0) return w::lint_off<w::W050>(body);
    else return body;
  });
};

WARDEN_KERNEL(transpose32_unpadded, w::kernel<w::block<32, 8>, w::in<float>, w::out<float>, w::value<int>>(transpose32<0>));
WARDEN_KERNEL(transpose32_padded, w::kernel<w::block<32, 8>, w::in<float>, w::out<float>, w::value<int>>(transpose32<1>));

}  // namespace lint_cases
