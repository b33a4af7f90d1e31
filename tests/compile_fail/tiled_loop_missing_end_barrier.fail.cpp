// W021: a loop over tiles without the end-of-iteration barrier: the next iteration overwrites the tile while others still read it.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(tiles, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
#ifdef WARDEN_DEFECT
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t]);
#else
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t], w::sync());
#endif
                    }),
                    out[t] = sum);
    });
  });
}));

int main() {
  warden_case::launch_case(tiles);
  return tiles.describe().accesses.empty() ? 1 : 0;
}
