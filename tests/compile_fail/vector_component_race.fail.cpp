// W010: a component of a vector load stored to out[i / 2]: threads 2j and 2j + 1 store one element.
// The twin stores each thread's own element; both read the component straight off the load.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(first_components, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < in.size() / 2, out[i / 2] = w::get<0>(w::vectors<2>(in)[i]));
#else
  return w::when(i < in.size() / 2 && i < out.size(), out[i] = w::get<0>(w::vectors<2>(in)[i]));
#endif
}));

int main() {
  warden_case::launch_case(first_components);
  return first_components.describe().accesses.empty() ? 1 : 0;
}
