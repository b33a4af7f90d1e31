// W004: a vector load (w::vectors<4>(x)[i]) from an out<T> parameter. The message names the
// parameter and quotes the load as written. The twin declares the parameter inout<float>.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using data_t = w::out<float>;
#else
using data_t = w::inout<float>;
#endif
WARDEN_KERNEL(scale_vectors, w::kernel<w::block<64>, data_t>([](auto k, auto data) {
  auto i = k.global_id();
  return w::when(i < data.size() / 4, w::local(k, w::vectors<4>(data)[i], [&](auto, auto v) {
                   return w::vectors<4>(data)[i] = w::make_vec(2.f * w::get<0>(v), 2.f * w::get<1>(v), 2.f * w::get<2>(v), 2.f * w::get<3>(v));
                 }));
}));

int main() {
  warden_case::launch_case(scale_vectors);
  return scale_vectors.describe().accesses.size() == 8 ? 0 : 1;
}
