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
#include <stdexcept>
#include <string>
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

TEST_CASE("an observer that throws on an allocation refuses it with E112, nothing leaked", "[pool][observer]") {
  // Issue 55: a budget enforced by throwing from the observer was dropped with a line on stderr,
  // and the program ran past it. Now the allocation that crossed the threshold is undone and the
  // caller gets observer_error (E112), with what the observer threw as its cause.
  w::host_resource upstream(64 * MiB);
  w::memory_pool pool(upstream);
  pool.observe({.allocated = 1 * MiB}, [](const w::pool_event& e) {
    if (e.what == kind::allocated_above) throw std::runtime_error("over the budget");
  });
  auto small = pool.allocate(MiB / 2);  // below the threshold: no event
  try {
    (void)pool.allocate(2 * MiB);
    FAIL("the observer's refusal was dropped");
  } catch (const w::observer_error& e) {
    const std::string what = e.what();
    CHECK(what.rfind("E112 [pool-observer] warden::memory_pool: the pool's observer threw on an allocation of 2097152 bytes (over the budget)", 0) == 0);
    CHECK(what.find("pool.set_limit(bytes)") != std::string::npos);
    REQUIRE(e.cause());
    CHECK_THROWS_WITH(std::rethrow_exception(e.cause()), "over the budget");
  }
  CHECK(pool.stats().allocated_bytes == small.bytes);  // the refused block went back
  CHECK(pool.stats().live_allocations == 1);
  pool.deallocate(small);  // a free that crosses nothing: the pool goes on
  CHECK(pool.stats().allocated_bytes == 0);
  // On a free nothing can throw: the observer's exception is reported on stderr and dropped.
  pool.observe({.allocated = 1 * MiB}, [](const w::pool_event& e) {
    if (e.what == kind::allocated_below) throw std::runtime_error("observer failed on a free");
  });
  auto big = pool.allocate(2 * MiB);
  pool.deallocate(big);
  CHECK(pool.stats().allocated_bytes == 0);
}

// E112's fix, as the message spells it: the budget as the pool's limit.
TEST_CASE("E112's fix: a budget held with set_limit", "[fix][E112]") {
  w::host_resource upstream(64 * MiB);
  w::memory_pool pool(upstream);
  pool.set_limit(1 * MiB);
  auto inside = pool.allocate(MiB / 2);
  CHECK_THROWS_AS(pool.allocate(2 * MiB), w::out_of_memory);
  CHECK(pool.stats().allocated_bytes == inside.bytes);
  pool.deallocate(inside);
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
