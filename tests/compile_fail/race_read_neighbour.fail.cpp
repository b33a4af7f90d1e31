// W011: a thread reads its neighbour's element, which the neighbour writes in the same phase.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(shift, w::kernel<w::block<128>, w::in<float>, w::inout<float>>([](auto k, auto in, auto a) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i + 1 < a.size(), a[i] = a[i + 1] + in[i]);
#else
  return w::when(i + 1 < a.size(), a[i] = a[i] + in[i + 1]);  // the neighbour comes from an in buffer
#endif
}));

int main() {
  warden_case::launch_case(shift);
  return shift.describe().accesses.empty() ? 1 : 0;
}
