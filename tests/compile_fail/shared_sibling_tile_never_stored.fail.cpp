// W022: two sibling tiles at one nesting level; the second is read but only the first was ever
// stored. Tiles are told apart by their declaration, not their level.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(two_tiles, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto g = k.global_id();
  return w::seq(w::shared<int, 64>(k, [&](auto, auto a) { return w::seq(a[t] = in[g], w::sync(), out[g] = a[63 - t]); }),
                w::sync(),
                w::shared<int, 64>(k, [&](auto, auto c) {
#ifdef WARDEN_DEFECT
                  return out[g] = c[t];
#else
                  return w::seq(c[t] = in[g], w::sync(), out[g] = c[63 - t]);
#endif
                }));
}));

int main() {
  warden_case::launch_case(two_tiles);
  return two_tiles.describe().accesses.empty() ? 1 : 0;
}
