// racy.cu with the fix its diagnostic names: an atomic parameter, added to atomically.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(sum_into, w::kernel<w::block<256>, w::in<float>, w::atomic<float>>([](auto k, auto in, auto total) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(total[0], in[i]));
}));

int main() {
  auto in = w::to_device(std::vector<float>(1024, 1.f));
  auto total = w::to_device(std::vector<float>(1, 0.f));
  w::launch(sum_into, w::grid_for(1024), in, total);
  return w::to_host(total)[0] == 1024.f ? 0 : 1;
}
