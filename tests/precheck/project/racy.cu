// Every thread stores its element into total[0]: two threads store one element (W010).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(sum_into, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto total) {
  auto i = k.global_id();
  return w::when(i < in.size(), total[0] = in[i]);
}));

int main() {
  auto in = w::to_device(std::vector<float>(1024, 1.f));
  w::device_buffer<float> total(1);
  w::launch(sum_into, w::grid_for(1024), in, total);
}
