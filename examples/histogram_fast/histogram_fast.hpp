#pragma once
// A 256-bin histogram privatised per block, as CUB's DeviceHistogram does it: each block counts
// into its own bins in shared memory (shared-memory atomics, served by the SM, not by L2), then adds
// its 256 counts to the global bins with one atomic each. The grid is a fixed number of blocks
// that stride over the input four values at a time (`grid_stride` over 16-byte vector loads), so
// the global atomics are 256 per block, not one per value. Defining WARDEN_DEFECT builds the broken variant (histogram_fast_broken.fail.cpp): the
// barrier between zeroing the block's bins and counting into them is missing, so a thread may count
// into a bin another thread has not yet zeroed (W040: an atomic and a plain store of one element
// in one phase).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int histogram_fast_bins = 256;
inline constexpr int histogram_fast_block = 256;  // one thread per bin for the zeroing and the merge

WARDEN_KERNEL(histogram_fast, w::kernel<w::block<histogram_fast_block>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  return w::shared<int, histogram_fast_bins>(k, [&](auto k, auto counts) {
    auto t = k.thread_id();
    auto tail = in.size() / 4 * 4 + k.global_id();  // the 0 to 3 values past the last whole vector
    return w::seq(counts[t] = 0,
#ifndef WARDEN_DEFECT
                  w::sync(),
#endif
                  w::grid_stride(k, in.size() / 4, [&](auto k, auto i) {
                    return w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
                      return w::seq(w::atomic_add(counts[w::get<0>(v) & (histogram_fast_bins - 1)], 1),
                                    w::atomic_add(counts[w::get<1>(v) & (histogram_fast_bins - 1)], 1),
                                    w::atomic_add(counts[w::get<2>(v) & (histogram_fast_bins - 1)], 1),
                                    w::atomic_add(counts[w::get<3>(v) & (histogram_fast_bins - 1)], 1));
                    });
                  }),
                  w::when(tail < in.size(), w::atomic_add(counts[in[tail] & (histogram_fast_bins - 1)], 1)),
                  w::sync(),
                  w::when(counts[t] != 0, w::atomic_add(bins[t], counts[t])));
  });
}).named("histogram_fast", "in", "bins"));

// The grid the program launches: enough blocks to fill an H100 (132 SMs, 8 blocks of 256 each)
// and no more, so that each block's merge is paid for by many values.
inline constexpr int histogram_fast_max_blocks = 132 * 8;

}  // namespace examples
