// W010: out[i / 2]: threads 2j and 2j + 1 store the same element.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(halve, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < in.size(), out[i / 2] = in[i]);
#else
  return w::when(i * 2 < in.size(), out[i] = in[i * 2]);  // each thread its own element
#endif
}));

int main() {
  warden_case::launch_case(halve);
  return halve.describe().accesses.empty() ? 1 : 0;
}
