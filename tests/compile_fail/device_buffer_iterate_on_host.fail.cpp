// W001: a range-for over a device buffer reads device memory on the host.
#include <warden/memory/buffer.hpp>
#include <warden/memory/transfer.hpp>

#include <vector>

int main() {
  warden::device_buffer<int> d = warden::to_device(std::vector<int>{1, 2, 3});
  int sum = 0;
#ifdef WARDEN_DEFECT
  for (int x : d) sum += x;
#else
  for (int x : warden::to_host(d)) sum += x;
#endif
  return sum == 6 ? 0 : 1;
}
