// Bad input stays a clear error (issue 33, item 4): a moved-from buffer bound to a launch, a
// copy, a download or a host view is E110 naming it, before anything is issued; and 64-bit
// unsigned values are checked as the kernel receives them, 2^63 and above included.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace w = warden;
using Catch::Matchers::StartsWith;

namespace {

WARDEN_KERNEL(scale_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>([](auto k, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < src.size() && i < dst.size(), dst[i] = src[i] * 2);
}).named("scale_k", "src", "dst"));

WARDEN_KERNEL(first_n_k, w::kernel<w::block<32>, w::out<int>, w::value<std::size_t>>([](auto k, auto a, auto n) {
  auto i = k.global_id();
  return w::when(i < a.size() && i < n, a[i] = 1);
}).named("first_n_k", "a", "n"));

WARDEN_KERNEL(last_of_k, w::kernel<w::block<1>, w::out<int>, w::value<unsigned long long>>([](auto, auto a, auto n) {
  return a[n - 1u] = 7;
}).named("last_of_k", "a", "n"));

// A long long sum past 2^63 wraps to a negative value: no unsigned range may be drawn through it.
WARDEN_KERNEL(signed_then_unsigned_k, w::kernel<w::block<32>, w::out<int>, w::value<long long>, w::value<long long>,
                                                w::value<std::size_t>>([](auto k, auto a, auto x, auto y, auto p) {
  auto i = k.global_id();
  return w::when(i < a.size() && ((x + y) / 2 + p) > 5u, a[i] = 1);
}).named("signed_then_unsigned_k", "a", "x", "y", "p"));

WARDEN_KERNEL(difference_k, w::kernel<w::block<1>, w::out<int>, w::value<std::size_t>, w::value<std::size_t>>(
                                [](auto, auto a, auto p, auto q) { return a[p - q] = 1; })
                  .named("difference_k", "a", "p", "q"));

}  // namespace

TEST_CASE("a moved-from buffer bound to a launch is E110 naming the parameter", "[bad-input][moved-from]") {
  auto src = w::to_device(std::vector<int>{1, 2, 3});
  w::device_buffer<int> dst(3);
  w::device_buffer<int> kept = std::move(dst);
  CHECK(dst.moved_from());
  CHECK(dst.empty());
  CHECK_FALSE(kept.moved_from());
  CHECK_THROWS_WITH(w::launch(w::on_cpu, scale_k, w::grid(1), src, dst),
                    StartsWith("E110 [moved-from] scale_k: dst (parameter 1) is bound to a buffer that was moved from"));
  CHECK_THROWS_AS(w::launch(w::on_cpu, scale_k, w::grid(1), src, dst), w::moved_from_error);
  w::launch(w::on_cpu, scale_k, w::grid(1), src, kept);  // the buffer it went to works
  CHECK(w::to_host(kept) == std::vector<int>{2, 4, 6});

  // An empty buffer made empty is no error, and assigning a new buffer ends the state.
  w::device_buffer<int> none(0);
  CHECK_FALSE(none.moved_from());
  dst = w::device_buffer<int>(3);
  CHECK_FALSE(dst.moved_from());
  w::launch(w::on_cpu, scale_k, w::grid(1), src, dst);
  CHECK(w::to_host(dst) == std::vector<int>{2, 4, 6});

  // Moving a moved-from buffer passes the state on.
  w::device_buffer<int> gone = std::move(kept);
  w::device_buffer<int> again = std::move(kept);
  CHECK(again.moved_from());
  CHECK_THROWS_AS(w::launch(w::on_cpu, scale_k, w::grid(1), src, again), w::moved_from_error);
  CHECK(w::to_host(gone) == std::vector<int>{2, 4, 6});  // nothing was issued on it
}

TEST_CASE("a moved-from buffer in a copy, a download, an upload or a host view is E110", "[bad-input][moved-from]") {
  auto a = w::to_device(std::vector<int>{1, 2, 3});
  w::device_buffer<int> b(3);
  w::pinned_buffer<int> p(3);
  w::device_buffer<int> a2 = std::move(a);
  w::pinned_buffer<int> p2 = std::move(p);
  CHECK_THROWS_WITH(w::copy(b, a), StartsWith("E110 [moved-from] warden::copy: the source (a, a warden::device_buffer) was moved from"));
  CHECK_THROWS_WITH(w::copy(a, b), StartsWith("E110 [moved-from] warden::copy: the destination (a, a warden::device_buffer)"));
  CHECK_THROWS_WITH(w::to_host(a), StartsWith("E110 [moved-from] warden::to_host: the source"));
  CHECK_THROWS_AS(w::to_host_async(a, w::default_stream), w::moved_from_error);
  CHECK_THROWS_WITH(w::to_device(p), StartsWith("E110 [moved-from] warden::to_device: the range (p, a warden::pinned_buffer)"));
  CHECK_THROWS_AS(w::to_device_async(p, w::default_stream), w::moved_from_error);
  CHECK_THROWS_WITH(p[0], StartsWith("E110 [moved-from] warden::pinned_buffer: p was indexed on the host after it was moved from"));
  CHECK_THROWS_AS(w::view_of<w::access::read>(p), w::moved_from_error);
  // The buffers they went to are whole.
  w::copy(b, a2);
  CHECK(w::to_host(b) == std::vector<int>{1, 2, 3});
  p2[0] = 5;
  CHECK(w::view_of<w::access::read>(p2)[0] == 5);
}

TEST_CASE("value<std::size_t> and value<unsigned long long> are checked as the unsigned values the kernel receives",
          "[bad-input][launch]") {
  w::device_buffer<int> a(64);
  constexpr std::size_t half = std::size_t{1} << 63, top = std::numeric_limits<std::size_t>::max();
  // A bound of 2^63 or more, compared with an id: no wrap, every thread passes.
  for (std::size_t n : {std::size_t{10}, half, top}) {
    w::launch(w::on_cpu, first_n_k, w::grid(2), a, n);
    const std::vector<int> got = w::to_host(a);
    CHECK(got[0] == 1);
    CHECK(got[63] == (n > 63 ? 1 : got[63]));
  }
  // An index of 2^63 - 1 or more overruns any buffer: refused, and not as a wrap.
  for (unsigned long long n : {static_cast<unsigned long long>(half), static_cast<unsigned long long>(top)}) {
    try {
      w::launch(w::on_cpu, last_of_k, w::grid(1), a, n);
      FAIL("launched with n = " << n);
    } catch (const w::wrap_error& e) {
      FAIL("refused as a wrap: " << e.what());
    } catch (const w::bounds_error& e) {
      CHECK_THAT(std::string(e.what()), Catch::Matchers::Contains(std::to_string(n)));
    }
  }
  w::launch(w::on_cpu, last_of_k, w::grid(1), a, 64ull);
  CHECK(w::to_host(a)[63] == 7);
  CHECK_THROWS_AS(w::launch(w::on_cpu, last_of_k, w::grid(1), a, 65ull), w::bounds_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, last_of_k, w::grid(1), a, 0ull), w::wrap_error);  // 0 - 1 wraps
}

TEST_CASE("unsigned 64-bit values past 2^63: a signed overflow on the way is no unsigned range, a difference in range runs",
          "[bad-input][launch]") {
  w::device_buffer<int> a(64);
  constexpr long long quarter = (1LL << 62) + 1;  // x + y passes LLONG_MAX: negative on the device
  CHECK_THROWS_AS(w::launch(w::on_cpu, signed_then_unsigned_k, w::grid(2), a, quarter, quarter, std::size_t{1} << 63),
                  w::wrap_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, signed_then_unsigned_k, w::grid(2), a, quarter, quarter, std::size_t{0}), w::wrap_error);
  w::launch(w::on_cpu, signed_then_unsigned_k, w::grid(2), a, 8LL, 8LL, std::size_t{1} << 63);  // no overflow: runs
  CHECK(w::to_host(a)[63] == 1);

  constexpr std::size_t half = std::size_t{1} << 63;
  w::launch(w::on_cpu, difference_k, w::grid(1), a, half + 3, half);  // index 3
  CHECK(w::to_host(a)[3] == 1);
  CHECK_THROWS_WITH(w::launch(w::on_cpu, difference_k, w::grid(1), a, half + 64, half),
                    Catch::Matchers::StartsWith("E101 [out-of-bounds] difference_k: store a[p - q] may reach index 64"));
}

// ---- offset views of a buffer as kernel arguments (memory/buffer_view.hpp; issue 34, item 3) ----

namespace {
WARDEN_KERNEL(bump_k, w::kernel<w::block<32>, w::inout<int>>([](auto k, auto part) {
  auto i = k.global_id();
  return w::when(i < part.size(), part[i] += 1);
}).named("bump_k", "part"));

// What `c += offset` did in the ported kernels: each call gets its row, as a buffer of its own.
WARDEN_KERNEL(two_rows_k, w::kernel<w::block<32>, w::out<int>, w::out<int>>([](auto k, auto low, auto high) {
  auto i = k.global_id();
  return w::seq(w::when(i < low.size(), low[i] = 1), w::when(i < high.size(), high[i] = 2));
}).named("two_rows_k", "low", "high"));

WARDEN_KERNEL(fixed_span_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>([](auto k, auto a, auto n) {
  auto i = k.global_id();
  return w::when(i < n, a[i] = 5);
}).named("fixed_span_k", "a", "n"));
}  // namespace

TEST_CASE("a view binds elements offset to offset + count - 1 of a buffer as the kernel's whole parameter", "[bad-input][view]") {
  std::vector<int> start(100);
  for (int i = 0; i < 100; ++i) start[static_cast<std::size_t>(i)] = i;
  auto x = w::to_device(start);
  w::launch(w::on_cpu, bump_k, w::grid_for(20), w::view(x, 10, 20));
  const auto after = w::to_host(x);
  for (int i = 0; i < 100; ++i) CHECK(after[static_cast<std::size_t>(i)] == i + (i >= 10 && i < 30 ? 1 : 0));

  // Disjoint views of one buffer, both written by one launch: no E100, and neither overwrites
  // the other (the cpu backend copies back each view's own bytes).
  auto rows = w::to_device(std::vector<int>(64, 0));
  w::launch(w::on_cpu, two_rows_k, w::grid_for(32), w::view(rows, 0, 32), w::view(rows, 32, 32));
  const auto both = w::to_host(rows);
  CHECK(both[0] == 1);
  CHECK(both[31] == 1);
  CHECK(both[32] == 2);
  CHECK(both[63] == 2);
  // A read-only view (of a const buffer) binds an in<T> parameter.
  const auto& source = x;
  w::device_buffer<int> doubled(5);
  w::launch(w::on_cpu, scale_k, w::grid_for(5), w::view(source, 10, 5), doubled);
  CHECK(w::to_host(doubled) == std::vector<int>{22, 24, 26, 28, 30});
}

TEST_CASE("views that overlap, one written, are E100, and a view past its buffer or an access past the view is E101",
          "[bad-input][view]") {
  auto rows = w::to_device(std::vector<int>(64, 0));
  const auto before = w::to_host(rows);
  try {
    w::launch(w::on_cpu, two_rows_k, w::grid_for(32), w::view(rows, 0, 33), w::view(rows, 32, 32));
    FAIL("overlapping written views launched");
  } catch (const w::aliasing_error& e) {
    CHECK_THAT(e.what(), StartsWith("E100"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("low (parameter 0, out) and to high (parameter 1, out) overlaps"));
  }
  // The whole buffer and a view of it: they overlap too.
  CHECK_THROWS_AS(w::launch(w::on_cpu, scale_k, w::grid_for(32), w::view(rows, 0, 8), rows), w::aliasing_error);
  CHECK(w::to_host(rows) == before);  // refused before anything ran

  try {
    (void)w::view(rows, 60, 5);
    FAIL("a view past its buffer's end was made");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("[60, 60 + 5) of rows, a buffer of 64 elements,"));
  }
  CHECK_THROWS_AS(w::view(rows, 65, 0), w::bounds_error);
  CHECK_NOTHROW(w::view(rows, 64, 0));

  // The kernel's bound is the view's extent: 10 elements through a view of 8 is refused, although
  // the buffer has 64.
  try {
    w::launch(w::on_cpu, fixed_span_k, w::grid(1), w::view(rows, 4, 8), 10);
    FAIL("a store past the view's extent launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("a (parameter 0, out) has 8 elements"));
  }
  CHECK(w::to_host(rows) == before);
  w::launch(w::on_cpu, fixed_span_k, w::grid(1), w::view(rows, 4, 8), 8);
  const auto after = w::to_host(rows);
  CHECK(after[3] == 0);
  CHECK(after[4] == 5);
  CHECK(after[11] == 5);
  CHECK(after[12] == 0);
}

TEST_CASE("a view whose buffer was given other memory since is E101 at launch, and an empty view aliases nothing",
          "[bad-input][view]") {
  auto x = w::to_device(std::vector<int>(100, 0));
  auto stale = w::view(x, 50, 50);
  x = w::to_device(std::vector<int>(10, 0));  // x now has 10 elements: the view's [50, 100) is past them
  try {
    w::launch(w::on_cpu, bump_k, w::grid_for(50), stale);
    FAIL("a view past its buffer's new end launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("part (parameter 0) is bound to a view that reaches past its buffer's end"));
  }
  CHECK(w::to_host(x) == std::vector<int>(10, 0));
  // A view of no elements shares no memory, even where it starts at the buffer's address.
  CHECK_NOTHROW(w::launch(w::on_cpu, scale_k, w::grid_for(10), w::view(x, 0, 0), w::view(x, 0, 10)));
}
