// W040: a plain store to an atomic<T> parameter, which only takes atomic updates.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(count, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < in.size(), bins[in[i] & 3] = 1);
#else
  return w::when(i < in.size(), w::atomic_exchange(bins[in[i] & 3], 1));  // the fix W040 suggests
#endif
}));

int main() {
  warden_case::launch_case(count);
  return count.describe().accesses.size() == 2 ? 0 : 1;
}
