// trusted(...) gives up only the pairs of accesses that are all trusted (issue 20, class 1): a
// trusted access still meets every plain access of its buffer or tile, at an element not known.
// Each racy kernel is refused with its code and races under the recording; its twin is accepted
// and records clean.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <numeric>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using w::testing::trusting;

namespace {

// A permutation that sends element i of each 64 to another block: (i + 64) mod n.
std::vector<unsigned> shifted_permutation(int n) {
  std::vector<unsigned> perm(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = static_cast<unsigned>((i + 64) % n);
  return perm;
}

}  // namespace

// y[perm[i]] = x[i] is trusted (perm is a permutation); the read-back of y in the same kernel is
// not: another block's scatter may be storing the element this thread reads.
constexpr auto scatter_then_read = [](auto k, auto perm, auto x, auto y, auto z) {
  auto i = k.global_id();
  return w::when(i < x.size(), w::seq(w::trusted(y[perm[i] % y.size()] = x[i]), z[i] = 2 * y[i]));
};
// A plain fill of y before the trusted scatter: two stores to one element from different blocks.
constexpr auto fill_then_scatter = [](auto k, auto perm, auto x, auto y, auto z) {
  auto i = k.global_id();
  return w::when(i < x.size(), w::seq(y[i] = 0, w::trusted(y[perm[i] % y.size()] = x[i]), z[i] = 1));
};
// The twin: the read-back reads x, which nothing stores.
constexpr auto scatter_then_read_input = [](auto k, auto perm, auto x, auto y, auto z) {
  auto i = k.global_id();
  return w::when(i < x.size(), w::seq(w::trusted(y[perm[i] % y.size()] = x[i]), z[i] = 2 * x[i]));
};
WARDEN_KERNEL(scatter_then_read_k, w::kernel<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(trusting(scatter_then_read)));
WARDEN_KERNEL(fill_then_scatter_k, w::kernel<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(trusting(fill_then_scatter)));
WARDEN_KERNEL(scatter_then_read_input_k, w::kernel<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(scatter_then_read_input));

TEST_CASE("trusted: a trusted scatter still meets the plain accesses of its buffer", "[trusted][global]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(scatter_then_read) == code::W011);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(fill_then_scatter) == code::W010);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(scatter_then_read_input) == code::none);
  // Trusted as a whole, each is still run by the recording, which sees the conflicts.
  STATIC_REQUIRE(code_of<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(trusting(scatter_then_read)) == code::none);
  constexpr int n = 256;
  auto perm = w::to_device(shifted_permutation(n));
  std::vector<int> xs(n);
  std::iota(xs.begin(), xs.end(), 1);
  auto x = w::to_device(xs);
  auto y = w::to_device(std::vector<int>(n, 0));  // read back before every store lands: keep it defined
  w::device_buffer<int> z(n);
  CHECK_FALSE(w::record(scatter_then_read_k, w::grid(4), perm, x, y, z).clean());
  CHECK_FALSE(w::record(fill_then_scatter_k, w::grid(4), perm, x, y, z).clean());
  CHECK(w::record(scatter_then_read_input_k, w::grid(4), perm, x, y, z).clean());
  const std::vector<int> ys = w::to_host(y);
  for (int i = 0; i < n; ++i) CHECK(ys[static_cast<std::size_t>((i + 64) % n)] == i + 1);
}

// In shared memory a trusted store meets the plain loads of its tile, at any element, unless a
// barrier orders them.
constexpr auto tile_scatter_no_barrier = [](auto k, auto perm, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(w::trusted(tile[perm[t] & 63] = g), out[g] = tile[t]);
  });
};
constexpr auto tile_scatter_barrier = [](auto k, auto perm, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(w::trusted(tile[perm[t] & 63] = g), w::sync(), out[g] = tile[t]);
  });
};
WARDEN_KERNEL(tile_scatter_no_barrier_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(trusting(tile_scatter_no_barrier)));
WARDEN_KERNEL(tile_scatter_barrier_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(tile_scatter_barrier));

TEST_CASE("trusted: a trusted tile store meets plain loads unless a barrier orders them", "[trusted][shared]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(tile_scatter_no_barrier) == code::W020);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(tile_scatter_barrier) == code::none);
  std::vector<int> reversed(64);
  for (int t = 0; t < 64; ++t) reversed[static_cast<std::size_t>(t)] = 63 - t;
  auto perm = w::to_device(reversed);
  w::device_buffer<int> out(128);
  CHECK_FALSE(w::record(tile_scatter_no_barrier_k, w::grid(2), perm, out).clean());
  CHECK(w::record(tile_scatter_barrier_k, w::grid(2), perm, out).clean());
  const std::vector<int> got = w::to_host(out);
  for (int g = 0; g < 128; ++g) CHECK(got[static_cast<std::size_t>(g)] == (g / 64) * 64 + 63 - g % 64);
}

// Two trusted accesses are still exempt from each other: that is what trusted is for.
constexpr auto two_trusted = [](auto k, auto perm, auto x, auto y, auto z) {
  auto i = k.global_id();
  return w::when(i < x.size(), w::seq(w::trusted(y[perm[i] % y.size()] = x[i], z[i] = y[i])));
};

TEST_CASE("trusted: pairs of trusted accesses are given up, and only those", "[trusted]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>(two_trusted) == code::none);
}
