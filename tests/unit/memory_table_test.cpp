// docs/memory.md's "The rule, call by call" as a test (issue 55, item 1): each row's host call is
// made on the CUDA runtime stand-in against a buffer whose last writer, or a reader, is still
// queued on a held stream (a GPU busy with a long kernel), and what the row says is observed:
//   * "the host waits for": the held work is done when the call returns (the stand-in runs a held
//     stream's queue when the host synchronises with it), or still queued where the row says
//     nothing;
//   * "the stream it issues to is ordered after": the call makes the stream wait for the held
//     one's event (cudaStreamWaitEvent), or makes no such wait where the row says "-";
//   * "records": a later use orders after it, or `writes()` counts it.
// Every row of the docs' table names its check: a TEST_CASE "row: <the row's first column>: ..."
// here, or an "elsewhere:" line (end of file) naming the file and test that check it. A row added
// to the docs without one fails test memory_table_rows (scripts/memory-table-rows); a row whose
// code does something else fails its check.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"

#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace w = warden;
namespace standin = cuda_standin;

static_assert(WARDEN_CUDA_RUNTIME == 1, "built against the stand-in with the CUDA runtime on");

namespace {

using warden::testing::no_misuse;

// Runs `call` while work is held on `busy`: whether the host waited for it. The stand-in runs a
// held stream's queued work when the host synchronises with it (cuda_standin.hpp), so a call
// that waited leaves nothing queued there, and one that did not leaves the work queued.
bool host_waited(w::stream& busy, const std::function<void()>& call) {
  REQUIRE(standin::pending(busy.ref().native()) > 0);
  call();
  const bool waited = standin::pending(busy.ref().native()) == 0;
  standin::release(busy.ref().native());
  return waited;
}

// A device buffer of `n` ints whose last writer is a copy still queued on `busy` (held).
w::device_buffer<int> written_on(w::stream& busy, std::size_t n, int value) {
  w::device_buffer<int> d(n, busy);
  const w::device_buffer<int> source = w::to_device(std::vector<int>(n, value));
  standin::hold(busy.ref().native());
  w::copy_async(d, source, busy);
  return d;
}

// A pinned buffer whose last writer is a download still queued on `busy` (held).
w::pinned_buffer<int> landing_on(w::stream& busy, std::size_t n, int value) {
  const w::device_buffer<int> d = w::to_device(std::vector<int>(n, value));
  standin::hold(busy.ref().native());
  return w::to_host_async(d, busy);
}

// A pinned buffer with a reader still queued on `busy` (held): an upload from it.
w::pinned_buffer<int> read_on(w::stream& busy, std::size_t n, w::device_buffer<int>& into) {
  w::pinned_buffer<int> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = 5;
  standin::hold(busy.ref().native());
  w::copy_async(into, p, busy);
  return p;
}

long stream_waits() { return standin::calls("cudaStreamWaitEvent"); }

WARDEN_KERNEL(table_bump_k, w::kernel<w::block<32>, w::inout<int>>([](auto k, auto a) {
  auto i = k.global_id();
  return w::when(i < a.size(), a[i] = a[i] + 1);
}));

WARDEN_KERNEL(table_gather_k, w::kernel<w::block<32>, w::in<int>, w::in<int>, w::out<int>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), dst[i] = src[idx[i]]);
}).named("gather", "idx", "src", "dst"));

// The stand-in kernel call of table_gather_k; a test that reaches it fails (it is refused before).
struct unreachable_entry {
  bool* reached;
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t, const Slots&) const { *reached = true; }
};

}  // namespace

TEST_CASE("row: `copy_async(dst, src, s)`: the host waits for nothing, s is ordered after src's W and dst's W and R",
          "[standin][table]") {
  standin::reset();
  w::stream busy, s;
  w::device_buffer<int> src = written_on(busy, 256, 3);
  w::device_buffer<int> dst(256, s);
  const long waits = stream_waits();
  CHECK_FALSE(host_waited(busy, [&] { w::copy_async(dst, src, s); }));
  CHECK(stream_waits() > waits);  // s after src's writer on busy
  CHECK(w::to_host(dst)[255] == 3);
  // dst's reader: a copy out of dst queued on busy; a copy into dst on s waits for it on s.
  w::device_buffer<int> out(256, busy);
  standin::hold(busy.ref().native());
  w::copy_async(out, dst, busy);
  const long before = stream_waits();
  CHECK_FALSE(host_waited(busy, [&] { w::copy_async(dst, w::to_device(std::vector<int>(256, 9)), s); }));
  CHECK(stream_waits() > before);
  CHECK(w::to_host(out)[0] == 3);  // the reader read what was there before
  CHECK(w::to_host(dst)[0] == 9);
  CHECK(no_misuse());
}

TEST_CASE("row: `copy(dst, src)`: the host waits, after the copy, for dst's W", "[standin][table]") {
  standin::reset();
  w::stream busy;
  w::device_buffer<int> src = written_on(busy, 256, 4);
  w::device_buffer<int> dst(256, busy);
  CHECK(host_waited(busy, [&] { w::copy(dst, src); }));
  CHECK(w::to_host(dst)[7] == 4);
  CHECK(no_misuse());
}

TEST_CASE("row: `to_host(b)`: the host waits for b's W, then the copy", "[standin][table]") {
  standin::reset();
  w::stream busy;
  w::device_buffer<int> d = written_on(busy, 256, 6);
  std::vector<int> got;
  CHECK(host_waited(busy, [&] { got = w::to_host(d); }));
  CHECK(got[100] == 6);
  CHECK(no_misuse());
}

TEST_CASE("row: `to_host_async(b, s)`: the host waits for nothing, s is ordered after b's W, indexing the result waits",
          "[standin][table]") {
  standin::reset();
  w::stream busy, s;
  w::device_buffer<int> d = written_on(busy, 256, 8);
  const long waits = stream_waits();
  std::optional<w::pinned_buffer<int>> back;
  CHECK_FALSE(host_waited(busy, [&] { back.emplace(w::to_host_async(d, s)); }));
  CHECK(stream_waits() > waits);
  CHECK((*back)[255] == 8);
  CHECK(no_misuse());
}

// `call` with `busy` held and nothing queued on it: whether the work it issued there was still
// queued when it returned (it did not wait for it).
bool left_queued(w::stream& busy, const std::function<void()>& call) {
  standin::hold(busy.ref().native());
  REQUIRE(standin::pending(busy.ref().native()) == 0);
  const long copies = standin::calls("cudaMemcpyAsync");
  call();
  CHECK(standin::calls("cudaMemcpyAsync") > copies);  // it issued its copy to busy
  const bool queued = standin::pending(busy.ref().native()) > 0;
  standin::release(busy.ref().native());
  return queued;
}

TEST_CASE("row: `to_device(range, s)`: from a pinned buffer's memory the host waits for the copy, from pageable memory, for its staging",
          "[standin][table]") {
  standin::reset();
  w::stream busy;
  w::pinned_buffer<int> staging(256);
  for (std::size_t i = 0; i < 256; ++i) staging[i] = 2;
  std::optional<w::device_buffer<int>> d;
  CHECK_FALSE(left_queued(busy, [&] { d.emplace(w::to_device(std::span<const int>(std::as_const(staging).data(), 256), busy)); }));
  CHECK(w::to_host(*d)[0] == 2);
  // From pageable memory the runtime stages the source and returns: the copy stays queued.
  std::vector<int> pageable(256, 1);
  CHECK(left_queued(busy, [&] { d.emplace(w::to_device(pageable, busy)); }));
  CHECK(w::to_host(*d)[0] == 1);
  // The range's W where it is a warden buffer: a pinned buffer whose download is queued.
  w::pinned_buffer<int> landing = landing_on(busy, 256, 3);
  CHECK(host_waited(busy, [&] { d.emplace(w::to_device(landing, busy)); }));
  CHECK(w::to_host(*d)[0] == 3);
  CHECK(no_misuse());
}

TEST_CASE("row: `to_device_async(range, s)`: the host waits only for its copy into pinned staging", "[standin][table]") {
  standin::reset();
  w::stream busy;
  std::optional<w::device_buffer<int>> d;
  CHECK(left_queued(busy, [&] { d.emplace(w::to_device_async(std::vector<int>(256, 7), busy)); }));
  CHECK(w::to_host(*d)[9] == 7);
  CHECK(no_misuse());
}

TEST_CASE("row: host indexing of a pinned or managed buffer, non-const `data()`: the host waits for W and every R",
          "[standin][table][data]") {
  standin::reset();
  w::stream busy;
  SECTION("operator[] after a queued writer") {
    w::pinned_buffer<int> p = landing_on(busy, 256, 4);
    int v = 0;
    CHECK(host_waited(busy, [&] { v = p[3]; }));
    CHECK(v == 4);
  }
  SECTION("non-const data() after a queued writer") {
    w::pinned_buffer<int> p = landing_on(busy, 256, 4);
    int v = 0;
    CHECK(host_waited(busy, [&] { std::memcpy(&v, p.data() + 3, sizeof v); }));
    CHECK(v == 4);
  }
  SECTION("non-const data() before a host write, after a queued reader") {
    w::device_buffer<int> into(256);
    w::pinned_buffer<int> p = read_on(busy, 256, into);
    CHECK(host_waited(busy, [&] { std::memset(p.data(), 0, p.bytes()); }));
    CHECK(w::to_host(into)[200] == 5);  // the reader read the 5s, not the zeros
  }
  SECTION("begin() after a queued writer") {
    w::pinned_buffer<int> p = landing_on(busy, 256, 4);
    int v = 0;
    CHECK(host_waited(busy, [&] { v = *p.begin(); }));
    CHECK(v == 4);
  }
  SECTION("writes() counts the access") {
    w::pinned_buffer<int> p(16);
    const auto before = p.writes();
    (void)p.data();
    CHECK(p.writes() == before + 1);
  }
  CHECK(no_misuse());
}

TEST_CASE("row: const `data()`: the host waits for nothing (the address, for CUDA)", "[standin][table][data]") {
  standin::reset();
  w::stream busy;
  w::pinned_buffer<int> p = landing_on(busy, 256, 4);
  const auto writes = p.writes();
  CHECK_FALSE(host_waited(busy, [&] { CHECK(std::as_const(p).data() != nullptr); }));
  CHECK(p.writes() == writes);
  CHECK(no_misuse());
}

TEST_CASE("row: `view_of<Mode>(b)` of a pinned or managed buffer: W, and every R for a writable view", "[standin][table]") {
  standin::reset();
  w::stream busy;
  SECTION("a read view waits for the writer") {
    w::pinned_buffer<int> p = landing_on(busy, 256, 4);
    int v = 0;
    CHECK(host_waited(busy, [&] { v = w::view_of<w::access::read>(p)[10]; }));
    CHECK(v == 4);
  }
  SECTION("a read view does not wait for a reader") {
    w::device_buffer<int> into(256);
    w::pinned_buffer<int> p = read_on(busy, 256, into);
    CHECK_FALSE(host_waited(busy, [&] { (void)w::view_of<w::access::read>(p); }));
  }
  SECTION("a write view waits for a reader") {
    w::device_buffer<int> into(256);
    w::pinned_buffer<int> p = read_on(busy, 256, into);
    CHECK(host_waited(busy, [&] { w::view_of<w::access::write>(p)[0] = 1; }));
    CHECK(w::to_host(into)[0] == 5);
  }
  CHECK(no_misuse());
}

TEST_CASE("row: a buffer's destruction: the host waits for nothing, its stream is ordered after W and every R",
          "[standin][table]") {
  standin::reset();
  w::stream busy, s;
  std::optional<w::device_buffer<int>> d(written_on(busy, 256, 1));  // made for busy, written on busy
  w::device_buffer<int> other(256, s);
  standin::hold(s.ref().native());
  w::copy_async(other, *d, s);  // a reader on s, queued: the free on busy orders after it
  const long waits = stream_waits();
  CHECK_FALSE(host_waited(busy, [&] { d.reset(); }));
  CHECK(stream_waits() > waits);
  standin::release(s.ref().native());
  CHECK(w::to_host(other)[0] == 1);
  CHECK(no_misuse());
}

TEST_CASE("row: `w::capture(s, body)`: the host waits for nothing, a transfer in the body is refused (E109)", "[standin][table]") {
  standin::reset();
  w::stream busy, s;
  w::device_buffer<int> src = written_on(busy, 256, 1);
  w::device_buffer<int> dst(256, s);
  const long waits = stream_waits();
  CHECK_FALSE(host_waited(busy, [&] { CHECK_THROWS_AS(w::capture(s, [&] { w::copy_async(dst, src, s); }), w::capture_error); }));
  CHECK(stream_waits() == waits);  // refused before any order was made
  CHECK(no_misuse());
}

// Issue 55, item 2: every call of the table made inside w::capture(s, body) on s itself, where its
// work would join the graph: refused with capture_error (E109) before the runtime is touched (no
// copy, no stream wait, no allocation), or, for what may run there, run as the table says (a
// host read of work issued before the capture; a buffer freed in the body goes back after its
// uses). The capture itself goes on: a refusal leaves it valid (the stand-in invalidates a
// capture on a call the runtime refuses, and the graph would then fail to end).
TEST_CASE("capture rules: each call of the table on the captured stream, inside the body", "[standin][table][capture]") {
  standin::reset();
  w::stream s;
  w::device_buffer<int> d = w::to_device(std::vector<int>(256, 3), s);
  w::device_buffer<int> d2(256, s);
  const w::device_buffer<int> idx = w::to_device(std::vector<int>(256, 0));
  w::pinned_buffer<int> p(256, s);
  for (std::size_t i = 0; i < 256; ++i) p[i] = 4;
  std::vector<int> host(256, 1);
  const long copies = standin::calls("cudaMemcpyAsync"), waits = stream_waits(), mallocs = standin::calls("cudaMalloc");
  int refused = 0;
  const auto refuses = [&](const char* what, const std::function<void()>& call) {
    INFO(what);
    try {
      call();
      FAIL_CHECK("ran inside the capture");
    } catch (const w::capture_error& e) {
      ++refused;
      CHECK(std::string(e.what()).rfind("E109", 0) == 0);
    }
  };
  w::graph g = w::capture(s, [&] {
    refuses("copy_async(dst, src, s)", [&] { w::copy_async(d, p, s); });
    refuses("copy(dst, src) on dst's stream, the captured one", [&] { w::copy(d, p); });
    refuses("to_device(range, s)", [&] { (void)w::to_device(host, s); });
    refuses("to_device_async(range, s)", [&] { (void)w::to_device_async(host, s); });
    refuses("to_host_async(b, s)", [&] { (void)w::to_host_async(d, s); });
    refuses("to_host(b) of a buffer of the captured stream, on the capturing thread", [&] { (void)w::to_host(d); });
    refuses("a buffer's construction on s", [&] { w::device_buffer<int> made(16, s); });
    refuses("a launch on the cpu backend on s", [&] { w::launch(w::on_cpu, table_bump_k, w::grid_for(256).on(s), d); });
    // A launch whose checks would read an index buffer: a capture measures nothing (the graph runs
    // on the contents of each replay), so the load stays unbounded and the launch is refused.
    bool reached = false;
    CHECK_THROWS_AS(w::detail::run_cuda(table_gather_k, w::grid_for(256).on(s), unreachable_entry{&reached}, idx, d, d2), w::bounds_error);
    CHECK_FALSE(reached);
    // Host access to what was written before the capture: the host may read it.
    CHECK(p[7] == 4);
    CHECK(w::view_of<w::access::read>(p)[8] == 4);
  });
  CHECK(refused == 8);
  CHECK(g.empty());
  CHECK(standin::calls("cudaMemcpyAsync") == copies);  // nothing reached the runtime
  CHECK(stream_waits() == waits);
  CHECK(standin::calls("cudaMalloc") == mallocs);
  CHECK(w::to_host(d)[0] == 3);  // the stream works after the capture, as before
  CHECK(no_misuse());
}

// The rows checked in other files (scripts/memory-table-rows reads these lines: the docs' first
// column, the file, and the test's name, which must be there):
// elsewhere: `launch(k, grid.on(s), args...)` (GPU) | launch_standin_test.cpp | cuda launch path: a buffer written on another stream is waited for on the device
// elsewhere: a launch on the cpu backend | launch_standin_test.cpp | a cpu run on device buffers waits for their writer and orders their next users
// elsewhere: `graph::replay(s)` | graph_standin_test.cpp | a replay on another stream waits for the buffers' last writer and is their latest use
// elsewhere: a buffer's construction on `s` | memory_pool_test.cpp | a stream-ordered upstream's memory reaches another stream only after the stream that allocated it
// elsewhere: a launch whose checks read an index buffer's contents | launch_standin_test.cpp | cuda launch path: a gather's indices are measured on the device once, again after a write
