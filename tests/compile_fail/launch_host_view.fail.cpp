// W002: a kernel's buffer parameter bound to a host view.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

inline constexpr auto fill = w::kernel<w::block<64>, w::out<float>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = 1.f);
});

int main() {
  std::vector<float> host(100);
#ifdef WARDEN_DEFECT
  auto target = w::view_of<w::access::write>(host);
#else
  w::managed_buffer<float> target(100);
#endif
  w::launch(fill, w::grid_for(100), target);
  return 0;
}
