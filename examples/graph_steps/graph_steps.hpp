#pragma once
// One explicit time step of the 1-D heat equation: next[i] = cur[i] + r (cur[i-1] - 2 cur[i] +
// cur[i+1]) inside, the two ends held. A time-step loop launches it thousands of times on small
// arrays, where the launch costs more than the kernel: graph_steps_main.cpp captures the loop
// once into a CUDA graph (w::capture) and replays it.
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

WARDEN_KERNEL(heat_step, w::kernel<w::block<256>, w::in<float>, w::out<float>, w::value<float>>(
    [](auto k, auto cur, auto next, auto r) {
      auto i = k.global_id();
      return w::when(i < next.size() && i < cur.size(),
                     w::when(i > 0 && i + 1 < cur.size(), next[i] = cur[i] + r * (cur[i - 1] - 2.f * cur[i] + cur[i + 1]))
                         .otherwise(next[i] = cur[i]));
    }).named("heat_step", "cur", "next", "r"));

}  // namespace examples
