// The tile listing's order of a loop's trips against what follows the loop (check/order.hpp,
// barrier_every_trip; check/tile_listing.hpp): where every trip opens with a barrier, only the
// last trip can meet an access after the loop, as in a scan's up-sweep followed by
// `if (t == 0) result[N - 1] = 0`. Each kernel with the twin that races and is refused.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

// Four trips, each opening with a barrier; trip i stores tile[t + 32 i] for t < 32 >> i. After
// the loop, with no barrier, thread `Who` stores tile[96]: in the last trip (i = 3) thread 0
// stored tile[96], so Who = 0 is that thread's own store, and Who = 1 races with it. An earlier
// trip's stores (tile[64 + t], t < 8) are ordered before it by the next trip's barrier.
// `Guarded`: the barrier runs only in trips other than 3, so trip 2's stores meet a store after
// the loop at tile[65] by another thread.
template <int Who, int Element, bool Guarded = false>
constexpr auto sweep = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    return w::seq(w::for_range(k, 0, 4, [&](auto, auto i) {
                    auto level = w::when(t < (32 >> i), tile[t + 32 * i] = i);
                    if constexpr (Guarded) return w::seq(w::when(i != 3, w::sync()), level);
                    else return w::seq(w::sync(), level);
                  }),
                  w::when(t == Who, tile[Element] = 7), w::sync(), out[t] = tile[t]);
  });
};
#define SWEEP_PARAMS w::block<32>, w::out<int>
WARDEN_KERNEL(sweep_k, w::kernel<SWEEP_PARAMS>(sweep<0, 96>).named("sweep", "out"));

}  // namespace

TEST_CASE("edge trip: after a loop whose trips open with a barrier, only the last trip meets what follows", "[checker][order]") {
  STATIC_REQUIRE(code_of<SWEEP_PARAMS>(sweep<0, 96>) == code::none);  // thread 0's own store
  STATIC_REQUIRE(code_of<SWEEP_PARAMS>(sweep<1, 65>) == code::none);  // trip 2's tile[65]: ordered by trip 3's barrier
  STATIC_REQUIRE(code_of<SWEEP_PARAMS>(sweep<1, 96>) == code::W020);  // thread 0's store in the last trip
  STATIC_REQUIRE(code_of<SWEEP_PARAMS>(sweep<0, 65, true>) == code::W020);  // trip 3 opens with no barrier
  w::device_buffer<int> out(32);
  CHECK(w::record(sweep_k, w::grid(1), out).clean());
  const std::vector<int> got = w::to_host(out);
  CHECK(got[0] == 0);   // trip 0 stored tile[t] = 0
  CHECK(got[31] == 0);
}

TEST_CASE("edge trip: the refused twins do race", "[checker][order]") {
  // The same bodies, recorded as written (trusting: nothing checks them).
  w::device_buffer<int> out(32);
  auto racy = w::dsl::build_kernel<SWEEP_PARAMS>(sweep<1, 96>);
  CHECK_FALSE(w::record(racy, w::grid(1), out).clean());
  auto guarded = w::dsl::build_kernel<SWEEP_PARAMS>(sweep<0, 65, true>);
  CHECK_FALSE(w::record(guarded, w::grid(1), out).clean());
}
