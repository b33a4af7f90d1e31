#pragma once
// CUDA graphs: a sequence of launches captured once and replayed at a fraction of their launch
// cost (docs/guide.md "Graphs").
//
//   w::stream s;
//   w::graph steps = w::capture(s, [&] {
//     for (int t = 0; t < 100; ++t) {
//       w::launch(heat_step, w::grid_for(n).on(s), u, v, r);
//       w::launch(heat_step, w::grid_for(n).on(s), v, u, r);
//     }
//   });
//   for (int round = 0; round < 50; ++round) steps.replay();   // on s; replay(other) on another
//
// What is guaranteed, as for launches: every launch of the body runs its launch-time checks when
// it is captured (a launch that fails them throws, and the capture is discarded), with the very
// arguments the graph replays, so they hold for every replay. A replay is ordered after earlier
// uses of the graph's buffers, on whatever stream, and is recorded as their latest use, so host
// access and later work wait for it; a replay after one of those buffers was freed is refused
// (E109) before anything is issued. Only launches on the captured stream are captured; transfers,
// allocations and replays on that stream are refused (E109), and so is work that another thread
// issues to it; anything else the body does (host access, work on other streams) happens at once.
//
// On a GPU, capture is CUDA stream capture (cudaStreamBeginCapture, thread-local mode) and replay
// is cudaGraphLaunch of the instantiated graph. Without one (the cpu backend), capture keeps each
// launch, checked, and replay runs them in order: the same program works on both.

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "profile/nvtx.hpp"
#include "config.hpp"
#include "cuda_check.hpp"
#include "error.hpp"
#include "graph/recorder.hpp"
#include "memory/capture_link.hpp"
#include "memory/capture_registry.hpp"
#include "runtime.hpp"
#include "stream.hpp"

namespace warden {

class graph {
 public:
  graph() = default;
  graph(graph&& other) noexcept { swap(other); }
  graph& operator=(graph&& other) noexcept {
    if (this != &other) {
      graph(std::move(other)).swap(*this);
    }
    return *this;
  }
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;
  ~graph() {
#if WARDEN_CUDA_RUNTIME
    if (exec_ != nullptr) detail::cuda_check_noexcept(cudaGraphExecDestroy(exec_), "cudaGraphExecDestroy");
#endif
  }

  // The stream it was captured on, the launches it holds, and the buffers they use.
  stream_ref stream() const noexcept { return stream_; }
  int launches() const noexcept { return launches_; }
  std::size_t buffers() const noexcept { return uses_.size(); }
  bool empty() const noexcept { return launches_ == 0; }

  // Runs the captured launches once more, in order, on `s` (by default the stream of the capture),
  // after every earlier use of their buffers. Throws capture_error (E109) before issuing anything
  // if one of those buffers has been freed.
  void replay() { replay(stream_); }
  void replay(stream_ref s) {
    if (!detail::live_streams::instance().alive(s))
      throw capture_error("warden::graph::replay",
                          "its stream was destroyed: replay(stream) on a live one, or keep the stream as long as the graph");
    detail::refuse_capture(s, "warden::graph::replay",
                           "a replay on a stream being captured: graphs do not nest; replay before or after the capture, "
                           "or on another stream");
    const detail::nvtx_range range([&](detail::range_text& t) { t.add("graph replay: ").add(static_cast<long long>(launches_)).add(" launches"); });
    for (const detail::captured_use& u : uses_)
      if (u.link->owner.buffer == nullptr)
        throw capture_error("warden::graph::replay",
                            u.described() + " was freed after the capture; a graph runs on the "
                                                              "buffers it captured, so keep them alive as long as the graph");
#if WARDEN_CUDA_RUNTIME
    if (exec_ != nullptr) {
      for (const detail::captured_use& u : uses_) u.link->owner.order_before(s, u.writes);
      WARDEN_CUDA_CHECK(cudaGraphLaunch(exec_, s.native()));
      for (const detail::captured_use& u : uses_) u.link->owner.record_use(s, u.writes);
#if WARDEN_SYNC_LAUNCHES
      WARDEN_CUDA_CHECK(cudaStreamSynchronize(s.native()));
#endif
      return;
    }
#endif
    for (const detail::captured_use& u : uses_) u.link->owner.wait_for_host(u.writes);
    for (const auto& step : steps_) step();
    for (const detail::captured_use& u : uses_) u.link->owner.record_use(s, u.writes);
  }

  void swap(graph& other) noexcept {
    std::swap(stream_, other.stream_);
    std::swap(launches_, other.launches_);
    std::swap(uses_, other.uses_);
    std::swap(steps_, other.steps_);
#if WARDEN_CUDA_RUNTIME
    std::swap(exec_, other.exec_);
#endif
  }

 private:
  template <class Body>
  friend graph capture(stream_ref s, Body&& body);

  stream_ref stream_;
  int launches_ = 0;
  std::vector<detail::captured_use> uses_;
  std::vector<std::function<void()>> steps_;  // the cpu backend's launches
#if WARDEN_CUDA_RUNTIME
  cudaGraphExec_t exec_ = nullptr;
#endif
};

// Runs `body`, capturing the warden launches it issues to `s` into a graph (see the top of this
// file). `s` must be a warden::stream: the default stream cannot be captured. An exception from the
// body (a launch-time check, say) ends the capture, discards it and propagates.
template <class Body>
graph capture(stream_ref s, Body&& body) {
  if (s == default_stream)
    throw capture_error("warden::capture", "the default stream cannot be captured: capture on a warden::stream");
  bool on_gpu = false;
#if WARDEN_CUDA_RUNTIME
  on_gpu = detail::cuda_device_available();
#endif
  detail::graph_recorder recorder(on_gpu);
  graph g;
  g.stream_ = s;
  // No buffer's own work (another thread's free or download) picks s between here and the
  // capture's beginning: it either issued before, or finds s captured and uses the default stream.
  detail::capture_beginning_scope beginning;
  // What s has issued so far gets its event now: once captured, s takes none, and work on other
  // streams in the body (and buffers freed there) is ordered after s's earlier work with it.
  if (on_gpu && !detail::being_captured(s)) detail::stream_observers::instance().capture_beginning(s);
  // Registered for the whole capture; refuses a stream that is already being captured.
  detail::capture_scope scope(s, recorder);
#if WARDEN_CUDA_RUNTIME
  if (on_gpu) {
    WARDEN_CUDA_CHECK(cudaStreamBeginCapture(s.native(), cudaStreamCaptureModeThreadLocal));
    beginning.open();
    cudaGraph_t captured = nullptr;
    try {
      body();
    } catch (...) {
      const cudaError_t status = cudaStreamEndCapture(s.native(), &captured);
      if (status != cudaSuccess) cudaGetLastError();
      if (captured != nullptr) detail::cuda_check_noexcept(cudaGraphDestroy(captured), "cudaGraphDestroy");
      throw;
    }
    WARDEN_CUDA_CHECK(cudaStreamEndCapture(s.native(), &captured));
    const cudaError_t status = cudaGraphInstantiate(&g.exec_, captured, 0);
    detail::cuda_check_noexcept(cudaGraphDestroy(captured), "cudaGraphDestroy");
    detail::cuda_check(status, "cudaGraphInstantiate");
    g.launches_ = recorder.launches();
    g.uses_ = recorder.take_uses();
    return g;
  }
#endif
  beginning.open();
  body();
  g.launches_ = recorder.launches();
  g.uses_ = recorder.take_uses();
  g.steps_ = recorder.take_steps();
  return g;
}

}  // namespace warden
