// graph.hpp on the cpu backend (no GPU): w::capture keeps each launch on the captured stream,
// checked, and replay runs them in order after the buffers' earlier uses. What is refused, with
// E109 before anything runs: a replay after a captured buffer was freed, a capture on the default
// stream or inside another, a recording inside a capture, a transfer or a replay on the captured
// stream, and work another thread issues to it. The GPU path (CUDA stream capture) is driven
// against the runtime stand-in by graph_standin_test.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace w = warden;

// One time step: next[i] = 2 cur[i] + 1.
WARDEN_KERNEL(step_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto cur, auto next) {
  auto i = k.global_id();
  return w::when(i < next.size() && i < cur.size(), next[i] = 2.f * cur[i] + 1.f);
}).named("step_k", "cur", "next"));

namespace {

constexpr int n = 100;

std::vector<float> host(w::device_buffer<float>& b) { return w::to_host(b); }

// `steps` steps from all-zero, ping-ponging u and v; the result is in u when steps is even.
float expected_after(int steps) {
  float x = 0.f;
  for (int s = 0; s < steps; ++s) x = 2.f * x + 1.f;
  return x;
}

}  // namespace

TEST_CASE("a captured time-step loop runs only when replayed, and each replay continues the state", "[graph]") {
  w::stream s;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  w::device_buffer<float> v(n);
  w::graph steps = w::capture(s, [&] {
    for (int t = 0; t < 2; ++t) {
      w::launch(step_k, w::grid_for(n).on(s), u, v);
      w::launch(step_k, w::grid_for(n).on(s), v, u);
    }
  });
  CHECK(steps.launches() == 4);
  CHECK(steps.buffers() == 2);
  CHECK(host(u)[7] == 0.f);  // nothing ran during the capture

  steps.replay();
  CHECK(host(u)[7] == expected_after(4));
  steps.replay();
  steps.replay(w::default_stream);  // on another stream, ordered after the first replays
  const auto out = host(u);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == expected_after(12));

  // The same loop launched directly agrees.
  auto a = w::to_device(std::vector<float>(n, 0.f));
  w::device_buffer<float> b(n);
  for (int t = 0; t < 6; ++t) {
    w::launch(step_k, w::grid_for(n), a, b);
    w::launch(step_k, w::grid_for(n), b, a);
  }
  CHECK(host(a) == out);
}

TEST_CASE("only launches on the captured stream are captured", "[graph]") {
  w::stream s, other;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  w::device_buffer<float> v(n), x(n);
  w::graph g = w::capture(s, [&] {
    w::launch(step_k, w::grid_for(n).on(s), u, v);
    w::launch(step_k, w::grid_for(n).on(other), u, x);  // runs at once
  });
  CHECK(g.launches() == 1);
  CHECK(host(x)[0] == 1.f);
}

TEST_CASE("a launch that fails its checks during a capture throws and discards the capture", "[graph]") {
  w::stream s;
  w::device_buffer<float> u(n), small(10);
  CHECK_THROWS_AS(w::capture(s, [&] {
                    w::launch(step_k, w::grid_for(n).on(s), u, u);  // E100 at capture, not at replay
                  }),
                  w::aliasing_error);
  CHECK_THROWS_AS(w::capture(s, [&] { w::launch(step_k, w::grid(2, 2).on(s), u, small); }), w::grid_error);
  // The stream is not left captured: launches run, and a new capture works.
  auto a = w::to_device(std::vector<float>(n, 0.f));
  w::launch(step_k, w::grid_for(n).on(s), a, u);
  CHECK(host(u)[3] == 1.f);
  w::graph g = w::capture(s, [&] { w::launch(step_k, w::grid_for(n).on(s), u, a); });
  CHECK(g.launches() == 1);
}

TEST_CASE("a replay after a captured buffer was freed is refused before anything runs (E109)", "[graph]") {
  w::stream s;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  w::graph g;
  {
    w::device_buffer<float> scratch(n);
    g = w::capture(s, [&] {
      w::launch(step_k, w::grid_for(n).on(s), u, scratch);
      w::launch(step_k, w::grid_for(n).on(s), scratch, u);
    });
    g.replay();
    CHECK(host(u)[0] == expected_after(2));
  }
  CHECK_THROWS_WITH(g.replay(), Catch::Matchers::StartsWith("E109 [graph-capture] warden::graph::replay: scratch (bound "
                                                            "to next of step_k in launch 1 of the capture) was freed"));
  CHECK_THROWS_AS(g.replay(), w::capture_error);
  CHECK(host(u)[0] == expected_after(2));  // the first launch, on u, did not run either
}

TEST_CASE("E109's fix followed: the captured buffer kept alive as long as the graph replays", "[graph][fix][E109]") {
  w::stream s;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  w::graph g;
  {
    w::device_buffer<float> scratch(n);
    g = w::capture(s, [&] { w::launch(step_k, w::grid_for(n).on(s), u, scratch); });
  }
  CHECK_THROWS_WITH(g.replay(), Catch::Matchers::Contains("was freed after the capture; a graph runs on the buffers it "
                                                          "captured, so keep them alive as long as the graph"));
  w::device_buffer<float> scratch(n);  // the fix: the buffer outlives the graph that captured it
  w::graph kept = w::capture(s, [&] {
    w::launch(step_k, w::grid_for(n).on(s), u, scratch);
    w::launch(step_k, w::grid_for(n).on(s), scratch, u);
  });
  kept.replay();
  kept.replay();
  CHECK(host(u)[0] == expected_after(4));
}

TEST_CASE("a graph follows a captured buffer that is moved", "[graph]") {
  w::stream s;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  w::device_buffer<float> v(n);
  w::graph g = w::capture(s, [&] {
    w::launch(step_k, w::grid_for(n).on(s), u, v);
    w::launch(step_k, w::grid_for(n).on(s), v, u);
  });
  w::device_buffer<float> moved = std::move(u);
  std::vector<w::device_buffer<float>> kept;
  kept.push_back(std::move(v));
  kept.reserve(16);  // moves it again
  g.replay();
  CHECK(host(moved)[5] == expected_after(2));
  w::graph g2 = std::move(g);
  g2.replay();
  CHECK(host(moved)[5] == expected_after(4));
  CHECK(g.launches() == 0);  // moved from
}

TEST_CASE("captures are refused on the default stream, inside another, and around a recording (E109)", "[graph]") {
  w::stream s;
  w::device_buffer<float> u(n), v(n);
  CHECK_THROWS_AS(w::capture(w::default_stream, [] {}), w::capture_error);
  CHECK_THROWS_AS(w::capture(s, [&] { w::capture(s, [] {}); }), w::capture_error);
  CHECK_THROWS_AS(w::capture(s, [&] { (void)w::record(step_k, w::grid_for(n).on(s), u, v); }), w::capture_error);
  w::stream other;
  w::graph g = w::capture(s, [&] { (void)w::capture(other, [] {}); });  // another stream: fine
  CHECK(g.empty());
  // A buffer made on the captured stream inside the body (CUDA would make it graph memory).
  CHECK_THROWS_AS(w::capture(s, [&] { w::device_buffer<float> inside(n, s); }), w::capture_error);
  w::graph h = w::capture(s, [&] { w::device_buffer<float> elsewhere(n, other); });  // another stream: fine
  CHECK(h.empty());
}

TEST_CASE("a transfer on the captured stream is refused: it would run at replay, not now (E109)", "[graph]") {
  w::stream s, other;
  auto src = w::to_device(std::vector<float>(n, 7.f), other);
  auto dst = w::to_device(std::vector<float>(n, -1.f), s);  // pool memory is not cleared: a known start
  w::device_buffer<float> on_other(n, other);
  CHECK_THROWS_WITH(w::capture(s, [&] { w::copy_async(dst, src, s); }),
                    Catch::Matchers::StartsWith("E109 [graph-capture] warden::copy: a transfer on a stream being captured"));
  CHECK_THROWS_AS(w::capture(s, [&] { (void)w::to_device(std::vector<float>(n, 1.f), s); }), w::capture_error);
  CHECK_THROWS_AS(w::capture(s, [&] { (void)w::to_host(dst); }), w::capture_error);  // dst's stream is s
  CHECK_THROWS_AS(w::capture(s, [&] { w::copy(dst, src); }), w::capture_error);
  CHECK(host(dst)[0] == -1.f);  // none of them copied
  // On another stream a transfer runs at once, as the launches there do.
  w::graph g = w::capture(s, [&] { w::copy_async(on_other, src, other); });
  CHECK(g.empty());
  CHECK(host(on_other)[0] == 7.f);
  w::copy_async(dst, src, s);  // after the capture, the stream takes transfers again
  CHECK(host(dst)[0] == 7.f);
}

TEST_CASE("a replay on a stream being captured is refused: graphs do not nest (E109)", "[graph]") {
  w::stream s, other;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  auto v = w::to_device(std::vector<float>(n, -1.f));
  w::graph inner = w::capture(s, [&] { w::launch(step_k, w::grid_for(n).on(s), u, v); });
  CHECK_THROWS_WITH(w::capture(s, [&] { inner.replay(); }),
                    Catch::Matchers::StartsWith("E109 [graph-capture] warden::graph::replay: a replay on a stream being captured"));
  CHECK(host(v)[0] == -1.f);
  w::graph outer = w::capture(other, [&] { inner.replay(); });  // s is not captured: the replay runs now
  CHECK(outer.empty());
  CHECK(host(v)[0] == 1.f);
}

TEST_CASE("work another thread issues to a stream being captured is refused (E109)", "[graph]") {
  w::stream s;
  auto u = w::to_device(std::vector<float>(n, 0.f));
  auto v = w::to_device(std::vector<float>(n, -1.f));
  std::promise<void> capturing, tried;
  std::string launch_error, capture_error;
  std::thread other([&] {
    capturing.get_future().wait();
    try {
      w::launch(step_k, w::grid_for(n).on(s), u, v);  // would join the other thread's graph
    } catch (const w::capture_error& e) {
      launch_error = e.what();
    }
    try {
      (void)w::capture(s, [] {});  // a second capture of the same stream
    } catch (const w::capture_error& e) {
      capture_error = e.what();
    }
    tried.set_value();
  });
  w::graph g = w::capture(s, [&] {
    capturing.set_value();
    tried.get_future().wait();
  });
  other.join();
  CHECK_THAT(launch_error, Catch::Matchers::StartsWith("E109 [graph-capture] step_k: its stream is being captured by "
                                                       "warden::capture on another thread"));
  CHECK_THAT(capture_error, Catch::Matchers::Contains("already being captured by another thread"));
  CHECK(g.empty());
  CHECK(host(v)[0] == -1.f);
  w::launch(step_k, w::grid_for(n).on(s), u, v);  // once the capture is over, from any thread
  CHECK(host(v)[0] == 1.f);
}
