#pragma once
// Softmax over each row of a rows x cols matrix (cols <= 256): one block of 256 threads per row,
// one element per thread. A shared-memory tree finds the row's maximum, a second one sums
// exp(x - max), and each thread writes exp(x - max) / sum. Each tree level ends at a barrier, and
// a barrier separates reading a tree's result (tile[0]) from the next tree's first store.
// Defining WARDEN_DEFECT builds the broken variant (softmax_broken.fail.cpp): that separating
// barrier is missing, so thread 0 overwrites tile[0] while others may still read the maximum
// (W020).
#include <warden/warden.hpp>

#include <cmath>

namespace examples {

namespace w = warden;

inline constexpr int softmax_block = 256;
inline constexpr int softmax_levels = 8;  // log2(softmax_block)

// exp on both backends (a function object the kernel calls per thread: w::call).
struct softmax_exp {
  WARDEN_HOST_DEVICE float operator()(float x) const {
#ifdef __CUDA_ARCH__
    return expf(x);
#else
    return std::exp(x);
#endif
  }
};

WARDEN_KERNEL(softmax, w::kernel<w::block<softmax_block>, w::in<float>, w::out<float>, w::value<int>>(
    [](auto k, auto in, auto out, auto cols) {
      return w::shared<float, softmax_block>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto at = k.block_id() * cols + t;  // this thread's element of the block's row
        // A tree over the tile with `op`, each level ending at a barrier; the result is tile[0].
        auto tree = [&](auto k, auto op) {
          return w::for_range(k, 0, softmax_levels, [&](auto, auto level) {
            auto half = (softmax_block / 2) >> level;
            return w::seq(w::when(t < half, tile[t] = op(tile[t], tile[t + half])), w::sync());
          });
        };
        return w::local(k, -INFINITY, [&](auto k, auto x) {
          return w::seq(
              w::when(t < cols, x = in[at]), tile[t] = x, w::sync(),
              tree(k, [](auto a, auto b) { return w::max(a, b); }),
              w::local(k, tile[0], [&](auto k, auto row_max) {
                return w::local(k, 0.f, [&](auto k, auto e) {
                  return w::seq(
#ifndef WARDEN_DEFECT
                      w::sync(),  // every thread has read the maximum before tile[0] changes
#endif
                      w::when(t < cols, e = w::call(softmax_exp{}, x - row_max)), tile[t] = e, w::sync(),
                      tree(k, [](auto a, auto b) { return a + b; }),
                      w::when(t < cols, out[at] = e / tile[0]));
                });
              }));
        });
      });
    }).named("softmax", "in", "out", "cols"));

}  // namespace examples
