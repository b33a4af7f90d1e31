// W040: a plain load of an atomic<T> parameter in the kernel that updates it atomically.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(count, w::kernel<w::block<32>, w::atomic<int>, w::out<int>>([](auto k, auto counter, auto seen) {
  auto t = k.thread_id();
#ifdef WARDEN_DEFECT
  return w::seq(w::atomic_add(counter[0], 1), seen[t] = counter[0]);
#else
  return w::seq(w::atomic_add(counter[0], 1), seen[t] = t);
#endif
}));

int main() {
  warden_case::launch_case(count);
  return count.describe().accesses.size() == 2 ? 0 : 1;
}
