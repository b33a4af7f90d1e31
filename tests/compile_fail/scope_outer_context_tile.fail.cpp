// W032: a second tile opened inside the first with the first's context `k`. Both tiles bind one
// level, so `a` names the second tile wherever the body uses it: the two stores meet. The twin
// opens the second tile with `k_a`, the context the first tile's lambda receives.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(two_tiles, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k_a, auto a) {
#ifdef WARDEN_DEFECT
    (void)k_a;
    return w::shared<float, 32, 2>(k, [&](auto, auto b) {
#else
    return w::shared<float, 32, 2>(k_a, [&](auto, auto b) {
#endif
      auto t = k.thread_id();
      auto i = k.global_id();
      return w::seq(a[t] = in[i], b(t / 2, t % 2) = in[i], w::sync(), out[i] = a[63 - t] + b((63 - t) / 2, (63 - t) % 2));
    });
  });
}));

int main() {
  warden_case::launch_case(two_tiles, w::grid(1), 64);
  return two_tiles.describe().accesses.empty() ? 1 : 0;
}
