// w::tuned on the GPU: each tuned kernel of benchmarks/tuned/tuned_kernels.hpp (the fast reduction's
// first pass, the fast histogram, the tiled matmul) at several sizes, launched as the tuned kernel
// and as each of its candidates alone (tuned_kernel::kernel_for<C>: the very kernel the tuner
// launches). benchmarks/tuned_report.py says how often the tuned choice is within 2% of the best
// fixed candidate (scripts/gpu-bench writes its table into docs/benchmarks.md).
//
// Timing as in examples_gpu_bench.cu: a 2 ms spin kernel holds the GPU while the host enqueues
// `iterations` launches between two events, so the events measure the GPU's work, not the
// host's launch path. The tuned case measures its key (the first launch, in the setup, untimed:
// tuning happens once per key and process), then every timed launch costs one lookup. Each case
// checks its result once before it is timed. The tuning cache is a fresh folder per run.
//
//   tuned_gpu_bench --benchmark_repetitions=5 --benchmark_out=tuned.json --benchmark_out_format=json
//   tuned_gpu_bench --benchmark_list_tests        (works without a GPU)
#include <warden/warden.hpp>
#include <warden/tuned.hpp>

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../tuned/tuned_kernels.hpp"
#include "gpu_timer.cuh"

namespace w = warden;
namespace tk = tuned_kernels;

namespace {

int iterations = 20;

// Seconds per launch of `work`, enqueued `iterations` times behind the timer's spin.
double seconds_per_launch(const std::function<void()>& work) {
  return gpu_bench::timer().seconds([&] {
           for (int i = 0; i < iterations; ++i) work();
         }) /
         iterations;
}

using gpu_bench::timer;

// Variant -1 is the tuned kernel; 0.. the candidates, in the list's order.
template <class Tuned, class F>
void with_variant(const Tuned&, int variant, F&& f) {
  if (variant < 0) f(Tuned{});
  else Tuned::dispatch(variant, f);
}

template <class Tuned>
std::string variant_name(int variant) {
  return variant < 0 ? std::string("tuned") : Tuned::candidates()[static_cast<std::size_t>(variant)];
}

void reduce_case(benchmark::State& state, int variant) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>(i % 17) * 0.25f;
  const double want = [&] {
    double s = 0;
    for (float v : h) s += v;
    return s;
  }();
  auto in = w::to_device(h, timer().ref());
  const long long blocks = std::min<long long>(132 * 4, static_cast<long long>((n / 4 + 255) / 256));
  w::device_buffer<float> partial(static_cast<std::size_t>(blocks), timer().ref());
  const auto config = w::grid(blocks).on(timer().ref());
  auto work = [&] { with_variant(tk::reduce, variant, [&](auto k) { w::launch(k, config, in, partial); }); };
  work();  // the tuned kernel measures its key here
  const std::vector<float> parts = w::to_host(partial);
  double got = 0;
  for (float v : parts) got += v;
  if (std::abs(got - want) > 1e-3 * want) state.SkipWithError("reduce: wrong sum");
  if (variant < 0) state.SetLabel(tk::reduce.choice(in, partial).value_or("?"));
  for (auto _ : state) state.SetIterationTime(seconds_per_launch(work));
  state.SetBytesProcessed(static_cast<long long>(state.iterations()) * static_cast<long long>(n * sizeof(float)));
}

void histogram_case(benchmark::State& state, int variant) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<int>((i * 2654435761u) >> 7) & 1023;
  auto in = w::to_device(h, timer().ref());
  auto bins = w::to_device(std::vector<int>(256, 0), timer().ref());
  const long long blocks = std::min<long long>(132 * 8, static_cast<long long>((n / 4 + 255) / 256));
  const auto config = w::grid(blocks).on(timer().ref());
  auto work = [&] { with_variant(tk::histogram, variant, [&](auto k) { w::launch(k, config, in, bins); }); };
  work();
  std::vector<int> want(256, 0);
  for (int v : h) ++want[static_cast<std::size_t>(v & 255)];
  if (w::to_host(bins) != want) state.SkipWithError("histogram: wrong counts");
  if (variant < 0) state.SetLabel(tk::histogram.choice(in, bins).value_or("?"));
  for (auto _ : state) state.SetIterationTime(seconds_per_launch(work));
  state.SetBytesProcessed(static_cast<long long>(state.iterations()) * static_cast<long long>(n * sizeof(int)));
}

void matmul_case(benchmark::State& state, int variant) {
  const int n = static_cast<int>(state.range(0));
  std::vector<float> a(static_cast<std::size_t>(n) * n), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3.f, b[i] = static_cast<float>(i % 5) - 2.f;
  auto da = w::to_device(a, timer().ref()), db = w::to_device(b, timer().ref());
  w::device_buffer<float> dc(a.size(), timer().ref());
  const auto config = w::grid_for(static_cast<std::size_t>(n), static_cast<std::size_t>(n)).on(timer().ref());
  auto work = [&] { with_variant(tk::matmul, variant, [&](auto k) { w::launch(k, config, da, db, dc, n); }); };
  work();
  const std::vector<float> c = w::to_host(dc);
  for (int s = 0; s < 64; ++s) {  // 64 entries checked on the host
    const int r = (s * 97) % n, col = (s * 131) % n;
    float want = 0;
    for (int j = 0; j < n; ++j) want += a[static_cast<std::size_t>(r) * n + j] * b[static_cast<std::size_t>(j) * n + col];
    if (c[static_cast<std::size_t>(r) * n + col] != want) {
      state.SkipWithError("matmul: wrong product");
      break;
    }
  }
  if (variant < 0) state.SetLabel(tk::matmul.choice(da, db, dc, n).value_or("?"));
  for (auto _ : state) state.SetIterationTime(seconds_per_launch(work));
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
}

template <class Tuned>
void add(const char* family, void (*run)(benchmark::State&, int), std::initializer_list<long long> sizes) {
  for (int variant = -1; variant < static_cast<int>(Tuned::size); ++variant)
    for (long long size : sizes)
      benchmark::RegisterBenchmark((std::string(family) + "/" + variant_name<Tuned>(variant)).c_str(),
                                   [run, variant](benchmark::State& s) { run(s, variant); })
          ->Arg(size)
          ->UseManualTime()
          ->Iterations(iterations)
          ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string flag = "--warden_iterations=";
  bool list_only = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) == 0) {
      iterations = std::max(1, std::atoi(arg.c_str() + flag.size()));
      continue;
    }
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true") list_only = true;
    argv[kept++] = argv[i];
  }
  argc = kept;
  add<std::remove_cvref_t<decltype(tk::reduce)>>("reduce", reduce_case, {1 << 16, 1 << 20, 1 << 24, 1 << 26});
  add<std::remove_cvref_t<decltype(tk::histogram)>>("histogram", histogram_case, {1 << 16, 1 << 20, 1 << 24});
  add<std::remove_cvref_t<decltype(tk::matmul)>>("matmul", matmul_case, {256, 512, 1024, 2048});
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  if (!list_only && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
    std::printf("tuned_gpu_bench: no CUDA device; nothing to measure\n");
    return 0;
  }
  // A fresh cache: every tuned case measures its key in this run.
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / "warden_tuned_gpu_bench";
  std::filesystem::remove_all(cache);
  w::tuning::set_cache_directory(cache);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
