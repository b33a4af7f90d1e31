// W007: the row length of sorted(keys).rows(n) is what the launch measures the rows by, before any
// thread runs, so it may read only what the launch fixes. A row length that reads the thread's id
// is no fact about the buffer. The twin gives it as a value<int> parameter: the copy runs.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(copy_rows, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>([](auto k, auto keys, auto out, auto n) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  auto fact = w::sorted(keys).rows(k.thread_id() + 1);
  (void)n;
#else
  auto fact = w::sorted(keys).rows(n);
#endif
  return w::given(fact, w::when(i < keys.size() && i < out.size(), out[i] = keys[i]));
}));

int main() {
  auto keys = w::to_device(std::vector<int>{1, 4, 0, 2});
  w::device_buffer<int> out(4);
  w::launch(w::on_cpu, copy_rows, w::grid_for(4), keys, out, 2);
  return w::to_host(out) == std::vector<int>{1, 4, 0, 2} ? 0 : 1;
}
