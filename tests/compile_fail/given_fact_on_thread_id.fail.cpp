// W007: given(...) states a fact that launch checks before running, so it may read only what the
// launch fixes. `x < width` reads the thread's id: it is a guard (when), not a fact. The twin
// states `pitch >= width` over two parameters; launch refuses a launch where it is false (E107).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(pitched_copy, w::kernel<w::block<16, 16>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
    [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
      auto x = k.global_id();
      auto y = k.global_id_y();
#ifdef WARDEN_DEFECT
      return w::given(x < width, w::when(y < height, dst[pitch * y + x] = src[pitch * y + x]));
#else
      return w::given(pitch >= width, w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]));
#endif
    }));

int main() {
  auto src = w::to_device(std::vector<int>(64 * 20, 1));
  w::device_buffer<int> dst(64 * 20);
  w::launch(w::on_cpu, pitched_copy, w::grid(4, 2), src, dst, 60, 20, 64);
  return w::to_host(dst)[64 + 59] == 1 ? 0 : 1;
}
