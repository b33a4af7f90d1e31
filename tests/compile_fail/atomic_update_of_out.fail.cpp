// W004: an atomic update reads the element it updates, so it may not go through an out<T>
// parameter, which the kernel may only store. The message names the parameter and the statement
// and says atomic<T>. The twin declares the bins atomic<int>.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using bins_t = w::out<int>;
#else
using bins_t = w::atomic<int>;
#endif
WARDEN_KERNEL(count_keys, w::kernel<w::block<64>, w::in<int>, bins_t>([](auto k, auto keys, auto bins) {
  auto i = k.global_id();
  return w::when(i < keys.size(), w::atomic_add(bins[keys[i] & 7], 1));
}));

int main() {
  warden_case::launch_case(count_keys);
  return count_keys.describe().accesses.size() == 2 ? 0 : 1;
}
