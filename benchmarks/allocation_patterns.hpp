#pragma once
// The allocation patterns shared by the CPU and GPU pool benchmarks (docs/benchmarks.md), written once
// over an allocator interface:
//   typename A::handle;  A::handle allocate(std::size_t);  void deallocate(A::handle, std::size_t);
//   void synchronize();  static constexpr std::size_t memory_cap;  (bytes the random pattern may hold)
//
//   same_size       one allocate+free pair per iteration, after a warm-up pair
//   random_pattern  RMM's random_allocations: allocate with probability 73% while under the cap,
//                   else free a random live block; sizes uniform in [1, 4 MiB]; one iteration runs
//                   the whole pattern and synchronises
//   threads         same_size on several threads sharing one allocator that lives for the whole
//                   run (never destroyed: libstdc++'s synchronized_pool_resource keeps per-thread
//                   state that must not outlive it, and a GPU allocator must not outlive CUDA)

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace warden::bench {

template <class Allocator>
void same_size(benchmark::State& state) {
  Allocator allocator;
  const auto bytes = static_cast<std::size_t>(state.range(0));
  allocator.deallocate(allocator.allocate(bytes), bytes);
  for (auto _ : state) {
    auto h = allocator.allocate(bytes);
    benchmark::DoNotOptimize(h);
    allocator.deallocate(h, bytes);
  }
  allocator.synchronize();
  state.SetItemsProcessed(state.iterations());
}

template <class Allocator>
void random_pattern(benchmark::State& state) {
  Allocator allocator;
  const auto allocations = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t max_size = std::size_t{4} << 20;
  for (auto _ : state) {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::size_t> size(1, max_size);
    std::vector<std::pair<typename Allocator::handle, std::size_t>> live;
    std::size_t in_use = 0, done = 0;
    while (done < allocations) {
      const std::size_t bytes = size(rng);
      if ((rng() % 100 < 73 && in_use + bytes <= Allocator::memory_cap) || live.empty()) {
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
    allocator.synchronize();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(allocations));
}

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
  if (state.thread_index() == 0) shared->synchronize();  // every thread has left its loop by now
}

}  // namespace warden::bench
