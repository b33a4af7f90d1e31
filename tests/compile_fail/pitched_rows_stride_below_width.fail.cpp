// W010: rows of `width` elements laid out with the block's width (16) as their stride, as if one
// block covered a row: rows overlap once width > 16, and a grid of 16-wide blocks reaches x = 16
// in every launch of more than one block along x, so no launch condition can save it. The twin
// lays rows `pitch` apart and is accepted with the launch obligation pitch - width >= 0
// (w::obligations_of prints it; E106 refuses a launch that breaks it).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(pitched_copy, w::kernel<w::block<16, 16>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
    [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
      auto x = k.global_id();
      auto y = k.global_id_y();
#ifdef WARDEN_DEFECT
      return w::when(x < width && y < height, dst[k.block_dim() * y + x] = src[pitch * y + x]);
#else
      return w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]);
#endif
    }));

int main() {
  auto src = w::to_device(std::vector<int>(64 * 20, 1));
  w::device_buffer<int> dst(64 * 20);
  w::launch(w::on_cpu, pitched_copy, w::grid(4, 2), src, dst, 60, 20, 64);
  return w::to_host(dst)[64 + 59] == 1 ? 0 : 1;
}
