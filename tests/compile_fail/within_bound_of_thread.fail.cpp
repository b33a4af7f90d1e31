// W007: the bounds of within(col, lo, hi) are compared with what launch measured of col before any
// thread runs, so they may read only what the launch fixes. A bound that reads the thread's id is a
// guard, not a fact. The twin bounds col by x.size(): launch measures col and the gather runs.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(gather, w::kernel<w::block<64>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto col, auto x, auto y) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  auto fact = w::within(col, 0, k.thread_id() + 1);
#else
  auto fact = w::within(col, 0, x.size());
#endif
  return w::given(fact, w::when(i < col.size() && i < y.size(), y[i] = x[col[i]]));
}));

int main() {
  auto col = w::to_device(std::vector<int>{3, 0, 2, 1});
  auto x = w::to_device(std::vector<float>{10, 11, 12, 13});
  w::device_buffer<float> y(4);
  w::launch(w::on_cpu, gather, w::grid_for(4), col, x, y);
  return w::to_host(y) == std::vector<float>{13, 10, 12, 11} ? 0 : 1;
}
