// Buffers and transfers on the cpu backend (device memory is host memory there).
#include <warden/memory/buffer.hpp>
#include <warden/memory/default_pool.hpp>
#include <warden/memory/transfer.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/device_space_resource.hpp"
#include "../support/scripted_clock.hpp"

namespace {

std::vector<int> iota(std::size_t n, int first = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

}  // namespace

TEST_CASE("buffers are move-only owners", "[buffer]") {
  STATIC_REQUIRE_FALSE(std::is_copy_constructible_v<warden::device_buffer<float>>);
  STATIC_REQUIRE_FALSE(std::is_copy_assignable_v<warden::device_buffer<float>>);
  STATIC_REQUIRE(std::is_nothrow_move_constructible_v<warden::device_buffer<float>>);
  STATIC_REQUIRE(std::is_nothrow_move_assignable_v<warden::pinned_buffer<float>>);

  warden::device_buffer<double> a(100);
  CHECK(a.size() == 100);
  CHECK(a.bytes() == 800);
  const void* address = a.data();
  warden::device_buffer<double> b(std::move(a));
  CHECK(b.data() == address);
  CHECK(a.empty());  // NOLINT: a moved-from buffer is empty
  CHECK(a.data() == nullptr);
  a = std::move(b);
  CHECK(a.data() == address);
}

TEST_CASE("zero-size buffers are allowed and hold no memory", "[buffer]") {
  warden::device_buffer<float> empty(0);
  CHECK(empty.empty());
  CHECK(empty.bytes() == 0);
  CHECK(warden::to_host(empty).empty());
  const auto round_trip = warden::to_host(warden::to_device(std::vector<float>{}));
  CHECK(round_trip.empty());
}

TEST_CASE("buffers come from the default pool and go back to it", "[buffer]") {
  const auto before = warden::memory_stats();
  {
    warden::device_buffer<char> a(1000), b(3 << 20);
    const auto during = warden::memory_stats();
    CHECK(during.live_allocations == before.live_allocations + 2);
    CHECK(during.requested_bytes == before.requested_bytes + 1000 + (3 << 20));
  }
  const auto after = warden::memory_stats();
  CHECK(after.live_allocations == before.live_allocations);
  CHECK(after.allocated_bytes == before.allocated_bytes);
}

TEST_CASE("to_device and to_host round-trip", "[transfer]") {
  const std::vector<int> data = iota(1000, 7);
  warden::device_buffer<int> d = warden::to_device(data);
  CHECK(d.size() == 1000);
  CHECK(warden::to_host(d) == data);
}

TEST_CASE("copy between spaces, and a size mismatch is an error that names both sizes", "[transfer]") {
  const std::vector<int> data = iota(257);
  warden::device_buffer<int> d = warden::to_device(data);
  warden::pinned_buffer<int> p(257);
  warden::copy(p, d);
  CHECK(p[0] == 0);
  CHECK(p[256] == 256);
  warden::managed_buffer<int> m(257);
  warden::copy(m, p);
  m[3] = -3;  // pinned and managed memory are host-accessible
  warden::device_buffer<int> d2(257);
  warden::copy(d2, m);
  std::vector<int> expected = data;
  expected[3] = -3;
  CHECK(warden::to_host(d2) == expected);

  warden::device_buffer<int> wrong(10);
  try {
    warden::copy(wrong, d);
    FAIL("copy of different sizes must throw");
  } catch (const warden::size_mismatch& e) {
    CHECK(std::string(e.what()) == "warden::copy: destination has 10 elements, source has 257");
  }
  CHECK(warden::to_host(wrong).size() == 10);  // nothing was touched
}

TEST_CASE("asynchronous transfers through pinned staging", "[transfer]") {
  warden::stream s;
  const std::vector<int> data = iota(5000, -100);
  warden::device_buffer<int> d = warden::to_device_async(data, s);
  warden::pinned_buffer<int> back = warden::to_host_async(d, s);
  std::vector<int> seen(back.begin(), back.end());  // host access waits for the copy
  CHECK(seen == data);
}

TEST_CASE("host access waits for the last writer, the free is ordered after every use", "[buffer]") {
  auto state = std::make_shared<warden::testing::scripted_clock::shared_state>();
  warden::memory_pool pool(std::make_unique<warden::testing::scripted_clock>(state), warden::host_resource{});
  const warden::stream_ref writer(reinterpret_cast<void*>(0x5001));
  const warden::stream_ref reader(reinterpret_cast<void*>(0x6001));

  warden::pinned_buffer<int> p(16, pool, writer);
  p.record_write(writer);  // as if a kernel on `writer` were filling it
  CHECK(state->waits == 0);
  p[0] = 1;  // a host write: waits for the writer
  CHECK(state->waits == 1);
  CHECK(state->completed[writer.handle()] == state->issued[writer.handle()]);
  p[1] = 2;  // already in step with the device: no second wait
  CHECK(state->waits == 1);

  p.record_read(reader);  // a kernel on another stream reads it
  int sum = p[0] + p[1];  // host access again waits (for the reader, before host writes)
  CHECK(sum == 3);
  CHECK(state->waits >= 2);
  CHECK(state->completed[reader.handle()] == state->issued[reader.handle()]);
}

TEST_CASE("a buffer the host indexes cannot come from a pool of device memory (E105)", "[buffer][space]") {
  warden::memory_pool device_pool(warden::testing::device_space_resource(64u << 20));
  CHECK(device_pool.space_name() == "device");
  CHECK_THROWS_WITH(warden::pinned_buffer<float>(16, device_pool),
                    Catch::Matchers::StartsWith("E105 [pool-space] warden::buffer: a pinned buffer from a pool of device memory"));
  CHECK_THROWS_AS(warden::managed_buffer<float>(16, device_pool), warden::space_error);
  CHECK_THROWS_AS(warden::set_default_pool<warden::space::pinned>(device_pool), warden::space_error);
  CHECK(device_pool.stats().allocation_count == 0);  // refused before any memory was taken
  // Device buffers may come from it, and pinned ones from a pool of host-reachable memory.
  warden::device_buffer<float> d(16, device_pool);
  warden::memory_pool host_pool(warden::host_resource(64u << 20));
  warden::pinned_buffer<float> h(16, host_pool);
  CHECK(h.size() == 16);
}

TEST_CASE("E105 on every backend: a pinned buffer from the default device pool is refused on the cpu backend too",
          "[buffer][space]") {
  // Issue 55: on the cpu backend the default device pool holds host memory, so a pinned buffer
  // from it was accepted there and refused only on a GPU. It stands for device memory now.
  warden::memory_pool& device_default = warden::default_pool<warden::space::device>();
  CHECK(device_default.stands_for() == "device");
  CHECK_FALSE(device_default.host_indexable());
  const auto before = device_default.stats().allocation_count;
  CHECK_THROWS_WITH(warden::pinned_buffer<float>(16, device_default),
                    Catch::Matchers::StartsWith("E105 [pool-space] warden::buffer: a pinned buffer from a pool of device memory"));
  CHECK_THROWS_AS(warden::managed_buffer<float>(16, device_default), warden::space_error);
  CHECK_THROWS_AS(warden::set_default_pool<warden::space::pinned>(device_default), warden::space_error);
  CHECK(device_default.stats().allocation_count == before);  // refused before any memory was taken
  warden::device_buffer<float> d(16, device_default);  // device buffers come from it, as always
  warden::pinned_buffer<float> h(16, warden::default_pool<warden::space::pinned>());
  CHECK(warden::default_pool<warden::space::pinned>().host_indexable());
}

TEST_CASE("a buffer outlives its pool's handle: the pool lives on until the buffer returns its block",
          "[buffer][lifetime]") {
  warden::host_resource upstream(64u << 20);
  auto make = [&] {
    warden::memory_pool scratch(upstream);
    warden::device_buffer<int> b(1000, scratch);
    warden::copy(b, warden::to_device(iota(1000)));
    return b;  // the handle dies here; the pool does not
  };
  {
    warden::device_buffer<int> b = make();
    CHECK(upstream.used() > 0);
    CHECK(warden::to_host(b)[999] == 999);
  }
  CHECK(upstream.used() == 0);  // the last buffer's free destroyed the pool, which returned its segment
}

// A moved-from buffer is empty: no size, no memory (issue 33: it kept its size with a null address,
// and a launch wrote through null).
TEST_CASE("a buffer moved from by assignment is empty", "[buffer]") {
  warden::device_buffer<int> a(64), b(32);
  b = std::move(a);
  CHECK(b.size() == 64);
  CHECK(a.size() == 0);
  CHECK(a.empty());
  CHECK(a.data() == nullptr);
  warden::device_buffer<int> c(std::move(b));
  CHECK(c.size() == 64);
  CHECK(b.size() == 0);
}
