// launch/contents.hpp and launch/contents_steps.hpp: order facts per row and below a bound
// (sorted(x).rows(n).below(hi), non_decreasing(x).rows(n)), measured by the host's scan and by the
// device's steps split grid-stride over 1 to 64 tallies, against the facts' definition written
// plainly over every pair of elements: a row's elements i < j hold x[i] <= x[j], and for sorted,
// x[i] < x[j] unless (with a bound) x[i] >= hi. The first element that breaks a fact is the least
// j for which some earlier i of j's row breaks it with j. Rows of B+tree nodes: sorted keys padded
// with the type's greatest value, unrelated from row to row, with a key now and then out of place.
#include <warden/launch/contents.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace d = warden::detail;

namespace {

// The definition, over pairs: -1 where the fact holds, else the first element that breaks it.
template <class T>
long long first_breaking(const std::vector<T>& v, long long row, bool strict, bool bounded, long long below) {
  const auto row_of = [&](std::size_t i) { return row > 0 ? static_cast<long long>(i) / row : 0; };
  for (std::size_t j = 0; j < v.size(); ++j)
    for (std::size_t i = 0; i < j; ++i) {
      if (row_of(i) != row_of(j)) continue;
      const bool falls = v[j] < v[i];
      const bool repeats = v[i] == v[j] && strict && (!bounded || static_cast<long long>(v[i]) < below);
      if (falls || repeats) return static_cast<long long>(j);
    }
  return -1;
}

template <class T>
std::vector<T> draw_rows(std::mt19937_64& rng, std::size_t n, long long row) {
  const long long width = row > 0 ? row : static_cast<long long>(n) + 1;
  std::vector<T> v(n);
  std::uniform_int_distribution<int> small(0, 5);
  for (std::size_t start = 0; start < n; start += static_cast<std::size_t>(width)) {
    const std::size_t end = std::min(n, start + static_cast<std::size_t>(width));
    const std::size_t keys = start + static_cast<std::size_t>(rng() % (end - start + 1));
    T x = static_cast<T>(small(rng));  // each row starts afresh: below the last row's end, often
    for (std::size_t i = start; i < end; ++i) {
      if (i < keys) {
        v[i] = x;
        x = static_cast<T>(x + static_cast<T>(small(rng) % 3));  // steps of 0 (a repeat), 1 or 2
      } else {
        v[i] = std::numeric_limits<T>::max();  // padding to the row's end
      }
    }
  }
  if (n > 0 && rng() % 3 == 0) v[rng() % n] = static_cast<T>(small(rng));  // a key out of place
  return v;
}

template <class T>
void compare_rows(std::uint64_t seed, int rounds, int& broken, int& held) {
  std::mt19937_64 rng(seed);
  const std::size_t thread_counts[] = {1, 3, 7, 64};
  for (int round = 0; round < rounds; ++round) {
    const std::size_t n = 1 + rng() % 40;
    const long long row = static_cast<long long>(rng() % 9);  // 0: no rows, the whole buffer
    const std::vector<T> v = draw_rows<T>(rng, n, row);
    const bool bounded = rng() % 2 == 0;
    // The bound: the padding itself (INT_MAX for int), or a small value among the keys.
    const long long below = rng() % 2 == 0 ? static_cast<long long>(std::numeric_limits<T>::max()) : static_cast<long long>(rng() % 8);
    const d::contents_order order{true, row, bounded, below};
    const long long strict_at = first_breaking(v, row, true, bounded, below);
    const long long falls_at = first_breaking(v, row, false, false, 0);
    INFO("T of " << sizeof(T) << " bytes, n " << n << ", row " << row << ", bounded " << bounded << ", below " << below);

    d::contents_memo scanned;
    REQUIRE(d::scan_contents(v.data(), n, false, order, scanned));
    REQUIRE(scanned.order_known);
    CHECK(scanned.not_rising_at == strict_at);
    CHECK(scanned.falling_at == falls_at);
    for (const std::size_t threads : thread_counts) {
      INFO("threads " << threads);
      long long slot[d::contents_slots];
      d::contents_slots_by_steps(v.data(), n, false, order, slot, threads);
      d::contents_memo stepped;
      REQUIRE(d::contents_from_slots(slot, false, order, stepped));  // the steps answer alone
      CHECK(stepped.not_rising_at == strict_at);
      CHECK(stepped.falling_at == falls_at);
      CHECK(stepped.order == order);
      d::contents_memo measured;
      REQUIRE(d::contents_measured_by_steps(v.data(), n, true, order, measured, threads));
      CHECK(measured.not_rising_at == strict_at);
      CHECK(measured.falling_at == falls_at);
    }
    (strict_at >= 0 ? broken : held) += 1;
  }
}

}  // namespace

TEST_CASE("order per row and below a bound: the scan and the device's steps measure the facts' definition", "[contents][device][rows]") {
  int broken = 0, held = 0;
  compare_rows<int>(1, 3000, broken, held);
  compare_rows<unsigned char>(2, 1000, broken, held);
  compare_rows<short>(3, 1000, broken, held);
  compare_rows<long long>(4, 1000, broken, held);
  compare_rows<unsigned>(5, 1000, broken, held);
  // Both answers drawn often: rows that hold, and rows that break (a repeat below the bound, a
  // key out of place).
  CHECK(broken > 1000);
  CHECK(held > 1000);
}

TEST_CASE("a row's first element is never compared with the row before, and padding repeats only at or above the bound",
          "[contents][rows]") {
  // Two B+tree nodes of 4 keys, each padded with INT_MAX; the second starts below the first's end.
  const std::vector<int> keys{3, 7, INT_MAX, INT_MAX, 1, 2, 9, INT_MAX};
  const auto measure = [&](d::contents_order order) {
    d::contents_memo m;
    REQUIRE(d::scan_contents(keys.data(), keys.size(), false, order, m));
    long long slot[d::contents_slots];
    d::contents_slots_by_steps(keys.data(), keys.size(), false, order, slot, 3);
    d::contents_memo s;
    REQUIRE(d::contents_from_slots(slot, false, order, s));
    CHECK(s.not_rising_at == m.not_rising_at);
    CHECK(s.falling_at == m.falling_at);
    return std::pair{m.not_rising_at, m.falling_at};
  };
  CHECK(measure({true, 0, false, 0}) == std::pair{3LL, 4LL});        // the whole buffer: keys[4] falls
  CHECK(measure({true, 4, false, 0}) == std::pair{3LL, -1LL});       // rows of 4: INT_MAX repeats at keys[3]
  CHECK(measure({true, 4, true, INT_MAX}) == std::pair{-1LL, -1LL});  // below INT_MAX: the padding may repeat
  CHECK(measure({true, 4, true, 7}) == std::pair{-1LL, -1LL});        // 7 itself is at the bound
  CHECK(measure({true, 4, true, 2}) == std::pair{-1LL, -1LL});
  CHECK(measure({true, 3, false, 0}) == std::pair{4LL, 4LL});        // rows of 3: keys[3] and keys[4] share a row
}
