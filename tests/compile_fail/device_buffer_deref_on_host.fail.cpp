// W001: host code dereferences a device buffer (writes through it).
#include <warden/memory/buffer.hpp>

int main() {
#ifdef WARDEN_DEFECT
  warden::device_buffer<int> b(4);
#else
  warden::pinned_buffer<int> b(4);  // page-locked host memory: the host may write it
#endif
  *b = 42;
  return 0;
}
