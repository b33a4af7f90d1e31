// Canary: the defect is a plain typo, not a safety violation. The harness must not take any
// compile error for the expected one: it reports that no error line names W003.
#include <warden/memory/host_view.hpp>

#include <vector>

int main() {
  std::vector<float> data(2, 0.f);
  auto v = warden::view_of<warden::access::read_write>(data);
#ifdef WARDEN_DEFECT
  v[0] = undeclared_name;
#else
  v[0] = 1.f;
#endif
  return 0;
}
