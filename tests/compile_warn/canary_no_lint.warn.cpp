// Canary: a "defect" that is no defect (in[i] either way). The harness must say no-warning.
#include <warden/warden.hpp>

namespace w = warden;

WARDEN_KERNEL(copy, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size() && i < out.size(), out[i] = in[i]);
}));

int main() { return copy.describe().accesses.size() == 2 ? 0 : 1; }
