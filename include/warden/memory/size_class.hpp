#pragma once
// The pool's size arithmetic, constexpr so that tests check it exhaustively at compile time.
//
// Every block is a multiple of 256 bytes and 256-byte aligned (proposals/0001-memory-model.md: the alignment of
// cudaMalloc, enough for any vector access). Requests up to 1 MiB are served from size classes:
// 256, 512, 768, 1024, then four classes per power of two (1280, 1536, 1792, 2048, 2560, ...,
// 1 MiB), so a class wastes at most a quarter of the request. Larger requests are exact multiples
// of 256 carved from bigger segments by splitting.

#include <bit>
#include <cstddef>

namespace warden::pool_sizes {

inline constexpr std::size_t alignment = 256;
inline constexpr std::size_t small_max = std::size_t{1} << 20;          // largest size-class request
inline constexpr std::size_t small_segment = std::size_t{2} << 20;      // segment for size-class blocks
inline constexpr std::size_t large_segment = std::size_t{20} << 20;     // segment for requests <= large_shared_max
inline constexpr std::size_t large_shared_max = std::size_t{10} << 20;  // beyond this a request gets its own segment
inline constexpr std::size_t segment_granule = std::size_t{2} << 20;    // segments are multiples of this when they can be

constexpr std::size_t round_up(std::size_t bytes, std::size_t multiple) {
  return (bytes + multiple - 1) / multiple * multiple;
}

constexpr std::size_t aligned_size(std::size_t bytes) { return round_up(bytes == 0 ? 1 : bytes, alignment); }

inline constexpr int first_power = 10;  // 1024: below it classes step by 256
inline constexpr int class_count = 4 + 4 * (20 - first_power);  // 44 classes up to 1 MiB

constexpr bool is_small(std::size_t bytes) { return aligned_size(bytes) <= small_max; }

// The class of a request of `bytes` (<= small_max).
constexpr int class_index(std::size_t bytes) {
  const std::size_t size = aligned_size(bytes);
  if (size <= (std::size_t{1} << first_power)) return static_cast<int>(size / alignment) - 1;
  const int exponent = std::bit_width(size - 1) - 1;  // 2^exponent < size <= 2^(exponent+1)
  const std::size_t base = std::size_t{1} << exponent;
  const std::size_t step = base / 4;
  const auto k = static_cast<int>((size - base + step - 1) / step);  // 1..4
  return 4 + (exponent - first_power) * 4 + (k - 1);
}

// The block size served for class `index`.
constexpr std::size_t class_size(int index) {
  if (index < 4) return static_cast<std::size_t>(index + 1) * alignment;
  const int exponent = first_power + (index - 4) / 4;
  const std::size_t base = std::size_t{1} << exponent;
  return base + static_cast<std::size_t>((index - 4) % 4 + 1) * (base / 4);
}

}  // namespace warden::pool_sizes
