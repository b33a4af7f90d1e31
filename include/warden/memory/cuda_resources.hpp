#pragma once
// The CUDA upstreams of the pool, and the clock that follows CUDA streams with events.
// Available when WARDEN_CUDA_RUNTIME is 1 (see config.hpp).
//
//   cuda_resource        cudaMalloc / cudaFree                       device memory
//   cuda_async_resource  cudaMallocAsync / cudaFreeAsync, with the   device memory
//                        device pool's release threshold raised so
//                        that freed memory stays cached in the driver
//   pinned_resource      cudaMallocHost / cudaFreeHost               page-locked host memory
//   managed_resource     cudaMallocManaged / cudaFree                unified memory
//
// Every call is checked; out-of-memory is reported as a null pointer (the pool then releases its
// cache and retries), every other failure throws cuda_error.

#include "../config.hpp"

#if WARDEN_CUDA_RUNTIME

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../space.hpp"
#include "capture_registry.hpp"
#include "stream_clock.hpp"

namespace warden {

// Tickets are materialised as CUDA events only when somebody asks about them (mark() is free).
// A warden::stream that dies first tells the clock (stream_observer), which then records the event
// its unmaterialised tickets need while the stream still exists: an event outlives its stream, a
// stream handle does not (recording on a destroyed stream crashed the first GPU run in the pool's
// destructor).
class cuda_event_clock final : public stream_clock, private stream_observer {
 public:
  cuda_event_clock() { detail::stream_observers::instance().add(this); }
  cuda_event_clock(const cuda_event_clock&) = delete;
  cuda_event_clock& operator=(const cuda_event_clock&) = delete;
  ~cuda_event_clock() override {
    detail::stream_observers::instance().remove(this);
    for (auto& [key, s] : streams_)
      for (auto& [t, e] : s.pending) detail::cuda_check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
    for (cudaEvent_t e : spare_) detail::cuda_check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
  }

  ticket record(stream_ref s) override {
    std::lock_guard lock(mutex_);
    per_stream& state = state_of(s);
    ++state.issued;
    materialise(s, state);
    return state.issued;
  }

  // Never throws: a free marks its ticket from noexcept code (pool_core's deallocate).
  ticket mark(stream_ref s) override {
    std::lock_guard lock(mutex_);
    per_stream& state = state_of(s);
    ++state.issued;
    // A per-thread default stream's ticket gets its event now: another thread (a buffer handed
    // over, a block another thread's free filed) can ask for it later, but cannot record on this
    // thread's stream (cudaStreamPerThread names its own there). Where no event can be recorded
    // (a failed runtime, or a ref from another thread that the entry points refused to issue to,
    // E111), the host waits for the work instead, as stream_retiring does: the legacy stream's
    // synchronisation covers every per-thread stream, which are blocking streams.
    if (s.per_thread()) {
      bool recorded = false;
      if (s.issuable_here()) {
        try {
          materialise(s, state);
          recorded = true;
        } catch (const std::exception&) {
        }
      }
      if (!recorded) {
        detail::cuda_check_noexcept(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize (a per-thread stream's ticket)");
        state.recorded = state.completed = state.issued;
      }
    }
    return state.issued;
  }

  bool reached(stream_ref s, ticket t) override {
    std::lock_guard lock(mutex_);
    per_stream& state = state_of(s);
    if (t <= state.completed) return true;
    if (t > state.recorded) {
      // No event can be recorded on a stream being captured (it would belong to the graph): not
      // known to be reached, so the pool uses another block.
      if (detail::being_captured(s)) return false;
      materialise(s, state);
    }
    poll(state);
    return t <= state.completed;
  }

  void wait(stream_ref s, ticket t) override {
    std::lock_guard lock(mutex_);
    per_stream& state = state_of(s);
    if (t <= state.completed) return;
    if (t > state.recorded) materialise(s, state);
    while (!state.pending.empty() && state.completed < t) {
      auto [ticket_of_event, event] = state.pending.front();
      WARDEN_CUDA_CHECK(cudaEventSynchronize(event));
      state.completed = ticket_of_event;
      retire_front(state);
    }
  }

  void order(stream_ref waiter, stream_ref s, ticket t) override {
    if (waiter == s) return;  // a stream is ordered with itself
    std::lock_guard lock(mutex_);
    per_stream& state = state_of(s);
    if (t <= state.completed) return;
    // Work on `waiter` already waits for s up to this ticket: stream order carries it on.
    ticket& ordered = state.ordered[stream_key{waiter.handle(), waiter.generation()}];
    if (t <= ordered) return;
    if (t > state.recorded) materialise(s, state);
    for (auto& [ticket_of_event, event] : state.pending)
      if (ticket_of_event >= t) {
        WARDEN_CUDA_CHECK(cudaStreamWaitEvent(waiter.native(), event, 0));
        ordered = ticket_of_event;
        return;
      }
  }

 private:
  struct stream_key {
    void* handle;
    std::uint64_t generation;
    friend bool operator==(const stream_key&, const stream_key&) = default;
  };
  struct stream_key_hash {
    std::size_t operator()(const stream_key& k) const noexcept {
      return std::hash<void*>()(k.handle) ^ (std::hash<std::uint64_t>()(k.generation) * 0x9e3779b97f4a7c15ull);
    }
  };
  // A stream's recorded events, oldest first: a vector and the index of its front. An empty one
  // allocates nothing, where a std::deque takes about 600 bytes at once, and the clock keeps an
  // entry for every stream it has seen (a program that makes a stream per task, or a thread per
  // task that frees on its per-thread default stream: docs/memory.md, "Not kept cheaply").
  class event_queue {
   public:
    using entry = std::pair<ticket, cudaEvent_t>;
    bool empty() const noexcept { return head_ == items_.size(); }
    const entry& front() const { return items_[head_]; }
    void emplace_back(ticket t, cudaEvent_t e) { items_.emplace_back(t, e); }
    void pop_front() {
      if (++head_ == items_.size()) {
        if (items_.capacity() > 64) std::vector<entry>().swap(items_);  // a burst's memory goes with it
        else items_.clear();
        head_ = 0;
      } else if (head_ >= 32 && 2 * head_ >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }
    std::vector<entry>::const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    std::vector<entry>::const_iterator end() const { return items_.end(); }

   private:
    std::vector<entry> items_;
    std::size_t head_ = 0;
  };
  struct per_stream {
    ticket issued = 0, recorded = 0, completed = 0;
    bool retired = false;  // the stream is gone: every ticket it issued has its event
    event_queue pending;   // recorded, not yet seen complete
    // For each stream made to wait for this one: the ticket it waits for (a repeated order of
    // the same work, launch after launch on the other stream, makes no call).
    std::unordered_map<stream_key, ticket, stream_key_hash> ordered;
  };

  per_stream& state_of(stream_ref s) { return streams_[stream_key{s.handle(), s.generation()}]; }

  // Called by ~stream before cudaStreamDestroy; never throws. If the event cannot be recorded,
  // the host waits for the stream instead, so that no ticket is left needing a dead stream.
  void stream_retiring(stream_ref s) noexcept override {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream_key{s.handle(), s.generation()});
    if (it == streams_.end()) return;
    per_stream& state = it->second;
    if (state.issued > state.recorded) {
      try {
        materialise(s, state);
      } catch (const std::exception&) {
        const cudaError_t status = cudaStreamSynchronize(s.native());
        detail::cuda_check_noexcept(status, "cudaStreamSynchronize (retiring a stream)");
        state.recorded = state.issued;
        if (status == cudaSuccess) state.completed = state.issued;
      }
    }
    state.retired = true;
  }

  // Called by warden::capture before the capture begins: the tickets s has issued get their event
  // now, while an event recorded on s is still the stream's. During the capture, work on other
  // streams (a copy_async reading a buffer last written on s) and frees are ordered after them
  // with that event; none can be recorded there until the capture ends.
  void stream_capture_beginning(stream_ref s) override {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream_key{s.handle(), s.generation()});
    if (it != streams_.end() && it->second.issued > it->second.recorded) materialise(s, it->second);
  }

  void materialise(stream_ref s, per_stream& state) {
    // Another thread's per-thread default stream: an event recorded from here would be this
    // thread's (the entry points refuse such refs, E111; its tickets have their events already).
    if (!s.issuable_here()) throw foreign_stream_error("warden::memory_pool", "an event was to be recorded on another thread's per-thread default stream");
    if (detail::being_captured(s))  // an event recorded there would belong to the graph
      throw capture_error("warden::capture", "a buffer of the capture's stream was to be ordered with other work while "
                                             "the stream is captured: make and free buffers outside the capture");
    if (state.retired) {  // a ticket the stream never issued: the stream_ref outlived its stream
      char where[64];
      std::snprintf(where, sizeof where, "%p", s.handle());
      throw error(std::string("warden: stream ") + where + " was used after its warden::stream was destroyed");
    }
    cudaEvent_t event = nullptr;
    if (spare_.empty()) {
      WARDEN_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    } else {
      event = spare_.back();
      spare_.pop_back();
    }
    const cudaError_t status = cudaEventRecord(event, s.native());
    if (status != cudaSuccess) {
      spare_.push_back(event);
      detail::cuda_check(status, "cudaEventRecord");
    }
    state.recorded = state.issued;
    state.pending.emplace_back(state.issued, event);
  }

  void poll(per_stream& state) {
    while (!state.pending.empty()) {
      const cudaError_t status = cudaEventQuery(state.pending.front().second);
      if (status == cudaErrorNotReady) {
        cudaGetLastError();
        return;
      }
      detail::cuda_check(status, "cudaEventQuery");
      state.completed = state.pending.front().first;
      retire_front(state);
    }
  }

  void retire_front(per_stream& state) {
    spare_.push_back(state.pending.front().second);
    state.pending.pop_front();
  }

  std::mutex mutex_;
  std::unordered_map<stream_key, per_stream, stream_key_hash> streams_;
  std::vector<cudaEvent_t> spare_;
};

namespace detail {

// Calls allocate(&p) and returns p. Out of memory is an answer (nullptr); anything else is an
// error. The call runs before p is read: passing `cudaMalloc(&p, n)` and `p` as two arguments of
// one function would let the compiler read p (still null) first, and every success looked like
// out of memory on the first GPU run (g++ evaluates such arguments right to left).
template <class Allocate>
void* allocate_or_null(const char* call, Allocate&& allocate) {
  void* p = nullptr;
  const cudaError_t status = allocate(&p);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return nullptr;
  }
  cuda_check(status, call);
  return p;
}

inline std::size_t device_total_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  WARDEN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return total_bytes;
}

}  // namespace detail

class cuda_resource {
 public:
  using memory_space = space::device;
  cuda_resource() : capacity_(detail::device_total_memory()) {}
  void* allocate(std::size_t bytes, std::size_t, stream_ref) {
    return detail::allocate_or_null("cudaMalloc", [&](void** p) { return cudaMalloc(p, bytes); });
  }
  void deallocate(void* p, std::size_t, std::size_t, stream_ref) noexcept {
    detail::cuda_check_noexcept(cudaFree(p), "cudaFree");
  }
  std::size_t capacity() const noexcept { return capacity_; }
  std::string_view name() const noexcept { return "cuda_resource"; }
  std::unique_ptr<stream_clock> make_clock() const { return std::make_unique<cuda_event_clock>(); }

 private:
  std::size_t capacity_;
};

class cuda_async_resource {
 public:
  using memory_space = space::device;
  // Its memory is valid from the allocation's point of the stream on: the pool orders another
  // stream's first use after it (pool_core, a new segment's fence).
  static constexpr bool stream_ordered = true;
  // release_threshold: bytes the driver's pool keeps cached across synchronisations; the default
  // (all of it) is what makes cudaMallocAsync fast after warm-up.
  explicit cuda_async_resource(std::uint64_t release_threshold = UINT64_MAX)
      : capacity_(detail::device_total_memory()) {
    int device = 0;
    WARDEN_CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPool_t pool = nullptr;
    WARDEN_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    WARDEN_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &release_threshold));
  }
  void* allocate(std::size_t bytes, std::size_t, stream_ref s) {
    return detail::allocate_or_null("cudaMallocAsync", [&](void** p) { return cudaMallocAsync(p, bytes, s.native()); });
  }
  void deallocate(void* p, std::size_t, std::size_t, stream_ref s) noexcept {
    detail::cuda_check_noexcept(cudaFreeAsync(p, s.native()), "cudaFreeAsync");
  }
  std::size_t capacity() const noexcept { return capacity_; }
  std::string_view name() const noexcept { return "cuda_async_resource"; }
  std::unique_ptr<stream_clock> make_clock() const { return std::make_unique<cuda_event_clock>(); }

 private:
  std::size_t capacity_;
};

class pinned_resource {
 public:
  using memory_space = space::pinned;
  void* allocate(std::size_t bytes, std::size_t, stream_ref) {
    return detail::allocate_or_null("cudaMallocHost", [&](void** p) { return cudaMallocHost(p, bytes); });
  }
  void deallocate(void* p, std::size_t, std::size_t, stream_ref) noexcept {
    detail::cuda_check_noexcept(cudaFreeHost(p), "cudaFreeHost");
  }
  std::size_t capacity() const noexcept { return 0; }
  std::string_view name() const noexcept { return "pinned_resource"; }
  std::unique_ptr<stream_clock> make_clock() const { return std::make_unique<cuda_event_clock>(); }
};

class managed_resource {
 public:
  using memory_space = space::managed;
  managed_resource() : capacity_(detail::device_total_memory()) {}
  void* allocate(std::size_t bytes, std::size_t, stream_ref) {
    return detail::allocate_or_null("cudaMallocManaged",
                                    [&](void** p) { return cudaMallocManaged(p, bytes, cudaMemAttachGlobal); });
  }
  void deallocate(void* p, std::size_t, std::size_t, stream_ref) noexcept {
    detail::cuda_check_noexcept(cudaFree(p), "cudaFree");
  }
  std::size_t capacity() const noexcept { return capacity_; }
  std::string_view name() const noexcept { return "managed_resource"; }
  std::unique_ptr<stream_clock> make_clock() const { return std::make_unique<cuda_event_clock>(); }

 private:
  std::size_t capacity_;
};

}  // namespace warden

#endif  // WARDEN_CUDA_RUNTIME
