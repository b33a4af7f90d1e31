#pragma once
// Watching a pool: memory_pool::observe(thresholds, callback) calls `callback` when the pool's
// reserved bytes (held from its upstream) or allocated bytes (handed out to buffers) rise to a
// threshold or fall back below it, and when a request fails with out_of_memory.
//
//   pool.observe({.reserved = 8 << 30}, [](const w::pool_event& e) {
//     if (e.what == w::pool_event::kind::reserved_above) log("device pool holds", e.reserved, "bytes");
//   });
//
// The callback runs on the thread whose allocation, free or empty_cache crossed the threshold,
// after the pool's lock is released: it may allocate from the pool, read its stats or
// change its limit. Two threads' events may reach it in either order; `sequence` numbers them in
// the pool's own order (taken under its lock), so that above and below alternate per threshold.
// An exception from the callback on an allocation undoes it and reaches the caller as
// observer_error (E112); on a free it is reported on stderr and dropped (a free cannot throw).
// Hold a pool to a budget with set_limit, not with a throw. observe()
// with another callback, or none, does not wait for a call already running on another thread:
// what a callback captures must outlive the threads that use the pool, or be shared with it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace warden {

struct pool_event {
  enum class kind { reserved_above, reserved_below, allocated_above, allocated_below, out_of_memory };
  kind what = kind::reserved_above;
  std::size_t reserved = 0;   // the pool's reserved bytes just after the change
  std::size_t allocated = 0;  // its allocated bytes just after the change
  std::size_t threshold = 0;  // the threshold crossed (0 for out_of_memory)
  std::size_t requested = 0;  // out_of_memory: the request that failed
  std::uint64_t sequence = 0; // 1, 2, ...: the order in which the pool saw its events
  std::string_view space;     // the pool's memory space ("device", "pinned", ...)
};

// The thresholds watched; 0 watches nothing of that kind (out_of_memory is always reported).
struct pool_thresholds {
  std::size_t reserved = 0;
  std::size_t allocated = 0;
};

using pool_observer = std::function<void(const pool_event&)>;

namespace detail {

// The callback and its thresholds, shared with whoever is delivering events when it is replaced.
struct pool_watch {
  pool_thresholds thresholds;
  pool_observer callback;
};

}  // namespace detail

}  // namespace warden
