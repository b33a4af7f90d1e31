// W040 between blocks: the grid's first thread resets a counter that every thread then increments
// atomically. The barrier orders the reset before its own block's increments, but not before the
// other blocks': if block 0 starts late, it zeroes what the others counted. The message says that
// sync() cannot order blocks and names the fixes that can; the twin follows the one that keeps one
// kernel: the counter is zeroed on the host (w::to_device of a zero) before the launch.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
WARDEN_KERNEL(count_hits, w::kernel<w::block<64>, w::in<int>, w::inout<int>>([](auto k, auto in, auto counter) {
  auto i = k.global_id();
  return w::seq(w::when(i == 0, counter[0] = 0), w::sync(),
                w::when(i < in.size() && in[i] > 0, w::atomic_add(counter[0], 1)));
}).named("count_hits", "in", "counter"));
#else
WARDEN_KERNEL(count_hits, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto counter) {
  auto i = k.global_id();
  return w::when(i < in.size() && in[i] > 0, w::atomic_add(counter[0], 1));
}).named("count_hits", "in", "counter"));
#endif

int main() {
  std::vector<int> values(256);
  for (int i = 0; i < 256; ++i) values[static_cast<std::size_t>(i)] = i % 3 == 0 ? 1 : 0;
  auto in = w::to_device(values);
  auto counter = w::to_device(std::vector<int>{0});  // zeroed on the host
  w::launch(w::on_cpu, count_hits, w::grid(4), in, counter);
  return w::to_host(counter)[0] == 86 ? 0 : 1;
}
