// Vector accesses (proposals/0006, feature 1): w::vectors<N>(x)[i] is elements N i .. N i + N - 1,
// seen by the checker as N accesses. Accepted kernels compute what the scalar ones do on the cpu
// backend; vector accesses that overlap another thread's elements are races; launch bounds every
// element (E101) and checks the buffer's alignment (E101) before anything runs.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <new>
#include <numeric>
#include <vector>
#include "../support/verdict_probe.hpp"

namespace w = warden;
using w::diagnostic::code;

namespace {

template <class Block, class... Params, class F>
constexpr code verdict(F body) {
  return w::testing::code_of<Block, Params...>(body);  // one analysis per body, shared with w::kernel's
}

// y[4i .. 4i + 3] = 2 x[4i .. 4i + 3] + (0, 1, 2, 3), one vector load and one vector store per thread.
constexpr auto scale4 = [](auto k, auto x, auto y) {
  auto i = k.global_id();
  return w::when(i < x.size() / 4, w::local(k, w::vectors<4>(x)[i], [&](auto, auto v) {
                   return w::vectors<4>(y)[i] = w::make_vec(2.f * w::get<0>(v), 2.f * w::get<1>(v) + 1.f, 2.f * w::get<2>(v) + 2.f,
                                                            2.f * w::get<3>(v) + 3.f);
                 }));
};

// Sums pairs with 2-wide vectors of ints through a grid-stride loop.
constexpr auto pair_sums = [](auto k, auto x, auto y) {
  return w::grid_stride(k, x.size() / 2, [&](auto k, auto i) {
    return w::local(k, w::vectors<2>(x)[i], [&](auto, auto v) { return y[i] = w::get<0>(v) + w::get<1>(v); });
  });
};

// The same sums without a local: a component of the vector load itself (issue 34: one of the ports
// needed `w::get<0>(w::vectors<2>(x)[i])`, which did not compile).
constexpr auto pair_sums_direct = [](auto k, auto x, auto y) {
  return w::grid_stride(k, x.size() / 2, [&](auto, auto i) {
    return y[i] = w::get<0>(w::vectors<2>(x)[i]) + w::get<1>(w::vectors<2>(x)[i]);
  });
};

// A pool upstream whose memory starts 4 bytes past a 256-byte boundary: what a careless custom pool
// could hand out, and what a float4 access faults on.
struct misaligned_upstream {
  using memory_space = w::space::host;
  void* allocate(std::size_t bytes, std::size_t, w::stream_ref) {
    auto* p = static_cast<std::byte*>(::operator new(bytes + 256, std::align_val_t{256}, std::nothrow));
    return p == nullptr ? nullptr : p + 4;
  }
  void deallocate(void* p, std::size_t, std::size_t, w::stream_ref) noexcept {
    ::operator delete(static_cast<std::byte*>(p) - 4, std::align_val_t{256});
  }
  std::size_t capacity() const { return 0; }
  std::string_view name() const { return "misaligned_upstream"; }
  std::unique_ptr<w::stream_clock> make_clock() const { return std::make_unique<w::synchronous_clock>(); }
};

// Counts the vectors rounding up: the last vector of a 1001-float buffer is elements 1000 .. 1003.
constexpr auto first_element_guard = [](auto k, auto x, auto y) {
  auto i = k.global_id();
  return w::when(i < (x.size() + 3) / 4, w::vectors<4>(y)[i] = w::vectors<4>(x)[i]);
};

}  // namespace

WARDEN_KERNEL(first_element_guard_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>(first_element_guard));
WARDEN_KERNEL(scale4_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>(scale4));
WARDEN_KERNEL(pair_sums_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>(pair_sums));
WARDEN_KERNEL(pair_sums_direct_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>(pair_sums_direct));

TEST_CASE("vector accesses: loads and stores of four floats compute what the scalar kernel does", "[dsl][vector]") {
  STATIC_REQUIRE(verdict<w::block<64>, w::in<float>, w::out<float>>(scale4) == code::none);
  std::vector<float> host(1000);
  std::iota(host.begin(), host.end(), 0.f);
  auto x = w::to_device(host);
  w::device_buffer<float> y(host.size());
  const auto r = w::record(scale4_k, w::grid_for(host.size() / 4), x, y);
  CHECK(r.clean());
  const auto got = w::to_host(y);
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(got[i] == 2.f * host[i] + static_cast<float>(i % 4));
}

TEST_CASE("vector accesses: two-wide int vectors in a grid-stride loop", "[dsl][vector]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::in<int>, w::out<int>>(pair_sums) == code::none);
  std::vector<int> host(202);
  std::iota(host.begin(), host.end(), 1);
  auto x = w::to_device(host);
  w::device_buffer<int> y(host.size() / 2);
  w::launch(pair_sums_k, w::grid(2), x, y);
  const auto got = w::to_host(y);
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == host[2 * i] + host[2 * i + 1]);
}

TEST_CASE("vector accesses: a component of a vector load, without a local", "[dsl][vector]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::in<int>, w::out<int>>(pair_sums_direct) == code::none);
  std::vector<int> host(202);
  std::iota(host.begin(), host.end(), 1);
  auto x = w::to_device(host);
  w::device_buffer<int> y(host.size() / 2);
  const auto r = w::record(pair_sums_direct_k, w::grid(2), x, y);
  CHECK(r.clean());
  const auto got = w::to_host(y);
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == host[2 * i] + host[2 * i + 1]);
}

TEST_CASE("vector accesses: a vector store overlapping another thread's elements is a race", "[checker][vector]") {
  // Two threads per vector: i / 2.
  STATIC_REQUIRE(verdict<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto y) {
                   auto i = k.global_id();
                   return w::when(i < x.size() / 4, w::vectors<4>(y)[i / 2] = w::vectors<4>(x)[i]);
                 }) == code::W010);
  // Vectors of 4 at a stride of 2 elements (w::vectors<4> indexes in vectors, so this is y[2i .. 2i + 3]
  // seen through vectors<2>): thread i's last two elements are thread i + 1's first two.
  STATIC_REQUIRE(verdict<w::block<64>, w::out<float>>([](auto k, auto y) {
                   auto i = k.global_id();
                   return w::seq(w::when(i < y.size() / 2, w::vectors<2>(y)[i] = w::make_vec(1.f, 2.f)),
                                 w::when(2 * i + 2 < y.size(), y[2 * i + 2] = 0.f));
                 }) == code::W010);
  // A vector load of the elements a neighbour stores: a read-write race.
  STATIC_REQUIRE(verdict<w::block<64>, w::inout<float>>([](auto k, auto y) {
                   auto i = k.global_id();
                   return w::when(i + 1 < y.size() / 4, w::vectors<4>(y)[i] = w::vectors<4>(y)[i + 1]);
                 }) == code::W011);
  // The accepted twin: each thread reads and writes its own vector.
  STATIC_REQUIRE(verdict<w::block<64>, w::inout<float>>([](auto k, auto y) {
                   auto i = k.global_id();
                   return w::when(i < y.size() / 4, w::vectors<4>(y)[i] = w::vectors<4>(y)[i]);
                 }) == code::none);
}

TEST_CASE("vector accesses: launch bounds every element of a vector (E101)", "[launch][vector]") {
  auto x = w::to_device(std::vector<float>(1001, 1.f));
  w::device_buffer<float> y(1001);
  CHECK_THROWS_AS(w::launch(first_element_guard_k, w::grid(4), x, y), w::bounds_error);
  auto x4 = w::to_device(std::vector<float>(1000, 1.f));
  w::device_buffer<float> y4(1000);
  CHECK_NOTHROW(w::launch(first_element_guard_k, w::grid(4), x4, y4));
}

TEST_CASE("vector accesses: launch refuses a buffer not aligned to the vector's width (E101)", "[launch][vector]") {
  w::memory_pool pool(misaligned_upstream{});
  w::device_buffer<float> x(400, pool), y(400);
  REQUIRE(reinterpret_cast<std::uintptr_t>(x.data()) % 16 != 0);
  try {
    w::launch(scale4_k, w::grid(2), x, y);
    FAIL("launch accepted a misaligned buffer for a vector access");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()).find("not a multiple of 16 bytes") != std::string::npos);
    CHECK(std::string(e.what()).find("E101") != std::string::npos);
  }
  // The same launch on aligned buffers runs.
  w::device_buffer<float> x2(400);
  CHECK_NOTHROW(w::launch(scale4_k, w::grid(2), x2, y));
}
