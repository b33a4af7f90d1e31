// W020: a stencil reads its neighbours' tile elements before the barrier.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(smooth, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 66>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t + 1] = in[i], w::when(t == 0, tile[0] = 0.f, tile[65] = 0.f),
#ifndef WARDEN_DEFECT
                  w::sync(),
#endif
                  out[i] = tile[t] + tile[t + 1] + tile[t + 2]);
  });
}));

int main() {
  warden_case::launch_case(smooth);
  return smooth.describe().accesses.empty() ? 1 : 0;
}
