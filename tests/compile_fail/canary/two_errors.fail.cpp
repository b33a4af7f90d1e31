// Canary: two independent defects give two errors; registered with ONE_ERROR, the harness must
// say so (verdict more-than-one-error).
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(2, 0.f);
#ifdef WARDEN_DEFECT
  auto w = warden::view_of<warden::access::write>(data);
  const float x = w[0];  // W004
  auto r = warden::view_of<warden::access::read>(data);
  r[1] = 1.f;  // W003
#else
  auto rw = warden::view_of<warden::access::read_write>(data);
  const float x = rw[0];
#endif
  return x == 0.f ? 0 : 1;
}
