// W006: a file compiled with WARDEN_RECORD_ONLY builds every w::kernel without the checker, so
// that a rejected kernel can be recorded and pictured (examples/pictures); launching one does not
// compile. The twin is the same file without it: the kernel is checked, and launches.
#ifdef WARDEN_DEFECT
#define WARDEN_RECORD_ONLY 1
#endif
#include <warden/warden.hpp>

namespace w = warden;

WARDEN_KERNEL(fill_ones, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = 1);
}).named("fill_ones", "out"));

int main() {
  w::device_buffer<int> out(256);
  (void)w::record(fill_ones, w::grid(4), out);  // recording is what such a file is for
  w::launch(fill_ones, w::grid(4), out);
}
