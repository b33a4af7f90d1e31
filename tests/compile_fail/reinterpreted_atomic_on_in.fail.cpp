// W003: an atomic update of an element taken as its unsigned kind (w::as<unsigned>, CUDA's
// atomicInc on `(unsigned*)&counts[k]`) still stores: through an in<int> parameter it is refused.
// The twin declares the counts atomic<int>.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using counts_t = w::in<int>;
#else
using counts_t = w::atomic<int>;
#endif
WARDEN_KERNEL(wrap_count, w::kernel<w::block<64>, w::in<int>, counts_t>([](auto k, auto keys, auto counts) {
  auto i = k.global_id();
  return w::when(i < keys.size(), w::atomic_inc(w::as<unsigned>(counts[keys[i]]), 4u));
}));

int main() {
  warden_case::launch_case(wrap_count);
  return wrap_count.describe().accesses.empty() ? 1 : 0;
}
