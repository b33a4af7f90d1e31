// W003: a vector store (w::vectors<4>(x)[i] = ...) through an in<T> parameter, in a program that
// launches the kernel: the diagnostic is the only error. The twin declares the parameter inout<T>.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
using data_param = w::in<float>;
#else
using data_param = w::inout<float>;
#endif

WARDEN_KERNEL(double_vectors, w::kernel<w::block<128>, data_param>([](auto k, auto data) {
  auto i = k.global_id();
  return w::when(i < data.size() / 4, w::local(k, w::vectors<4>(data)[i], [&](auto, auto v) {
                   return w::vectors<4>(data)[i] = w::make_vec(2.f * w::get<0>(v), 2.f * w::get<1>(v), 2.f * w::get<2>(v), 2.f * w::get<3>(v));
                 }));
}));

int main() {
  auto data = w::to_device(std::vector<float>(512, 1.f));
  w::launch(w::on_cpu, double_vectors, w::grid_for(128), data);
#ifdef __CUDACC__
  w::launch(double_vectors, w::grid_for(128), data);  // under nvcc: the cuda backend's kernel is instantiated too
#endif
  return w::to_host(data)[511] == 2.f ? 0 : 1;
}
