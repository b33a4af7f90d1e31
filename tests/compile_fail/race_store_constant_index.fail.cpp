// W010: a store to a constant index: every thread of the grid writes out[0].
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(first, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < in.size(), out[0] = in[i]);
#else
  return w::when(i == 0 && i < in.size(), out[0] = in[i]);  // one thread of the grid
#endif
}));

int main() {
  warden_case::launch_case(first);
  return first.describe().accesses.empty() ? 1 : 0;
}
