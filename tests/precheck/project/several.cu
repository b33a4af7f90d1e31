// Three kernels in one file, two of them alike but for the block: the precheck's table must hold a
// row for each (g++ prints one warning per row, and a row's text holds an unclosed '[', which the
// reading in cmake/warden_precheck.cmake once let merge the rows into one).
#include <warden/warden.hpp>

namespace w = warden;

WARDEN_KERNEL(copy_256, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = in[i]);
}));
WARDEN_KERNEL(copy_128, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = in[i]);
}));
// Accepted under a launch obligation (the rows stay apart if the pitch exceeds the width).
WARDEN_KERNEL(pitched_copy, w::kernel<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                                [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
                                  auto x = k.global_id();
                                  auto y = k.global_id_y();
                                  return w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]);
                                }));

int main() {}
