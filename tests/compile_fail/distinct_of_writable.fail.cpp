// W007: distinct(perm) states a fact about perm's contents, which launch measures before running.
// A buffer the kernel may write (inout) changes while it runs, so no measurement holds for the run.
// The twin declares perm in<int>: the scatter through it is accepted, and launch refuses a perm
// with two equal elements (E107).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
using perm_param = w::inout<int>;
#else
using perm_param = w::in<int>;
#endif

WARDEN_KERNEL(scatter, w::kernel<w::block<64>, perm_param, w::in<float>, w::out<float>>([](auto k, auto perm, auto x, auto y) {
  auto i = k.global_id();
  return w::given(w::distinct(perm), w::when(i < perm.size() && i < x.size(), y[perm[i]] = x[i]));
}));

int main() {
  std::vector<int> order(100);
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = 99 - i;
  auto perm = w::to_device(order);
  auto x = w::to_device(std::vector<float>(100, 2.f));
  w::device_buffer<float> y(100);
  w::launch(w::on_cpu, scatter, w::grid_for(100), perm, x, y);
  return w::to_host(y)[0] == 2.f ? 0 : 1;
}
