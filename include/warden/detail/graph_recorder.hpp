#pragma once
// graph_recorder: what warden::capture collects while its body runs, and how a launch finds out
// that its stream is being captured (issue 18; docs/guide.md "Graphs").
//
// A launch on a captured stream runs its launch-time checks as always, then records its buffer
// uses here instead of ordering them: its kernel runs only when the graph is replayed, so the
// replay orders itself after the buffers' other uses and records itself as their latest use. On
// a GPU the kernel call itself is captured by CUDA; on the cpu backend the recorder keeps the
// launch as a step to run at each replay.
//
// The registry of captures in progress is process-wide; a launch pays one relaxed atomic load
// when none is in progress. A capture belongs to the thread that runs its body: work that another
// thread issues to the captured stream would silently join that thread's graph (and touch its
// recorder, unlocked), so it is refused (E109), as is a second capture of the same stream.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "../memory/capture_link.hpp"
#include "../runtime.hpp"
#include "../stream.hpp"
#include "cuda_check.hpp"

namespace warden::detail {

// One buffer a captured launch uses.
struct captured_use {
  std::shared_ptr<capture_link> link;
  bool writes = false;
  std::string what;  // "x of saxpy (launch 3 of the capture)", for E109
};

class graph_recorder {
 public:
  graph_recorder(stream_ref s, bool on_gpu) : stream_(s), on_gpu_(on_gpu) {}

  stream_ref stream() const noexcept { return stream_; }
  std::thread::id thread() const noexcept { return thread_; }
  bool on_gpu() const noexcept { return on_gpu_; }
  int launches() const noexcept { return launches_; }

  // A launch is being captured: its number, 1-based.
  int begin_launch() { return ++launches_; }

  // One of its buffers. A buffer used by several launches is kept once, writing if any use writes.
  void use(std::shared_ptr<capture_link> link, bool writes, std::string what) {
    for (captured_use& u : uses_)
      if (u.link == link) {
        u.writes = u.writes || writes;
        return;
      }
    uses_.push_back({std::move(link), writes, std::move(what)});
  }

  // A cpu-backend launch, to run at each replay.
  void step(std::function<void()> run) { steps_.push_back(std::move(run)); }

  std::vector<captured_use> take_uses() { return std::move(uses_); }
  std::vector<std::function<void()>> take_steps() { return std::move(steps_); }

 private:
  stream_ref stream_;
  std::thread::id thread_ = std::this_thread::get_id();
  bool on_gpu_;
  int launches_ = 0;
  std::vector<captured_use> uses_;
  std::vector<std::function<void()>> steps_;
};

class capture_registry {
 public:
  static capture_registry& instance() {
    static capture_registry* all = new capture_registry;  // never destroyed, as stream_observers
    return *all;
  }
  // The capture in progress on `s`, if any.
  graph_recorder* find(stream_ref s) {
    if (active_.load(std::memory_order_acquire) == 0) return nullptr;
    std::lock_guard lock(mutex_);
    for (graph_recorder* r : recorders_)
      if (r->stream() == s) return r;
    return nullptr;
  }
  // Checks and registers in one step, so two threads cannot both start capturing one stream.
  void add(graph_recorder* r) {
    std::lock_guard lock(mutex_);
    for (graph_recorder* other : recorders_)
      if (other->stream() == r->stream())
        throw capture_error("warden::capture", other->thread() == r->thread()
                                                   ? "this stream is already being captured: captures do not nest"
                                                   : "this stream is already being captured by another thread");
    recorders_.push_back(r);
    active_.fetch_add(1, std::memory_order_release);
  }
  void remove(graph_recorder* r) {
    std::lock_guard lock(mutex_);
    recorders_.erase(std::find(recorders_.begin(), recorders_.end(), r));
    active_.fetch_sub(1, std::memory_order_release);
  }

 private:
  std::atomic<int> active_{0};
  std::mutex mutex_;
  std::vector<graph_recorder*> recorders_;
};

// Whether any thread is capturing `s` (the event clock must not record an event there).
inline bool being_captured(stream_ref s) { return capture_registry::instance().find(s) != nullptr; }

// The capture of `s` that this thread's warden::capture body is running, or null; `who` (a
// kernel's name, "warden::copy", ...) issues work to s, and is refused if another thread captures s.
inline graph_recorder* capture_on(stream_ref s, std::string_view who) {
  graph_recorder* r = capture_registry::instance().find(s);
  if (r != nullptr && r->thread() != std::this_thread::get_id())
    throw capture_error(who, "its stream is being captured by warden::capture on another thread, whose graph would take "
                             "this work instead of running it: issue it from the capturing thread's body, or to another stream");
  return r;
}

#if WARDEN_CUDA_RUNTIME
// Warden orders work by what has been issued to its stream; on a stream that
// cudaStreamBeginCapture captures, nothing issued runs until the graph does, and that ordering
// would be wrong. Such work is refused (warden::capture captures launches correctly).
inline void refuse_foreign_capture(std::string_view who, stream_ref s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  WARDEN_CUDA_CHECK(cudaStreamIsCapturing(s.native(), &status));
  if (status != cudaStreamCaptureStatusNone)
    throw capture_error(who, "its stream is being captured by cudaStreamBeginCapture, outside warden::capture, "
                             "so its buffers would be ordered as if it ran now: capture with warden::capture(stream, body)");
}
#endif

// Work that must run when it is issued (a transfer, a graph's replay) on `s`: refused while s is
// captured, by warden::capture (any thread) or, on a GPU, by cudaStreamBeginCapture.
inline void refuse_capture(stream_ref s, std::string_view who, const char* why) {
  if (capture_on(s, who) != nullptr) throw capture_error(who, why);
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) refuse_foreign_capture(who, s);
#endif
}

}  // namespace warden::detail
