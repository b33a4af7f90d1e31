#pragma once
// Sum reduction: each block of 256 threads sums its 256-element slice. A shared-memory tree first
// (level l: thread t < 128 >> l adds tile[t + half] into tile[t], then a barrier) leaves 64 partial
// sums; then the first warp finishes in registers: each lane folds two of them, and five shuffles
// (offsets 16, 8, 4, 2, 1) sum the 32 lanes into lane 0, with no barrier. Thread 0 writes the
// block's sum; the program reduces the partial sums again until one is left.
// Defining WARDEN_DEFECT builds the broken variant (reduction_broken.fail.cpp): the shuffles are
// guarded like the tree's levels (`t < offset`), so part of the warp skips them (W031).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int reduction_block = 256;
inline constexpr int reduction_tree_levels = 2;  // 256 -> 128 -> 64 sums in the tile
inline constexpr int reduction_warp_steps = 5;   // 32 lanes -> 1, by shuffles

WARDEN_KERNEL(reduction, w::kernel<w::block<reduction_block>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, reduction_block>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0.f), w::sync(),
                  w::for_range(k, 0, reduction_tree_levels, [&](auto, auto level) {
                    auto half = (reduction_block / 2) >> level;
                    return w::seq(w::when(t < half, tile[t] = tile[t] + tile[t + half]), w::sync());
                  }),
                  w::when(t < 32, w::local(k, tile[t] + tile[t + 32], [&](auto k, auto sum) {
                    return w::seq(w::for_range(k, 0, reduction_warp_steps, [&](auto k, auto step) {
                                    auto offset = 16 >> step;
#ifdef WARDEN_DEFECT
                                    return w::when(t < offset, w::shuffle_down(k, sum, offset, [&](auto, auto other) { return sum += other; }));
#else
                                    return w::shuffle_down(k, sum, offset, [&](auto, auto other) { return sum += other; });
#endif
                                  }),
                                  w::when(t == 0, out[k.block_id()] = sum));
                  })));
  });
}).named("reduction", "in", "out"));

}  // namespace examples
