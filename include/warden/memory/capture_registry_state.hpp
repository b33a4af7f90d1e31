#pragma once
// The state behind memory/capture_registry.hpp: the captures in progress and the capture gate.
// Header-only, capture_registry.hpp includes this and every file compiles it inline; on
// warden::runtime (WARDEN_SEPARATE_RUNTIME) only separate_runtime.hpp does, once per program, and
// a file that launches or allocates parses neither <thread> nor <shared_mutex>.

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "capture_registry.hpp"

namespace warden::detail {

inline namespace WARDEN_CAPTURES_ABI {

class capture_registry {
 public:
  static capture_registry& instance() {
    static capture_registry* all = new capture_registry;  // never destroyed, as stream_observers
    return *all;
  }

  struct entry {
    stream_ref stream;
    std::thread::id thread;
    graph_recorder* recorder = nullptr;
  };

  // The capture in progress on `s`; its recorder is null if there is none.
  entry find(stream_ref s) {
    if (active_.load(std::memory_order_acquire) == 0) return {};
    std::lock_guard lock(mutex_);
    for (const entry& e : entries_)
      if (e.stream == s) return e;
    return {};
  }
  // Checks and registers in one step, so two threads cannot both start capturing one stream.
  void add(stream_ref s, graph_recorder* recorder) {
    std::lock_guard lock(mutex_);
    const std::thread::id self = std::this_thread::get_id();
    for (const entry& other : entries_)
      if (other.stream == s)
        throw capture_error("warden::capture", other.thread == self
                                                   ? "this stream is already being captured: captures do not nest"
                                                   : "this stream is already being captured by another thread");
    entries_.push_back({s, self, recorder});
    active_.fetch_add(1, std::memory_order_release);
  }
  // Whether this thread runs a capture's body now (on any stream): CUDA's thread-local capture
  // mode then forbids it calls such as cudaMalloc that the capture could not record.
  bool this_thread_captures() {
    if (active_.load(std::memory_order_acquire) == 0) return false;
    std::lock_guard lock(mutex_);
    const std::thread::id self = std::this_thread::get_id();
    for (const entry& e : entries_)
      if (e.thread == self) return true;
    return false;
  }
  void remove(graph_recorder* recorder) {
    std::lock_guard lock(mutex_);
    entries_.erase(std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.recorder == recorder; }));
    active_.fetch_sub(1, std::memory_order_release);
  }

 private:
  std::atomic<int> active_{0};
  std::mutex mutex_;
  std::vector<entry> entries_;
};

inline std::shared_mutex& capture_gate() {
  static std::shared_mutex* gate = new std::shared_mutex;  // never destroyed, as the registry
  return *gate;
}

WARDEN_RUNTIME_API void register_capture(stream_ref s, graph_recorder* recorder) { capture_registry::instance().add(s, recorder); }
WARDEN_RUNTIME_API void unregister_capture(graph_recorder* recorder) { capture_registry::instance().remove(recorder); }
WARDEN_RUNTIME_API bool this_thread_captures() { return capture_registry::instance().this_thread_captures(); }
WARDEN_RUNTIME_API bool being_captured(stream_ref s) { return capture_registry::instance().find(s).recorder != nullptr; }
WARDEN_RUNTIME_API bool captured_by_another_thread(stream_ref s) {
  const capture_registry::entry e = capture_registry::instance().find(s);
  return e.recorder != nullptr && e.thread != std::this_thread::get_id();
}
WARDEN_RUNTIME_API graph_recorder* capture_of_this_thread(stream_ref s, std::string_view who) {
  const capture_registry::entry e = capture_registry::instance().find(s);
  if (e.recorder != nullptr && e.thread != std::this_thread::get_id())
    throw capture_error(who, "its stream is being captured by warden::capture on another thread, whose graph would take "
                             "this work instead of running it: issue it from the capturing thread's body, or to another stream");
  return e.recorder;
}
WARDEN_RUNTIME_API void lock_capture_gate_shared() { capture_gate().lock_shared(); }
WARDEN_RUNTIME_API void unlock_capture_gate_shared() { capture_gate().unlock_shared(); }
WARDEN_RUNTIME_API void lock_capture_gate() { capture_gate().lock(); }
WARDEN_RUNTIME_API void unlock_capture_gate() { capture_gate().unlock(); }

}  // inline namespace WARDEN_CAPTURES_ABI

}  // namespace warden::detail
