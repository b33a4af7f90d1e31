#pragma once
// The kernels whose launch cost is measured (issue 18): 1, 4 and 8 buffer parameters, and one with
// a shared tile. launch_cost_bench.cpp launches them against the runtime stand-in;
// gpu/launch_cost_gpu_bench.cu on a GPU, beside hand-written twins launched with <<<>>>.
#include <warden/warden.hpp>

namespace launch_cost {

namespace w = warden;

WARDEN_KERNEL(one_buffer, w::kernel<w::block<256>, w::out<float>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = 1.f);
}));

WARDEN_KERNEL(four_buffers, w::kernel<w::block<256>, w::in<float>, w::in<float>, w::in<float>, w::out<float>, w::value<float>>(
                                [](auto k, auto a, auto b, auto c, auto out, auto s) {
                                  auto i = k.global_id();
                                  return w::when(i < out.size() && i < a.size() && i < b.size() && i < c.size(),
                                                 out[i] = s * a[i] + b[i] * c[i]);
                                }));

WARDEN_KERNEL(eight_buffers,
              w::kernel<w::block<256>, w::in<float>, w::in<float>, w::in<float>, w::in<float>, w::in<float>, w::in<float>,
                        w::in<float>, w::out<float>>([](auto k, auto a, auto b, auto c, auto d, auto e, auto f, auto g, auto out) {
                auto i = k.global_id();
                return w::when(i < out.size() && i < a.size() && i < b.size() && i < c.size() && i < d.size() && i < e.size() &&
                                   i < f.size() && i < g.size(),
                               out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i]);
              }));

WARDEN_KERNEL(shared_tile, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0.f), w::sync(),
                  w::when(i < out.size(), out[i] = tile[255 - t]));
  });
}));

}  // namespace launch_cost
