// graph.hpp's GPU path against the CUDA runtime stand-in: w::capture is CUDA stream capture, the
// kernels captured run only when the graph is launched, a launch inside a capture makes no event
// or synchronisation call, replay orders itself after other streams' uses of its buffers and is
// recorded as their latest use, and what cannot run as captured is refused (E109). The stand-in
// runs no kernels: the launch entry issues a stand-in kernel that logs which launch it stands for.
// Built twice: as is, and with WARDEN_SYNC_LAUNCHES=1 (graph_standin_sync_test), where a launch
// outside a capture synchronises its stream and one inside must not; the ordering case needs
// work left queued, so it is in the first build only.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace w = warden;
namespace standin = cuda_standin;


WARDEN_KERNEL(step_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto cur, auto next) {
  auto i = k.global_id();
  return w::when(i < next.size() && i < cur.size(), next[i] = 2.f * cur[i] + 1.f);
}));

namespace {

using warden::testing::no_misuse;

// Stands for the <<<>>> call: issues a stand-in kernel that logs the number of this call.
struct logging_entry {
  std::shared_ptr<std::vector<int>> log = std::make_shared<std::vector<int>>();
  std::shared_ptr<int> issued = std::make_shared<int>(0);
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t s, const Slots&) const {
    const int id = ++*issued;
    standin::launch_kernel(s, [log = log, id] { log->push_back(id); });
  }
};

template <class... Args>
void launch(const logging_entry& entry, const w::launch_config& config, Args&... args) {
  w::detail::run_cuda(step_k, config, entry, args...);
}

}  // namespace

TEST_CASE("a capture is CUDA stream capture: kernels run at each graph launch, none while capturing", "[standin][graph]") {
  standin::reset();
  w::stream s;
  w::device_buffer<float> u(256), v(256);
  logging_entry entry;
  const long syncs = standin::calls("cudaStreamSynchronize");
  w::graph g = w::capture(s, [&] {
    launch(entry, w::grid_for(256).on(s), u, v);
    launch(entry, w::grid_for(256).on(s), v, u);
    launch(entry, w::grid_for(256).on(s), u, v);
  });
  CHECK(standin::calls("cudaStreamBeginCapture") == 1);
  CHECK(standin::calls("cudaStreamEndCapture") == 1);
  CHECK(standin::calls("cudaGraphInstantiate") == 1);
  CHECK(standin::calls("cudaStreamSynchronize") == syncs);  // no synchronisation inside the capture
  CHECK(standin::calls("cudaEventRecord") == 0);
  CHECK(standin::calls("cudaStreamWaitEvent") == 0);
  CHECK(g.launches() == 3);
  CHECK(entry.log->empty());  // captured, not run

  g.replay();
  CHECK(*entry.log == std::vector<int>{1, 2, 3});
  g.replay();
  CHECK(*entry.log == std::vector<int>{1, 2, 3, 1, 2, 3});
  CHECK(standin::calls("cudaGraphLaunch") == 2);
  CHECK(standin::live_graphs() == 1);  // the instantiation; the captured graph is destroyed
  g = w::graph();
  CHECK(standin::live_graphs() == 0);
#if WARDEN_SYNC_LAUNCHES
  launch(entry, w::grid_for(256).on(s), u, v);  // outside a capture, this build synchronises
  CHECK(standin::calls("cudaStreamSynchronize") > syncs);
#endif
  CHECK(no_misuse());
}

#if !WARDEN_SYNC_LAUNCHES
TEST_CASE("a replay on another stream waits for the buffers' last writer and is their latest use", "[standin][graph]") {
  standin::reset();
  w::stream a, b;
  w::device_buffer<float> u(256), v(256);
  logging_entry entry;
  w::graph g = w::capture(b, [&] { launch(entry, w::grid_for(256).on(b), u, v); });

  w::device_buffer<float> source(256);
  standin::hold(a.ref().native());  // a GPU busy on stream a
  w::copy_async(u, source, a);      // writes u on a, queued behind the hold
  w::copy_async(source, v, a);      // reads v on a
  CHECK(standin::pending(a.ref().native()) == 2);
  const long waits = standin::calls("cudaStreamWaitEvent");
  g.replay(b);  // reads u: waits for a's write of u; writes v: waits for a's read of v
  CHECK(standin::calls("cudaStreamWaitEvent") == waits + 1);  // one event of stream a covers both
  CHECK(entry.log->empty());  // b waits behind a
  standin::release(a.ref().native());
  CHECK(*entry.log == std::vector<int>{1});
  // The replay is v's latest writer: host access waits for it, work on a is ordered after it.
  standin::hold(b.ref().native());
  g.replay(b);
  CHECK(entry.log->size() == 1);
  (void)w::to_host(v);  // waits for stream b
  CHECK(entry.log->size() == 2);
  CHECK(no_misuse());
}
#endif

TEST_CASE("what cannot run as captured is refused before anything is issued (E109)", "[standin][graph]") {
  standin::reset();
  w::stream s;
  w::device_buffer<float> u(256), v(256);
  logging_entry entry;

  SECTION("a launch on a stream captured with cudaStreamBeginCapture, outside w::capture") {
    REQUIRE(cudaStreamBeginCapture(s.ref().native(), cudaStreamCaptureModeThreadLocal) == cudaSuccess);
    CHECK_THROWS_AS(launch(entry, w::grid_for(256).on(s), u, v), w::capture_error);
    cudaGraph_t raw = nullptr;
    REQUIRE(cudaStreamEndCapture(s.ref().native(), &raw) == cudaSuccess);
    CHECK(*entry.issued == 0);
    cudaGraphDestroy(raw);
  }
  SECTION("the default stream") {
    CHECK_THROWS_AS(w::capture(w::default_stream, [] {}), w::capture_error);
    CHECK(standin::calls("cudaStreamBeginCapture") == 0);
  }
  SECTION("a launch failing its checks ends the capture, which is discarded") {
    w::device_buffer<float> small(10);
    CHECK_THROWS_AS(w::capture(s, [&] {
                      launch(entry, w::grid_for(256).on(s), u, v);
                      launch(entry, w::grid(4, 2).on(s), u, small);  // E102
                    }),
                    w::grid_error);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    REQUIRE(cudaStreamIsCapturing(s.ref().native(), &status) == cudaSuccess);
    CHECK(status == cudaStreamCaptureStatusNone);
    CHECK(standin::live_graphs() == 0);
    launch(entry, w::grid_for(256).on(s), u, v);  // the stream works again, uncaptured
    CHECK(*entry.log == std::vector<int>{2});
  }
  SECTION("a transfer on a stream captured by w::capture or by cudaStreamBeginCapture") {
    w::pinned_buffer<float> staging(256, s);
    const long copies = standin::calls("cudaMemcpyAsync");
    CHECK_THROWS_AS(w::capture(s, [&] { w::copy_async(u, staging, s); }), w::capture_error);
    REQUIRE(cudaStreamBeginCapture(s.ref().native(), cudaStreamCaptureModeThreadLocal) == cudaSuccess);
    CHECK_THROWS_AS(w::copy_async(u, staging, s), w::capture_error);
    cudaGraph_t raw = nullptr;
    REQUIRE(cudaStreamEndCapture(s.ref().native(), &raw) == cudaSuccess);
    cudaGraphDestroy(raw);
    CHECK(standin::calls("cudaMemcpyAsync") == copies);
  }
  SECTION("a transfer whose source another stream is still writing, on a captured stream (issue 55)") {
    // copy_async ordered the source after its writer first (cudaStreamWaitEvent on the captured
    // stream, which the runtime refuses), so the caller got cuda_error, not capture_error, and a
    // "capture, else run eagerly on capture_error" pipeline never fell back.
    w::stream other;
    w::device_buffer<float> d = w::to_device(std::vector<float>(256, 1.f), other);
    standin::hold(other.ref().native());
    w::pinned_buffer<float> landing = w::to_host_async(d, other);  // its writer: a copy queued on other
    w::device_buffer<float> on_s(256, s);
    const long copies = standin::calls("cudaMemcpyAsync"), waits = standin::calls("cudaStreamWaitEvent");
    CHECK_THROWS_AS(w::capture(s, [&] { w::copy_async(on_s, landing, s); }), w::capture_error);
    CHECK_THROWS_AS(w::capture(s, [&] { w::copy(on_s, landing); }), w::capture_error);  // on on_s's stream, s
    CHECK(standin::calls("cudaMemcpyAsync") == copies);
    CHECK(standin::calls("cudaStreamWaitEvent") == waits);  // refused before anything touched the runtime
    standin::release(other.ref().native());
    w::copy(on_s, landing);  // outside the capture: ordered after the copy, and runs
    CHECK(w::to_host(on_s)[255] == 1.f);
  }
  SECTION("a replay inside a capture of its stream, or after its stream was destroyed") {
    auto gone = std::make_unique<w::stream>();
    w::graph g = w::capture(*gone, [&] { launch(entry, w::grid_for(256).on(*gone), u, v); });
    CHECK_THROWS_AS(w::capture(*gone, [&] { g.replay(); }), w::capture_error);
    gone.reset();
    const long launches = standin::calls("cudaGraphLaunch");
    CHECK_THROWS_WITH(g.replay(), Catch::Matchers::StartsWith("E109 [graph-capture] warden::graph::replay: its stream was destroyed"));
    CHECK(standin::calls("cudaGraphLaunch") == launches);
    g.replay(s);  // on a live stream
    CHECK(*entry.log == std::vector<int>{1});
  }
  SECTION("a buffer made on another stream during a capture may reuse a block the captured stream freed") {
    { w::device_buffer<float> freed_on_s(256, s); }  // back to the pool, in s's order
    w::stream other;
    const long records = standin::calls("cudaEventRecord");
    w::graph g = w::capture(s, [&] { w::device_buffer<float> elsewhere(256, other); });
    CHECK(g.empty());
    // One event, the free's, recorded on s before its capture began (warden::capture records what
    // s has issued); none while s is captured (the stand-in reports that as a misuse).
    CHECK(standin::calls("cudaEventRecord") == records + 1);
  }
  SECTION("a replay after a captured buffer was freed") {
    auto scratch = std::make_unique<w::device_buffer<float>>(256);
    w::graph g = w::capture(s, [&] { launch(entry, w::grid_for(256).on(s), u, *scratch); });
    scratch.reset();
    const long launches = standin::calls("cudaGraphLaunch");
    CHECK_THROWS_AS(g.replay(), w::capture_error);
    CHECK(standin::calls("cudaGraphLaunch") == launches);
    CHECK(entry.log->empty());
  }
  CHECK(no_misuse());
}

#if !WARDEN_SYNC_LAUNCHES
TEST_CASE("during a capture, work on another stream is ordered after the captured stream's earlier work",
          "[standin][graph][capture-order]") {
  standin::reset();
  w::stream s, other;
  logging_entry entry;
  w::device_buffer<float> u(256), v(256);
  standin::hold(s.ref().native());  // a GPU busy on s: the upload below stays queued
  w::pinned_buffer<float> staging(256, other);
  for (std::size_t i = 0; i < 256; ++i) staging[i] = static_cast<float>(i);
  w::device_buffer<float> written_on_s(256, s);
  w::copy_async(written_on_s, staging, s);  // its last writer: queued on s
  w::device_buffer<float> copied(256, other);
  w::graph g = w::capture(s, [&] {
    launch(entry, w::grid_for(256).on(s), u, v);
    w::copy_async(copied, written_on_s, other);  // another stream: runs now, after s's upload
  });
  CHECK(g.launches() == 1);
  CHECK(standin::pending(other.ref().native()) == 2);  // the wait for s's event, and the copy behind it
  standin::release(s.ref().native());
  const std::vector<float> back = w::to_host(copied);
  CHECK(back[0] == 0.f);
  CHECK(back[255] == 255.f);
  CHECK(no_misuse());
}

TEST_CASE("a buffer freed during a capture of a stream that used it returns to the pool, after its earlier uses",
          "[standin][graph][capture-order]") {
  standin::reset();
  w::memory_pool pool(w::cuda_resource{});
  w::stream s, t;
  logging_entry entry;
  w::device_buffer<float> u(256, pool), v(256, pool);
  // Two scratch buffers written on s while s is busy: one made for s, one made for t.
  auto on_s = std::make_unique<w::device_buffer<float>>(1024, pool, s);
  auto on_t = std::make_unique<w::device_buffer<float>>(1024, pool, t);
  w::pinned_buffer<float> ones(1024);
  for (float& x : ones) x = 1.f;
  standin::hold(s.ref().native());
  w::copy_async(*on_s, ones, s);
  w::copy_async(*on_t, ones, s);
  const std::size_t before = pool.stats().live_allocations;
  w::graph g = w::capture(s, [&] {
    launch(entry, w::grid_for(256).on(s), u, v);
    on_s.reset();  // freed while s is captured
    on_t.reset();
  });
  CHECK(pool.stats().live_allocations == before - 2);  // both back in the pool, none lost
  // Neither block reaches new work before s's copies into it are done.
  const std::vector<float> zeros(1024, 0.f);
  w::device_buffer<float> a(1024, pool, t), b(1024, pool, t);
  w::copy_async(a, w::to_device(zeros, t), t);
  w::copy_async(b, w::to_device(zeros, t), t);
  standin::release(s.ref().native());
  CHECK(w::to_host(a) == zeros);
  CHECK(w::to_host(b) == zeros);
  CHECK(no_misuse());
}
TEST_CASE("a buffer handed to another thread is read back there while its stream is captured", "[standin][graph][capture-order]") {
  // The capture belongs to the thread running its body; another thread's download of a buffer made
  // for that stream goes to the default stream instead of being refused (E109) or joining the graph.
  standin::reset();
  w::stream s;
  logging_entry entry;
  w::device_buffer<float> u(256), v(256);
  std::vector<float> threes(256, 3.f), got;
  auto b = w::to_device(threes, s);
  w::graph g = w::capture(s, [&] {
    launch(entry, w::grid_for(256).on(s), u, v);
    std::thread reader([&] { got = w::to_host(b); });
    reader.join();
  });
  CHECK(got == threes);
  CHECK(g.launches() == 1);
  CHECK(no_misuse());
}

TEST_CASE("a capture that begins while another thread downloads a buffer of its stream waits for the download",
          "[standin][graph][capture-order][threads]") {
  // The download picks the buffer's stream s (no capture yet), and a capture of s begins on another
  // thread before the copy is issued: without the capture gate, the copy would meet the capture
  // (refused, and the capture invalidated). The stand-in opens that window: just before the copy,
  // it starts the capture and gives it up to half a second to begin; the capture's body lasts
  // until the download is over.
  standin::reset();
  w::stream s;
  logging_entry entry;
  w::device_buffer<float> u(256), v(256);
  std::vector<float> fives(256, 5.f), got;
  auto b = w::to_device(fives, s);
  std::atomic<bool> began{false}, downloaded{false};
  std::thread capturer;
  std::exception_ptr capture_failed;
  int launches = -1;
  bool hooked = false, began_in_window = false;
  standin::before_next_call("cudaMemcpyAsync", [&] {
    hooked = true;
    capturer = std::thread([&] {
      try {
        w::graph g = w::capture(s, [&] {
          began = true;
          // Held open until the download is over (it is, with the gate, before the capture begins).
          for (int i = 0; i < 500 && !downloaded; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          launch(entry, w::grid_for(256).on(s), u, v);
        });
        launches = g.launches();
      } catch (...) {
        capture_failed = std::current_exception();
      }
    });
    for (int i = 0; i < 500 && !began; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    began_in_window = began.load();
  });
  std::string download_failed;
  try {
    got = w::to_host(b);
  } catch (const std::exception& e) {
    download_failed = e.what();
  }
  downloaded = true;
  if (capturer.joinable()) capturer.join();
  INFO("the capture began while the download waited: " << began_in_window);
  CHECK(download_failed == "");
  CHECK(got == fives);
  CHECK_FALSE(capture_failed);
  CHECK(launches == 1);
  CHECK(hooked);
  CHECK(no_misuse());
}
#endif
