// W012: a store at an index loaded from memory (a scatter): two threads may load the same index.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using counts = w::out<int>;
#else
using counts = w::atomic<int>;
#endif
WARDEN_KERNEL(scatter, w::kernel<w::block<128>, w::in<int>, counts>([](auto k, auto idx, auto out) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < idx.size(), out[idx[i]] = 1);
#else
  return w::when(i < idx.size(), w::atomic_exchange(out[idx[i]], 1));
#endif
}));

int main() {
  warden_case::launch_case(scatter);
  return scatter.describe().accesses.empty() ? 1 : 0;
}
