// W003: a writable view over const elements would be a store path into read-only memory.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  const std::vector<float> data(8, 1.f);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::write>(data);
#else
  auto v = warden::view_of<warden::access::read>(data);
#endif
  return v.size() == 8 ? 0 : 1;
}
