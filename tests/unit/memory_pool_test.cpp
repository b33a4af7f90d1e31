// memory_pool on host_resource: the whole pool logic, checked without a GPU.
#include <warden/memory/host_resource.hpp>
#include <warden/memory/memory_pool.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "../support/device_space_resource.hpp"
#include "../support/scripted_clock.hpp"

namespace ps = warden::pool_sizes;
using warden::memory_pool;
using warden::pool_allocation;

namespace {

constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;

std::size_t block_size(std::size_t bytes) {
  return ps::is_small(bytes) ? ps::class_size(ps::class_index(bytes)) : ps::aligned_size(bytes);
}

// The model: the live blocks the pool handed out, by address. Each block is filled with a tag so
// that an overlap also shows as clobbered memory.
struct model {
  struct live {
    pool_allocation allocation;
    std::size_t size;
    unsigned char tag;
  };
  std::map<std::uintptr_t, live> blocks;
  std::size_t allocated = 0, requested = 0;

  void add(const pool_allocation& a, unsigned char tag) {
    const auto begin = reinterpret_cast<std::uintptr_t>(a.ptr);
    const std::size_t size = block_size(a.bytes);
    REQUIRE(begin % ps::alignment == 0);
    auto next = blocks.lower_bound(begin);
    if (next != blocks.end()) REQUIRE(begin + size <= next->first);
    if (next != blocks.begin()) {
      auto prev = std::prev(next);
      REQUIRE(prev->first + prev->second.size <= begin);
    }
    std::memset(a.ptr, tag, a.bytes);
    blocks.emplace(begin, live{a, size, tag});
    allocated += size;
    requested += a.bytes;
  }

  pool_allocation remove(std::map<std::uintptr_t, live>::iterator it) {
    const live& l = it->second;
    const auto* bytes = static_cast<const unsigned char*>(l.allocation.ptr);
    REQUIRE(bytes[0] == l.tag);
    REQUIRE(bytes[l.allocation.bytes - 1] == l.tag);
    REQUIRE(bytes[l.allocation.bytes / 2] == l.tag);
    allocated -= l.size;
    requested -= l.allocation.bytes;
    const pool_allocation a = l.allocation;
    blocks.erase(it);
    return a;
  }

  void check(const memory_pool& pool, const warden::host_resource& upstream) const {
    const warden::pool_stats s = pool.stats();
    REQUIRE(s.allocated_bytes == allocated);
    REQUIRE(s.requested_bytes == requested);
    REQUIRE(s.live_allocations == blocks.size());
    REQUIRE(s.cached_bytes == s.reserved_bytes - s.allocated_bytes);
    REQUIRE(s.reserved_bytes == upstream.used());
    REQUIRE(s.peak_allocated_bytes >= s.allocated_bytes);
    REQUIRE(s.peak_reserved_bytes >= s.reserved_bytes);
    REQUIRE(s.largest_cached_block <= s.cached_bytes);
    REQUIRE(s.fragmentation >= 0.0);
    REQUIRE(s.fragmentation <= 1.0);
  }
};

// Sizes like RMM's random-allocation benchmark (up to 4 MiB), with many small ones as well.
std::size_t random_size(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0: return 1 + rng() % 512;
    case 1: return 1 + rng() % (64 * KiB);
    case 2: return 1 + rng() % MiB;
    default: return 1 + rng() % (4 * MiB);
  }
}

}  // namespace

TEST_CASE("allocations are 256-byte aligned and zero bytes is an empty allocation", "[memory_pool]") {
  warden::host_resource upstream(1024 * MiB);
  memory_pool pool(upstream);
  const pool_allocation empty = pool.allocate(0);
  CHECK(empty.ptr == nullptr);
  CHECK(pool.stats().allocation_count == 0);
  pool.deallocate(empty);

  for (std::size_t bytes : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{1000},
                            MiB, MiB + 1, 12 * MiB + 3}) {
    const pool_allocation a = pool.allocate(bytes);
    CHECK(reinterpret_cast<std::uintptr_t>(a.ptr) % 256 == 0);
    CHECK(a.bytes == bytes);
    std::memset(a.ptr, 0xab, bytes);
    pool.deallocate(a);
  }
  CHECK(pool.stats().allocated_bytes == 0);
}

TEST_CASE("a freed block is reused by the next request of its size on the same stream", "[memory_pool]") {
  warden::host_resource upstream(1024 * MiB);
  memory_pool pool(upstream);
  for (std::size_t bytes : {std::size_t{3000}, 5 * MiB}) {
    const pool_allocation first = pool.allocate(bytes);
    pool.deallocate(first);
    const auto upstream_calls = pool.stats().upstream_allocations;
    const pool_allocation second = pool.allocate(bytes);
    CHECK(second.ptr == first.ptr);
    CHECK(pool.stats().upstream_allocations == upstream_calls);
    pool.deallocate(second);
  }
}

TEST_CASE("random allocation sequences agree with the model", "[memory_pool]") {
  warden::host_resource upstream(4096 * MiB);
  memory_pool pool(upstream);
  model m;
  std::mt19937_64 rng(20261121);
  unsigned char tag = 0;
  for (int step = 0; step < 20000; ++step) {
    if (m.blocks.empty() || rng() % 100 < 55) {
      const std::size_t bytes = random_size(rng);
      m.add(pool.allocate(bytes), ++tag);
    } else {
      auto it = m.blocks.begin();
      std::advance(it, static_cast<long>(rng() % m.blocks.size()));
      pool.deallocate(m.remove(it));
    }
    if (step % 500 == 0) m.check(pool, upstream);
    if (step % 5000 == 4999) pool.empty_cache();  // releasing must not disturb live blocks
  }
  m.check(pool, upstream);
  while (!m.blocks.empty()) pool.deallocate(m.remove(m.blocks.begin()));
  m.check(pool, upstream);
  pool.empty_cache();
  CHECK(pool.stats().reserved_bytes == 0);
  CHECK(upstream.used() == 0);
  CHECK(pool.stats().allocation_count == pool.stats().deallocation_count);
}

TEST_CASE("growing batches (N then N+1 blocks, each larger) reuse coalesced memory", "[memory_pool]") {
  warden::host_resource upstream(4096 * MiB);
  memory_pool pool(upstream);
  for (std::size_t n = 1; n <= 24; ++n) {
    std::vector<pool_allocation> batch;
    for (std::size_t i = 0; i < n; ++i) batch.push_back(pool.allocate(n * 300 * KiB + 1000));
    const auto s = pool.stats();
    // Reserved memory follows what the batch needs, not the sum of all batches so far.
    CHECK(s.reserved_bytes <= 2 * s.allocated_bytes + ps::large_segment);
    for (const auto& a : batch) pool.deallocate(a);
  }
  const std::size_t last_batch = 24 * block_size(24 * 300 * KiB + 1000);
  CHECK(pool.stats().peak_reserved_bytes <= 2 * last_batch + ps::large_segment);
  // Everything is free and coalesced back into whole segments, so all of it can be returned.
  pool.empty_cache();
  CHECK(pool.stats().reserved_bytes == 0);
}

TEST_CASE("a limit in bytes: the cache is released and the request retried before out_of_memory",
          "[memory_pool]") {
  warden::host_resource upstream(1024 * MiB);
  memory_pool pool(upstream, {.limit_bytes = 24 * MiB});
  CHECK(pool.limit() == 24 * MiB);

  // Fill 20 MiB with small class blocks, free them: they stay cached in the bins.
  std::vector<pool_allocation> small;
  for (int i = 0; i < 80; ++i) small.push_back(pool.allocate(256 * KiB));
  for (const auto& a : small) pool.deallocate(a);
  const auto cached = pool.stats();
  CHECK(cached.allocated_bytes == 0);
  CHECK(cached.reserved_bytes >= 20 * MiB);

  // 16 MiB does not fit beside the cache, but fits once the cache is released.
  const pool_allocation big = pool.allocate(16 * MiB);
  auto s = pool.stats();
  CHECK(s.cache_releases == 1);
  CHECK(s.oom_count == 0);
  CHECK(s.reserved_bytes <= 24 * MiB);

  // 16 MiB more cannot fit at all: out_of_memory, with the request and the statistics.
  try {
    (void)pool.allocate(16 * MiB);
    FAIL("allocate past the limit must throw");
  } catch (const warden::out_of_memory& e) {
    const std::string what = e.what();
    CHECK(e.requested_bytes() == 16 * MiB);
    CHECK(what.find("out of memory allocating 16.00 MiB") != std::string::npos);
    CHECK(what.find("limit 24.00 MiB") != std::string::npos);
    CHECK(what.find("allocated 16.00 MiB") != std::string::npos);
  }
  s = pool.stats();
  CHECK(s.oom_count == 1);
  CHECK(s.allocated_bytes == 16 * MiB);  // the failed request lost nothing

  pool.deallocate(big);
  const pool_allocation again = pool.allocate(20 * MiB);  // the pool still works
  CHECK(again.ptr != nullptr);
  pool.deallocate(again);
}

TEST_CASE("a limit as a fraction of the upstream's capacity", "[memory_pool]") {
  warden::host_resource upstream(64 * MiB);
  memory_pool pool(upstream, {.limit_fraction = 0.5});
  CHECK(pool.limit() == 32 * MiB);
  CHECK_THROWS_AS(pool.allocate(40 * MiB), warden::out_of_memory);
  pool.set_limit_fraction(0.75);
  CHECK(pool.limit() == 48 * MiB);
  const pool_allocation a = pool.allocate(40 * MiB);
  pool.deallocate(a);
  pool.set_limit(16 * MiB);  // both set: the smaller wins
  CHECK(pool.limit() == 16 * MiB);
}

TEST_CASE("an upstream that runs out: recovery, then out_of_memory", "[memory_pool]") {
  warden::host_resource upstream(32 * MiB);  // a "device" of 32 MiB
  memory_pool pool(upstream);
  const pool_allocation a = pool.allocate(12 * MiB);  // own segment: 12 MiB
  const pool_allocation b = pool.allocate(12 * MiB);
  pool.deallocate(a);                                 // cached
  const pool_allocation c = pool.allocate(14 * MiB);  // needs a's memory back from the cache
  CHECK(pool.stats().cache_releases == 1);
  CHECK_THROWS_AS(pool.allocate(20 * MiB), warden::out_of_memory);
  pool.deallocate(b);
  pool.deallocate(c);
  pool.empty_cache();
  CHECK(upstream.used() == 0);
}

TEST_CASE("stream-ordered reuse: another stream waits for the freeing stream's event", "[memory_pool]") {
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  warden::testing::device_space_resource upstream(1024 * MiB);  // device memory: s1's own work runs in order
  memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), upstream);
  const warden::stream_ref s1(reinterpret_cast<void*>(0x1001));
  const warden::stream_ref s2(reinterpret_cast<void*>(0x2001));

  // A bin block, and a block that fills its own segment (so s2 has no other free memory to prefer).
  for (std::size_t bytes : {std::size_t{4096}, 12 * MiB}) {
    INFO("bytes = " << bytes);
    const pool_allocation a = pool.allocate(bytes, s1);
    pool.deallocate(a, s1);  // s1 may still be using it

    const pool_allocation on_s1 = pool.allocate(bytes, s1);  // same stream: at once
    CHECK(on_s1.ptr == a.ptr);
    pool.deallocate(on_s1, s1);

    const pool_allocation on_s2 = pool.allocate(bytes, s2);  // s1 has not finished: not that block
    CHECK(on_s2.ptr != a.ptr);

    warden::testing::finish(*state, s1);  // s1's event completes
    const pool_allocation later = pool.allocate(bytes, s2);
    CHECK(later.ptr == a.ptr);
    pool.deallocate(on_s2, s2);
    pool.deallocate(later, s2);
    warden::testing::finish(*state, s2);
  }
}

namespace {
// An upstream whose memory is usable in the allocating stream's order only, as cudaMallocAsync's.
class stream_ordered_resource : public warden::testing::device_space_resource {
 public:
  static constexpr bool stream_ordered = true;
  using device_space_resource::device_space_resource;
};
}  // namespace

TEST_CASE("a stream-ordered upstream's memory reaches another stream only after the stream that allocated it",
          "[memory_pool][stream-ordered]") {
  // Issue 55: a pool over cuda_async_resource handed the rest of a segment that cudaMallocAsync
  // had allocated on one stream to another stream at once, unordered after the allocation.
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  stream_ordered_resource upstream(1024 * MiB);
  memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), upstream);
  const warden::stream_ref a(reinterpret_cast<void*>(0x3001));
  const warden::stream_ref b(reinterpret_cast<void*>(0x4001));
  const pool_allocation first = pool.allocate(4096, a);  // a new segment, allocated on a
  CHECK(first.freed_on == a);  // its user's first use elsewhere waits for the allocation
  CHECK(first.freed_at != 0);
  const std::size_t one_segment = pool.stats().reserved_bytes;
  const pool_allocation on_b = pool.allocate(4096, b);  // not the segment's rest: a has not passed it
  CHECK(pool.stats().reserved_bytes > one_segment);
  const std::size_t two_segments = pool.stats().reserved_bytes;
  warden::testing::finish(*state, a);
  const pool_allocation later = pool.allocate(4096, b);  // now the rest of a's segment may serve b
  CHECK(pool.stats().reserved_bytes == two_segments);
  pool.deallocate(first, a);
  pool.deallocate(on_b, b);
  pool.deallocate(later, b);
  // A synchronous upstream records no fence for a new segment.
  warden::testing::device_space_resource plain(1024 * MiB);
  memory_pool direct(std::make_unique<warden::testing::scripted_clock>(state), plain);
  const pool_allocation x = direct.allocate(4096, a);
  CHECK(x.freed_at == 0);
  CHECK(direct.stats().reserved_bytes > 0);
  const pool_allocation y = direct.allocate(4096, b);
  direct.deallocate(x, a);
  direct.deallocate(y, b);
}

TEST_CASE("streams whose frees are passed and that hold no cached block are forgotten", "[memory_pool][streams]") {
  // A thread per task, each freeing on its per-thread default stream, or a warden::stream per
  // task: the pool's stream list (scanned by every free and every search for another stream's
  // block) must not keep every stream ever used.
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  warden::testing::device_space_resource upstream(1024 * MiB);
  memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), upstream);
  const warden::stream_ref keeper(reinterpret_cast<void*>(0x7001));
  const pool_allocation held = pool.allocate(4096, keeper);
  pool.deallocate(held, keeper);  // keeper's free is never passed: it stays on the list
  const pool_allocation big = pool.allocate(12 * MiB, keeper);
  for (std::uintptr_t task = 0; task < 1000; ++task) {
    const warden::stream_ref s(reinterpret_cast<void*>(0x100001 + 2 * task));
    const pool_allocation a = pool.allocate(4096, s);
    pool.deallocate(a, s);
    warden::testing::finish(*state, s);  // the task's stream is done
  }
  CHECK(pool.stats().tracked_streams <= 32);
  // keeper still counts: its block is not handed to another stream before keeper passes the free.
  const warden::stream_ref other(reinterpret_cast<void*>(0x9001));
  const pool_allocation on_other = pool.allocate(4096, other);
  CHECK(on_other.ptr != held.ptr);
  // A stream whose free is passed but whose block is still cached stays listed: another stream
  // finds that block (take_free looks for other streams' blocks through the list).
  const warden::stream_ref done(reinterpret_cast<void*>(0xb001));
  const pool_allocation cached = pool.allocate(12 * MiB, done);
  pool.deallocate(cached, done);
  warden::testing::finish(*state, done);
  for (std::uintptr_t task = 1000; task < 2000; ++task) {
    const warden::stream_ref s(reinterpret_cast<void*>(0x100001 + 2 * task));
    pool.deallocate(pool.allocate(4096, s), s);
    warden::testing::finish(*state, s);
  }
  const std::uint64_t segments = pool.stats().upstream_allocations;
  const warden::stream_ref late(reinterpret_cast<void*>(0xa001));
  const pool_allocation late_block = pool.allocate(12 * MiB, late);
  CHECK(late_block.ptr == cached.ptr);
  CHECK(pool.stats().upstream_allocations == segments);
  pool.deallocate(big, keeper);
  warden::testing::finish(*state, keeper);
  const pool_allocation reused = pool.allocate(12 * MiB, late);
  CHECK(reused.ptr == big.ptr);
  pool.deallocate(on_other, other);
  pool.deallocate(late_block, late);
  pool.deallocate(reused, late);
  warden::testing::finish(*state, other);
  warden::testing::finish(*state, late);
  pool.empty_cache();
  CHECK(upstream.used() == 0);
}

TEST_CASE("memory the host reaches is reused only once its stream has passed the free, on that stream too",
          "[memory_pool][host-visible]") {
  // A pinned staging block freed on s while a copy queued on s still reads it: handing it to the
  // next request on s at once would let the host overwrite what the copy has not yet read.
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  warden::host_resource upstream(1024 * MiB);  // space::host: the host writes a new block at once
  memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), upstream);
  CHECK(pool.host_accessible());
  const warden::stream_ref s(reinterpret_cast<void*>(0x1001));
  for (std::size_t bytes : {std::size_t{4096}, 12 * MiB}) {
    INFO("bytes = " << bytes);
    const pool_allocation a = pool.allocate(bytes, s);
    pool.deallocate(a, s);  // a copy on s may still read it
    const pool_allocation next = pool.allocate(bytes, s);
    CHECK(next.ptr != a.ptr);
    warden::testing::finish(*state, s);  // the copy has run
    const pool_allocation later = pool.allocate(bytes, s);
    CHECK(later.ptr == a.ptr);
    pool.deallocate(next, s);
    pool.deallocate(later, s);
    warden::testing::finish(*state, s);
  }
}

TEST_CASE("empty_cache waits for the streams, then returns every free segment", "[memory_pool]") {
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  warden::host_resource upstream(1024 * MiB);
  memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), upstream);
  const warden::stream_ref s(reinterpret_cast<void*>(0x3001));
  const pool_allocation kept = pool.allocate(3 * MiB, s);
  const pool_allocation freed = pool.allocate(30 * MiB, s);
  pool.deallocate(freed, s);
  pool.empty_cache();
  CHECK(state->waits > 0);
  const auto stats = pool.stats();
  CHECK(stats.reserved_bytes == ps::large_segment);  // only the segment holding `kept`
  CHECK(stats.upstream_releases == 1);
  CHECK(upstream.used() == stats.reserved_bytes);
  pool.deallocate(kept, s);
}

#if WARDEN_POOL_DEBUG
TEST_CASE("in debug builds a pool reports blocks still live at destruction", "[memory_pool]") {
  char path[] = "/tmp/warden_leak_XXXXXX";
  const int file = mkstemp(path);
  REQUIRE(file >= 0);
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(file, 2);
  int leak_line = 0;
  {
    warden::host_resource upstream(64 * MiB);
    memory_pool pool(upstream);
    leak_line = __LINE__ + 1;
    (void)pool.allocate(1234);
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string report(4096, '\0');
  const auto n = pread(file, report.data(), report.size(), 0);
  close(file);
  unlink(path);
  report.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  CHECK(report.find("leaked 1234 bytes") != std::string::npos);
  CHECK(report.find("memory_pool_test.cpp:" + std::to_string(leak_line)) != std::string::npos);
}
#endif
