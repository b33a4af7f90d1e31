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
  CHECK_THROWS_WITH(w::copy(b, a), StartsWith("E110 [moved-from] warden::copy: the source (a warden::device_buffer) was moved from"));
  CHECK_THROWS_WITH(w::copy(a, b), StartsWith("E110 [moved-from] warden::copy: the destination (a warden::device_buffer)"));
  CHECK_THROWS_WITH(w::to_host(a), StartsWith("E110 [moved-from] warden::to_host: the source"));
  CHECK_THROWS_AS(w::to_host_async(a, w::default_stream), w::moved_from_error);
  CHECK_THROWS_WITH(w::to_device(p), StartsWith("E110 [moved-from] warden::to_device: the range (a warden::pinned_buffer)"));
  CHECK_THROWS_AS(w::to_device_async(p, w::default_stream), w::moved_from_error);
  CHECK_THROWS_WITH(p[0], StartsWith("E110 [moved-from] warden::pinned_buffer: a buffer indexed on the host was moved from"));
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
