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

// Issue 56: a local the loops step by shifts (GPUVerify's Blelloch scan, offset *= 2 and >>= 1)
// and w::convert between integral types, on the device against the cpu backend (CI builds this
// with nvcc; it runs where a GPU is lent).
constexpr unsigned scan_n = 128;
WARDEN_KERNEL(offset_scan_gpu_k, w::kernel<w::block<scan_n / 2>, w::in<unsigned>, w::out<unsigned>>([](auto k, auto len, auto out) {
  auto t = w::convert<unsigned>(k.thread_id());
  return w::shared<unsigned, scan_n>(k, [&](auto k, auto result) {
    return w::local(k, 1u, [&](auto k, auto offset) {
      return w::seq(
          result[2u * t] = len[2u * t], result[2u * t + 1u] = len[2u * t + 1u],
          w::for_range(k, 0, 7, [&](auto, auto i) {
            return w::seq(w::sync(),
                          w::when(t < ((scan_n / 2) >> i), result[offset * (2u * t + 2u) - 1u] = result[offset * (2u * t + 1u) - 1u] +
                                                                                               result[offset * (2u * t + 2u) - 1u]),
                          offset *= 2u);
          }),
          w::when(t == 0u, result[scan_n - 1] = 0u),
          w::for_range(k, 0, 7, [&](auto k, auto i) {
            auto ai = offset * (2u * t + 1u) - 1u;
            auto bi = offset * (2u * t + 2u) - 1u;
            return w::seq(offset >>= 1u, w::sync(), w::when(t < (1u << i), w::local(k, result[ai], [&](auto, auto temp) {
                                                             return w::seq(result[ai] = result[bi], result[bi] = result[bi] + temp);
                                                           })));
          }),
          w::sync(), out[2u * t] = result[2u * t], out[2u * t + 1u] = result[2u * t + 1u]);
    });
  });
}));

TEST_CASE("offset scan: a local stepped by shifts, on the device and the cpu backend", "[gpu][kernel]") {
  std::vector<unsigned> in(scan_n), want(scan_n);
  unsigned sum = 0;
  for (unsigned i = 0; i < scan_n; ++i) in[i] = (i * 7u + 3u) % 11u, want[i] = sum, sum += in[i];
  auto len = w::to_device(in);
  w::device_buffer<unsigned> out(scan_n);
  w::launch(offset_scan_gpu_k, w::grid(1), len, out);
  CHECK(w::to_host(out) == want);
  w::managed_buffer<unsigned> mlen(scan_n), mout(scan_n);
  for (unsigned i = 0; i < scan_n; ++i) mlen[i] = in[i];
  w::launch(w::on_cpu, offset_scan_gpu_k, w::grid(1), mlen, mout);
  for (unsigned i = 0; i < scan_n; ++i) REQUIRE(mout[i] == want[i]);
}
