// W040: an atomic max and a plain store to elements that may coincide in one phase.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(peaks, w::kernel<w::block<64>, w::in<int>, w::inout<int>>([](auto k, auto in, auto best) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < in.size(), w::atomic_max(best[in[i] & 7], in[i]), w::when(i < 8, best[i] = 0));
#else
  return w::when(i < in.size(), w::atomic_max(best[in[i] & 7], in[i]), w::atomic_exchange(best[i & 7], 0));
#endif
}));

int main() {
  warden_case::launch_case(peaks);
  return peaks.describe().accesses.empty() ? 1 : 0;
}
