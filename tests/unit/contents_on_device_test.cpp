// launch/contents_steps.hpp and launch/contents_on_device.hpp: the device's contents measurement,
// its steps run on the host (contents_measured_by_steps) as the GPU's threads run them, split
// grid-stride over 1 to 1000 tallies, compared field by field with the host's own scan
// (scan_contents) on random buffers of every integer width: short runs of few values (repeats,
// orders that break late), permutations, sorted and non-decreasing data, values past LLONG_MAX,
// and spans too wide for the bitmap. What only a GPU runs (the warps' shuffles and the atomics)
// is the kernels' own code, left to a GPU run (docs/soundness.md, "Facts about data").
#include <warden/launch/contents.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace d = warden::detail;

namespace {

std::string describe(const d::contents_memo& m) {
  std::string s = "measurable " + std::to_string(m.measurable);
  if (!m.measurable) return s;
  s += " lo " + std::to_string(m.lo) + "@" + std::to_string(m.lo_at) + " hi " + std::to_string(m.hi) + "@" + std::to_string(m.hi_at);
  if (m.order_known) s += " not_rising_at " + std::to_string(m.not_rising_at) + " falling_at " + std::to_string(m.falling_at);
  if (m.distinct_known) {
    s += " distinct " + std::to_string(m.distinct);
    if (!m.distinct) s += " repeat " + std::to_string(m.repeat_at) + " of " + std::to_string(m.repeat_of);
  }
  return s;
}

template <class T>
std::vector<T> draw(std::mt19937_64& rng, std::size_t n, int shape) {
  std::vector<T> v(n);
  std::uniform_int_distribution<long long> few(0, 7);
  switch (shape) {
    case 0:  // few values: repeats everywhere
      for (T& x : v) x = static_cast<T>(few(rng));
      break;
    case 1: {  // a permutation of [0, n) shifted, sometimes with one repeat planted
      std::iota(v.begin(), v.end(), T{3});
      std::shuffle(v.begin(), v.end(), rng);
      if (n > 2 && (rng() & 1)) v[rng() % n] = v[rng() % n];
      break;
    }
    case 2:  // sorted, sometimes with one element out of place
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(2 * i + 1);
      if (n > 2 && (rng() & 1)) std::swap(v[rng() % n], v[rng() % n]);
      break;
    case 3:  // non-decreasing with runs of equal values
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(i / 3);
      break;
    case 4: {  // the type's whole range: spans too wide for the bitmap, values past LLONG_MAX
      std::uniform_int_distribution<unsigned long long> any;
      for (T& x : v) x = static_cast<T>(any(rng));
      break;
    }
    default:  // values in [-n, n) where the type is signed: the span's offset from a negative least
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<long long>(rng() % (2 * n + 1)) - static_cast<long long>(n));
      break;
  }
  return v;
}

template <class T>
void compare_on_random_buffers(int rounds) {
  std::mt19937_64 rng(sizeof(T) * 1000 + std::is_signed_v<T>);
  const std::size_t thread_counts[] = {1, 3, 32, 1000};
  int compared = 0, repeats = 0, wide = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::size_t n = rng() % 300;
    const int shape = static_cast<int>(rng() % 6);
    const std::vector<T> v = draw<T>(rng, n, shape);
    for (const bool distinct : {false, true})
      for (const bool order : {false, true})
        for (const std::size_t threads : thread_counts) {
          d::contents_memo by_scan, by_steps;
          const bool scanned = d::scan_contents(v.data(), n, distinct, d::contents_order{order}, by_scan);
          const bool stepped = d::contents_measured_by_steps(v.data(), n, distinct, d::contents_order{order}, by_steps, threads);
          INFO("T of " << sizeof(T) << " bytes, n " << n << ", shape " << shape << ", distinct " << distinct << ", order " << order
                       << ", threads " << threads);
          REQUIRE(scanned == stepped);
          REQUIRE(describe(by_steps) == describe(by_scan));
          ++compared;
          repeats += distinct && by_scan.distinct_known && !by_scan.distinct;
          wide += !by_scan.measurable && n != 0;
        }
  }
  // The draws reach the cases the passes hand to the host: repeats, and (for 64-bit unsigned)
  // elements past LLONG_MAX.
  CHECK(compared == rounds * 16);
  CHECK(repeats > 0);
  if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) CHECK(wide > 0);
}

}  // namespace

TEST_CASE("the device's contents steps measure what the host's scan measures, at every width", "[contents][device]") {
  compare_on_random_buffers<signed char>(150);
  compare_on_random_buffers<unsigned char>(150);
  compare_on_random_buffers<short>(150);
  compare_on_random_buffers<unsigned short>(150);
  compare_on_random_buffers<int>(300);
  compare_on_random_buffers<unsigned>(150);
  compare_on_random_buffers<long long>(300);
  compare_on_random_buffers<unsigned long long>(300);
}

TEST_CASE("the bitmap pass answers alone for distinct data, and hands repeats and wide spans to the scan", "[contents][device]") {
  // A permutation: the three passes answer, distinct, with no scan needed.
  std::vector<int> perm(1000);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  d::contents_memo memo;
  REQUIRE(d::contents_measured_by_steps(perm.data(), perm.size(), true, {}, memo, 64));
  CHECK(memo.distinct_known);
  CHECK(memo.distinct);
  CHECK(memo.lo == 0);
  CHECK(memo.hi == 999);
  CHECK(perm[static_cast<std::size_t>(memo.lo_at)] == 0);

  // What the device's slots say of the same data: complete for distinct data ...
  long long slot[d::contents_slots];
  for (int s = 0; s < d::contents_slots; ++s) slot[s] = d::contents_slot_start(s);
  slot[d::slot_lo] = 0, slot[d::slot_hi] = 999, slot[d::slot_lo_at] = memo.lo_at, slot[d::slot_hi_at] = memo.hi_at;
  d::contents_memo from_slots;
  CHECK(d::contents_from_slots(slot, true, d::contents_order{true}, from_slots));
  CHECK(from_slots.distinct);
  CHECK(from_slots.not_rising_at == -1);
  // ... and not where an element repeats (the scan names the first repeat) or is too wide.
  slot[d::slot_repeat_seen] = 1;
  CHECK_FALSE(d::contents_from_slots(slot, true, {}, from_slots));
  CHECK(d::contents_from_slots(slot, false, {}, from_slots));  // no distinct fact asked: the range stands
  slot[d::slot_wide] = 1;
  CHECK_FALSE(d::contents_from_slots(slot, false, {}, from_slots));

  // A span wider than 8n: no bitmap, the scan sorts.
  const std::vector<long long> sparse = {0, 1'000'000, 5, 1'000'000};
  REQUIRE(d::contents_measured_by_steps(sparse.data(), sparse.size(), true, {}, memo, 2));
  CHECK_FALSE(memo.distinct);
  CHECK(memo.repeat_at == 3);
  CHECK(memo.repeat_of == 1);
}
