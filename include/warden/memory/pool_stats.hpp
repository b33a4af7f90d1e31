#pragma once
// pool_stats: a snapshot of one pool's counters (what warden::memory_stats() returns).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "../detail/format_bytes.hpp"

namespace warden {

struct pool_stats {
  std::size_t allocated_bytes = 0;       // handed out now, in block sizes (multiples of 256)
  std::size_t requested_bytes = 0;       // handed out now, as asked
  std::size_t peak_allocated_bytes = 0;
  std::size_t reserved_bytes = 0;        // held from the upstream resource
  std::size_t peak_reserved_bytes = 0;
  std::size_t cached_bytes = 0;          // reserved but not handed out: reserved - allocated
  std::size_t largest_cached_block = 0;  // the largest request the cache could serve without splitting segments
  double fragmentation = 0.0;            // 1 - largest_cached_block / cached_bytes (0 when nothing is cached)
  std::size_t limit_bytes = 0;           // 0: no limit
  std::size_t live_allocations = 0;
  std::uint64_t allocation_count = 0;    // successful allocate() calls, ever
  std::uint64_t deallocation_count = 0;
  std::uint64_t upstream_allocations = 0;  // segments obtained from the upstream, ever
  std::uint64_t upstream_releases = 0;     // segments given back, ever
  std::uint64_t cache_releases = 0;        // times the cache was emptied (empty_cache() or OOM recovery)
  std::uint64_t oom_count = 0;             // out_of_memory exceptions thrown
  // Streams the pool keeps a record of: those whose last free it has not seen passed, or that
  // hold cached blocks. Those that need neither are forgotten (a thread's per-thread default
  // stream, a warden::stream made per task), so this does not grow with every stream ever used.
  std::size_t tracked_streams = 0;

  std::string to_string() const {
    using detail::format_bytes;
    char counts[256];
    std::snprintf(counts, sizeof counts,
                  "; fragmentation %.3f; %zu live allocations; %llu allocations, %llu upstream "
                  "allocations, %llu releases, %llu out-of-memory",
                  fragmentation, live_allocations, static_cast<unsigned long long>(allocation_count),
                  static_cast<unsigned long long>(upstream_allocations),
                  static_cast<unsigned long long>(upstream_releases), static_cast<unsigned long long>(oom_count));
    return "allocated " + format_bytes(allocated_bytes) + " (peak " + format_bytes(peak_allocated_bytes) +
           "), reserved " + format_bytes(reserved_bytes) + " (peak " + format_bytes(peak_reserved_bytes) +
           "), cached " + format_bytes(cached_bytes) + " (largest block " + format_bytes(largest_cached_block) +
           "), limit " + (limit_bytes == 0 ? std::string("none") : format_bytes(limit_bytes)) + counts;
  }
};

}  // namespace warden
