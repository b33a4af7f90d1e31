#pragma once
// Blelloch's work-efficient exclusive scan of each block's 256-element slice, 128 threads per
// block, in a shared tile: an up-sweep builds partial sums in a tree (level d: thread t < 128 >> d
// adds element offset * (2t + 1) - 1 into offset * (2t + 2) - 1, offset = 2^d), the root is
// cleared, and a down-sweep pushes prefix sums back down. Every level ends at a barrier. (A full
// scan of a large array adds a scan of the block totals and a uniform add; this is the block
// stage.) Defining WARDEN_DEFECT builds the broken variant (blelloch_scan_broken.fail.cpp): the
// up-sweep's barrier moved inside the `t < ...` guard, where half the threads skip it (W030).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int scan_threads = 128;
inline constexpr int scan_elements = 2 * scan_threads;
inline constexpr int scan_levels = 8;  // log2(scan_elements)

WARDEN_KERNEL(blelloch_scan, w::kernel<w::block<scan_threads>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, scan_elements>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto base = k.block_id() * scan_elements;
    return w::seq(
        w::when(base + 2 * t < in.size(), tile[2 * t] = in[base + 2 * t]).otherwise(tile[2 * t] = 0),
        w::when(base + 2 * t + 1 < in.size(), tile[2 * t + 1] = in[base + 2 * t + 1]).otherwise(tile[2 * t + 1] = 0),
        w::sync(),
        w::for_range(k, 0, scan_levels, [&](auto, auto d) {  // up-sweep: offset 1, 2, ..., 128
          auto offset = 1 << d;
#ifdef WARDEN_DEFECT
          return w::when(t < (scan_threads >> d),
                         tile[offset * (2 * t + 2) - 1] = tile[offset * (2 * t + 2) - 1] + tile[offset * (2 * t + 1) - 1], w::sync());
#else
          return w::seq(w::when(t < (scan_threads >> d),
                                tile[offset * (2 * t + 2) - 1] = tile[offset * (2 * t + 2) - 1] + tile[offset * (2 * t + 1) - 1]),
                        w::sync());
#endif
        }),
        w::when(t == 0, tile[scan_elements - 1] = 0), w::sync(),
        w::for_range(k, 0, scan_levels, [&](auto k, auto e) {  // down-sweep: offset 128, 64, ..., 1
          auto offset = scan_threads >> e;
          return w::seq(w::when(t < (1 << e), w::local(k, tile[offset * (2 * t + 1) - 1], [&](auto, auto left) {
                                  return w::seq(tile[offset * (2 * t + 1) - 1] = tile[offset * (2 * t + 2) - 1],
                                                tile[offset * (2 * t + 2) - 1] = tile[offset * (2 * t + 2) - 1] + left);
                                })),
                        w::sync());
        }),
        w::when(base + 2 * t < out.size(), out[base + 2 * t] = tile[2 * t]),
        w::when(base + 2 * t + 1 < out.size(), out[base + 2 * t + 1] = tile[2 * t + 1]));
  });
}).named("blelloch_scan", "in", "out"));

}  // namespace examples
