// W012: two locals of one scope (w::locals), one holding an index loaded from memory, used to
// store: two threads may load the same index. The twin stores through atomic<int>.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using marks = w::out<int>;
#else
using marks = w::atomic<int>;
#endif
WARDEN_KERNEL(mark_targets, w::kernel<w::block<128>, w::in<int>, marks>([](auto k, auto idx, auto out) {
  auto i = k.global_id();
  return w::when(i < idx.size(), w::locals(k, idx[i], 1, [&](auto, auto at, auto one) {
#ifdef WARDEN_DEFECT
    return out[at] = one;
#else
    return w::atomic_exchange(out[at], one);
#endif
  }));
}));

int main() {
  warden_case::launch_case(mark_targets);
  return mark_targets.describe().accesses.empty() ? 1 : 0;
}
