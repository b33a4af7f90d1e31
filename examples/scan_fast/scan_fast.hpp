#pragma once
// Exclusive prefix sum of ints over the whole input, reduce-then-scan (the multi-pass design CUB's
// DeviceScan replaced with a single pass): the input is cut into tiles of 1024 values, one per block
// of 256 threads, each thread holding 4 consecutive values (one 16-byte vector load, w::vectors<4>).
//   1. scan_fast_reduce: each tile's sum (the thread's 4 values, then the warp's by shuffles, then the
//      block's 8 warp sums through a shared tile), one per tile.
//   2. the tiles' sums are scanned the same way (recursively, until one tile holds them all), which
//      gives each tile the sum of everything before it.
//   3. scan_fast_scan: each tile's exclusive scan plus its offset: a scan within the thread (4
//      values), within the warp (shuffle_up), across the block's warps (a shared tile of 8 warp
//      totals), written back with one vector store.
// Every pass is a kernel the checker proves race-free on its own; the order between passes is the
// stream's. The partial last vector is read and written element by element, strided by 4 across
// threads, which W051 [uncoalesced] would report; only one thread of the grid runs it, so it is
// under w::lint_off<w::W051>. Defining WARDEN_DEFECT builds the broken variant (scan_fast_broken.fail.cpp): the
// warp-scan's shuffles sit under `lane >= offset`, so half a warp skips them (W031).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int scan_fast_block = 256;
inline constexpr int scan_fast_tile = 4 * scan_fast_block;  // values per block
inline constexpr int scan_fast_warps = scan_fast_block / 32;

// Pass 1: sums[b] = the sum of tile b.
WARDEN_KERNEL(scan_fast_reduce, w::kernel<w::block<scan_fast_block>, w::in<int>, w::out<int>>([](auto k, auto in, auto sums) {
  return w::shared<int, scan_fast_warps>(k, [&](auto k, auto warp_sums) {
    auto t = k.thread_id();
    auto i = k.global_id();  // the thread's vector: values 4i .. 4i + 3
    return w::seq(
        w::local(k, 0, [&](auto k, auto total) {
          return w::seq(
              w::when(i < in.size() / 4, w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
                return total = (w::get<0>(v) + w::get<1>(v)) + (w::get<2>(v) + w::get<3>(v));
              })).otherwise(w::lint_off<w::W051>(  // the partial last vector, in one thread: strided, and meant to be
                  w::unroll<4>(k, [&](auto, auto c) { return w::when(4 * i + c < in.size(), total += in[4 * i + c]); }))),
              w::for_range(k, 0, 5, [&](auto k, auto step) {
                return w::shuffle_down(k, total, 16 >> step, [&](auto, auto other) { return total += other; });
              }),
              w::when(t % 32 == 0, warp_sums[t / 32] = total));
        }),
        w::sync(),
        w::when(t < 32, w::local(k, 0, [&](auto k, auto sum) {
          return w::seq(w::when(t < scan_fast_warps, sum = warp_sums[t]),
                        w::for_range(k, 0, 3, [&](auto k, auto step) {
                          return w::shuffle_down(k, sum, 4 >> step, [&](auto, auto other) { return sum += other; });
                        }),
                        w::when(t == 0, sums[k.block_id()] = sum));
        })));
  });
}).named("scan_fast_reduce", "in", "sums"));

// Pass 3: out = the exclusive scan of in, tile b starting from offsets[b].
WARDEN_KERNEL(scan_fast_scan, w::kernel<w::block<scan_fast_block>, w::in<int>, w::in<int>, w::out<int>>([](auto k, auto in, auto offsets, auto out) {
  return w::shared<int, scan_fast_warps>(k, [&](auto k, auto warp_totals) {
    auto t = k.thread_id();
    auto lane = t % 32;
    auto i = k.global_id();
    return w::registers<int, 4>(k, [&](auto k, auto x) {
      return w::seq(
          // The thread's 4 values (zero past the end), then their inclusive scan.
          w::when(i < in.size() / 4, w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
            return w::seq(x[0] = w::get<0>(v), x[1] = w::get<1>(v), x[2] = w::get<2>(v), x[3] = w::get<3>(v));
          })).otherwise(w::lint_off<w::W051>(  // the partial last vector, in one thread
              w::unroll<4>(k, [&](auto, auto c) { return w::when(4 * i + c < in.size(), x[c] = in[4 * i + c]); }))),
          x[1] += x[0], x[2] += x[1], x[3] += x[2],
          // The warp's inclusive scan of the threads' totals.
          w::local(k, x[3], [&](auto k, auto running) {
            return w::seq(
                w::for_range(k, 0, 5, [&](auto k, auto step) {
#ifdef WARDEN_DEFECT
                  return w::when(lane >= (1 << step), w::shuffle_up(k, running, 1 << step, [&](auto, auto other) { return running += other; }));
#else
                  return w::shuffle_up(k, running, 1 << step, [&](auto, auto other) { return w::when(lane >= (1 << step), running += other); });
#endif
                }),
                w::when(lane == 31, warp_totals[t / 32] = running), w::sync(),
                // What comes before the thread's first value: the tile's offset, the warps before
                // this one, the threads before it in its warp.
                w::local(k, offsets[k.block_id()] + (running - x[3]), [&](auto k, auto before) {
                  return w::seq(w::for_range(k, 0, t / 32, [&](auto, auto warp) { return before += warp_totals[warp]; }),
                                w::when(i < out.size() / 4, w::vectors<4>(out)[i] = w::make_vec(before, before + x[0], before + x[1], before + x[2]))
                                    .otherwise(w::lint_off<w::W051>(w::when(4 * i < out.size(), out[4 * i] = before),
                                                                    w::when(4 * i + 1 < out.size(), out[4 * i + 1] = before + x[0]),
                                                                    w::when(4 * i + 2 < out.size(), out[4 * i + 2] = before + x[1]))));
                }));
          }));
    });
  });
}).named("scan_fast_scan", "in", "offsets", "out"));

}  // namespace examples
