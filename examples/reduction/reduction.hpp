#pragma once
// Sum reduction: each block of 256 threads sums its 256-element slice in a shared-memory tree
// (level l: thread t < 128 >> l adds tile[t + half] into tile[t], then a barrier) and thread 0
// writes the block's partial sum; the program reduces the partial sums again until one is left.
// Defining WARDEN_DEFECT builds the broken variant (reduction_broken.fail.cpp): every block's
// thread 0 writes out[0] instead of out[block], a race between blocks (W010).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int reduction_block = 256;
inline constexpr int reduction_levels = 8;  // log2(reduction_block)

WARDEN_KERNEL(reduction, w::kernel<w::block<reduction_block>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, reduction_block>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0.f), w::sync(),
                  w::for_range(k, 0, reduction_levels, [&](auto, auto level) {
                    auto half = (reduction_block / 2) >> level;
                    return w::seq(w::when(t < half, tile[t] = tile[t] + tile[t + half]), w::sync());
                  }),
#ifdef WARDEN_DEFECT
                  w::when(t == 0, out[0] = tile[0]));
#else
                  w::when(t == 0, out[k.block_id()] = tile[0]));
#endif
  });
}).named("reduction", "in", "out"));

}  // namespace examples
