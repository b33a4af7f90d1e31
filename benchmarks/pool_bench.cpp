// The pool on the CPU (over host_resource) against malloc/free and std::pmr's pool resources:
//   same_size   one cached alloc+free pair per iteration (4 KiB, a size-class block; 8 MiB, a split block)
//   random      RMM's random-allocation pattern: 73% allocate, sizes up to 4 MiB, 1k/10k/100k allocations
//   threads     the same-size loop on 8 host threads sharing one allocator
// Run: build/default/benchmarks/pool_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <warden/memory/host_resource.hpp>
#include <warden/memory/memory_pool.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory_resource>
#include <random>
#include <vector>

namespace {

// Each allocator behind one interface, so every benchmark body is written once.
struct warden_pool {
  warden::memory_pool pool{warden::host_resource{}};
  struct handle {
    warden::pool_allocation a;
  };
  handle allocate(std::size_t bytes) { return {pool.allocate(bytes)}; }
  void deallocate(handle h, std::size_t) { pool.deallocate(h.a); }
};

struct malloc_free {
  struct handle {
    void* p;
  };
  handle allocate(std::size_t bytes) { return {std::malloc(bytes)}; }
  void deallocate(handle h, std::size_t) { std::free(h.p); }
};

template <class Resource>
struct pmr_pool {
  // Pools up to 4 MiB blocks, like the others; larger requests would go to the upstream anyway.
  Resource resource{std::pmr::pool_options{0, std::size_t{4} << 20}};
  struct handle {
    void* p;
  };
  handle allocate(std::size_t bytes) { return {resource.allocate(bytes, 256)}; }
  void deallocate(handle h, std::size_t bytes) { resource.deallocate(h.p, bytes, 256); }
};
using pmr_unsynchronized = pmr_pool<std::pmr::unsynchronized_pool_resource>;
using pmr_synchronized = pmr_pool<std::pmr::synchronized_pool_resource>;

template <class Allocator>
void same_size(benchmark::State& state) {
  Allocator allocator;
  const auto bytes = static_cast<std::size_t>(state.range(0));
  allocator.deallocate(allocator.allocate(bytes), bytes);  // warm the cache
  for (auto _ : state) {
    auto h = allocator.allocate(bytes);
    benchmark::DoNotOptimize(h);
    allocator.deallocate(h, bytes);
  }
  state.SetItemsProcessed(state.iterations());
}

// RMM's random_allocations: allocate with probability 73% (while under the memory cap), else
// free a random live block; sizes uniform in [1, 4 MiB]. One iteration runs the whole pattern.
template <class Allocator>
void random_pattern(benchmark::State& state) {
  Allocator allocator;
  const auto allocations = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t max_size = std::size_t{4} << 20;
  constexpr std::size_t cap = std::size_t{2} << 30;
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
        allocator.deallocate(live[i].first, live[i].second);
        in_use -= live[i].second;
        live[i] = live.back();
        live.pop_back();
      }
    }
    for (auto& [h, bytes] : live) allocator.deallocate(h, bytes);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(allocations));
}

// One allocator shared by all benchmark threads, for the whole run: made once, never destroyed
// while any benchmark thread may still exist (libstdc++'s synchronized_pool_resource keeps
// per-thread state that must not outlive it).
template <class Allocator>
void threads(benchmark::State& state) {
  static Allocator* const shared = new Allocator;
  const auto bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    auto h = shared->allocate(bytes);
    benchmark::DoNotOptimize(h);
    shared->deallocate(h, bytes);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

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
