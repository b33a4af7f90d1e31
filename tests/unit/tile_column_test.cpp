// A 2-D tile's column that a guard ties to a loop (issue 56, item 2: "one-sided guards and guarded
// branches narrow what they guard"; the Needleman-Wunsch sweep, wavefront_nw_test.cpp). The index
// intervals bound `tx + c - m` by tx's and m's ranges apart; the launch now decides such a column
// as it decides a row, by the per-thread footprint with the launch's numbers (and, where the
// footprint cannot follow a term, by the integer set of the runs whose column is outside;
// check/launch/overrun.hpp). Brute force: random launch values, the verdict compared with a host
// loop over every thread and trip.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <random>
#include <string>
#include <vector>

namespace w = warden;

namespace {

constexpr int threads = 16, columns = 24;

// Trip m of [lo, hi): thread tx stores column tx + c - m where tx <= m + s.
constexpr auto sweep = [](auto k, auto out, auto lo, auto hi, auto c, auto s) {
  return w::shared<int, 2, columns>(k, [&](auto k, auto tile) {
    auto tx = k.thread_id();
    return w::seq(w::for_range(k, lo, hi, [&](auto, auto m) { return w::seq(w::when(tx <= m + s, tile(1, tx + c - m) = m), w::sync()); }),
                  out[k.global_id()] = tx);
  });
};
using I = w::value<int>;
WARDEN_KERNEL(sweep_k, w::kernel<w::block<threads>, w::out<int>, I, I, I, I>(sweep).named("sweep", "out", "lo", "hi", "c", "s"));

// Whether some thread stores outside [0, columns).
bool overruns(int lo, int hi, int c, int s) {
  for (int m = lo; m < hi; ++m)
    for (int tx = 0; tx < threads; ++tx) {
      if (!(tx <= m + s)) continue;
      const int col = tx + c - m;
      if (col < 0 || col >= columns) return true;
    }
  return false;
}

}  // namespace

TEST_CASE("a 2-D tile's column under a guard that ties it to a loop: the launch refuses exactly the launches that leave the tile", "[overrun][tile]") {
  std::mt19937 rng(1);
  int refused = 0, ran = 0;
  for (int round = 0; round < 300; ++round) {
    const int blocks = 1 + static_cast<int>(rng() % 3);
    const int lo = static_cast<int>(rng() % 12) - 4, hi = lo + static_cast<int>(rng() % 10);
    const int c = static_cast<int>(rng() % 24) - 4, s = static_cast<int>(rng() % 12) - 8;
    CAPTURE(round, blocks, lo, hi, c, s);
    w::device_buffer<int> out(static_cast<std::size_t>(blocks * threads));
    bool clean = false;
    const std::string verdict = w::testing::refusal_of([&] { clean = w::record(sweep_k, w::grid(blocks), out, lo, hi, c, s).clean(); });
    CAPTURE(verdict);
    if (overruns(lo, hi, c, s)) {
      CHECK(verdict.rfind("E101", 0) == 0);
      CHECK(verdict.find("the column reaches ") != std::string::npos);
      ++refused;
    } else {
      CHECK(verdict == "(launched)");
      CHECK(clean);
      ++ran;
    }
  }
  // Both answers drawn often enough to mean something.
  CHECK(refused > 20);
  CHECK(ran > 20);
}
