// Atomic updates of shared tiles (proposals/0006, feature 2): the checker's verdict on each way of
// mixing them with plain accesses (atomics among themselves never race; an atomic and a plain
// access of one element in one phase is W040; an atomic reads its element, so an element no earlier
// phase stored is W022), and the cpu backend's result and recording for the accepted ones.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>
#include "../support/verdict_probe.hpp"

namespace w = warden;
using w::diagnostic::code;

namespace {

template <class Block, class... Params, class F>
constexpr code verdict(F body) {
  return w::testing::code_of<Block, Params...>(body);  // one analysis per body, shared with w::kernel's
}

// Counts each value's low bits into shared bins, then adds the bins to the global ones.
constexpr auto privatised = [](auto k, auto in, auto bins) {
  return w::shared<int, 64>(k, [&](auto k, auto counts) {
    auto t = k.thread_id();
    return w::seq(counts[t] = 0, w::sync(), w::when(k.global_id() < in.size(), w::atomic_add(counts[in[k.global_id()] & 63], 1)),
                  w::sync(), w::atomic_add(bins[t], counts[t]));
  });
};

// min, max, exchange and compare-exchange, each on its own tile element, by every thread.
constexpr auto updates = [](auto k, auto out) {
  return w::shared<int, 4>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(w::when(t < 4, tile[t] = 10), w::sync(), w::atomic_min(tile[0], t), w::atomic_max(tile[1], t),
                  w::atomic_compare_exchange(tile[2], 10, 100 + t), w::atomic_sub(tile[3], 1), w::sync(),
                  w::when(t < 4, out[k.block_id() * 4 + t] = tile[t]));
  });
};

// Trusted, so that the checker lets it through: the backend must still see it.
constexpr auto unstored = [](auto k, auto out) {
  return w::shared<int, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(w::trusted(w::atomic_add(tile[t], 1)), w::sync(), w::trusted(out[k.global_id()] = tile[t]));
  });
};

}  // namespace

WARDEN_KERNEL(tile_updates_k, w::kernel<w::block<32>, w::out<int>>(updates));
WARDEN_KERNEL(unstored_tile_k, w::kernel<w::block<32>, w::out<int>>(unstored));
WARDEN_KERNEL(shared_histogram_k, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>(privatised));

TEST_CASE("shared atomics: a privatised histogram is accepted and counts every value", "[checker][shared-atomic]") {
  STATIC_REQUIRE(verdict<w::block<64>, w::in<int>, w::atomic<int>>(privatised) == code::none);
  std::vector<int> host(300);
  std::vector<int> expect(64, 0);
  for (std::size_t i = 0; i < host.size(); ++i) {
    host[i] = static_cast<int>((i * 37) % 101);
    ++expect[static_cast<std::size_t>(host[i] & 63)];
  }
  auto in = w::to_device(host);
  auto bins = w::to_device(std::vector<int>(64, 0));
  const auto r = w::record(shared_histogram_k, w::grid_for(host.size()), in, bins);
  CHECK(r.clean());
  CHECK(w::to_host(bins) == expect);
}

TEST_CASE("shared atomics: the kinds of update on a tile", "[checker][shared-atomic]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>(updates) == code::none);
  w::device_buffer<int> out(4);
  const auto r = w::record(tile_updates_k, w::grid(1), out);
  CHECK(r.clean());
  // Thread 0 runs first on the cpu backend, so its compare-exchange is the one that finds 10.
  CHECK(w::to_host(out) == std::vector<int>{0, 31, 100, 10 - 32});
}

TEST_CASE("shared atomics: an atomic and a plain access of one element in one phase is W040", "[checker][shared-atomic]") {
  // No barrier between zeroing and counting: thread 0 may count into bin 5 before thread 5 zeroes it.
  STATIC_REQUIRE(verdict<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
                   return w::shared<int, 64>(k, [&](auto k, auto counts) {
                     auto t = k.thread_id();
                     return w::seq(counts[t] = 0, w::atomic_add(counts[in[k.global_id()] & 63], 1), w::sync(),
                                   w::atomic_add(bins[t], counts[t]));
                   });
                 }) == code::W040);
  // No barrier between counting and reading the counts back.
  STATIC_REQUIRE(verdict<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
                   return w::shared<int, 64>(k, [&](auto k, auto counts) {
                     auto t = k.thread_id();
                     return w::seq(counts[t] = 0, w::sync(), w::atomic_add(counts[in[k.global_id()] & 63], 1),
                                   w::atomic_add(bins[t], counts[t]));
                   });
                 }) == code::W040);
  // A known element: every thread adds into tile[0] while thread 0 reads it.
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto out) {
                   return w::shared<int, 1>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::seq(w::when(t == 0, tile[0] = 0), w::sync(), w::atomic_add(tile[0], 1),
                                   w::when(t == 0, out[k.block_id()] = tile[0]));
                   });
                 }) == code::W040);
  // Its accepted twin: the barrier before the read.
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto out) {
                   return w::shared<int, 1>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::seq(w::when(t == 0, tile[0] = 0), w::sync(), w::atomic_add(tile[0], 1), w::sync(),
                                   w::when(t == 0, out[k.block_id()] = tile[0]));
                   });
                 }) == code::none);
}

TEST_CASE("shared atomics: across consecutive iterations of a loop without its end barrier", "[checker][shared-atomic]") {
  // Each step resets tile[0] and counts into it; without a barrier at the end of the step, the next
  // step's reset meets this step's atomics. With it, accepted.
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto) {
                   return w::shared<int, 1>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::for_range(k, 0, 4, [&](auto, auto) {
                       return w::seq(w::when(t == 0, tile[0] = 0), w::sync(), w::atomic_add(tile[0], 1));
                     });
                   });
                 }) == code::W040);
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto out) {
                   return w::shared<int, 1>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::seq(w::for_range(k, 0, 4, [&](auto, auto) {
                                     return w::seq(w::when(t == 0, tile[0] = 0), w::sync(), w::atomic_add(tile[0], 1), w::sync());
                                   }),
                                   w::when(t == 0, out[k.block_id()] = tile[0]));
                   });
                 }) == code::none);
}

TEST_CASE("shared atomics: an atomic reads its element, so the element must be stored first (W022)", "[checker][shared-atomic]") {
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto out) {
                   return w::shared<int, 32>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::seq(w::atomic_add(tile[t], 1), w::sync(), out[k.global_id()] = tile[t]);
                   });
                 }) == code::W022);
  STATIC_REQUIRE(verdict<w::block<32>, w::out<int>>([](auto k, auto out) {
                   return w::shared<int, 32>(k, [&](auto k, auto tile) {
                     auto t = k.thread_id();
                     return w::seq(tile[t] = 0, w::sync(), w::atomic_add(tile[t], 1), w::sync(), out[k.global_id()] = tile[t]);
                   });
                 }) == code::none);
}

TEST_CASE("shared atomics: the cpu backend reports an atomic on an element never stored", "[checker][shared-atomic]") {
  w::device_buffer<int> out(32);
  const auto r = w::record(unstored_tile_k, w::grid(1), out);
  REQUIRE_FALSE(r.clean());
  CHECK(r.conflicts().front().kind == w::conflict_kind::uninitialised_shared_load);
}
