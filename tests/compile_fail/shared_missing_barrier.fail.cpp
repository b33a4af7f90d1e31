// W020: reverse in block without the barrier between the shared store and the shared load.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(reverse, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(tile[t] = in[i], out[i] = tile[63 - t]);
#else
    return w::seq(tile[t] = in[i], w::sync(), out[i] = tile[63 - t]);
#endif
  });
}));

int main() {
  warden_case::launch_case(reverse);
  return reverse.describe().accesses.empty() ? 1 : 0;
}
