// 8 threads x 100k operations on one pool: run under the tsan and asan presets as well.
#include <warden/memory/host_resource.hpp>
#include <warden/memory/memory_pool.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

TEST_CASE("8 threads x 100k operations keep every block intact and the statistics exact",
          "[memory_pool][stress]") {
  constexpr int threads = 8;
  constexpr int operations = 100'000;
  warden::host_resource upstream(std::size_t{8} << 30);
  warden::memory_pool pool(upstream);
  std::atomic<int> corrupted{0};
  std::atomic<std::uint64_t> allocations{0};

  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      // Half the threads share the default stream, half have a stream of their own.
      const warden::stream_ref stream =
          t % 2 == 0 ? warden::default_stream : warden::stream_ref(reinterpret_cast<void*>(0x10001 + 2 * t));
      std::mt19937_64 rng(static_cast<std::uint64_t>(t) * 7919 + 1);
      struct held {
        warden::pool_allocation allocation;
        unsigned char tag;
      };
      std::vector<held> live;
      auto release = [&](std::size_t i) {
        const auto* bytes = static_cast<const unsigned char*>(live[i].allocation.ptr);
        if (bytes[0] != live[i].tag || bytes[live[i].allocation.bytes - 1] != live[i].tag) ++corrupted;
        pool.deallocate(live[i].allocation, stream);
        live[i] = live.back();
        live.pop_back();
      };
      for (int op = 0; op < operations; ++op) {
        if (live.size() < 64 && (live.empty() || rng() % 100 < 55)) {
          // Mostly small blocks (the bins), sometimes large ones (split and coalesce).
          const std::size_t bytes = rng() % 16 == 0 ? 1 + rng() % (3u << 20) : 1 + rng() % 8192;
          const auto tag = static_cast<unsigned char>(rng());
          const warden::pool_allocation a = pool.allocate(bytes, stream);
          std::memset(a.ptr, tag, 1);
          std::memset(static_cast<unsigned char*>(a.ptr) + bytes - 1, tag, 1);
          live.push_back({a, tag});
          ++allocations;
        } else {
          release(rng() % live.size());
        }
      }
      while (!live.empty()) release(live.size() - 1);
    });
  for (auto& w : workers) w.join();

  CHECK(corrupted == 0);
  const warden::pool_stats s = pool.stats();
  CHECK(s.allocated_bytes == 0);
  CHECK(s.live_allocations == 0);
  CHECK(s.allocation_count == allocations.load());
  CHECK(s.deallocation_count == allocations.load());
  CHECK(s.reserved_bytes == upstream.used());
  pool.empty_cache();
  CHECK(upstream.used() == 0);
}
