// W012: a store through a buffer stated distinct, y[perm[i]], is judged at i only if every access
// to y goes through perm: then two threads meet in y exactly when their i meet. A store at a
// plain index, y[i] = 0, could meet y[perm[j]] at any element. The twin keeps y's accesses all
// through perm (the compound update loads and stores y[perm[i]]): accepted.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(scatter_add, w::kernel<w::block<64>, w::in<int>, w::in<float>, w::inout<float>>([](auto k, auto perm, auto x, auto y) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::given(w::distinct(perm), w::when(i < perm.size() && i < x.size(), w::seq(y[perm[i]] += x[i], y[i] = 0.f)));
#else
  return w::given(w::distinct(perm), w::when(i < perm.size() && i < x.size(), y[perm[i]] += x[i]));
#endif
}));

int main() {
  std::vector<int> order(100);
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = (i * 37) % 100;
  auto perm = w::to_device(order);
  auto x = w::to_device(std::vector<float>(100, 2.f));
  auto y = w::to_device(std::vector<float>(100, 1.f));
  w::launch(w::on_cpu, scatter_add, w::grid_for(100), perm, x, y);
  return w::to_host(y)[37] == 3.f ? 0 : 1;
}
