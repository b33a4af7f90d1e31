#pragma once
// The block-local stage of a bitonic sort: each block of 256 threads sorts its 256-element slice
// in a shared tile. Stage s (1..8) merges bitonic runs of 2^s elements; in step r of it, thread t
// compares its element with its partner t ^ j (j = 2^(s-1-r)) and the lower-numbered thread of
// the pair swaps them if they are out of the stage's order. A barrier ends every step. A partial
// last slice is padded with INT_MAX, which sorts last and is not written back. Defining
// WARDEN_DEFECT builds the broken variant (bitonic_sort_broken.fail.cpp): no barrier between
// steps, so one step's swaps race with the next step's reads (W021).
#include <warden/warden.hpp>

#include <climits>

namespace examples {

namespace w = warden;

inline constexpr int bitonic_block = 256;
inline constexpr int bitonic_stages = 8;  // log2(bitonic_block)

WARDEN_KERNEL(bitonic_sort, w::kernel<w::block<bitonic_block>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, bitonic_block>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = INT_MAX), w::sync(),
                  w::for_range(k, 1, bitonic_stages + 1, [&](auto k, auto s) {
                    return w::for_range(k, 0, s, [&](auto k, auto r) {
                      auto j = 1 << (s - 1 - r);
                      auto p = t ^ j;
                      auto ascending = (t & (1 << s)) == 0;
                      return w::seq(w::when(p > t, w::local(k, tile[t], [&](auto k, auto a) {
                                              return w::local(k, tile[p], [&](auto, auto b) {
                                                return w::when((a > b) == ascending, tile[t] = b, tile[p] = a);
                                              });
                                            }))
#ifndef WARDEN_DEFECT
                                        ,
                                    w::sync()
#endif
                      );
                    });
                  }),
                  w::when(i < in.size(), out[i] = tile[t]));
  });
}).named("bitonic_sort", "in", "out"));

}  // namespace examples
