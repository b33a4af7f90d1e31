// W005: a function object with a data member (here a pointer into memory the kernel also writes)
// would let memory accesses slip past the race checker; call() takes stateless functions only.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
struct scaled {
  float* log;  // state: the checker cannot see what it points to
  WARDEN_HOST_DEVICE float operator()(float x) const { return 2.f * x; }
};
#else
struct scaled {
  WARDEN_HOST_DEVICE float operator()(float x) const { return 2.f * x; }
};
#endif

WARDEN_KERNEL(twice, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = w::call(scaled{}, in[i]));
}));

int main() {
  warden_case::launch_case(twice);
  return twice.describe().accesses.empty() ? 1 : 0;
}
