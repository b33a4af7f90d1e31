// The pool on a GPU (over cuda_resource) against cudaMalloc/cudaFree and cudaMallocAsync/
// cudaFreeAsync with the device pool's default release threshold (0: memory goes back at every
// synchronisation) and with it raised (memory stays cached in the driver). Same patterns as
// pool_bench.cpp: same-size loop, RMM's random allocations (one stream sync per pattern), 8 host threads.
// Run on a GPU machine: build/cuda/benchmarks/pool_gpu_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <warden/memory/cuda_resources.hpp>
#include <warden/memory/memory_pool.hpp>

#include <benchmark/benchmark.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

void check(cudaError_t status, const char* call) { warden::detail::cuda_check(status, call); }

struct warden_pool {
  warden::memory_pool pool{warden::cuda_resource{}};
  struct handle {
    warden::pool_allocation a;
  };
  handle allocate(std::size_t bytes) { return {pool.allocate(bytes)}; }
  void deallocate(handle h) { pool.deallocate(h.a); }
  void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
};

struct cuda_malloc {
  struct handle {
    void* p;
  };
  handle allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return {p};
  }
  void deallocate(handle h) { check(cudaFree(h.p), "cudaFree"); }
  void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
};

template <bool raised_threshold>
struct cuda_malloc_async {
  cuda_malloc_async() {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
    std::uint64_t threshold = raised_threshold ? UINT64_MAX : 0;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "cudaMemPoolSetAttribute");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~cuda_malloc_async() { cudaStreamDestroy(stream); }
  struct handle {
    void* p;
  };
  handle allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMallocAsync(&p, bytes, stream), "cudaMallocAsync");
    return {p};
  }
  void deallocate(handle h) { check(cudaFreeAsync(h.p, stream), "cudaFreeAsync"); }
  void synchronize() { check(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); }
  cudaStream_t stream = nullptr;
};
using async_default = cuda_malloc_async<false>;
using async_raised = cuda_malloc_async<true>;

template <class Allocator>
void same_size(benchmark::State& state) {
  Allocator allocator;
  const auto bytes = static_cast<std::size_t>(state.range(0));
  allocator.deallocate(allocator.allocate(bytes));
  for (auto _ : state) allocator.deallocate(allocator.allocate(bytes));
  allocator.synchronize();
  state.SetItemsProcessed(state.iterations());
}

template <class Allocator>
void random_pattern(benchmark::State& state) {
  Allocator allocator;
  const auto allocations = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t max_size = std::size_t{4} << 20;
  constexpr std::size_t cap = std::size_t{8} << 30;
  for (auto _ : state) {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::size_t> size(1, max_size);
    std::vector<std::pair<typename Allocator::handle, std::size_t>> live;
    std::size_t in_use = 0, done = 0;
    while (done < allocations) {
      const std::size_t bytes = size(rng);
      if ((rng() % 100 < 73 && in_use + bytes <= cap) || live.empty()) {
        live.emplace_back(allocator.allocate(bytes), bytes);
        in_use += bytes;
        ++done;
      } else {
        const std::size_t i = rng() % live.size();
        allocator.deallocate(live[i].first);
        in_use -= live[i].second;
        live[i] = live.back();
        live.pop_back();
      }
    }
    for (auto& [h, bytes] : live) allocator.deallocate(h);
    allocator.synchronize();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(allocations));
}

// One allocator for all threads and repetitions, never destroyed (nor at exit, after the CUDA
// runtime is gone).
template <class Allocator>
void threads(benchmark::State& state) {
  static Allocator* const shared = new Allocator;
  const auto bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) shared->deallocate(shared->allocate(bytes));
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) shared->synchronize();
}

}  // namespace

#define WARDEN_POOL_GPU_BENCHMARKS(allocator)                                                             \
  BENCHMARK_TEMPLATE(same_size, allocator)->Arg(4096)->Arg(8 << 20);                                      \
  BENCHMARK_TEMPLATE(random_pattern, allocator)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond); \
  BENCHMARK_TEMPLATE(threads, allocator)->Arg(4096)->Threads(8)->UseRealTime()

WARDEN_POOL_GPU_BENCHMARKS(warden_pool);
WARDEN_POOL_GPU_BENCHMARKS(cuda_malloc);
WARDEN_POOL_GPU_BENCHMARKS(async_default);
WARDEN_POOL_GPU_BENCHMARKS(async_raised);

BENCHMARK_MAIN();
