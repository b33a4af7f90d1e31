#pragma once
// Streams. A stream_ref names a queue of work (a cudaStream_t on the cuda backend; an id on the
// cpu backend, where work runs at once). warden::stream owns one.
//
// Lifetime (docs/memory.md, "Lifetimes"): a warden::stream may die before the pools and buffers
// that used it. Its destructor first tells every stream_clock (stream_observer::stream_retiring),
// which records what it still needs on the live stream; and each warden::stream has an identity of
// its own (its generation), so a later stream that the driver gives the same handle is a different
// stream to the pool. A raw cudaStream_t has no such identity: keep it alive until the buffers and
// pools that used it are done with it.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "config.hpp"
#include "cuda_check.hpp"
#include "runtime.hpp"

// nvcc --default-stream per-thread sends each thread's handle-0 work to its own stream; warden's
// default_stream is one identity for every thread, and would order that work as one stream's
// (docs/memory.md, "Per-thread default stream builds").
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "warden: built with --default-stream per-thread (CUDA_API_PER_THREAD_DEFAULT_STREAM), where the default stream is a different stream on each thread but one identity to warden, whose orderings would then be wrong: build without it, and issue work to a warden::stream, or to cudaStreamPerThread by name (a stream_ref of its own per thread)"
#endif

namespace warden {

namespace detail {
inline std::uint64_t next_stream_generation() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}
// The identity of the calling thread's per-thread default stream (cudaStreamPerThread names a
// different stream on each thread: CUDA Runtime API, "Stream synchronization behavior").
inline std::uint64_t per_thread_stream_generation() {
  thread_local const std::uint64_t mine = next_stream_generation();
  return mine;
}
}  // namespace detail

class stream_ref {
 public:
  constexpr stream_ref() noexcept = default;  // the default (legacy) stream
  constexpr explicit stream_ref(void* handle, std::uint64_t generation = 0) noexcept
      : handle_(handle), generation_(generation) {}
#if WARDEN_CUDA_RUNTIME
  // cudaStreamPerThread is the calling thread's per-thread default stream: a stream of its own
  // per thread, so the ref made on a thread carries that thread's identity (its generation).
  stream_ref(cudaStream_t s) noexcept  // NOLINT: implicit by design
      : handle_(static_cast<void*>(s)), generation_(s == cudaStreamPerThread ? detail::per_thread_stream_generation() : 0) {}
  cudaStream_t native() const noexcept { return static_cast<cudaStream_t>(handle_); }
#endif
  // Written alike with and without the CUDA runtime: warden::runtime's pool, compiled once by the
  // host compiler, asks these of the streams an nvcc file hands it, and an inline function must
  // have one definition in a program (with `false` here, a pool on warden::runtime issued to
  // another thread's per-thread stream unrefused: tests/unit/separate_runtime_standin_test.cpp).
  bool per_thread() const noexcept { return reinterpret_cast<std::uintptr_t>(handle_) == per_thread_handle; }
  // Whether work issued from this thread to native() goes to the stream this ref names: false
  // only for another thread's per-thread default stream (the handle would name this thread's).
  bool issuable_here() const noexcept { return !per_thread() || generation_ == detail::per_thread_stream_generation(); }
  // cudaStreamPerThread's value (CUDA's driver_types.h: ((cudaStream_t)0x2)), known without CUDA's
  // headers; on the cpu backend no stream has it.
  static constexpr std::uintptr_t per_thread_handle = 0x2;
  constexpr void* handle() const noexcept { return handle_; }
  // 0 for the default stream and raw handles; unique per warden::stream (see the header comment).
  constexpr std::uint64_t generation() const noexcept { return generation_; }
  friend constexpr bool operator==(stream_ref, stream_ref) noexcept = default;

 private:
  void* handle_ = nullptr;
  std::uint64_t generation_ = 0;
};

inline constexpr stream_ref default_stream{};

// Told when a warden::stream is about to be destroyed, while it can still take work; and when a
// capture of it is about to begin, while work issued to it still runs (graph.hpp).
class stream_observer {
 public:
  virtual void stream_retiring(stream_ref s) noexcept = 0;
  virtual void stream_capture_beginning(stream_ref) {}

 protected:
  ~stream_observer() = default;
};

namespace detail {

// Every live observer (the CUDA event clocks). Never destroyed: streams with static storage may
// retire after other statics are gone.
class stream_observers {
 public:
  static stream_observers& instance() {
    static stream_observers* all = new stream_observers;
    return *all;
  }
  void add(stream_observer* o) {
    std::lock_guard lock(mutex_);
    observers_.push_back(o);
  }
  void remove(stream_observer* o) {
    std::lock_guard lock(mutex_);
    std::erase(observers_, o);
  }
  void retiring(stream_ref s) noexcept {
    std::lock_guard lock(mutex_);
    for (stream_observer* o : observers_) o->stream_retiring(s);
  }
  void capture_beginning(stream_ref s) {
    std::lock_guard lock(mutex_);
    for (stream_observer* o : observers_) o->stream_capture_beginning(s);
  }

 private:
  std::mutex mutex_;
  std::vector<stream_observer*> observers_;
};

// The generations of the warden::streams alive now (on a GPU): a graph replays only on a live
// stream, since the driver may give a destroyed stream's handle to an unrelated one.
class live_streams {
 public:
  static live_streams& instance() {
    static live_streams* all = new live_streams;  // never destroyed, as stream_observers
    return *all;
  }
  void add(std::uint64_t generation) {
    std::lock_guard lock(mutex_);
    generations_.push_back(generation);
  }
  void remove(std::uint64_t generation) {
    std::lock_guard lock(mutex_);
    std::erase(generations_, generation);
  }
  // A raw handle or the default stream (generation 0) has no identity to check: alive; nor has a
  // per-thread default stream, which lives as long as its thread.
  bool alive(stream_ref s) {
    if (s.generation() == 0 || s.per_thread()) return true;
    std::lock_guard lock(mutex_);
    return std::find(generations_.begin(), generations_.end(), s.generation()) != generations_.end();
  }

 private:
  std::mutex mutex_;
  std::vector<std::uint64_t> generations_;
};

}  // namespace detail

// An owning stream: a non-blocking CUDA stream when warden runs on a GPU, otherwise a fresh id
// (the cpu backend executes work as it is issued, so the id only keeps streams apart).
class stream {
 public:
  stream() {
#if WARDEN_CUDA_RUNTIME
    if (detail::cuda_device_available()) {
      cudaStream_t s = nullptr;
      WARDEN_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      ref_ = stream_ref(static_cast<void*>(s), detail::next_stream_generation());
      owns_cuda_ = true;
      detail::live_streams::instance().add(ref_.generation());
      return;
    }
#endif
    static std::atomic<std::uintptr_t> next_id{1};
    // Odd fake addresses never collide with real stream handles, which are aligned.
    ref_ = stream_ref(reinterpret_cast<void*>(next_id.fetch_add(2) | 1u));
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() {
#if WARDEN_CUDA_RUNTIME
    if (!owns_cuda_) return;
    detail::live_streams::instance().remove(ref_.generation());
    detail::stream_observers::instance().retiring(ref_);
    detail::cuda_check_noexcept(cudaStreamDestroy(ref_.native()), "cudaStreamDestroy");
#endif
  }
  stream_ref ref() const noexcept { return ref_; }
  operator stream_ref() const noexcept { return ref_; }  // NOLINT: a stream is usable where a ref is

 private:
  stream_ref ref_;
  [[maybe_unused]] bool owns_cuda_ = false;
};

}  // namespace warden
