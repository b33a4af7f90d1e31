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

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../detail/cuda_check.hpp"
#include "../space.hpp"
#include "stream_clock.hpp"

namespace warden {

// Tickets are materialised as CUDA events only when somebody asks about them (mark() is free).
class cuda_event_clock final : public stream_clock {
 public:
  cuda_event_clock() = default;
  cuda_event_clock(const cuda_event_clock&) = delete;
  cuda_event_clock& operator=(const cuda_event_clock&) = delete;
  ~cuda_event_clock() override {
    for (auto& [handle, s] : streams_)
      for (auto& [t, e] : s.pending) detail::cuda_check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
    for (cudaEvent_t e : spare_) detail::cuda_check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
  }

  ticket record(stream_ref s) override {
    std::lock_guard lock(mutex_);
    per_stream& state = streams_[s.handle()];
    ++state.issued;
    materialise(s, state);
    return state.issued;
  }

  ticket mark(stream_ref s) override {
    std::lock_guard lock(mutex_);
    return ++streams_[s.handle()].issued;
  }

  bool reached(stream_ref s, ticket t) override {
    std::lock_guard lock(mutex_);
    per_stream& state = streams_[s.handle()];
    if (t <= state.completed) return true;
    if (t > state.recorded) materialise(s, state);
    poll(state);
    return t <= state.completed;
  }

  void wait(stream_ref s, ticket t) override {
    std::lock_guard lock(mutex_);
    per_stream& state = streams_[s.handle()];
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
    per_stream& state = streams_[s.handle()];
    if (t <= state.completed) return;
    if (t > state.recorded) materialise(s, state);
    for (auto& [ticket_of_event, event] : state.pending)
      if (ticket_of_event >= t) {
        WARDEN_CUDA_CHECK(cudaStreamWaitEvent(waiter.native(), event, 0));
        return;
      }
  }

 private:
  struct per_stream {
    ticket issued = 0, recorded = 0, completed = 0;
    std::deque<std::pair<ticket, cudaEvent_t>> pending;  // recorded, not yet seen complete
  };

  void materialise(stream_ref s, per_stream& state) {
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
  std::unordered_map<void*, per_stream> streams_;
  std::vector<cudaEvent_t> spare_;
};

namespace detail {

// Out of memory is an answer (nullptr); anything else is an error.
inline void* null_on_oom(cudaError_t status, void* p, const char* call) {
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
    void* p = nullptr;
    return detail::null_on_oom(cudaMalloc(&p, bytes), p, "cudaMalloc");
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
    void* p = nullptr;
    return detail::null_on_oom(cudaMallocAsync(&p, bytes, s.native()), p, "cudaMallocAsync");
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
    void* p = nullptr;
    return detail::null_on_oom(cudaMallocHost(&p, bytes), p, "cudaMallocHost");
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
    void* p = nullptr;
    return detail::null_on_oom(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal), p, "cudaMallocManaged");
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
