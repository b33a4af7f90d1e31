#pragma once
// launch_check_cache: the launch signatures of one kernel whose launch-time checks passed, so
// that a launch repeating one skips the walk over the kernel's description
// (proposals/0007-launch-cost.md).
//
// Every launch-time check (check::check_launch) is a pure function of the kernel (its
// description, obligations and block, fixed by its type), the grid and the arguments' readings
// (check/launch/launch_request.hpp: each buffer's size, its address modulo 16 and which earlier
// argument has the same address; each integral value as the kernel receives it), which
// check_launch computes itself, reads the arguments through, and hands back. The key below is the
// grid and those readings, as check_launch returned them: two launches with equal keys get the
// same verdict, so a hit is exactly the check. Only launches that passed are stored; a failing
// one is checked, and throws, every time.
//
// One cache per kernel and thread (thread_local: no lock, no sharing), a few entries replaced in
// turn, no heap allocation. WARDEN_LAUNCH_CHECK_CACHE=0 turns it off (every launch checks).

#include <array>
#include <cstddef>
#include <cstdint>

#include "../check/launch/launch_checks.hpp"
#include "../detail/dims3.hpp"

#if !defined(WARDEN_LAUNCH_CHECK_CACHE)
#define WARDEN_LAUNCH_CHECK_CACHE 1
#endif

namespace warden::detail {

// A launch's signature: the grid and each argument's reading (check::argument_reading), what
// check::check_launch reads of them and hands back.
template <std::size_t N>
struct launch_key {
  int grid[3] = {0, 0, 0};
  std::array<check::argument_reading, N> arguments{};
  friend constexpr bool operator==(const launch_key&, const launch_key&) = default;
};

// A few launch keys, replaced in turn (the oldest goes first), no heap allocation.
template <std::size_t N, std::size_t Capacity>
class key_ring {
 public:
  bool holds(const launch_key<N>& key) const {
    for (std::size_t i = 0; i < used_; ++i)
      if (entries_[i] == key) return true;
    return false;
  }
  void add(const launch_key<N>& key) {
    entries_[next_] = key;
    next_ = (next_ + 1) % Capacity;
    if (used_ < Capacity) ++used_;
  }

 private:
  std::array<launch_key<N>, Capacity> entries_{};
  std::size_t used_ = 0, next_ = 0;
};

template <std::size_t N>
class launch_check_cache {
 public:
  static constexpr std::size_t capacity = 8;

  bool passed(const launch_key<N>& key) const { return passed_.holds(key); }
  void remember(const launch_key<N>& key) { passed_.add(key); }
  // Signatures (read without contents) whose checks failed until the contents of the buffers that
  // indices read were measured (launch/binding.hpp): the next launch with one measures first.
  bool needs_contents(const launch_key<N>& key) const { return needs_contents_.holds(key); }
  void remember_needs_contents(const launch_key<N>& key) { needs_contents_.add(key); }

 private:
  key_ring<N, capacity> passed_;
  key_ring<N, capacity> needs_contents_;
};

// How many times this thread ran the full checks (a miss, or the cache turned off; twice for a
// launch refused without measured contents and checked again with them): what tests read to see
// that a repeated signature skips them and a changed one does not.
inline std::uint64_t& full_launch_checks() {
  static thread_local std::uint64_t count = 0;
  return count;
}

// The cache of kernel type K (a WARDEN_KERNEL handle: its description and obligations are
// constants of its type) on this thread.
template <class K>
launch_check_cache<K::arity>& check_cache_of() {
  static thread_local launch_check_cache<K::arity> cache;
  return cache;
}

// The check cache of a kernel launched as `K`: a WARDEN_KERNEL handle's description is a constant
// of its type; a bare kernel_definition's constants may differ between objects of one type, so it has none.
template <class K>
launch_check_cache<K::arity>* check_cache_for() {
  if constexpr (WARDEN_LAUNCH_CHECK_CACHE && requires { typename K::holder; }) return &check_cache_of<K>();
  else return nullptr;
}

}  // namespace warden::detail
