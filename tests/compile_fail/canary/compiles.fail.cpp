// Canary: this "case" has no defect, so it compiles with WARDEN_DEFECT as well. The harness must
// report that it compiled; the canary test passes only on that verdict.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(2, 0.f);
  auto v = warden::view_of<warden::access::read_write>(data);
  v[0] = 1.f;
  return 0;
}
