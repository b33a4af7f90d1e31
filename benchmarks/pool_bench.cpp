// The pool on the CPU (over host_resource) against malloc/free and std::pmr's pool resources, on
// the patterns of allocation_patterns.hpp: same-size pairs (4 KiB, a size-class block; 8 MiB, a
// split block), RMM's random allocations (1k/10k/100k), and 8 host threads.
// Run: benchmarks/pool_report.py build/default/benchmarks/pool_bench
#include <warden/memory/host_resource.hpp>
#include <warden/memory/memory_pool.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory_resource>

#include "allocation_patterns.hpp"

namespace {

constexpr std::size_t cpu_cap = std::size_t{2} << 30;

struct warden_pool {
  static constexpr std::size_t memory_cap = cpu_cap;
  warden::memory_pool pool{warden::host_resource{}};
  using handle = warden::pool_allocation;
  handle allocate(std::size_t bytes) { return pool.allocate(bytes); }
  void deallocate(handle h, std::size_t) { pool.deallocate(h); }
  void synchronize() {}
};

struct malloc_free {
  static constexpr std::size_t memory_cap = cpu_cap;
  using handle = void*;
  handle allocate(std::size_t bytes) { return std::malloc(bytes); }
  void deallocate(handle h, std::size_t) { std::free(h); }
  void synchronize() {}
};

template <class Resource>
struct pmr_pool {
  static constexpr std::size_t memory_cap = cpu_cap;
  // Pools blocks up to 4 MiB, like the others cache them; larger ones would go upstream.
  Resource resource{std::pmr::pool_options{0, std::size_t{4} << 20}};
  using handle = void*;
  handle allocate(std::size_t bytes) { return resource.allocate(bytes, 256); }
  void deallocate(handle h, std::size_t bytes) { resource.deallocate(h, bytes, 256); }
  void synchronize() {}
};
using pmr_unsynchronized = pmr_pool<std::pmr::unsynchronized_pool_resource>;
using pmr_synchronized = pmr_pool<std::pmr::synchronized_pool_resource>;

}  // namespace

using warden::bench::random_pattern;
using warden::bench::same_size;
using warden::bench::threads;

BENCHMARK_TEMPLATE(same_size, warden_pool)->Arg(4096)->Arg(8 << 20);
BENCHMARK_TEMPLATE(same_size, malloc_free)->Arg(4096)->Arg(8 << 20);
BENCHMARK_TEMPLATE(same_size, pmr_unsynchronized)->Arg(4096)->Arg(8 << 20);
BENCHMARK_TEMPLATE(same_size, pmr_synchronized)->Arg(4096)->Arg(8 << 20);

BENCHMARK_TEMPLATE(random_pattern, warden_pool)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(random_pattern, malloc_free)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(random_pattern, pmr_unsynchronized)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(threads, warden_pool)->Arg(4096)->Threads(8)->UseRealTime();
BENCHMARK_TEMPLATE(threads, malloc_free)->Arg(4096)->Threads(8)->UseRealTime();
BENCHMARK_TEMPLATE(threads, pmr_synchronized)->Arg(4096)->Threads(8)->UseRealTime();

BENCHMARK_MAIN();
