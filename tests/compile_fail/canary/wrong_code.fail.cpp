// Canary: the defect fires W004, but the case is registered as expecting W003. The harness must
// report that no error line names W003.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(2, 0.f);
#ifdef WARDEN_DEFECT
  auto v = warden::view_of<warden::access::write>(data);
#else
  auto v = warden::view_of<warden::access::read_write>(data);
#endif
  const float x = v[0];
  return x == 0.f ? 0 : 1;
}
