// Barrier phases in the launch's global pair questions (proposals/0011-tree-walks.md, piece 3;
// check/launch/global_pairs.hpp): two threads of one block that reach one element of global
// memory in different barrier phases do not meet, as the tile rules already judge shared memory.
// Each kernel below is asked the launch's question directly, next to its twin without the barrier
// that orders it, which meets at a witness the test checks: one block, the trips the barrier would
// have ordered. fuzz.solver_cross compares every such question with a listing on random kernels.
#include <warden/check/launch/global_pairs.hpp>
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/kernel_ir_of.hpp"

#include <optional>

namespace w = warden;
namespace li = w::check::launch_impl;

namespace {

using B32 = w::block<32>;

w::check::launch_facts facts_for(int parameters, int blocks, long long size) {
  w::check::launch_facts facts;
  facts.block = {32, 1, 1};
  facts.grid = {blocks, 1, 1};
  facts.values.assign(static_cast<std::size_t>(parameters), std::nullopt);
  facts.beyond.assign(static_cast<std::size_t>(parameters), 0);
  facts.sizes.assign(static_cast<std::size_t>(parameters), size);
  facts.contents.resize(static_cast<std::size_t>(parameters));
  return facts;
}

// The first global access of `kind` (in program order) in `ir`.
int access_of(const w::dsl::kernel_ir& ir, w::dsl::access_kind kind, int skip = 0) {
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i)
    if (ir.accesses[static_cast<std::size_t>(i)].kind == kind && skip-- == 0) return i;
  return -1;
}

// One thread a trip stores the block's element: thread r in trip r. Ordered by the barrier that
// ends each trip; without it, thread 0 (trip 0) and thread 1 (trip 1) meet.
template <bool barrier>
w::dsl::kernel_ir one_per_trip() {
  return w::testing::ir_of<B32, w::out<int>>([](auto k, auto out) {
    auto t = k.thread_id();
    auto b = k.block_id();
    return w::for_range(k, 0, 4, [&](auto, auto r) {
      if constexpr (barrier) return w::seq(w::when(t == r, out[b] = r), w::sync());
      else return w::seq(w::when(t == r, out[b] = r));
    });
  });
}

// A block's value, stored by thread 0 and read by every thread after a barrier (the B+tree's
// `currKnode[bid] = offset[bid]` between two barriers); without the barrier, thread 0's store and
// thread 1's load meet in one phase.
template <bool barrier>
w::dsl::kernel_ir store_then_read() {
  return w::testing::ir_of<B32, w::inout<int>, w::out<int>>([](auto k, auto cur, auto out) {
    auto t = k.thread_id();
    auto b = k.block_id();
    if constexpr (barrier) return w::seq(w::when(t == 0, cur[b] = 7), w::sync(), out[b * 32 + t] = cur[b]);
    else return w::seq(w::when(t == 0, cur[b] = 7), out[b * 32 + t] = cur[b]);
  });
}

}  // namespace

TEST_CASE("global pairs: a barrier that ends each trip orders one block's stores of one element across trips", "[launch][barriers]") {
  const auto facts = facts_for(1, 3, 3);
  {
    const w::dsl::kernel_ir ir = one_per_trip<true>();
    const int store = access_of(ir, w::dsl::access_kind::store);
    REQUIRE(store >= 0);
    CHECK(li::global_pair_meeting(ir, facts, store, store).answer == li::pair_answer::apart);
  }
  const w::dsl::kernel_ir ir = one_per_trip<false>();
  const int store = access_of(ir, w::dsl::access_kind::store);
  const li::pair_verdict v = li::global_pair_meeting(ir, facts, store, store);
  REQUIRE(v.answer == li::pair_answer::meet);
  CHECK(v.thread1 / 32 == v.thread2 / 32);  // one block: different blocks never reach one element
  REQUIRE(v.trips1.size() == 1);
  REQUIRE(v.trips2.size() == 1);
  CHECK(v.trips1[0].value != v.trips2[0].value);  // in different trips, each thread its own
  CHECK(v.thread1 % 32 == v.trips1[0].value);
  CHECK(v.thread2 % 32 == v.trips2[0].value);
  CHECK(v.element == v.thread1 / 32);
}

TEST_CASE("global pairs: a barrier orders a store before the block's loads in the same trip", "[launch][barriers]") {
  const auto facts = facts_for(2, 4, 128);
  {
    const w::dsl::kernel_ir ir = store_then_read<true>();
    const int store = access_of(ir, w::dsl::access_kind::store), load = access_of(ir, w::dsl::access_kind::load);
    REQUIRE(ir.accesses[static_cast<std::size_t>(store)].target == ir.accesses[static_cast<std::size_t>(load)].target);
    CHECK(li::global_pair_meeting(ir, facts, store, load).answer == li::pair_answer::apart);
  }
  const w::dsl::kernel_ir ir = store_then_read<false>();
  const int store = access_of(ir, w::dsl::access_kind::store), load = access_of(ir, w::dsl::access_kind::load);
  const li::pair_verdict v = li::global_pair_meeting(ir, facts, store, load);
  REQUIRE(v.answer == li::pair_answer::meet);
  CHECK(v.thread1 % 32 == 0);  // the store's thread
  CHECK(v.thread2 % 32 != 0);
  CHECK(v.thread1 / 32 == v.thread2 / 32);
  CHECK(v.element == v.thread1 / 32);
}
