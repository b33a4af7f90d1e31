// W022: a shared load before any store to the tile.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(copy, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(out[i] = tile[t], tile[t] = in[i]);
#else
    return w::seq(tile[t] = in[i], out[i] = tile[t]);
#endif
  });
}));

int main() {
  warden_case::launch_case(copy);
  return copy.describe().accesses.empty() ? 1 : 0;
}
