#pragma once
// The contents of a read-only buffer that a kernel's indices read (`v[col[e]]`, a loop from
// `row_ptr[r]` to `row_ptr[r + 1]`) or that a stated fact is about (given(distinct(perm), ...)),
// measured by the launch: the least and greatest element and where each first occurs, and, where a
// fact asks, whether two elements are equal (check::contents_range). The bounds check (E101) gives
// every load of the buffer that range, so a CSR kernel runs as written when its columns and row
// pointers are inside the arrays they index, and is refused, naming the element that is not, when
// they are not; the stated facts (E107) read the rest, so a scatter through a permutation runs, and
// is refused, naming two equal elements, when the buffer is no permutation.
//
// Measured, never stated, and never trusted past a write: the measurement is kept with the buffer
// (buffer::contents_memo) while its writes() count stays the same, so a repeated launch on
// unchanged data reads nothing. Host-accessible memory (pinned, managed), and device memory whose
// address a non-const data() handed out (buffer::escaped()), are measured at every launch, since a
// reference or pointer kept may have changed them since. Device memory is copied to the
// host to be measured (after its last writer), on the cpu backend by a memcpy; on a GPU it is
// measured there (launch/contents_on_device.hpp), and copied only where those passes hand over.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "../check/launch/launch_request.hpp"
#include "../memory/buffer.hpp"
#include "../memory/transfer.hpp"
#include "../runtime.hpp"
#include "contents_on_device.hpp"
#include "contents_steps.hpp"

namespace warden::detail {

// How many buffers this thread measured (tests read it: a repeated launch on unchanged data
// measures nothing, a write makes the next launch measure again).
inline std::uint64_t& contents_measured() {
  static thread_local std::uint64_t count = 0;
  return count;
}

// How many of those the device measured itself (launch/contents_on_device.hpp; the GPU tests read it).
inline std::uint64_t& contents_measured_on_device() {
  static thread_local std::uint64_t count = 0;
  return count;
}

// The least and greatest of n elements, with `distinct` the first element equal to an earlier one,
// and where `order` is wanted the first element not above (below) the one before it in its row
// (contents_steps.hpp: contents_follows_in_row, contents_breaks_strict), into `out`; false where
// an element does not fit long long.
template <class T>
bool scan_contents(const T* data, std::size_t n, bool distinct, const contents_order& order, contents_memo& out) {
  out.measurable = false;
  out.distinct_known = false;
  out.order_known = false;
  out.order = order;
  if (n == 0) return false;
  long long lo = 0, hi = 0, lo_at = 0, hi_at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(long long))
      if (data[i] > static_cast<T>(std::numeric_limits<long long>::max())) return false;
    const auto v = static_cast<long long>(data[i]);
    if (i == 0 || v < lo) {
      lo = v;
      lo_at = static_cast<long long>(i);
    }
    if (i == 0 || v > hi) {
      hi = v;
      hi_at = static_cast<long long>(i);
    }
  }
  out.measurable = true;
  out.lo = lo, out.hi = hi, out.lo_at = lo_at, out.hi_at = hi_at;
  if (order.wanted) {
    out.order_known = true;
    out.not_rising_at = out.falling_at = -1;
    // An element that falls breaks the strict order too, so none comes after the first fall.
    for (std::size_t i = 1; i < n && out.falling_at < 0; ++i) {
      if (!contents_follows_in_row(i, order)) continue;
      if (out.not_rising_at < 0 && contents_breaks_strict(data[i - 1], data[i], order)) out.not_rising_at = static_cast<long long>(i);
      if (data[i] < data[i - 1]) out.falling_at = static_cast<long long>(i);
    }
  }
  if (distinct && static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) < 8ULL * n) {
    // Values in a span at most 8n wide (a permutation's is n): one pass over a bitmap, linear, so
    // that the check stays below the kernel it admits. The first element whose value was seen
    // before is the repeat reported; the earlier one is found by a second pass, on failure only.
    std::vector<bool> seen(static_cast<std::size_t>(static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo)) + 1);
    out.distinct_known = true;
    out.distinct = true;
    for (std::size_t i = 0; i < n; ++i) {
      const auto slot = static_cast<std::size_t>(static_cast<unsigned long long>(static_cast<long long>(data[i])) -
                                                 static_cast<unsigned long long>(lo));
      if (!seen[slot]) {
        seen[slot] = true;
        continue;
      }
      out.distinct = false;
      out.repeat_at = static_cast<long long>(i);
      for (std::size_t j = 0; j < i; ++j)
        if (data[j] == data[i]) {
          out.repeat_of = static_cast<long long>(j);
          break;
        }
      break;
    }
  } else if (distinct) {
    // Sorted by value, then position; of the repeats, the one at the lowest position is reported.
    std::vector<std::pair<long long, long long>> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = {static_cast<long long>(data[i]), static_cast<long long>(i)};
    std::sort(order.begin(), order.end());
    out.distinct_known = true;
    out.distinct = true;
    for (std::size_t start = 0, end = 0; start < n; start = end) {
      end = start + 1;
      while (end < n && order[end].first == order[start].first) ++end;
      // A run of one value, by position: its second element is the first that repeats the first.
      if (end - start > 1 && (out.distinct || order[start + 1].second < out.repeat_at)) {
        out.distinct = false;
        out.repeat_at = order[start + 1].second;
        out.repeat_of = order[start].second;
      }
    }
  }
  return true;
}

// The memo from the device's three passes (launch/contents_steps.hpp), combined into `slot`;
// false where the host must scan after all: an element or the span is too wide for the passes, or
// a distinct fact asked and an element repeats (the launch refuses, naming the first repeat, which
// only a scan in order finds).
inline bool contents_from_slots(const long long* slot, bool distinct, const contents_order& order, contents_memo& out) {
  out.measurable = false;
  out.distinct_known = false;
  out.order_known = false;
  out.order = order;
  if (slot[slot_wide] != 0 || slot[slot_lo] > slot[slot_hi]) return false;
  if (distinct && slot[slot_repeat_seen] != 0) return false;
  out.measurable = true;
  out.lo = slot[slot_lo], out.hi = slot[slot_hi], out.lo_at = slot[slot_lo_at], out.hi_at = slot[slot_hi_at];
  if (order.wanted) {
    out.order_known = true;
    out.not_rising_at = slot[slot_not_rising_at] == LLONG_MAX ? -1 : slot[slot_not_rising_at];
    out.falling_at = slot[slot_falling_at] == LLONG_MAX ? -1 : slot[slot_falling_at];
  }
  if (distinct) {
    out.distinct_known = true;
    out.distinct = true;
  }
  return true;
}

// The device's three passes run on the host, step for step (launch/contents_steps.hpp), with
// `threads` running tallies over a grid-stride split of the elements, combined as the device's
// warps and atomics combine them, into `slot` (what the device's answer holds after the passes).
template <class T>
void contents_slots_by_steps(const T* data, std::size_t n, bool distinct, const contents_order& order, long long (&slot)[contents_slots],
                             std::size_t threads = 1) {
  std::vector<contents_tally> tally(threads);
  contents_tally all;
  const auto combine = [&](int first, int last) {
    for (const contents_tally& t : tally)
      for (int s = first; s < last; ++s) all.take(s, t.slot[s]);
  };
  for (std::size_t t = 0; t < threads; ++t)
    for (std::size_t i = t; i < n; i += threads) contents_range_step(data, i, order, tally[t]);
  combine(slot_lo, contents_slots);
  if (all.slot[slot_wide] == 0) {
    for (std::size_t t = 0; t < threads; ++t)
      for (std::size_t i = t; i < n; i += threads) contents_places_step(data, i, all.slot[slot_lo], all.slot[slot_hi], tally[t]);
    combine(slot_lo_at, slot_hi_at + 1);
    if (distinct && contents_span_fits(all.slot[slot_lo], all.slot[slot_hi], n)) {
      std::vector<unsigned> bits(contents_bitmap_words(n), 0u);
      const auto set_bit = [&](std::size_t word, unsigned mask) {
        const unsigned was = bits[word];
        bits[word] |= mask;
        return was;
      };
      for (std::size_t t = 0; t < threads; ++t)
        for (std::size_t i = t; i < n; i += threads) contents_seen_step(data, i, all.slot[slot_lo], set_bit, tally[t]);
      combine(slot_repeat_seen, slot_repeat_seen + 1);
    } else if (distinct) {
      all.take(slot_wide, 1);
    }
  }
  for (int s = 0; s < contents_slots; ++s) slot[s] = all.slot[s];
}

// The device's measurement run on the host (contents_slots_by_steps), then what the launch makes
// of the answer: the memo, or the host's scan where the passes hand over to it. Tests compare it
// with scan_contents (tests/unit/contents_on_device_test.cpp).
template <class T>
bool contents_measured_by_steps(const T* data, std::size_t n, bool distinct, const contents_order& order, contents_memo& out,
                                std::size_t threads = 1) {
  if (n == 0) return scan_contents(data, n, distinct, order, out);
  long long slot[contents_slots];
  contents_slots_by_steps(data, n, distinct, order, slot, threads);
  if (contents_from_slots(slot, distinct, order, out)) return true;
  return scan_contents(data, n, distinct, order, out);
}

// What the launch measured of `b` (with `distinct`, also whether two elements are equal; with
// `order` wanted, where its rows stop rising), or nullopt where it has nothing long long holds
// (empty, an unsigned 64-bit element above LLONG_MAX, bool, floating point): its loads stay
// unbounded and a fact about it cannot be computed.
template <class T, memory_space S>
std::optional<check::contents_range> contents_of(const buffer<T, S>& b, bool distinct, const contents_order& order = {}) {
  // A bool is measured by no one: the device indexes with its byte, whatever it holds.
  if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool> || sizeof(T) > sizeof(long long)) {
    (void)b, (void)distinct, (void)order;
    return std::nullopt;
  } else {
    contents_memo& memo = b.contents_memo();
    // Host-visible memory, and memory whose address was handed out (buffer::escaped()), can change
    // without a call warden sees: measured at every launch.
    const bool reusable = !S::is_host_accessible && !b.escaped() && memo.valid && memo.writes == b.writes() &&
                          (!distinct || memo.distinct_known || !memo.measurable) &&
                          (!order.wanted || (memo.order_known && memo.order == order) || !memo.measurable);
    if (!reusable) {
      ++contents_measured();
      memo.writes = b.writes();
      if constexpr (S::is_host_accessible) {
        b.wait_for_host(false);
        scan_contents(b.data(), b.size(), distinct, order, memo);
      } else {
        bool measured = false;
#if defined(__CUDACC__) && WARDEN_CUDA_RUNTIME && !defined(__CUDA_ARCH__)
        // On the GPU, three passes there and eight numbers back (launch/contents_on_device.hpp).
        // A pass that cannot run (not compiled for this device: a launch that nvcc's device pass
        // did not see, a cpu-backend one) leaves the measuring to the host.
        if constexpr (measured_on_device<T>) {
          long long slot[contents_slots];
          try {
            if (cuda_device_available() && contents_slots_on_device(b, distinct, order, slot, device_contents_passes{}))
              measured = contents_from_slots(slot, distinct, order, memo);
          } catch (const cuda_error&) {
            cudaGetLastError();
          }
          contents_measured_on_device() += measured;
        }
#endif
        if (!measured) {
          const host_array<T> copy = download(b);  // waits for the last writer
          scan_contents(copy.data(), copy.size(), distinct, order, memo);
        }
      }
      memo.valid = !S::is_host_accessible;
    }
    if (!memo.measurable) return std::nullopt;
    check::contents_range r{memo.lo, memo.hi, memo.lo_at, memo.hi_at};
    if (distinct && memo.distinct_known) {
      r.distinct_known = true;
      r.distinct = memo.distinct;
      r.repeat_at = memo.repeat_at;
      r.repeat_of = memo.repeat_of;
    }
    if (order.wanted && memo.order_known) {
      r.order_known = true;
      r.order = memo.order;
      r.not_rising_at = memo.not_rising_at;
      r.falling_at = memo.falling_at;
    }
    return r;
  }
}

}  // namespace warden::detail
