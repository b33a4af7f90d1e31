#pragma once
// What one thread of the device's contents measurement does (launch/contents_on_device.hpp), as
// __host__ __device__ steps over one element each, so that the host runs the very same steps in CI
// (contents_measured_by_steps, tests/unit/contents_on_device_test.cpp compares it with the host's
// own scan, launch/contents.hpp, on random data): the kernels add only the grid-stride loop, the
// warp's reduction and the atomics, which a GPU run checks.
//
// Three passes, each over every element:
//   1. range:  the least and greatest value, and (where an order fact asks) the first element not
//              above / below the one before it in its row (contents_order: never compared with
//              the last of the row before; with a bound, "not above" only where the one before
//              is below it);
//   2. places: the first element equal to the least value and to the greatest (pass 1's answers,
//              read from device memory, so no round trip to the host between passes);
//   3. seen:   (where a distinct fact asks, and the values span at most 8n) one bit per value in
//              the span, set with an atomic or: an element that finds its bit set repeats an
//              earlier-or-concurrent one. Which of two equal elements sets the bit first depends on
//              the schedule, so the pass says only whether a repeat exists; where one does, the
//              launch is about to refuse, and the host's scan names the first repeat exactly.
// A value wider than the span's 8n, or an unsigned 64-bit element above LLONG_MAX, is reported as
// such and measured the host's way.

#include <climits>
#include <cstddef>
#include <type_traits>

#include "../config.hpp"
#include "../detail/contents_order.hpp"

namespace warden::detail {

// The slots of the device's answer: one long long each.
enum contents_slot : int {
  slot_lo,             // least value
  slot_hi,             // greatest value
  slot_lo_at,          // first element holding the least value (LLONG_MAX: none yet)
  slot_hi_at,          // first element holding the greatest value
  slot_not_rising_at,  // first i past its row's start with !(v[i - 1] < v[i]) (LLONG_MAX: none; contents_breaks_strict)
  slot_falling_at,     // first i past its row's start with v[i] < v[i - 1]
  slot_repeat_seen,    // 1: an element's value was seen before (pass 3)
  slot_wide,           // 1: an element is outside long long, or the span is over 8n (pass 3 skipped)
  contents_slots
};

// What each slot starts as, before any element: the identity of the combination it takes.
WARDEN_HOST_DEVICE constexpr long long contents_slot_start(int slot) {
  switch (slot) {
    case slot_lo: return LLONG_MAX;
    case slot_hi: return LLONG_MIN;
    case slot_repeat_seen:
    case slot_wide: return 0;
    default: return LLONG_MAX;  // positions: the least is kept
  }
}

// Whether a slot keeps the greatest of what it is given (else the least).
WARDEN_HOST_DEVICE constexpr bool contents_slot_keeps_greatest(int slot) {
  return slot == slot_hi || slot == slot_repeat_seen || slot == slot_wide;
}

// A thread's running answer: the same slots, combined as the device combines them.
struct contents_tally {
  long long slot[contents_slots];
  WARDEN_HOST_DEVICE contents_tally() {
    for (int s = 0; s < contents_slots; ++s) slot[s] = contents_slot_start(s);
  }
  WARDEN_HOST_DEVICE void take(int s, long long v) {
    if (contents_slot_keeps_greatest(s) ? v > slot[s] : v < slot[s]) slot[s] = v;
  }
};

template <class T>
WARDEN_HOST_DEVICE constexpr bool outside_long_long(T x) {
  if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(long long))
    return x > static_cast<T>(LLONG_MAX);
  else
    return false;
}

// Whether element i follows one of its own row (contents_order::row), so that the order
// relates the two: a row's first element starts afresh (a B+tree node's keys after the last
// node's padding).
WARDEN_HOST_DEVICE constexpr bool contents_follows_in_row(std::size_t i, const contents_order& order) {
  return i > 0 && (order.row <= 0 || i % static_cast<unsigned long long>(order.row) != 0);
}

// Whether x, following `before` in its row, breaks the strict order: it does not rise above
// `before`, and (with a bound) `before` is below the bound or x falls. So the first such element
// is the first that breaks sorted(x).below(hi), never after the first that falls, and padding at
// or above hi may repeat.
template <class T>
WARDEN_HOST_DEVICE constexpr bool contents_breaks_strict(T before, T x, const contents_order& order) {
  if (before < x) return false;
  if (!order.bounded || x < before) return true;
  return !outside_long_long(before) && static_cast<long long>(before) < order.below;
}

// Pass 1 at element i of v (n elements).
template <class T>
WARDEN_HOST_DEVICE void contents_range_step(const T* v, std::size_t i, const contents_order& order, contents_tally& t) {
  const T x = v[i];
  if (outside_long_long(x)) {
    t.take(slot_wide, 1);
    return;
  }
  t.take(slot_lo, static_cast<long long>(x));
  t.take(slot_hi, static_cast<long long>(x));
  if (order.wanted && contents_follows_in_row(i, order)) {
    if (contents_breaks_strict(v[i - 1], x, order)) t.take(slot_not_rising_at, static_cast<long long>(i));
    if (x < v[i - 1]) t.take(slot_falling_at, static_cast<long long>(i));
  }
}

// Pass 2 at element i, given pass 1's least and greatest value.
template <class T>
WARDEN_HOST_DEVICE void contents_places_step(const T* v, std::size_t i, long long lo, long long hi, contents_tally& t) {
  const T x = v[i];
  if (outside_long_long(x)) return;
  if (static_cast<long long>(x) == lo) t.take(slot_lo_at, static_cast<long long>(i));
  if (static_cast<long long>(x) == hi) t.take(slot_hi_at, static_cast<long long>(i));
}

// Whether pass 3 runs: the values' span fits the bitmap of 8n bits that the launch allocates.
WARDEN_HOST_DEVICE constexpr bool contents_span_fits(long long lo, long long hi, std::size_t n) {
  return lo <= hi && static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) < 8ULL * n;
}

// The bitmap's size in 32-bit words for n elements (8n bits, at least one word).
WARDEN_HOST_DEVICE constexpr std::size_t contents_bitmap_words(std::size_t n) { return (8 * n + 31) / 32 + 1; }

// Pass 3 at element i: sets the value's bit with `set_bit(word, mask)`, which returns the word as
// it was (an atomic or on the device); a bit already set is a repeat.
template <class T, class SetBit>
WARDEN_HOST_DEVICE void contents_seen_step(const T* v, std::size_t i, long long lo, SetBit&& set_bit, contents_tally& t) {
  const T x = v[i];
  const unsigned long long offset = static_cast<unsigned long long>(static_cast<long long>(x)) - static_cast<unsigned long long>(lo);
  const unsigned mask = 1u << (offset % 32);
  if ((set_bit(static_cast<std::size_t>(offset / 32), mask) & mask) != 0) t.take(slot_repeat_seen, 1);
}

}  // namespace warden::detail
