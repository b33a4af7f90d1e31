// W003: a kernel stores through an in<T> parameter, in a program that launches it: the
// diagnostic is the only error (the cpu and cuda backends add none of their own).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
using data_param = w::in<float>;
#else
using data_param = w::inout<float>;
#endif

WARDEN_KERNEL(scale, w::kernel<w::block<128>, data_param>([](auto k, auto data) {
  auto i = k.global_id();
  return w::when(i < data.size(), data[i] = data[i] * 2.f);
}));

int main() {
  auto data = w::to_device(std::vector<float>(128, 1.f));
  w::launch(w::on_cpu, scale, w::grid_for(128), data);
#ifdef __CUDACC__
  w::launch(scale, w::grid_for(128), data);  // under nvcc: the cuda backend's kernel is instantiated too
#endif
  return scale.describe().accesses.size() == 2 ? 0 : 1;
}
