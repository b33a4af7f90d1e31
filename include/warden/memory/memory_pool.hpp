#pragma once
// memory_pool: warden's caching, stream-ordered allocator (proposals/0001-memory-model.md), over any upstream_resource.
//
// Two levels, both under one mutex:
//  * bins: one per size class (<= 1 MiB, memory/size_class.hpp). A freed class block goes back to
//    its bin, kept per stream; the next request of that class on that stream pops it: O(1).
//  * segments: memory obtained from the upstream, split into blocks. Free blocks sit in ordered
//    sets keyed (stream, size, address), so best fit is a lower_bound: O(log n). A freed block is
//    coalesced with free neighbours of the same stream. Class blocks are carved from 2 MiB
//    segments, larger ones from 20 MiB segments (or their own beyond 10 MiB), so small blocks do
//    not pin big segments.
// Stream order: a block freed on stream s is reused on s at once (s runs in order), and on another
// stream only once the stream_clock says s has passed the free. Memory the host can reach (pinned,
// managed, host) waits for the clock on s too: the host writes into a new buffer at once, while a
// copy queued on s may still be reading the old one. Memory returns to the upstream only
// from empty_cache(), out-of-memory recovery and the destructor, each after waiting for the streams.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/program_names.hpp"
#include "../detail/source_location.hpp"
#include "../error.hpp"
#include "../stream.hpp"
#include "pool_observer.hpp"
#include "pool_stats.hpp"
#include "stream_clock.hpp"
#include "upstream_resource.hpp"

namespace warden {

struct pool_options {
  std::size_t limit_bytes = 0;  // reserved memory may not exceed this; 0: no limit
  double limit_fraction = 0.0;  // ... nor this fraction of the upstream's capacity; 0: no limit
};

namespace detail {

// The pool's blocks and everything that holds them differ with WARDEN_POOL_DEBUG (a debug block
// records its request and where it was made), and WARDEN_POOL_DEBUG follows each translation unit's
// NDEBUG: so they live in an inline namespace named after the mode (config.hpp, WARDEN_POOL_ABI),
// and a debug and a release translation unit linked together get distinct types, functions and
// default pools instead of one definition with two layouts (docs/memory.md, "Pools").
inline namespace WARDEN_POOL_ABI {
struct pool_segment;

struct pool_block {
  std::byte* ptr = nullptr;
  std::size_t size = 0;
  pool_segment* segment = nullptr;
  pool_block* prev = nullptr;  // address-order neighbours inside the segment
  pool_block* next = nullptr;
  stream_ref stream;           // the stream that last freed it (or holds it)
  ticket fence = 0;            // that stream's ticket at the free
  int size_class = -1;         // >= 0: a class block; when free it lives in its bin
  bool free = true;
#if WARDEN_POOL_DEBUG
  std::size_t requested = 0;
  detail::source_location where{};
#endif
};

struct pool_segment {
  std::byte* base = nullptr;
  std::size_t size = 0;
  bool small = false;  // holds class blocks
  pool_block* first = nullptr;
};
}  // inline namespace WARDEN_POOL_ABI

// Type erasure for the upstream: it is called only on a cache miss, so a virtual call is free.
struct upstream_base {
  virtual ~upstream_base() = default;
  virtual void* allocate(std::size_t bytes, std::size_t alignment, stream_ref s) = 0;
  virtual void deallocate(void* p, std::size_t bytes, std::size_t alignment, stream_ref s) noexcept = 0;
  virtual std::size_t capacity() const = 0;
  virtual std::string_view name() const = 0;
  // Whether memory it hands out on stream s is usable only in s's order (cudaMallocAsync): an
  // upstream that says so with `static constexpr bool stream_ordered = true`.
  virtual bool stream_ordered() const noexcept = 0;
};

template <class U>
inline constexpr bool stream_ordered_upstream = requires { requires U::stream_ordered; };

template <upstream_resource U>
struct upstream_model final : upstream_base {
  explicit upstream_model(U r) : resource(std::move(r)) {}
  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref s) override {
    return resource.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment, stream_ref s) noexcept override {
    resource.deallocate(p, bytes, alignment, s);
  }
  std::size_t capacity() const override { return resource.capacity(); }
  std::string_view name() const override { return resource.name(); }
  bool stream_ordered() const noexcept override { return stream_ordered_upstream<U>; }
  U resource;
};

}  // namespace detail

inline namespace WARDEN_POOL_ABI {
// What allocate() hands out; give it back to deallocate(). ptr is 256-byte aligned.
struct pool_allocation {
  void* ptr = nullptr;
  std::size_t bytes = 0;  // as requested
  detail::pool_block* block = nullptr;
  // A block freed on the requesting stream is handed back at once (that stream runs in order), so
  // work queued there before the free may still use it: that point, for the new owner to order
  // its uses elsewhere after (buffer does). freed_at 0: nothing queued can touch the block.
  stream_ref freed_on;
  ticket freed_at = 0;
};
}  // inline namespace WARDEN_POOL_ABI

namespace detail {
inline namespace WARDEN_POOL_ABI {

// The pool itself (memory/pool_core.hpp); memory_pool is its handle, and the handle and the
// buffers reach it only through these functions, so that a file on warden::runtime needs neither
// its definition nor its headers. Buffers share it, so a pool lives until the last of its handle
// and its buffers is gone (docs/memory.md, "Lifetimes").
class pool_core;

inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::shared_ptr<pool_core> make_pool_core(std::unique_ptr<upstream_base> upstream,
                                                             std::unique_ptr<stream_clock> clock, pool_options options,
                                                             std::string_view space_name, bool host_accessible);
WARDEN_RUNTIME_API pool_allocation pool_allocate(pool_core& pool, std::size_t bytes, stream_ref s, source_location where);
WARDEN_RUNTIME_API void pool_deallocate(pool_core& pool, const pool_allocation& allocation, stream_ref s) noexcept;
WARDEN_RUNTIME_API void pool_empty_cache(pool_core& pool);
WARDEN_RUNTIME_API void pool_set_limit(pool_core& pool, std::size_t bytes);
WARDEN_RUNTIME_API void pool_set_limit_fraction(pool_core& pool, double fraction);
WARDEN_RUNTIME_API std::size_t pool_limit(const pool_core& pool);
WARDEN_RUNTIME_API pool_stats pool_stats_of(const pool_core& pool);
WARDEN_RUNTIME_API std::string_view pool_upstream_name(const pool_core& pool);
WARDEN_RUNTIME_API std::string_view pool_space_name(const pool_core& pool) noexcept;
WARDEN_RUNTIME_API bool pool_host_accessible(const pool_core& pool) noexcept;
WARDEN_RUNTIME_API stream_clock& pool_clock(pool_core& pool) noexcept;
WARDEN_RUNTIME_API void pool_observe(pool_core& pool, pool_thresholds thresholds, pool_observer callback);
}  // inline namespace WARDEN_RUNTIME_ABI

}  // inline namespace WARDEN_POOL_ABI
}  // namespace detail

inline namespace WARDEN_POOL_ABI {
// A caching, stream-ordered pool (see the top of this file): a handle on a detail::pool_core that
// the buffers made from it share. Destroying the handle while buffers live hands the pool to them:
// the last buffer's free returns its memory, so a helper may return a buffer from its own scratch
// pool. Raw allocate()/deallocate() pairs do not keep it alive.
class memory_pool {
 public:
  // The first conjunct keeps overload resolution for a memory_pool argument (a copy) from asking
  // whether memory_pool is itself an upstream, which would ask whether it is movable: a cycle.
  template <class U>
    requires(!std::is_same_v<U, memory_pool>) && upstream_resource<U>
  explicit memory_pool(U upstream, pool_options options = {})
      : memory_pool(upstream.make_clock(), std::move(upstream), options) {}

  // With a clock of the caller's (tests script one to simulate streams that have not finished).
  template <upstream_resource U>
  memory_pool(std::unique_ptr<stream_clock> clock, U upstream, pool_options options = {})
      : core_(detail::make_pool_core(std::make_unique<detail::upstream_model<U>>(std::move(upstream)), std::move(clock),
                                     options, U::memory_space::name, U::memory_space::is_host_accessible)) {}

  memory_pool(const memory_pool&) = delete;
  memory_pool& operator=(const memory_pool&) = delete;

  pool_allocation allocate(std::size_t bytes, stream_ref s = default_stream,
                           detail::source_location where = detail::source_location::current()) {
    return detail::pool_allocate(*core_, bytes, s, where);
  }
  void deallocate(const pool_allocation& allocation, stream_ref s = default_stream) noexcept {
    detail::pool_deallocate(*core_, allocation, s);
  }
  void empty_cache() { detail::pool_empty_cache(*core_); }
  void set_limit(std::size_t bytes) { detail::pool_set_limit(*core_, bytes); }
  void set_limit_fraction(double fraction) { detail::pool_set_limit_fraction(*core_, fraction); }
  std::size_t limit() const { return detail::pool_limit(*core_); }
  pool_stats stats() const { return detail::pool_stats_of(*core_); }
  std::string_view upstream_name() const { return detail::pool_upstream_name(*core_); }
  std::string_view space_name() const noexcept { return detail::pool_space_name(*core_); }
  bool host_accessible() const noexcept { return detail::pool_host_accessible(*core_); }
  // The space the pool stands for: its memory's (space_name()), unless it was made to stand for
  // device memory while holding host memory, as the cpu backend's default device pool does, so
  // that a program is refused there what a GPU refuses it (E105: a pinned buffer from it).
  std::string_view stands_for() const noexcept { return stands_for_device_ ? std::string_view("device") : space_name(); }
  bool host_indexable() const noexcept { return host_accessible() && !stands_for_device_; }
  void stand_for_device_memory() noexcept { stands_for_device_ = true; }
  stream_clock& clock() noexcept { return detail::pool_clock(*core_); }
  // Calls `callback` when reserved or allocated bytes cross `thresholds`, and on out-of-memory,
  // outside the pool's lock (memory/pool_observer.hpp). An empty callback stops watching.
  void observe(pool_thresholds thresholds, pool_observer callback) {
    detail::pool_observe(*core_, thresholds, std::move(callback));
  }

  // The shared pool, for buffers: each keeps it alive until it has given its block back.
  const std::shared_ptr<detail::pool_core>& core() const noexcept { return core_; }

 private:
  std::shared_ptr<detail::pool_core> core_;
  bool stands_for_device_ = false;
};
}  // inline namespace WARDEN_POOL_ABI

namespace detail {

// E105: a buffer of a space the host indexes must come from a pool of memory the host can reach:
// `pinned_buffer<float> h(n, device_pool)` would let `h[i]` write into device memory. (Device
// buffers may come from host pools: that is how the cpu backend runs.) Judged by the space the
// pool stands for, so the cpu backend's default device pool, host memory, is refused as well.
template <class Space>
void check_pool_space(const memory_pool& pool, std::string_view who, const source_location& where = {}) {
  if constexpr (Space::is_host_accessible) {
    if (!pool.host_indexable())
      throw space_error(who, "a " + std::string(Space::name) + " buffer" +
                        [&] { const std::string name = program_name(where); return name.empty() ? name : " (" + name + ")"; }() +
                        " from a pool of " + std::string(pool.stands_for()) + " memory (upstream " +
                        std::string(pool.upstream_name()) +
                        (pool.host_accessible() ? ", host memory standing for device memory on the cpu backend" : "") +
                        "), which the host cannot index on a GPU; use a pool over " +
                        "memory of that space (default_pool<space::" + std::string(Space::name) + ">())");
  }
}

}  // namespace detail

}  // namespace warden

#if !WARDEN_SEPARATE_RUNTIME
#include "pool_core.hpp"
#endif
