// W003: a kernel stores through an in<T> parameter.
#include <warden/warden.hpp>

namespace w = warden;

#ifdef WARDEN_DEFECT
using data_param = w::in<float>;
#else
using data_param = w::inout<float>;
#endif

inline constexpr auto scale = w::kernel<w::block<128>, data_param>([](auto k, auto data) {
  auto i = k.global_id();
  return w::when(i < data.size(), data[i] = data[i] * 2.f);
});

int main() { return scale.describe().accesses.size() == 2 ? 0 : 1; }
