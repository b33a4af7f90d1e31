// memory_pool::observe (memory/pool_observer.hpp): the callback hears every crossing of a
// threshold, in both directions, and every out-of-memory, outside the pool's lock. The oracle is
// the pool's own numbers: sorted by sequence, each threshold's events alternate above and below,
// each event's bytes lie on the side of the threshold it names, and the last one agrees with the
// pool's final stats; several threads allocate and free at once (the test runs under tsan too).
#include <warden/memory/host_resource.hpp>
#include <warden/memory/memory_pool.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace w = warden;

namespace {

constexpr std::size_t MiB = 1024 * 1024;

struct event_log {
  std::mutex mutex;
  std::vector<w::pool_event> events;
  void add(const w::pool_event& e) {
    std::lock_guard lock(mutex);
    events.push_back(e);
  }
  std::vector<w::pool_event> sorted() {
    std::lock_guard lock(mutex);
    std::vector<w::pool_event> out = events;
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
    return out;
  }
};

using kind = w::pool_event::kind;

}  // namespace

TEST_CASE("the observer hears a threshold crossed both ways, and out-of-memory", "[pool][observer]") {
  w::host_resource upstream(64 * MiB);
  w::memory_pool pool(upstream, w::pool_options{.limit_bytes = 48 * MiB});
  event_log log;
  pool.observe({.reserved = 30 * MiB, .allocated = 10 * MiB}, [&](const w::pool_event& e) { log.add(e); });

  auto a = pool.allocate(6 * MiB);  // below both
  CHECK(log.sorted().empty());
  auto b = pool.allocate(6 * MiB);  // allocated 12 MiB: above 10
  auto events = log.sorted();
  REQUIRE(events.size() == 1);
  CHECK(events[0].what == kind::allocated_above);
  CHECK(events[0].allocated >= 10 * MiB);
  CHECK(events[0].threshold == 10 * MiB);
  CHECK(events[0].space == "host");

  pool.deallocate(b);  // back below 10
  events = log.sorted();
  REQUIRE(events.size() == 2);
  CHECK(events[1].what == kind::allocated_below);
  CHECK(events[1].allocated < 10 * MiB);

  auto c = pool.allocate(24 * MiB);  // reserved grows past 30
  events = log.sorted();
  CHECK(std::count_if(events.begin(), events.end(), [](const auto& e) { return e.what == kind::reserved_above; }) == 1);

  CHECK_THROWS_AS(pool.allocate(40 * MiB), w::out_of_memory);  // past the 48 MiB limit
  events = log.sorted();
  REQUIRE_FALSE(events.empty());
  CHECK(events.back().what == kind::out_of_memory);
  CHECK(events.back().requested == 40 * MiB);

  pool.deallocate(a);
  pool.deallocate(c);
  pool.empty_cache();  // reserved falls to 0: below 30
  events = log.sorted();
  CHECK(events.back().what == kind::reserved_below);
  CHECK(events.back().reserved == 0);

  pool.observe({}, {});  // stops watching
  auto d = pool.allocate(20 * MiB);
  CHECK(log.sorted().size() == events.size());
  pool.deallocate(d);
}

TEST_CASE("the observer runs outside the lock: it may use the pool", "[pool][observer]") {
  w::host_resource upstream(64 * MiB);
  w::memory_pool pool(upstream);
  int calls = 0;
  w::pool_stats seen;
  pool.observe({.allocated = 1 * MiB}, [&](const w::pool_event&) {
    ++calls;
    seen = pool.stats();                  // would deadlock under the pool's lock
    auto extra = pool.allocate(1024);     // and so would this
    pool.deallocate(extra);
  });
  auto a = pool.allocate(2 * MiB);
  CHECK(calls == 1);
  CHECK(seen.allocated_bytes >= 2 * MiB);
  pool.deallocate(a);
  CHECK(calls == 2);
}

TEST_CASE("an observer that throws is reported and dropped, and the pool goes on", "[pool][observer]") {
  w::host_resource upstream(64 * MiB);
  w::memory_pool pool(upstream);
  pool.observe({.allocated = 1 * MiB}, [](const w::pool_event&) { throw std::runtime_error("observer failed"); });
  auto a = pool.allocate(2 * MiB);
  CHECK(a.ptr != nullptr);
  pool.deallocate(a);
  CHECK(pool.stats().allocated_bytes == 0);
}

TEST_CASE("several threads: the events, in the pool's order, alternate and match the bytes", "[pool][observer]") {
  w::host_resource upstream(1024 * MiB);
  w::memory_pool pool(upstream);
  event_log log;
  const std::size_t threshold = 3 * MiB;
  pool.observe({.reserved = 64 * MiB, .allocated = threshold}, [&](const w::pool_event& e) { log.add(e); });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      // One crossing each at least, however the threads interleave: 4 MiB alone is above 3.
      pool.deallocate(pool.allocate(4 * MiB));
      std::vector<w::pool_allocation> held;
      for (int i = 0; i < 400; ++i) {
        if (held.size() < 3 && (i + t) % 3 != 0) held.push_back(pool.allocate((1 + (i + t) % 4) * 512 * 1024));
        else if (!held.empty()) {
          pool.deallocate(held.back());
          held.pop_back();
        }
        if (i % 97 == 0 && t == 0) pool.empty_cache();
      }
      for (auto& h : held) pool.deallocate(h);
    });
  for (auto& t : threads) t.join();
  pool.empty_cache();

  const auto events = log.sorted();
  REQUIRE_FALSE(events.empty());
  bool allocated_high = false, reserved_high = false;
  std::uint64_t sequence = 0;
  for (const auto& e : events) {
    CHECK(e.sequence == ++sequence);  // none lost, none twice
    switch (e.what) {
      case kind::allocated_above:
        CHECK_FALSE(allocated_high);
        CHECK(e.allocated >= threshold);
        allocated_high = true;
        break;
      case kind::allocated_below:
        CHECK(allocated_high);
        CHECK(e.allocated < threshold);
        allocated_high = false;
        break;
      case kind::reserved_above:
        CHECK_FALSE(reserved_high);
        CHECK(e.reserved >= 64 * MiB);
        reserved_high = true;
        break;
      case kind::reserved_below:
        CHECK(reserved_high);
        CHECK(e.reserved < 64 * MiB);
        reserved_high = false;
        break;
      case kind::out_of_memory:
        FAIL("no request failed");
    }
  }
  // The last word agrees with where the pool ended: everything freed, the cache emptied.
  CHECK_FALSE(allocated_high);
  CHECK_FALSE(reserved_high);
  CHECK(pool.stats().allocated_bytes == 0);
}
