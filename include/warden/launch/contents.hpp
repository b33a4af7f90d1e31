#pragma once
// The contents of a read-only buffer that a kernel's indices read (`v[col[e]]`, a loop from
// `row_ptr[r]` to `row_ptr[r + 1]`), measured by the launch: the least and greatest element and
// where each first occurs (check::contents_range). The bounds check (E101) gives every load of the
// buffer that range, so a CSR kernel runs as written when its columns and row pointers are inside
// the arrays they index, and is refused, naming the element that is not, when they are not.
//
// Measured, never stated, and never trusted past a write: the range is kept with the buffer
// (buffer::contents_memo) while its writes() count stays the same, so a repeated launch on
// unchanged data reads nothing. Host-accessible memory (pinned, managed) is measured at every
// launch, since a reference the host kept may have changed it since. Device memory is copied to the
// host to be measured (after its last writer); on the cpu backend that is a memcpy.

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "../check/launch/launch_request.hpp"
#include "../memory/buffer.hpp"
#include "../memory/transfer.hpp"

namespace warden::detail {

// How many buffers this thread measured (tests read it: a repeated launch on unchanged data
// measures nothing, a write makes the next launch measure again).
inline std::uint64_t& contents_measured() {
  static thread_local std::uint64_t count = 0;
  return count;
}

template <class T>
bool scan_contents(const T* data, std::size_t n, contents_memo& out) {
  out.measurable = false;
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
  out = {true, true, out.writes, lo, hi, lo_at, hi_at};
  return true;
}

// The range of `b`'s contents, or nullopt where it has none that long long holds (empty, or an
// unsigned 64-bit element above LLONG_MAX, or bool: its loads stay unbounded).
template <class T, memory_space S>
std::optional<check::contents_range> contents_of(const buffer<T, S>& b) {
  // A bool is measured as its byte by no one: the device indexes with the byte, whatever it holds.
  if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool> || sizeof(T) > sizeof(long long)) {
    (void)b;
    return std::nullopt;
  } else {
    contents_memo& memo = b.contents_memo();
    const bool reusable = !S::is_host_accessible && memo.valid && memo.writes == b.writes();
    if (!reusable) {
      ++contents_measured();
      memo.writes = b.writes();
      if constexpr (S::is_host_accessible) {
        b.wait_for_host(false);
        scan_contents(b.data(), b.size(), memo);
      } else {
        const host_array<T> copy = download(b);  // waits for the last writer
        scan_contents(copy.data(), copy.size(), memo);
      }
      memo.valid = !S::is_host_accessible;
    }
    if (!memo.measurable) return std::nullopt;
    return check::contents_range{memo.lo, memo.hi, memo.lo_at, memo.hi_at};
  }
}

}  // namespace warden::detail
