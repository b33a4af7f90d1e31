// W030: sync() in a loop whose trip count depends on the thread.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(steps, w::kernel<w::block<32>, w::out<float>, w::value<int>>([](auto k, auto out, auto n) {
  auto t = k.thread_id();
  return w::local(k, 0.f, [&](auto k, auto acc) {
#ifdef WARDEN_DEFECT
    return w::seq(w::for_range(k, 0, t, [&](auto, auto) { return w::seq(acc += 1.f, w::sync()); }), out[t] = acc);
#else
    return w::seq(w::for_range(k, 0, n, [&](auto, auto) { return w::seq(acc += 1.f, w::sync()); }), out[t] = acc);
#endif
  });
}));

int main() {
  warden_case::launch_case(steps);
  return steps.describe().accesses.empty() ? 1 : 0;
}
