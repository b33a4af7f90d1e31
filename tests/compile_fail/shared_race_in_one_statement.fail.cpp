// W020 inside one statement: `tile[t] = (tile[t] + tile[63 - t]) * 0.5f` loads the mirrored
// element and stores its own in one phase, so the mirror thread may already have stored. No sync() fits
// between a load and a store of one statement; the message says to compute the value into a local,
// then sync(), then store, and spells it with the statement's own parts. The twin is that fix,
// followed literally, and computes the smoothed values.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(smooth, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(tile[t] = in[i], w::sync(), tile[t] = (tile[t] + tile[63 - t]) * 0.5f, w::sync(), out[i] = tile[t]);
#else
    return w::seq(tile[t] = in[i], w::sync(),
                  w::local(k, (tile[t] + tile[63 - t]) * 0.5f, [&](auto, auto v) { return w::seq(w::sync(), tile[t] = v); }),
                  w::sync(), out[i] = tile[t]);
#endif
  });
}).named("smooth", "in", "out"));

int main() {
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i * i);
  auto in = w::to_device(values);
  w::device_buffer<float> out(64);
  w::launch(w::on_cpu, smooth, w::grid(1), in, out);
  const auto got = w::to_host(out);
  // Each element the mean of itself and its mirror, from the values as loaded.
  for (int t = 0; t < 64; ++t)
    if (got[static_cast<std::size_t>(t)] != (values[static_cast<std::size_t>(t)] + values[static_cast<std::size_t>(63 - t)]) * 0.5f) return 1;
  return 0;
}
