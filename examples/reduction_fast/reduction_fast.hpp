#pragma once
// Sum reduction at the speed of memory, as CUB's DeviceReduce does it: a fixed grid that fills the
// GPU once strides over the input four floats at a time (one 16-byte vector load each,
// w::vectors<4>), each thread summing into a register; then each warp sums its 32 lanes by
// shuffles, lane 0 of each warp writes the warp's sum to a shared tile, and the first warp sums
// those. One partial sum per block; the same kernel, launched again with one block, sums the
// partials. The 0 to 3 elements past the last whole vector are added by the first threads.
// Defining WARDEN_DEFECT builds the broken variant (reduction_fast_broken.fail.cpp): the barrier
// between the warps' writes and the first warp's reads is missing (W020).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int reduction_fast_block = 256;
inline constexpr int reduction_fast_warps = reduction_fast_block / 32;

WARDEN_KERNEL(reduction_fast, w::kernel<w::block<reduction_fast_block>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, reduction_fast_warps>(k, [&](auto k, auto warp_sums) {
    auto t = k.thread_id();
    auto tail = in.size() / 4 * 4 + k.global_id();
    return w::seq(
        w::local(k, 0.f, [&](auto k, auto sum) {
          return w::seq(
              w::grid_stride(k, in.size() / 4, [&](auto k, auto i) {
                return w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
                  return sum += (w::get<0>(v) + w::get<1>(v)) + (w::get<2>(v) + w::get<3>(v));
                });
              }),
              w::when(tail < in.size(), sum += in[tail]),
              w::for_range(k, 0, 5, [&](auto k, auto step) {
                return w::shuffle_down(k, sum, 16 >> step, [&](auto, auto other) { return sum += other; });
              }),
              w::when(t % 32 == 0, warp_sums[t / 32] = sum));
        }),
#ifndef WARDEN_DEFECT
        w::sync(),
#endif
        w::when(t < 32, w::local(k, 0.f, [&](auto k, auto sum) {
          return w::seq(w::when(t < reduction_fast_warps, sum = warp_sums[t]),
                        w::for_range(k, 0, 3, [&](auto k, auto step) {
                          return w::shuffle_down(k, sum, 4 >> step, [&](auto, auto other) { return sum += other; });
                        }),
                        w::when(t == 0, out[k.block_id()] = sum));
        })));
  });
}).named("reduction_fast", "in", "out"));

// The first pass's grid: enough blocks to fill an H100 (132 SMs, 4 blocks of 256 each), fewer
// for a small input. The second pass sums the partials with one block.
inline constexpr int reduction_fast_max_blocks = 132 * 4;

}  // namespace examples
