// Must-accept kernels (proposals/0003-race-freedom.md) that work on global memory: each compiles (so the checker
// accepted it), runs on the cpu backend with the recording mode seeing no conflict, and computes
// what plain C++ computes.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <vector>

namespace w = warden;

namespace {
std::vector<float> iota(std::size_t n, float from = 0.f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
  return v;
}
}  // namespace

// A guarded elementwise map.
WARDEN_KERNEL(guarded_map_k, w::kernel<w::block<128>, w::in<float>, w::out<float>, w::value<float>>(
                                 [](auto k, auto x, auto y, auto a) {
                                   auto i = k.global_id();
                                   return w::when(i < x.size(), y[i] = a * x[i] + 1.f);
                                 }));

TEST_CASE("accepted: a guarded map", "[checker][accept]") {
  const auto host = iota(1000);
  auto x = w::to_device(host);
  w::device_buffer<float> y(1000);
  const auto r = w::record(guarded_map_k, w::grid_for(1000), x, y, 3.f);
  CHECK(r.clean());
  const auto out = w::to_host(y);
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(out[i] == 3.f * host[i] + 1.f);
}

// A grid-stride loop: every element once, whatever the grid.
WARDEN_KERNEL(grid_stride_map_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto y) {
  return w::grid_stride(k, x.size(), [&](auto, auto i) { return y[i] = x[i] * 2.f; });
}));

TEST_CASE("accepted: a grid-stride loop", "[checker][accept]") {
  const auto host = iota(1000);
  auto x = w::to_device(host);
  w::device_buffer<float> y(1000);
  const auto r = w::record(grid_stride_map_k, w::grid(3), x, y);  // 192 threads for 1000 elements
  CHECK(r.clean());
  const auto out = w::to_host(y);
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(out[i] == 2.f * host[i]);
}

// 2-D: row * cols + col, with col < cols guarded.
WARDEN_KERNEL(matrix_add_k, w::kernel<w::block<16, 8>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
                                [](auto k, auto a, auto b, auto rows, auto cols) {
                                  auto row = k.global_id_y();
                                  auto col = k.global_id();
                                  return w::when(row < rows && col < cols, b[row * cols + col] = a[row * cols + col] + 1.f);
                                }));

TEST_CASE("accepted: a guarded 2-D index row * n + col", "[checker][accept]") {
  const int rows = 37, cols = 45;
  const auto host = iota(rows * cols);
  auto a = w::to_device(host);
  w::device_buffer<float> b(host.size());
  const auto r = w::record(matrix_add_k, w::grid((cols + 15) / 16, (rows + 7) / 8), a, b, rows, cols);
  CHECK(r.clean());
  const auto out = w::to_host(b);
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(out[i] == host[i] + 1.f);
}

// A histogram with atomics: many threads, one bin.
WARDEN_KERNEL(histogram_accept_k, w::kernel<w::block<128>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & 7], 1));  // & keeps the bin in [0, 8)
}));

TEST_CASE("accepted: a histogram with atomics", "[checker][accept]") {
  std::vector<int> host(3000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 7919) % 101);
  auto in = w::to_device(host);
  auto bins = w::to_device(std::vector<int>(8, 0));
  const auto r = w::record(histogram_accept_k, w::grid_for(host.size()), in, bins);
  CHECK(r.clean());
  std::vector<int> expect(8, 0);
  for (int v : host) ++expect[static_cast<std::size_t>(v & 7)];
  CHECK(w::to_host(bins) == expect);
}

// A barrier under a uniform condition (a parameter and the block id): odd or even blocks reverse
// their slice in place through a tile.
WARDEN_KERNEL(uniform_barrier_k, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::value<int>>(
                                     [](auto k, auto in, auto out, auto parity) {
                                       return w::shared<float, 64>(k, [&](auto k, auto tile) {
                                         auto t = k.thread_id();
                                         auto i = k.global_id();
                                         return w::seq(tile[t] = in[i], w::sync(),
                                                       w::when(k.block_id() % 2 == parity,
                                                               w::local(k, tile[63 - t], [&](auto, auto v) {
                                                                 return w::seq(w::sync(), tile[t] = v, w::sync());
                                                               })),
                                                       out[i] = tile[t]);
                                       });
                                     }));

TEST_CASE("accepted: a barrier under a uniform condition", "[checker][accept]") {
  const auto host = iota(256);
  auto in = w::to_device(host);
  w::device_buffer<float> out(256);
  for (int parity : {0, 1}) {
    const auto r = w::record(uniform_barrier_k, w::grid(4), in, out, parity);
    CHECK(r.clean());
    const auto got = w::to_host(out);
    for (std::size_t i = 0; i < 256; ++i) {
      const std::size_t block = i / 64, t = i % 64;
      const bool reversed = static_cast<int>(block % 2) == parity;
      REQUIRE(got[i] == host[reversed ? block * 64 + 63 - t : i]);
    }
  }
}
