#pragma once
// The pool itself: memory_pool.hpp has the design (bins, segments, stream order), the handle and
// the functions the handle and the buffers call, which this file defines. Header-only, every file
// that includes memory_pool.hpp compiles the pool inline. With WARDEN_SEPARATE_RUNTIME only
// warden::runtime does, once per WARDEN_POOL_DEBUG mode (warden/separate_runtime.hpp), and a file
// that allocates sees pool_core as an incomplete type behind memory_pool's shared_ptr, without the
// headers below (proposals/0008-compile-firewall.md).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../config.hpp"
#include "../detail/format_bytes.hpp"
#include "../detail/program_names.hpp"
#include "../detail/source_location.hpp"
#include "../error.hpp"
#include "../stream.hpp"
#include "capture_registry.hpp"
#include "memory_pool.hpp"
#include "pool_stats.hpp"
#include "../profile/nvtx.hpp"
#include "pool_observer.hpp"
#include "size_class.hpp"
#include "stream_clock.hpp"

namespace warden::detail {
inline namespace WARDEN_POOL_ABI {

// The pool itself; memory_pool is its handle. Buffers share it, so a pool lives until the last of
// its handle and its buffers is gone (docs/memory.md, "Lifetimes").
class pool_core {
 public:
  // The upstream comes type-erased (memory_pool's constructors wrap it), so that building a pool
  // is not a template: a file on warden::runtime does not compile the pool.
  pool_core(std::unique_ptr<upstream_base> upstream, std::unique_ptr<stream_clock> clock, pool_options options,
            std::string_view space_name, bool host_accessible)
      : upstream_(std::move(upstream)), clock_(std::move(clock)), options_(options), space_name_(space_name),
        host_accessible_(host_accessible) {}

  pool_core(const pool_core&) = delete;
  pool_core& operator=(const pool_core&) = delete;

  ~pool_core() {
    std::lock_guard lock(mutex_);
    try {
      wait_for_streams();
    } catch (const std::exception& e) {  // a destructor reports, never throws
      std::fprintf(stderr, "warden::memory_pool: waiting for streams at destruction failed: %s\n", e.what());
    }
    report_leaks();
    for (auto& segment : segments_) {
      const nvtx_range range([&](range_text& t) {
        t.add("warden pool (").add(space_name_).add("): upstream release ").add(static_cast<long long>(segment->size)).add(" bytes");
      });
      upstream_->deallocate(segment->base, segment->size, pool_sizes::alignment, {});
    }
  }

  // A block of at least `bytes`, usable by work issued to `s`. Zero bytes gives an empty
  // allocation without touching the pool. Throws out_of_memory when neither the cache (after it
  // is released) nor the upstream can serve the request within the limit.
  pool_allocation allocate(std::size_t bytes, stream_ref s = default_stream,
                           detail::source_location where = detail::source_location::current()) {
    if (bytes == 0) return {};
    // On a stream being captured (warden::capture), CUDA would make the allocation a node of the
    // graph, valid only while the graph runs, and the pool would then cache it.
    if (detail::capture_on(s, "warden::memory_pool") != nullptr)
      throw capture_error("warden::memory_pool", "an allocation on a stream being captured into a graph: make the "
                                                 "buffers before the capture (on its stream or any other)");
    pool_notices notices;  // delivered after the lock is released, the failure's included
    pool_allocation out;
    try {
      std::lock_guard lock(mutex_);
      out = allocate_locked(bytes, s, where, notices);
    } catch (out_of_memory& e) {  // the notes go out, and the message names what the request was for
      notices.deliver();
      if (const std::string name = detail::program_name(where); !name.empty()) e.add_note("; the request was for " + name);
      throw;
    } catch (...) {  // bad_alloc while writing the message: the notes go out
      notices.deliver();
      throw;
    }
    // An observer that throws here refuses the allocation (a budget it enforces): the block goes
    // back, and its exception reaches the caller as E112, nothing leaked. (Its notes on the undo
    // are delivered as a free's, where nothing can throw.)
    if (std::exception_ptr thrown = notices.deliver_catching()) {
      deallocate(out, s);
      std::string what = "an exception that is not a std::exception";
      try {
        std::rethrow_exception(thrown);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      const std::string name = detail::program_name(where);
      throw observer_error("warden::memory_pool",
                           "the pool's observer threw on an allocation of " + std::to_string(bytes) + " bytes" +
                               (name.empty() ? "" : " for " + name) + " (" + what +
                               "); the allocation was undone, nothing is leaked. To hold a pool to a budget, "
                               "pool.set_limit(bytes): an allocation past it throws out_of_memory",
                           thrown);
    }
    return out;
  }

  // Gives a block back in stream order: work already issued to `s` may still use it, so it is
  // reused at once only by `s`, and by other streams once the clock says `s` has passed this point.
  void deallocate(const pool_allocation& allocation, stream_ref s = default_stream) noexcept {
    pool_notices notices;
    {
      std::lock_guard lock(mutex_);
      deallocate_locked(allocation, s);
      note_crossings(notices);
    }
    notices.deliver();
  }

  // Waits for every stream that freed cached memory, then returns every segment with no live
  // block to the upstream.
  void empty_cache() {
    pool_notices notices;
    {
      std::lock_guard lock(mutex_);
      release_cache();
      note_crossings(notices);
    }
    notices.deliver();
  }

  // Calls `callback` when reserved or allocated bytes cross a threshold, and on out-of-memory
  // (memory/pool_observer.hpp); an empty callback stops watching. The thresholds start from the
  // pool's state now: a pool already above one reports only its fall below.
  void observe(pool_thresholds thresholds, pool_observer callback) {
    std::lock_guard lock(mutex_);
    if (!callback) {
      watch_.reset();
      return;
    }
    watch_ = std::make_shared<const pool_watch>(pool_watch{thresholds, std::move(callback)});
    reserved_high_ = thresholds.reserved != 0 && reserved_ >= thresholds.reserved;
    allocated_high_ = thresholds.allocated != 0 && allocated_ >= thresholds.allocated;
  }

  void set_limit(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    options_.limit_bytes = bytes;
  }
  void set_limit_fraction(double fraction) {
    std::lock_guard lock(mutex_);
    options_.limit_fraction = fraction;
  }

  // The effective limit in bytes (the smaller of the two settings); 0 when there is none.
  std::size_t limit() const {
    std::lock_guard lock(mutex_);
    return limit_locked();
  }

  pool_stats stats() const {
    std::lock_guard lock(mutex_);
    return stats_locked();
  }

  std::string_view upstream_name() const { return upstream_->name(); }
  // The memory space of the upstream's memory (space::host, device, pinned or managed `name`).
  std::string_view space_name() const noexcept { return space_name_; }
  bool host_accessible() const noexcept { return host_accessible_; }
  stream_clock& clock() noexcept { return *clock_; }

 private:
  // Events noted under the lock and delivered after it (memory/pool_observer.hpp): at most one per
  // threshold and one out-of-memory per operation.
  struct pool_notices {
    std::shared_ptr<const pool_watch> to;
    pool_event events[3];
    int count = 0;
    // Every event, each to the callback; what it throws is reported on stderr and dropped (a
    // free, an out-of-memory already on its way out, cannot throw another).
    void deliver() noexcept {
      if (std::exception_ptr thrown = deliver_catching()) {
        try {
          std::rethrow_exception(thrown);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "E112 [pool-observer] warden::memory_pool: the observer threw where nothing can throw (a free, or an out-of-memory on its way out), dropped: %s\n",
                       e.what());
        } catch (...) {
          std::fprintf(stderr, "E112 [pool-observer] warden::memory_pool: the observer threw where nothing can throw (a free, or an out-of-memory on its way out), dropped\n");
        }
      }
    }
    // Every event, each to the callback; the first exception it throws, kept (later ones dropped).
    std::exception_ptr deliver_catching() noexcept {
      std::exception_ptr first;
      for (int i = 0; i < count; ++i) {
        try {
          to->callback(events[i]);
        } catch (...) {
          if (!first) first = std::current_exception();
        }
      }
      return first;
    }
  };

  void note(pool_notices& notices, pool_event::kind what, std::size_t threshold, std::size_t requested) {
    pool_event& e = notices.events[notices.count++];
    e = pool_event{what, reserved_, allocated_, threshold, requested, ++event_count_, space_name_};
    notices.to = watch_;
  }
  // The thresholds crossed since the last note; called under the lock after every change.
  void note_crossings(pool_notices& notices) {
    if (!watch_) return;
    const pool_thresholds& t = watch_->thresholds;
    if (t.reserved != 0 && (reserved_ >= t.reserved) != reserved_high_) {
      reserved_high_ = !reserved_high_;
      note(notices, reserved_high_ ? pool_event::kind::reserved_above : pool_event::kind::reserved_below, t.reserved, 0);
    }
    if (t.allocated != 0 && (allocated_ >= t.allocated) != allocated_high_) {
      allocated_high_ = !allocated_high_;
      note(notices, allocated_high_ ? pool_event::kind::allocated_above : pool_event::kind::allocated_below, t.allocated, 0);
    }
  }

  pool_allocation allocate_locked(std::size_t bytes, stream_ref s, detail::source_location where, pool_notices& notices) {
    if (bytes > max_request) throw_out_of_memory(bytes, s, notices);  // rounding it up to the alignment would wrap around
    pool_block* block = take_block(bytes, s, notices);
    // A block another stream freed comes only once that stream has passed the free (take_block),
    // and a host-visible pool's only once its own stream has; a device block freed on `s` comes at
    // once, its free perhaps still ahead of `s`: the caller learns where, unless it is passed.
    pool_allocation out{block->ptr, bytes, block, {}, 0};
    if (block->fence != 0 && block->stream == s && !host_accessible_ && !reached_or_unknown(s, block->fence)) {
      out.freed_on = s;
      out.freed_at = block->fence;
    }
    block->free = false;
    block->stream = s;
    allocated_ += block->size;
    requested_ += bytes;
    peak_allocated_ = std::max(peak_allocated_, allocated_);
    ++live_;
    ++allocation_count_;
#if WARDEN_POOL_DEBUG
    block->requested = bytes;
    block->where = where;
#else
    (void)where;
#endif
    note_crossings(notices);
    return out;
  }

  void deallocate_locked(const pool_allocation& allocation, stream_ref s) noexcept {
    pool_block* block = allocation.block;
    if (block == nullptr) return;
    if (block->free) {  // a double free would corrupt the free structures; refuse it loudly
      std::fprintf(stderr, "warden::memory_pool: block at %p freed twice; ignored\n", static_cast<void*>(block->ptr));
      return;
    }
    allocated_ -= block->size;
    requested_ -= allocation.bytes;
    --live_;
    ++deallocation_count_;
    block->free = true;
    block->stream = s;
    block->fence = record(s);
    if (block->size_class >= 0) {
      bins_[static_cast<std::size_t>(block->size_class)].push(s, block);
      binned_bytes_ += block->size;
    } else {
      insert_free(coalesce(block));
    }
  }

  pool_stats stats_locked() const {
    pool_stats s;
    s.allocated_bytes = allocated_;
    s.requested_bytes = requested_;
    s.peak_allocated_bytes = peak_allocated_;
    s.reserved_bytes = reserved_;
    s.peak_reserved_bytes = peak_reserved_;
    s.cached_bytes = reserved_ - allocated_;
    for (const auto& set : free_sets_)
      for (const pool_block* b : set) s.largest_cached_block = std::max(s.largest_cached_block, b->size);
    for (int c = pool_sizes::class_count - 1; c >= 0; --c)
      if (!bins_[static_cast<std::size_t>(c)].empty()) {
        s.largest_cached_block = std::max(s.largest_cached_block, pool_sizes::class_size(c));
        break;
      }
    s.fragmentation = s.cached_bytes == 0 ? 0.0
                                          : 1.0 - static_cast<double>(s.largest_cached_block) /
                                                      static_cast<double>(s.cached_bytes);
    s.limit_bytes = limit_locked();
    s.live_allocations = live_;
    s.allocation_count = allocation_count_;
    s.deallocation_count = deallocation_count_;
    s.upstream_allocations = upstream_allocations_;
    s.upstream_releases = upstream_releases_;
    s.cache_releases = cache_releases_;
    s.oom_count = oom_count_;
    s.tracked_streams = streams_.size();
    return s;
  }

  using pool_block = detail::pool_block;
  using pool_segment = detail::pool_segment;

  // The largest request whose rounded size and segment fit in a size_t.
  static constexpr std::size_t max_request = static_cast<std::size_t>(-1) / 2;

  // Free blocks of one kind of segment, best fit first within a stream.
  struct by_stream_size_address {
    bool operator()(const pool_block* a, const pool_block* b) const {
      std::less<void*> less;
      if (a->stream.handle() != b->stream.handle()) return less(a->stream.handle(), b->stream.handle());
      if (a->stream.generation() != b->stream.generation()) return a->stream.generation() < b->stream.generation();
      if (a->size != b->size) return a->size < b->size;
      return less(a->ptr, b->ptr);
    }
  };
  // Set nodes come from a node pool (guarded by the pool's mutex): no malloc per split or free.
  using free_set = std::pmr::set<pool_block*, by_stream_size_address>;

  // The free blocks of one size class, a stack per stream. Pushes on a stream carry growing
  // tickets, so if the top of a stack is reached by its stream, everything under it is too.
  class bin {
   public:
    bool empty() const { return lists_.empty(); }
    void push(stream_ref s, pool_block* b) { list_for(s).blocks.push_back(b); }
    // `host_visible`: the host may write a popped block at once, so even s's own blocks wait for
    // s to pass their free.
    pool_block* pop(stream_ref s, stream_clock& clock, bool host_visible) {
      if (!host_visible)
        for (std::size_t i = 0; i < lists_.size(); ++i)
          if (lists_[i].stream == s) return take(i, lists_[i].blocks.size() - 1);
      for (std::size_t i = 0; i < lists_.size(); ++i) {  // another stream's block, once that stream has passed its free
        per_stream& l = lists_[i];
        if (l.stream == s && !host_visible) continue;  // (the loop above returned when s has a list)
        if (clock.reached(l.stream, l.blocks.back()->fence)) return take(i, l.blocks.size() - 1);
        if (clock.reached(l.stream, l.blocks.front()->fence)) return take(i, 0);
      }
      return nullptr;
    }
    // Each block leaves its list before `each` sees it: should `each` throw (an allocation of the
    // free sets' or the stream list's), no block is left both binned and free.
    template <class F>
    void drain(F&& each) {
      while (!lists_.empty()) {
        per_stream& l = lists_.back();
        while (!l.blocks.empty()) {
          pool_block* b = l.blocks.back();
          l.blocks.pop_back();
          each(b);
        }
        lists_.pop_back();
      }
    }

   private:
    struct per_stream {
      stream_ref stream;
      std::deque<pool_block*> blocks;
    };
    per_stream& list_for(stream_ref s) {
      for (auto& l : lists_)
        if (l.stream == s) return l;
      return lists_.emplace_back(per_stream{s, {}});
    }
    // The list of a stream with no block left goes: a program that ran on a thousand streams (or
    // threads, each with its per-thread default stream) leaves no thousand empty lists to scan.
    pool_block* take(std::size_t list, std::size_t i) {
      per_stream& l = lists_[list];
      pool_block* b = l.blocks[i];
      if (i + 1 == l.blocks.size()) l.blocks.pop_back();
      else l.blocks.pop_front();
      if (l.blocks.empty()) {
        if (list + 1 != lists_.size()) lists_[list] = std::move(lists_.back());
        lists_.pop_back();
      }
      return b;
    }
    std::vector<per_stream> lists_;  // none empty
  };

  struct stream_state {
    stream_ref stream;
    ticket last = 0;
  };

  // ---- allocation --------------------------------------------------------------------------

  pool_block* take_block(std::size_t bytes, stream_ref s, pool_notices& notices) {
    const bool small = pool_sizes::is_small(bytes);
    const int size_class = small ? pool_sizes::class_index(bytes) : -1;
    const std::size_t size = small ? pool_sizes::class_size(size_class) : pool_sizes::aligned_size(bytes);
    if (small)
      if (pool_block* b = bins_[static_cast<std::size_t>(size_class)].pop(s, *clock_, host_accessible_)) {
        binned_bytes_ -= b->size;
        return b;
      }

    pool_block* block = take_free(small, size, s);
    if (block == nullptr && small && binned_bytes_ >= pool_sizes::small_segment) {
      flush_bins();  // other classes hold a segment's worth idle: reuse it rather than grow
      block = take_free(small, size, s);
    }
    if (block == nullptr) block = grow(small, size, s);
    if (block == nullptr) {  // out of memory: release the cache and try once more
      release_cache();
      block = take_free(small, size, s);
      if (block == nullptr) block = grow(small, size, s);
    }
    if (block == nullptr) throw_out_of_memory(bytes, s, notices);
    block->size_class = size_class;
    return block;
  }

  // Best fit among free blocks of this stream, else of a stream that has passed their free.
  pool_block* take_free(bool small, std::size_t size, stream_ref s) {
    free_set& set = free_sets_[small ? 1 : 0];
    if (set.empty()) return nullptr;
    pool_block key;
    key.size = size;
    key.stream = s;
    auto it = set.lower_bound(&key);
    if (it != set.end() && (*it)->stream == s && host_accessible_ && !clock_->reached(s, (*it)->fence)) it = set.end();
    if (it == set.end() || (*it)->stream != s) {
      it = set.end();
      for (const stream_state& other : streams_) {
        if (other.stream == s && !host_accessible_) continue;
        key.stream = other.stream;
        auto candidate = set.lower_bound(&key);
        // Fences are not ordered by size: look at a few candidates, not the whole stream.
        for (int tries = 0; tries < 4 && candidate != set.end() && (*candidate)->stream == other.stream;
             ++tries, ++candidate)
          if (clock_->reached(other.stream, (*candidate)->fence)) {
            it = candidate;
            break;
          }
        if (it != set.end()) break;
      }
      if (it == set.end()) return nullptr;
    }
    pool_block* block = *it;
    erase_free(set, it);
    split(block, size);
    return block;
  }

  // Cuts `block` down to `size`; the rest stays free with the same stream and fence.
  void split(pool_block* block, std::size_t size) {
    if (block->size - size < pool_sizes::alignment) return;
    pool_block* rest = new_block();
    rest->ptr = block->ptr + size;
    rest->size = block->size - size;
    rest->segment = block->segment;
    rest->prev = block;
    rest->next = block->next;
    rest->stream = block->stream;
    rest->fence = block->fence;
    if (block->next != nullptr) block->next->prev = rest;
    block->next = rest;
    block->size = size;
    insert_free(rest);
  }

  // A new segment from the upstream, within the limit; nullptr when neither allows it.
  pool_block* grow(bool small, std::size_t size, stream_ref s) {
    std::size_t candidates[3] = {
        small ? pool_sizes::small_segment
              : (size <= pool_sizes::large_shared_max ? pool_sizes::large_segment
                                                      : pool_sizes::round_up(size, pool_sizes::segment_granule)),
        pool_sizes::round_up(size, pool_sizes::segment_granule), size};
    const std::size_t limit = limit_locked();
    for (std::size_t bytes : candidates) {
      if (bytes < size) continue;
      if (limit != 0 && (reserved_ > limit || bytes > limit - reserved_)) continue;
      const nvtx_range range([&](range_text& t) {
        t.add("warden pool (").add(space_name_).add("): upstream allocate ").add(static_cast<long long>(bytes)).add(" bytes");
      });
      void* memory = upstream_->allocate(bytes, pool_sizes::alignment, s);
      if (memory == nullptr) continue;
      auto segment = std::make_unique<pool_segment>();
      segment->base = static_cast<std::byte*>(memory);
      segment->size = bytes;
      segment->small = small;
      pool_block* block = new_block();
      block->ptr = segment->base;
      block->size = bytes;
      block->segment = segment.get();
      block->stream = s;
      // Memory a stream-ordered upstream (cudaMallocAsync) allocated on s is valid from that point
      // of s on: a fence there, as for a free, so that its first user on s learns it (freed_on)
      // and another stream takes any of the segment only once s has passed it.
      if (upstream_->stream_ordered()) block->fence = record(s);
      segment->first = block;
      segments_.push_back(std::move(segment));
      reserved_ += bytes;
      peak_reserved_ = std::max(peak_reserved_, reserved_);
      ++upstream_allocations_;
      split(block, size);
      return block;
    }
    return nullptr;
  }

  [[noreturn]] void throw_out_of_memory(std::size_t bytes, stream_ref s, pool_notices& notices) {
    ++oom_count_;
    note_crossings(notices);  // the cache released on the way may have crossed one
    if (watch_) note(notices, pool_event::kind::out_of_memory, 0, bytes);
    char where[64];
    std::snprintf(where, sizeof where, "%p", s.handle());
    const std::string message = "warden::memory_pool (" + std::string(upstream_->name()) +
                                "): out of memory allocating " + detail::format_bytes(bytes) + " on stream " +
                                where + " after releasing the cache; " + stats_locked().to_string();
    throw out_of_memory(message, bytes);
  }

  // Whether `s` has passed `t`, false where the clock cannot tell (its event could not be
  // recorded): the block is taken already, and an exception here would lose it.
  bool reached_or_unknown(stream_ref s, ticket t) noexcept {
    try {
      return clock_->reached(s, t);
    } catch (...) {
      return false;
    }
  }

  // ---- freeing -----------------------------------------------------------------------------

  ticket record(stream_ref s) {
    const ticket t = clock_->mark(s);
    for (stream_state& state : streams_)
      if (state.stream == s) {
        state.last = t;
        return t;
      }
    if (streams_.size() >= prune_streams_at_) prune_streams();
    streams_.push_back({s, t});
    return t;
  }

  // Forgets the streams that need no more looking at: every free they made is passed, and no free
  // block is filed under them (take_free finds another stream's blocks through this list; the bins
  // keep lists of their own). Such a stream comes back with its next free. Without this, a program
  // that makes streams, or threads that each free on their per-thread default stream, would leave
  // the list, and every free's and every search's scan of it, growing for good. Amortised: run when
  // the list has doubled since the last time.
  void prune_streams() {
    std::erase_if(streams_, [this](const stream_state& state) {
      if (files_free_blocks(state.stream)) return false;
      try {
        return clock_->reached(state.stream, state.last);
      } catch (...) {  // not known (a capture under way, a failed runtime): kept
        return false;
      }
    });
    prune_streams_at_ = std::max<std::size_t>(16, 2 * streams_.size());
  }

  bool files_free_blocks(stream_ref s) const {
    pool_block key;
    key.size = 0;
    key.ptr = nullptr;
    key.stream = s;
    for (const free_set& set : free_sets_) {
      auto it = set.lower_bound(&key);
      if (it != set.end() && (*it)->stream == s) return true;
    }
    return false;
  }

  static bool mergeable(const pool_block* a, const pool_block* b) {
    return b != nullptr && b->free && b->size_class < 0 && a->stream == b->stream;
  }

  // Merges a free level-2 block with free neighbours of the same stream; returns the result.
  pool_block* coalesce(pool_block* block) {
    free_set& set = free_sets_[block->segment->small ? 1 : 0];
    if (mergeable(block, block->prev)) {
      pool_block* prev = block->prev;
      erase_free(set, set.find(prev));
      prev->size += block->size;
      prev->fence = std::max(prev->fence, block->fence);
      unlink(block);
      block = prev;
    }
    if (mergeable(block, block->next)) {
      pool_block* next = block->next;
      erase_free(set, set.find(next));
      block->size += next->size;
      block->fence = std::max(block->fence, next->fence);
      unlink(next);
    }
    return block;
  }

  void unlink(pool_block* b) {
    if (b->prev != nullptr) b->prev->next = b->next;
    if (b->next != nullptr) b->next->prev = b->prev;
    spare_blocks_.push_back(b);
  }

  void insert_free(pool_block* b) {
    b->size_class = -1;
    free_set& set = free_sets_[b->segment->small ? 1 : 0];
    if (spare_node_.empty()) {
      set.insert(b);
    } else {
      spare_node_.value() = b;
      set.insert(std::move(spare_node_));
    }
  }

  // Keeps one detached set node for the next insert_free: a split followed by a coalesce (the
  // same-size loop on large blocks) then allocates no node at all.
  void erase_free(free_set& set, free_set::iterator it) {
    auto node = set.extract(it);
    if (spare_node_.empty()) spare_node_ = std::move(node);
  }

  // Moves every binned block back to its segment's free set, coalescing.
  void flush_bins() {
    for (bin& b : bins_)
      b.drain([this](pool_block* block) {
        binned_bytes_ -= block->size;
        block->size_class = -1;
        keep_listed(block->stream, block->fence);
        insert_free(coalesce(block));
      });
  }

  // A block goes to the free sets under stream s: s must be on the stream list, whence take_free
  // finds other streams' blocks (prune_streams may have dropped it while the block sat in a bin).
  void keep_listed(stream_ref s, ticket fence) {
    for (stream_state& state : streams_)
      if (state.stream == s) {
        state.last = std::max(state.last, fence);
        return;
      }
    streams_.push_back({s, fence});
  }

  void wait_for_streams() {
    for (const stream_state& state : streams_) clock_->wait(state.stream, state.last);
  }

  void release_cache() {
    ++cache_releases_;
    wait_for_streams();
    flush_bins();
    // Blocks are now free for every stream: merge across streams too, so whole segments show.
    for (auto& segment : segments_) {
      pool_block* b = segment->first;
      const bool whole = b->free && b->size_class < 0 && b->next == nullptr;
      bool all_free = true;
      for (pool_block* it = b; it != nullptr; it = it->next) all_free = all_free && it->free;
      if (!all_free || whole) continue;
      free_set& set = free_sets_[segment->small ? 1 : 0];
      for (pool_block* it = b; it != nullptr; it = it->next) set.erase(it);
      while (b->next != nullptr) {
        b->size += b->next->size;
        unlink(b->next);
      }
      b->stream = {};
      b->fence = 0;
      set.insert(b);
    }
    std::erase_if(segments_, [this](const std::unique_ptr<pool_segment>& segment) {
      pool_block* b = segment->first;
      if (!b->free || b->next != nullptr) return false;
      free_sets_[segment->small ? 1 : 0].erase(b);
      spare_blocks_.push_back(b);
      {
        const nvtx_range range([&](range_text& t) {
          t.add("warden pool (").add(space_name_).add("): upstream release ").add(static_cast<long long>(segment->size)).add(" bytes");
        });
        upstream_->deallocate(segment->base, segment->size, pool_sizes::alignment, b->stream);
      }
      reserved_ -= segment->size;
      ++upstream_releases_;
      return true;
    });
  }

  // ---- bookkeeping -------------------------------------------------------------------------

  pool_block* new_block() {
    if (spare_blocks_.empty()) return &block_storage_.emplace_back();
    pool_block* b = spare_blocks_.back();
    spare_blocks_.pop_back();
    *b = pool_block{};
    return b;
  }

  std::size_t limit_locked() const {
    std::size_t limit = options_.limit_bytes;
    const std::size_t capacity = upstream_->capacity();
    if (options_.limit_fraction > 0.0 && capacity != 0) {
      const auto by_fraction = static_cast<std::size_t>(options_.limit_fraction * static_cast<double>(capacity));
      limit = limit == 0 ? by_fraction : std::min(limit, by_fraction);
    }
    return limit;
  }

  void report_leaks() const {
#if WARDEN_POOL_DEBUG
    for (const auto& segment : segments_)
      for (const pool_block* b = segment->first; b != nullptr; b = b->next)
        if (!b->free)
          std::fprintf(stderr, "warden::memory_pool (%.*s): leaked %zu bytes allocated at %s:%u (%s)\n",
                       static_cast<int>(upstream_->name().size()), upstream_->name().data(), b->requested,
                       b->where.file_name(), static_cast<unsigned>(b->where.line()), b->where.function_name());
#endif
  }

  std::unique_ptr<detail::upstream_base> upstream_;
  std::unique_ptr<stream_clock> clock_;
  pool_options options_;
  std::string_view space_name_;
  bool host_accessible_ = false;
  mutable std::mutex mutex_;

  std::vector<bin> bins_ = std::vector<bin>(pool_sizes::class_count);
  std::pmr::unsynchronized_pool_resource set_nodes_;
  free_set free_sets_[2] = {free_set(&set_nodes_), free_set(&set_nodes_)};  // [0]: large segments, [1]: small ones
  free_set::node_type spare_node_;
  std::vector<std::unique_ptr<pool_segment>> segments_;
  std::deque<pool_block> block_storage_;
  std::vector<pool_block*> spare_blocks_;
  std::vector<stream_state> streams_;
  std::size_t prune_streams_at_ = 16;

  std::size_t binned_bytes_ = 0;  // free class blocks waiting in bins
  std::size_t allocated_ = 0, requested_ = 0, peak_allocated_ = 0, reserved_ = 0, peak_reserved_ = 0, live_ = 0;
  std::uint64_t allocation_count_ = 0, deallocation_count_ = 0, upstream_allocations_ = 0,
                upstream_releases_ = 0, cache_releases_ = 0, oom_count_ = 0;
  std::shared_ptr<const pool_watch> watch_;  // the observer, or none
  bool reserved_high_ = false, allocated_high_ = false;
  std::uint64_t event_count_ = 0;
};

// What memory_pool and buffer call (declared in memory_pool.hpp).
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::shared_ptr<pool_core> make_pool_core(std::unique_ptr<upstream_base> upstream,
                                                             std::unique_ptr<stream_clock> clock, pool_options options,
                                                             std::string_view space_name, bool host_accessible) {
  return std::make_shared<pool_core>(std::move(upstream), std::move(clock), options, space_name, host_accessible);
}
WARDEN_RUNTIME_API pool_allocation pool_allocate(pool_core& pool, std::size_t bytes, stream_ref s, source_location where) {
  return pool.allocate(bytes, s, where);
}
WARDEN_RUNTIME_API void pool_deallocate(pool_core& pool, const pool_allocation& allocation, stream_ref s) noexcept {
  pool.deallocate(allocation, s);
}
WARDEN_RUNTIME_API void pool_empty_cache(pool_core& pool) { pool.empty_cache(); }
WARDEN_RUNTIME_API void pool_set_limit(pool_core& pool, std::size_t bytes) { pool.set_limit(bytes); }
WARDEN_RUNTIME_API void pool_set_limit_fraction(pool_core& pool, double fraction) { pool.set_limit_fraction(fraction); }
WARDEN_RUNTIME_API std::size_t pool_limit(const pool_core& pool) { return pool.limit(); }
WARDEN_RUNTIME_API pool_stats pool_stats_of(const pool_core& pool) { return pool.stats(); }
WARDEN_RUNTIME_API std::string_view pool_upstream_name(const pool_core& pool) { return pool.upstream_name(); }
WARDEN_RUNTIME_API std::string_view pool_space_name(const pool_core& pool) noexcept { return pool.space_name(); }
WARDEN_RUNTIME_API bool pool_host_accessible(const pool_core& pool) noexcept { return pool.host_accessible(); }
WARDEN_RUNTIME_API stream_clock& pool_clock(pool_core& pool) noexcept { return pool.clock(); }
WARDEN_RUNTIME_API void pool_observe(pool_core& pool, pool_thresholds thresholds, pool_observer callback) {
  pool.observe(thresholds, std::move(callback));
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // inline namespace WARDEN_POOL_ABI
}  // namespace warden::detail

