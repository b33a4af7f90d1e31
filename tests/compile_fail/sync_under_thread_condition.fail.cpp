// W030: sync() under t < 16: half the block never reaches the barrier.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(first_half, w::kernel<w::block<32>, w::inout<float>, w::value<int>>([](auto k, auto a, auto n) {
  auto t = k.thread_id();
#ifdef WARDEN_DEFECT
  return w::when(t < 16, a[t] = 1.f, w::sync());
#else
  return w::seq(w::when(t < 16, a[t] = 1.f), w::when(n > 0, w::sync()));  // a uniform condition
#endif
}));

int main() {
  warden_case::launch_case(first_half);
  return first_half.describe().accesses.empty() ? 1 : 0;
}
