// The pool on a GPU (over cuda_resource) against cudaMalloc/cudaFree and cudaMallocAsync/
// cudaFreeAsync with the device pool's default release threshold (0: memory goes back at every
// synchronisation) and with it raised (memory stays cached in the driver), on the patterns of
// allocation_patterns.hpp: same-size pairs, RMM's random allocations, 8 host threads.
// Run on a GPU machine: benchmarks/pool_report.py build/cuda/benchmarks/pool_gpu_bench
#include <warden/memory/cuda_resources.hpp>
#include <warden/memory/memory_pool.hpp>

#include <benchmark/benchmark.h>

#include <cuda_runtime.h>

#include <cstdint>

#include "allocation_patterns.hpp"

namespace {

constexpr std::size_t gpu_cap = std::size_t{8} << 30;

void check(cudaError_t status, const char* call) { warden::detail::cuda_check(status, call); }

struct warden_pool {
  static constexpr std::size_t memory_cap = gpu_cap;
  warden::memory_pool pool{warden::cuda_resource{}};
  using handle = warden::pool_allocation;
  handle allocate(std::size_t bytes) { return pool.allocate(bytes); }
  void deallocate(handle h, std::size_t) { pool.deallocate(h); }
  void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
};

struct cuda_malloc {
  static constexpr std::size_t memory_cap = gpu_cap;
  using handle = void*;
  handle allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  void deallocate(handle h, std::size_t) { check(cudaFree(h), "cudaFree"); }
  void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
};

template <bool raised_threshold>
struct cuda_malloc_async {
  static constexpr std::size_t memory_cap = gpu_cap;
  cuda_malloc_async() {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
    std::uint64_t threshold = raised_threshold ? UINT64_MAX : 0;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "cudaMemPoolSetAttribute");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }
  ~cuda_malloc_async() { warden::detail::cuda_check_noexcept(cudaStreamDestroy(stream), "cudaStreamDestroy"); }
  using handle = void*;
  handle allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMallocAsync(&p, bytes, stream), "cudaMallocAsync");
    return p;
  }
  void deallocate(handle h, std::size_t) { check(cudaFreeAsync(h, stream), "cudaFreeAsync"); }
  void synchronize() { check(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); }
  cudaStream_t stream = nullptr;
};
using async_default = cuda_malloc_async<false>;
using async_raised = cuda_malloc_async<true>;

}  // namespace

using warden::bench::random_pattern;
using warden::bench::same_size;
using warden::bench::threads;

#define WARDEN_POOL_GPU_BENCHMARKS(allocator)                                                   \
  BENCHMARK_TEMPLATE(same_size, allocator)->Arg(4096)->Arg(8 << 20);                            \
  BENCHMARK_TEMPLATE(random_pattern, allocator)                                                 \
      ->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);                      \
  BENCHMARK_TEMPLATE(threads, allocator)->Arg(4096)->Threads(8)->UseRealTime()

WARDEN_POOL_GPU_BENCHMARKS(warden_pool);
WARDEN_POOL_GPU_BENCHMARKS(cuda_malloc);
WARDEN_POOL_GPU_BENCHMARKS(async_default);
WARDEN_POOL_GPU_BENCHMARKS(async_raised);

BENCHMARK_MAIN();
