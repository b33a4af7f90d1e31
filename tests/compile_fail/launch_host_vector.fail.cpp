// W002: a kernel's buffer parameter bound to host-only memory (a std::vector).
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
  w::launch(fill, w::grid_for(100), host);
#else
  w::device_buffer<float> device(100);
  w::launch(fill, w::grid_for(100), device);
#endif
  return 0;
}
