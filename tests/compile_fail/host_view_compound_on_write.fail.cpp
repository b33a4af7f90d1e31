// W004: a compound assignment loads first, so a write-only view rejects it.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<int> data(4, 1);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::write>(data);
#else
  auto v = warden::view_of<warden::access::read_write>(data);
#endif
  v[1] *= 3;
  return data[1] == 3 ? 0 : 1;
}
