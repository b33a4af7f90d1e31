// W040: an atomic add and a plain load of the same element in one phase.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(count, w::kernel<w::block<32>, w::inout<int>, w::out<int>>([](auto k, auto counter, auto seen) {
  auto t = k.thread_id();
#ifdef WARDEN_DEFECT
  return w::seq(w::atomic_add(counter[0], 1), seen[t] = counter[0]);
#else
  return w::seq(w::atomic_add(counter[0], 1), w::sync(), seen[t] = counter[0]);
#endif
}));

int main() {
  warden_case::launch_case(count);
  return count.describe().accesses.empty() ? 1 : 0;
}
