// Register arrays and unrolled loops (proposals/0006, feature 3): w::registers<T, R, C> indexed by
// w::unroll counters and integer constants. Each thread's array is its own (no race rule applies;
// every thread writing r[0] is accepted), the values are what plain C++ computes, and the index
// rules are type errors (W009: tests/compile_fail/register_runtime_index.fail.cpp).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <vector>
#include "../support/verdict_probe.hpp"

namespace w = warden;
using w::diagnostic::code;

namespace {

template <class Block, class... Params, class F>
constexpr code verdict(F body) {
  return w::testing::code_of<Block, Params...>(body);  // one analysis per body, shared with w::kernel's
}

// Thread t: the 4 x 4 outer product of a[4t .. 4t + 3] and b[4t .. 4t + 3], accumulated twice into
// registers, written to out[16t .. 16t + 15].
constexpr auto outer_product = [](auto k, auto a, auto b, auto out) {
  auto t = k.global_id();
  return w::when(t < a.size() / 4, w::registers<float, 4, 4>(k, [&](auto k, auto acc) {
                   return w::seq(w::for_range(k, 0, 2, [&](auto k, auto) {
                                   return w::unroll<4>(k, [&](auto k, auto i) {
                                     return w::unroll<4>(k, [&](auto, auto j) { return acc(i, j) += a[4 * t + i] * b[4 * t + j]; });
                                   });
                                 }),
                                 w::unroll<4>(k, [&](auto k, auto i) {
                                   return w::unroll<4>(k, [&](auto, auto j) { return out[16 * t + 4 * i + j] = acc(i, j); });
                                 }));
                 }));
};

// A 1-D array at constant indices: r[0] = x, r[1] = 2 r[0], r[2] = r[0] + r[1]; out[t] = r[2] - r[3]
// (r[3] keeps its initial zero).
constexpr auto constants = [](auto k, auto x, auto out) {
  auto t = k.global_id();
  return w::when(t < x.size(), w::registers<int, 4>(k, [&](auto, auto r) {
                   return w::seq(r[0] = x[t], r[1] = 2 * r[0], r[2] = r[0] + r[1], out[t] = r[2] - r[3]);
                 }));
};

}  // namespace

WARDEN_KERNEL(outer_product_k, w::kernel<w::block<32>, w::in<float>, w::in<float>, w::out<float>>(outer_product));
WARDEN_KERNEL(constants_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>(constants));

TEST_CASE("registers: a 4 x 4 register tile accumulated over unrolled loops", "[dsl][registers]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::in<float>, w::in<float>, w::out<float>>(outer_product) == code::none);
  const std::size_t threads = 40;
  std::vector<float> a(4 * threads), b(4 * threads);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i % 5) - 2.f;
    b[i] = static_cast<float>(i % 3) + 0.5f;
  }
  auto da = w::to_device(a), db = w::to_device(b);
  w::device_buffer<float> out(16 * threads);
  const auto r = w::record(outer_product_k, w::grid_for(threads), da, db, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t t = 0; t < threads; ++t)
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) REQUIRE(got[16 * t + 4 * i + j] == 2.f * a[4 * t + i] * b[4 * t + j]);
}

TEST_CASE("registers: constant indices, and the zero a register array starts at", "[dsl][registers]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::in<int>, w::out<int>>(constants) == code::none);
  std::vector<int> x(50);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int>(i) - 7;
  auto dx = w::to_device(x);
  w::device_buffer<int> out(x.size());
  w::launch(constants_k, w::grid_for(x.size()), dx, out);
  const auto got = w::to_host(out);
  for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(got[i] == 3 * x[i]);
}

TEST_CASE("registers: a thread's array is its own, and an unrolled loop is a loop to the checker", "[checker][registers]") {
  // Every thread writes r[0]: no race, the array is private.
  STATIC_REQUIRE(verdict<w::block<64>, w::out<int>>([](auto k, auto out) {
                   return w::registers<int, 2>(k, [&](auto, auto r) { return w::seq(r[0] = 1, out[k.global_id()] = r[0]); });
                 }) == code::none);
  // A store inside w::unroll that does not use the counter: all trips of all threads store the
  // same element of their row, and neighbouring threads overlap (W010), as with for_range.
  STATIC_REQUIRE(verdict<w::block<64>, w::out<int>>([](auto k, auto out) {
                   return w::unroll<4>(k, [&](auto, auto j) { return out[k.global_id() + j] = 1; });
                 }) == code::W010);
  STATIC_REQUIRE(verdict<w::block<64>, w::out<int>>([](auto k, auto out) {
                   return w::unroll<4>(k, [&](auto, auto j) { return out[4 * k.global_id() + j] = 1; });
                 }) == code::none);
}
