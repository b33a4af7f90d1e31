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
// when none is in progress.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "../memory/capture_link.hpp"
#include "../stream.hpp"

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
  void add(graph_recorder* r) {
    std::lock_guard lock(mutex_);
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

inline graph_recorder* capture_on(stream_ref s) { return capture_registry::instance().find(s); }

}  // namespace warden::detail
