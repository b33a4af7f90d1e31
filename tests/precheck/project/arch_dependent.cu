// fixed.cu's kernel written one way for the host compiler and another for nvcc's device pass: the
// host precheck checks the first, and the device pass would compile the second, in which every
// thread adds to its own element of total (a different kernel, whatever its verdict). Its
// fingerprint is in no row of the precheck's table, so nvcc's device pass refuses it (W006).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(sum_into, w::kernel<w::block<256>, w::in<float>, w::atomic<float>>([](auto k, auto in, auto total) {
  auto i = k.global_id();
#if defined(__CUDA_ARCH__)
  return w::when(i < in.size(), w::atomic_add(total[i], in[i]));
#else
  return w::when(i < in.size(), w::atomic_add(total[0], in[i]));
#endif
}));

int main() {
  auto in = w::to_device(std::vector<float>(1024, 1.f));
  auto total = w::to_device(std::vector<float>(1024, 0.f));
  w::launch(sum_into, w::grid_for(1024), in, total);
}
