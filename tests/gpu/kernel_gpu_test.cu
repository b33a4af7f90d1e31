// The same kernels on the device and on the cpu reference backend give the same results.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <vector>

#include "../../examples/reverse_block/reverse_block.hpp"
#include "../../examples/saxpy/saxpy.hpp"

namespace w = warden;

WARDEN_KERNEL(histogram_gpu_k, w::kernel<w::block<128>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & 15], 1));
}));

TEST_CASE("saxpy: device and cpu backend agree", "[gpu][kernel]") {
  const std::size_t n = 100'003;
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5f * static_cast<float>(i % 101), y[i] = static_cast<float>(i % 7);
  auto dx = w::to_device(x);
  auto dy = w::to_device(y);
  w::launch(examples::saxpy, w::grid_for(n), dx, dy, 3.f);
  w::managed_buffer<float> mx(n), my(n);
  w::copy(mx, dx);  // x is unchanged; y gets the cpu backend's own run below
  for (std::size_t i = 0; i < n; ++i) my[i] = y[i];
  w::launch(w::on_cpu, examples::saxpy, w::grid_for(n), mx, my, 3.f);
  const auto device = w::to_host(dy);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(device[i] == Approx(my[i]));
}

TEST_CASE("reverse_block: device and cpu backend agree exactly", "[gpu][kernel]") {
  const std::size_t n = 256 * 1000;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  auto din = w::to_device(in);
  w::device_buffer<float> dout(n);
  w::launch(examples::reverse_block, w::grid_for(n), din, dout);
  w::managed_buffer<float> min(n), mout(n);
  w::copy(min, din);
  w::launch(w::on_cpu, examples::reverse_block, w::grid_for(n), min, mout);
  const auto device = w::to_host(dout);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(device[i] == mout[i]);
}

TEST_CASE("atomics: device and cpu backend agree", "[gpu][kernel][atomic]") {
  std::vector<int> in(1 << 20);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>((i * 2654435761u) >> 7);
  auto din = w::to_device(in);
  auto bins = w::to_device(std::vector<int>(16, 0));
  w::launch(histogram_gpu_k, w::grid_for(in.size()), din, bins);
  w::managed_buffer<int> mbins(16);
  for (int b = 0; b < 16; ++b) mbins[b] = 0;
  w::managed_buffer<int> min(in.size());
  w::copy(min, din);
  w::launch(w::on_cpu, histogram_gpu_k, w::grid_for(in.size()), min, mbins);
  const auto device = w::to_host(bins);
  for (int b = 0; b < 16; ++b) REQUIRE(device[b] == mbins[b]);
}

TEST_CASE("a kernel_definition launched without a handle runs too (program passed as an argument)", "[gpu][kernel]") {
  static constexpr auto fill = w::kernel<w::block<64>, w::out<int>, w::value<int>>([](auto k, auto out, auto v) {
    auto i = k.global_id();
    return w::when(i < out.size(), out[i] = v + i);
  });
  w::device_buffer<int> out(1000);
  w::launch(fill, w::grid_for(1000), out, 5);
  const auto r = w::to_host(out);
  for (int i = 0; i < 1000; ++i) REQUIRE(r[i] == 5 + i);
}

WARDEN_KERNEL(two_halves_gpu_k, w::kernel<w::block<128>, w::in<int>, w::out<int>, w::out<int>>([](auto k, auto src, auto low, auto high) {
  auto i = k.global_id();
  return w::seq(w::when(i < src.size() && i < low.size(), low[i] = src[i] + 1),
                w::when(i < src.size() && i < high.size(), high[i] = src[i] * 2));
}));

TEST_CASE("views: disjoint parts of one device buffer written by one launch, on the device and the cpu backend",
          "[gpu][kernel][view]") {
  const std::size_t n = 1000;
  std::vector<int> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<int>(i);
  auto dsrc = w::to_device(src);
  w::device_buffer<int> device_out(2 * n + 8), cpu_out(2 * n + 8);
  w::launch(two_halves_gpu_k, w::grid_for(n), dsrc, w::view(device_out, 0, n), w::view(device_out, n + 8, n));
  w::launch(w::on_cpu, two_halves_gpu_k, w::grid_for(n), dsrc, w::view(cpu_out, 0, n), w::view(cpu_out, n + 8, n));
  const auto device = w::to_host(device_out), cpu = w::to_host(cpu_out);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(device[i] == static_cast<int>(i) + 1);
    REQUIRE(device[n + 8 + i] == 2 * static_cast<int>(i));
    REQUIRE(cpu[i] == device[i]);
    REQUIRE(cpu[n + 8 + i] == device[n + 8 + i]);
  }
}
