// What a stated fact about data costs against the kernel it admits (issue 56, item 3), side by side
// at 2^20 and 2^26 elements: Parboil's JDS unsort, dst[perm[i]] = sums[i] under
// given(permutation(perm)) (tests/unit/jds_spmv_test.cpp ports the whole product). Built by the
// host compiler it runs on the cpu backend; built by nvcc (gpu/contents_facts_gpu_bench.cu) on
// the GPU, where the measurement is the device's passes (launch/contents_on_device.hpp).
//
//   BM_fact_measured/N    the launch's measurement of perm alone (launch/contents.hpp: least,
//                         greatest, distinct; what a write to perm makes the next launch pay)
//   BM_fact_downloaded/N  the same measured the host's way: a copy to the host and a scan (on a
//                         GPU, what the launch did before the device's passes)
//   BM_launch_cached/N    a repeated launch on an unchanged perm: the kernel, the fact read from
//                         the buffer's memo (measures nothing)
//   BM_launch_fresh/N     a launch after a write to perm: measurement, then the kernel
//
//   contents_facts_bench [--benchmark_filter=...]
#include <warden/warden.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace w = warden;

namespace {
constexpr auto unsort_body = [](auto k, auto perm, auto sums, auto dst) {
  auto ix = k.global_id();
  return w::given(w::permutation(perm), w::when(ix < perm.size() && ix < sums.size(), dst[perm[ix]] = sums[ix]));
};
}  // namespace
WARDEN_KERNEL(unsort_k, w::kernel<w::block<256>, w::in<int>, w::in<float>, w::out<float>>(unsort_body).named("unsort", "perm", "sums", "dst"));

namespace {

// The launches' work done before the clock stops (on a GPU, launches return before the kernel ends).
void settle() {
#if defined(__CUDACC__)
  if (w::detail::cuda_device_available()) WARDEN_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

struct unsort_data {
  w::device_buffer<int> perm;
  w::device_buffer<float> sums, dst;
  explicit unsort_data(std::size_t n) : perm(make_perm(n)), sums(w::to_device(std::vector<float>(n, 1.f))), dst(n) {}
  static w::device_buffer<int> make_perm(std::size_t n) {
    std::vector<int> p(n);
    // A stride coprime with n (a power of two): each of 0 .. n - 1 once.
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<int>((i * 40503u + 17u) % n);
    return w::to_device(p);
  }
};

void BM_fact_measured(benchmark::State& state) {
  unsort_data d(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    d.perm.contents_memo().valid = false;  // as after a write
    auto r = w::detail::contents_of(d.perm, true);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_fact_downloaded(benchmark::State& state) {
  unsort_data d(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    const auto copy = w::detail::download(d.perm);
    w::detail::contents_memo memo;
    w::detail::scan_contents(copy.data(), copy.size(), true, {}, memo);
    benchmark::DoNotOptimize(memo);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_launch_cached(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  unsort_data d(n);
  w::launch(unsort_k, w::grid_for(static_cast<int>(n)), d.perm, d.sums, d.dst);  // measures perm once
  const auto measured = w::detail::contents_measured();
  for (auto _ : state) {
    w::launch(unsort_k, w::grid_for(static_cast<int>(n)), d.perm, d.sums, d.dst);
    settle();
  }
  if (w::detail::contents_measured() != measured) state.SkipWithError("a launch on an unchanged perm measured it again");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_launch_fresh(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  unsort_data d(n);
  for (auto _ : state) {
    d.perm.contents_memo().valid = false;  // as after a write
    w::launch(unsort_k, w::grid_for(static_cast<int>(n)), d.perm, d.sums, d.dst);
    settle();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(BM_fact_measured)->Arg(1 << 20)->Arg(1 << 26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fact_downloaded)->Arg(1 << 20)->Arg(1 << 26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_launch_cached)->Arg(1 << 20)->Arg(1 << 26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_launch_fresh)->Arg(1 << 20)->Arg(1 << 26)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
