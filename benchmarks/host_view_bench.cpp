// Zero cost on the host: saxpy through typed views (element_ref proxies) against the same loop on
// raw pointers. The two should run at the same speed; run both in one process and compare.
#include <warden/memory/host_view.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

namespace access = warden::access;

// Arguments in the order a view pair is passed (pointer, size, pointer), so that the calling
// convention is the same for both and only the bodies are compared.
[[gnu::noinline]] void saxpy_raw(float a, const float* x, std::size_t n, float* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

[[gnu::noinline]] void saxpy_views(float a, warden::host_view<const float, access::read> x,
                 warden::host_view<float, access::read_write> y) {
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = a * x[i] + y[i];
}

void bm_saxpy_raw(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> x(n, 1.f), y(n, 2.f);
  for (auto _ : state) {
    saxpy_raw(1.0001f, x.data(), n, y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

void bm_saxpy_views(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> x(n, 1.f), y(n, 2.f);
  for (auto _ : state) {
    saxpy_views(1.0001f, warden::view_of<access::read>(x), warden::view_of<access::read_write>(y));
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

}  // namespace

BENCHMARK(bm_saxpy_raw)->RangeMultiplier(64)->Range(1 << 10, 1 << 22);
BENCHMARK(bm_saxpy_views)->RangeMultiplier(64)->Range(1 << 10, 1 << 22);

BENCHMARK_MAIN();
