// W020: a compound assignment on a shared element that reads another thread's element, which that
// thread's own compound assignment writes in the same phase (tile[t] -= tile[63 - t], no barrier
// between the two threads' load and store). The twin applies -= and /= to each thread's own element.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(mirror_difference, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(tile[t] = in[i], w::sync(), tile[t] -= tile[63 - t], w::sync(), out[i] = tile[t]);
#else
    return w::seq(tile[t] = in[i], w::sync(), tile[t] -= 1.f, tile[t] /= 2.f, w::sync(), out[i] = tile[63 - t]);
#endif
  });
}));

int main() {
  warden_case::launch_case(mirror_difference);
  return mirror_difference.describe().accesses.empty() ? 1 : 0;
}
