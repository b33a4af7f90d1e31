// W001: host code indexes a device buffer.
#include <warden/memory/buffer.hpp>
#include <warden/memory/transfer.hpp>

#include <vector>

int main() {
  warden::device_buffer<float> d = warden::to_device(std::vector<float>(8, 1.f));
#ifdef WARDEN_DEFECT
  const float x = d[3];
#else
  const float x = warden::to_host(d)[3];
#endif
  return x == 1.f ? 0 : 1;
}
