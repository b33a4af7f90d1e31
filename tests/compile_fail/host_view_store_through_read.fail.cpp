// W003: a store through a read-only view.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(8, 1.f);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::read>(data);
#else
  auto v = warden::view_of<warden::access::read_write>(data);
#endif
  v[3] = 2.f;
  return data[3] == 2.f ? 0 : 1;
}
