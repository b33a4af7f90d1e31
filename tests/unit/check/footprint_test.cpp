// check/footprint.hpp: the per-thread footprints of tile accesses. A loop whose counter an access
// does not read is listed as one pass of an unknown counter (merge_unread_loops), which the race
// searches take as any iteration; the listing of an assumed-trip loop is counted before it is
// made. Each is held here to the full listing on small kernels; tests/fuzz compares the two
// listings' findings on random programs (fuzz.batch).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../../support/kernel_ir_of.hpp"

#include <string>

namespace w = warden;
namespace c = warden::check;

namespace {

using w::testing::ir_of;

// The first shared access of `kind` in program order.
const w::dsl::ir_access& shared_access(const w::dsl::kernel_ir& ir, w::dsl::access_kind kind) {
  for (const auto& a : ir.accesses)
    if (a.memory == w::dsl::memory_kind::shared && a.kind == kind) return a;
  FAIL("no such access");
  return ir.accesses.front();
}

// A tile row per thread, read and written in every trip of a loop of 8 that only the values read
// (the load's index is (t + 1) % 64 when `neighbour`, t otherwise); `end_sync` orders the trips.
template <bool neighbour, bool end_sync>
constexpr auto trips_of_eight = [](auto k, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(w::for_range(k, 0, 8, [&](auto, auto j) {
                    auto load = tile[(t + (neighbour ? 1 : 0)) % 64];
                    if constexpr (end_sync)
                      return w::seq(tile[t] = j, w::sync(), out[t] = load, w::sync());
                    else
                      return w::seq(tile[t] = j, w::sync(), out[t] = load);
                  }));
  });
};

}  // namespace

TEST_CASE("footprint: a loop whose counter the index does not read is one pass, with every thread's element",
          "[check][footprint]") {
  const auto ir = ir_of<w::block<64>, w::out<int>>(trips_of_eight<true, true>);
  const c::block_shape shape{64, 1, 1};
  const auto& store = shared_access(ir, w::dsl::access_kind::store);
  const c::footprint full = c::footprint_of(ir, shape, store, 0, false);
  const c::footprint merged = c::footprint_of(ir, shape, store, 0, true);
  REQUIRE(full.passes == 8);
  REQUIRE(merged.passes == 1);
  CHECK(merged.counter(0, 0) == c::unknown_counter);
  for (int p = 0; p < full.passes; ++p) {
    CHECK(full.counter(p, 0) == p);
    for (int t = 0; t < 64; ++t) CHECK(full.pass(p)[t] == merged.pass(0)[t]);
  }
  CHECK(merged.row_lo == full.row_lo);
  CHECK(merged.row_hi == full.row_hi);
  // Read by the pass (an index of j): listed trip by trip, merged or not.
  constexpr auto by_trip = [](auto k, auto out) {
    return w::shared<int, 64>(k, [&](auto k, auto tile) {
      return w::for_range(k, 0, 8, [&](auto, auto j) { return w::seq(tile[k.thread_id() / 8 + 8 * j] = 1, out[k.thread_id()] = 0); });
    });
  };
  const auto ir2 = ir_of<w::block<64>, w::out<int>>(by_trip);
  CHECK(c::footprint_of(ir2, shape, shared_access(ir2, w::dsl::access_kind::store), 0, true).passes == 8);
}

TEST_CASE("footprint: a loop is merged only where every thread makes the same trips and no deeper bound reads it",
          "[check][footprint]") {
  const c::block_shape shape{96, 1, 1};
  // Trips that differ between threads (2 for threads 0-31, 1 for 32-63, none for 64-95): listed
  // trip by trip, and the threads that make no trip run nothing.
  constexpr auto uneven = [](auto k, auto out) {
    return w::shared<int, 96>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(w::for_range(k, t / 32, 2, [&](auto, auto) { return tile[t] = 1; }), out[t] = 0);
    });
  };
  const auto ir = ir_of<w::block<96>, w::out<int>>(uneven);
  const c::footprint merged = c::footprint_of(ir, shape, shared_access(ir, w::dsl::access_kind::store), 0, true);
  REQUIRE(merged.passes == 2);
  for (int p = 0; p < 2; ++p) {
    CHECK(merged.counter(p, 0) == p);
    for (int t = 0; t < 96; ++t) CHECK(merged.pass(p)[t] == (t < 32 || (p == 0 && t < 64) ? t : c::no_instance));
  }
  // A triangle (j below i): the access reads neither counter, but j's bound reads i, so i is listed
  // trip by trip (i = 1, 2, 3; none for i = 0) and j merged within each.
  constexpr auto triangle = [](auto k, auto out) {
    return w::shared<int, 96>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(w::for_range(k, 0, 4, [&](auto k, auto i) { return w::for_range(k, 0, i, [&](auto, auto) { return tile[t] = 1; }); }),
                    out[t] = 0);
    });
  };
  const auto ir2 = ir_of<w::block<96>, w::out<int>>(triangle);
  const c::footprint tri = c::footprint_of(ir2, shape, shared_access(ir2, w::dsl::access_kind::store), 0, true);
  REQUIRE(tri.passes == 3);
  for (int p = 0; p < 3; ++p) {
    CHECK(tri.counter(p, 0) == p + 1);
    // j: one pass of an unknown counter where i >= 2 (two or more trips), trip 0 where i = 1.
    CHECK(tri.counter(p, 1) == (p == 0 ? 0 : c::unknown_counter));
  }
}

TEST_CASE("footprint: merged trips meet as the full listing does - across trips (W021) and not within one phase",
          "[check][footprint]") {
  const c::block_shape shape{64, 1, 1};
  // Without the end-of-trip barrier, thread 1's store of the next trip meets thread 0's load of
  // tile[1] in this one: W021 on the loop. With it, the trips are ordered: accepted. Both listings
  // agree, on the same pair.
  const auto racy = ir_of<w::block<64>, w::out<int>>(trips_of_eight<true, false>);
  const c::finding merged = c::check_shared_listing(racy, shape, 0, nullptr);
  const c::finding full = c::check_shared_listing(racy, shape, 0, nullptr, nullptr, nullptr, false, false);
  CHECK(merged.code == w::diagnostic::code::W021);
  CHECK(full.code == merged.code);
  CHECK(full.first == merged.first);
  CHECK(full.second == merged.second);
  CHECK(full.loop == merged.loop);
  CHECK(merged.thread1 != merged.thread2);
  CHECK(c::check_shared_listing(ir_of<w::block<64>, w::out<int>>(trips_of_eight<true, true>), shape, 0, nullptr).code ==
        w::diagnostic::code::none);
  // Each thread reading its own element: no other thread meets it, in any trip.
  CHECK(c::check_shared_listing(ir_of<w::block<64>, w::out<int>>(trips_of_eight<false, false>), shape, 0, nullptr).code ==
        w::diagnostic::code::none);
}

TEST_CASE("footprint: an explanation names the element block 0 meets at when the block id shifts it", "[check][footprint][explain]") {
  // Pairs of threads store at one element of a tile that the block's id shifts: every block's
  // threads 0 and 1 meet, at an element that depends on the block. The listing fixes block 0
  // (docs/soundness.md, "The pair a race message names") and names the element they meet at
  // there, never element -1, which no access reaches.
  constexpr auto shifted_by_block = [](auto k, auto out) {
    return w::shared<int, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(tile[(t / 2 + k.block_id()) % 64] = t, w::sync(), out[k.global_id()] = tile[t]);
    });
  };
  const auto v = w::check::verdict_of(w::dsl::build_kernel<w::block<64>, w::out<int>>(shifted_by_block));
  REQUIRE(v.finding.code == w::diagnostic::code::W020);
  const std::string text = v.text.data;
  CHECK(text.find("element -1") == std::string::npos);
  CHECK(text.find("threads 0 and 1 meet at element 0 in one phase") != std::string::npos);
  // A finding whose element no listing computed (element -1) says so rather than naming -1.
  const auto kernel = w::dsl::build_kernel<w::block<64>, w::out<int>>(shifted_by_block);
  w::check::analysis unknown = w::check::analysis_of(kernel);
  unknown.finding.element = -1;
  const std::string unknown_text = w::check::verdict_from(kernel, unknown).text.data;
  CHECK(unknown_text.find("element -1") == std::string::npos);
  CHECK(unknown_text.find("threads 0 and 1 may meet (at an element the compiler cannot compute) in one phase") != std::string::npos);
}
