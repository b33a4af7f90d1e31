// W004: a load through a write-only view.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(8, 1.f);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::write>(data);
#else
  auto v = warden::view_of<warden::access::read>(data);
#endif
  const float x = v[2];
  return x == 1.f ? 0 : 1;
}
