// W022: a stencil loads a halo element that no thread stores.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(pairs, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 65>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(tile[t] = in[i], w::sync(), out[i] = tile[t] + tile[t + 1]);
#else
    return w::seq(tile[t] = in[i], w::when(t == 63, tile[64] = 0.f), w::sync(), out[i] = tile[t] + tile[t + 1]);
#endif
  });
}));

int main() {
  warden_case::launch_case(pairs);
  return pairs.describe().accesses.empty() ? 1 : 0;
}
