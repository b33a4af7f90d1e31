// W012 on a shared tile: `bins[v] += 1` at a value loaded from the input, as a privatised
// histogram's first version is written. The message spells the tile's atomic with the statement's
// own parts, w::atomic_add(bins[in[i] & 15], 1) (a tile's elements take atomics as they are: no mode to
// change); the twin is that fix, followed literally, and counts right.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(tile_histogram, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto counts) {
  return w::shared<int, 16>(k, [&](auto k, auto bins) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(w::when(t < 16, bins[t] = 0), w::sync(), w::when(i < in.size(), bins[in[i] & 15] += 1), w::sync(),
                  w::when(t < 16, w::atomic_add(counts[t], bins[t])));
#else
    return w::seq(w::when(t < 16, bins[t] = 0), w::sync(), w::when(i < in.size(), w::atomic_add(bins[in[i] & 15], 1)), w::sync(),
                  w::when(t < 16, w::atomic_add(counts[t], bins[t])));
#endif
  });
}).named("tile_histogram", "in", "counts"));

int main() {
  std::vector<int> values(256);
  for (int i = 0; i < 256; ++i) values[static_cast<std::size_t>(i)] = i * 7;
  auto in = w::to_device(values);
  auto counts = w::to_device(std::vector<int>(16, 0));
  w::launch(w::on_cpu, tile_histogram, w::grid(4), in, counts);
  const auto got = w::to_host(counts);
  for (int b = 0; b < 16; ++b)
    if (got[static_cast<std::size_t>(b)] != 16) return 1;  // i * 7 & 15 takes each value 16 times
  return 0;
}
