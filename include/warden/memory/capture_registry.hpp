#pragma once
// The captures in progress (warden::capture, graph.hpp): which stream each captures and on which
// thread its body runs, and how work issued to a stream learns that the stream is captured.
//
// A capture takes only launches: a launch on a captured stream is recorded into the graph instead
// of run. Work that must run when it is issued (a transfer, an allocation, a graph's replay) is
// refused there, and the pool's event clock records no event there; those live in memory/, so the
// registry lives here too, below the graph that registers itself in it (graph/recorder.hpp).
//
// The registry is process-wide; a caller pays one atomic load when no capture is in
// progress. A capture belongs to the thread that runs its body: work that another thread issues to
// the captured stream would silently join that thread's graph (and touch its recorder, unlocked),
// so it is refused (E109), as is a second capture of the same stream.

//
// On warden::runtime (WARDEN_SEPARATE_RUNTIME) the registry's state and its locks are compiled once,
// in the library (capture_registry_state.hpp), so that a file that launches or allocates parses no
// <thread> or <shared_mutex>; header-only, every file compiles them inline. Nothing here that the
// library compiles reads WARDEN_CUDA_RUNTIME: the library is built without the CUDA runtime, and
// the checks that need it (refuse_foreign_capture) stay in the caller's file.

#include <string_view>

#include "../config.hpp"
#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../runtime.hpp"
#include "../stream.hpp"

namespace warden::detail {

// What a capture collects (graph/recorder.hpp). The registry only hands it back to the launches
// issued to the captured stream; it never looks inside.
class graph_recorder;

// The functions' namespace is named after the mode, as the launch-time checks' are (no function is
// inline in one mode and compiled once in the other), but apart from theirs: inside warden::detail,
// `inline namespace separate_runtime` would reopen the pool's, which sits in the pool mode's inline
// namespace, and the registry must be one for files of both pool modes.
#if WARDEN_SEPARATE_RUNTIME
#define WARDEN_CAPTURES_ABI captures_separate_runtime
#else
#define WARDEN_CAPTURES_ABI captures_header_only
#endif
inline namespace WARDEN_CAPTURES_ABI {
// Registers `recorder` as capturing `s` on this thread; capture_error (E109) if `s` is already
// captured, here (captures do not nest) or by another thread. One step, so that two threads cannot
// both start capturing one stream.
WARDEN_RUNTIME_API void register_capture(stream_ref s, graph_recorder* recorder);
WARDEN_RUNTIME_API void unregister_capture(graph_recorder* recorder);
// Whether this thread runs a capture's body now (on any stream): CUDA's thread-local capture
// mode then forbids it calls such as cudaMalloc that the capture could not record.
WARDEN_RUNTIME_API bool this_thread_captures();
// Whether any thread is capturing `s` (the event clock must not record an event there).
WARDEN_RUNTIME_API bool being_captured(stream_ref s);
// Whether a thread other than this one is capturing `s`: work this thread issues there would join
// that thread's graph. A buffer's own work (a download, a copy into it, its free) then goes to
// the default stream (buffer::stream()); work the caller issues to `s` by name is refused.
WARDEN_RUNTIME_API bool captured_by_another_thread(stream_ref s);
// The capture of `s` that this thread's warden::capture body is running, or null; capture_error
// (E109) if another thread captures `s` (`who` issues work there).
WARDEN_RUNTIME_API graph_recorder* capture_of_this_thread(stream_ref s, std::string_view who);
// The gate between a capture beginning and a buffer's own work: the stream buffer::stream()
// picks (the buffer's stream, or the default stream while another thread captures it) and the
// work then issued there. Without it, another thread could find the stream not captured, and
// issue its free or copy there just after the capture began: the work would join the capture or
// break it (cudaErrorStreamCaptureUnsupported), and a download's copy and its wait could go to two
// streams. A buffer's work holds the gate shared (buffer_work_scope); warden::capture holds it alone
// from its check of the stream to cudaStreamBeginCapture, never while its body runs.
WARDEN_RUNTIME_API void lock_capture_gate_shared();
WARDEN_RUNTIME_API void unlock_capture_gate_shared();
WARDEN_RUNTIME_API void lock_capture_gate();
WARDEN_RUNTIME_API void unlock_capture_gate();
}  // inline namespace WARDEN_CAPTURES_ABI

// Registers a capture of `s` for the duration of its body, whatever way the body leaves.
class capture_scope {
 public:
  capture_scope(stream_ref s, graph_recorder& recorder) : recorder_(recorder) { register_capture(s, &recorder); }
  ~capture_scope() { unregister_capture(&recorder_); }
  capture_scope(const capture_scope&) = delete;
  capture_scope& operator=(const capture_scope&) = delete;

 private:
  graph_recorder& recorder_;
};

// How deep this thread is in buffer work: the gate is taken by the outermost scope only (a shared
// lock taken twice by one thread may deadlock behind a waiting capture).
inline int& buffer_work_depth() noexcept {
  thread_local int depth = 0;
  return depth;
}

class buffer_work_scope {
 public:
  buffer_work_scope() {
    if (buffer_work_depth() == 0) lock_capture_gate_shared();  // counted once taken: a throw leaves no count
    ++buffer_work_depth();
  }
  ~buffer_work_scope() {
    if (--buffer_work_depth() == 0) unlock_capture_gate_shared();
  }
  buffer_work_scope(const buffer_work_scope&) = delete;
  buffer_work_scope& operator=(const buffer_work_scope&) = delete;
};

// Held by warden::capture while it begins; a thread inside buffer work (which cannot call capture)
// would wait for itself, so it does not take the gate.
class capture_beginning_scope {
 public:
  capture_beginning_scope() : held_(buffer_work_depth() == 0) {
    if (held_) lock_capture_gate();
  }
  ~capture_beginning_scope() { open(); }
  void open() noexcept {
    if (held_) unlock_capture_gate();
    held_ = false;
  }
  capture_beginning_scope(const capture_beginning_scope&) = delete;
  capture_beginning_scope& operator=(const capture_beginning_scope&) = delete;

 private:
  bool held_;
};

// E111: every launch, allocation, transfer and replay passes here (capture_on) before it issues
// anything: a ref to another thread's per-thread default stream would issue to this thread's.
inline void refuse_foreign_stream(stream_ref s, std::string_view who) {
  if (!s.issuable_here())
    throw foreign_stream_error(who, "its stream_ref was made from cudaStreamPerThread on another thread; on this one the "
                                    "handle names this thread's own per-thread stream. Make the stream_ref on the thread "
                                    "that issues the work, or share a warden::stream");
}

// The capture of `s` that this thread's warden::capture body is running, or null; `who` (a
// kernel's name, "warden::copy", ...) issues work to s, and is refused if another thread captures s.
inline graph_recorder* capture_on(stream_ref s, std::string_view who) {
  refuse_foreign_stream(s, who);
  return capture_of_this_thread(s, who);
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

#if !WARDEN_SEPARATE_RUNTIME
#include "capture_registry_state.hpp"
#endif
