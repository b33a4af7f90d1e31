// W003: a compound assignment stores, so a read-only view rejects it even though it may load.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<int> data(4, 1);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::read>(data);
#else
  auto v = warden::view_of<warden::access::read_write>(data);
#endif
  v[0] += 41;
  return data[0] == 42 ? 0 : 1;
}
