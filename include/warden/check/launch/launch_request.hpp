#pragma once
// A launch as the launch-time checks read it: the arguments bound once per launch (the slots'
// addresses, sizes and values), the kernel's description and obligations, the geometry, and what
// the interval analysis takes from them (launch_facts).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../../detail/contents_order.hpp"
#include "../../detail/dims3.hpp"
#include "../../dsl/ir.hpp"
#include "../../dsl/obligation.hpp"

namespace warden::check {

// What a read-only buffer of integers held when its launch was checked: its least and greatest
// element and the first position of each. Measured by the launch (launch/contents.hpp), never
// stated: an in<T> parameter cannot change while the kernel runs (nothing writable may share its
// memory, E100, and other work on it is ordered around the launch), so every load of it gives a
// value in [lo, hi].
struct contents_range {
  long long lo = 0, hi = 0;        // the least and greatest element
  long long lo_at = 0, hi_at = 0;  // where each first occurs
  // Measured where a stated fact reads distinct(x): whether no two elements are equal, and if two
  // are, the first element that repeats an earlier one (repeat_at) and that earlier one (repeat_of).
  bool distinct_known = false, distinct = false;
  long long repeat_at = 0, repeat_of = 0;
  // Measured where a stated fact reads sorted(x) or non_decreasing(x), for its rows and bound
  // (`order`, detail::contents_order): the first element not above the one before it in its row
  // (-1: none), and the first below it (-1: none).
  bool order_known = false;
  detail::contents_order order;
  long long not_rising_at = -1, falling_at = -1;
  // A buffer the kernel writes (written_ranges.hpp): [lo, hi] holds every value it can hold while
  // the kernel runs, and [measured_lo, measured_hi] (at lo_at, hi_at) what it held before.
  bool widened = false;
  long long measured_lo = 0, measured_hi = 0;
  friend constexpr bool operator==(const contents_range&, const contents_range&) = default;
};

// What the launch knows: geometry and the integral value of every value<T> parameter (if integral).
struct launch_facts {
  detail::dims3 block, grid;
  std::vector<std::optional<long long>> values;  // by parameter position
  // By parameter position: an unsigned 64-bit value above LLONG_MAX (its `values` entry is empty,
  // since the checks count in long long), else 0. The intervals take it as "at least 2^61".
  std::vector<unsigned long long> beyond;
  std::vector<long long> sizes;                  // by parameter position (buffers)
  // By parameter position: the contents of the read-only buffers whose loads an index, a column,
  // a loop bound or a shuffle lane reads (contents_read_by_indices); nullopt for every other.
  std::vector<std::optional<contents_range>> contents;
};

// The names messages give a kernel's parameters: the user's, or p0, p1, ... where none was given.
inline std::vector<std::string> parameter_names(std::span<const std::string_view> given) {
  std::vector<std::string> names;
  names.reserve(given.size());
  for (std::size_t i = 0; i < given.size(); ++i)
    names.push_back(given[i].empty() ? "p" + std::to_string(i) : std::string(given[i]));
  return names;
}

// One argument of a launch as the checks read it. launch builds the list once per launch, from
// the arguments and the parameters' kinds; E100, E101 and the facts of every other check read it.
// Where first_overrun found its overrun: the access, whether its column (a 2-D tile's) is what
// leaves, and the element reached; the launch checks the fixes it offers against it (E101).
struct overrun_site {
  int access = -1;  // -1: none, or not an access (a shuffle's lane)
  bool column = false;
  long long reached = 0;
};

struct bound_argument {
  std::string_view kind;           // the parameter's kind: in, out, inout, atomic, value
  bool is_buffer = false;
  bool writable = false;           // out, inout, atomic
  const void* address = nullptr;   // a buffer's memory (E100)
  long long size = 0;              // a buffer's elements (E101)
  std::optional<long long> value;  // an integral value, as the kernel receives it (converted to T)
  unsigned long long beyond = 0;   // instead of `value`: an unsigned 64-bit value above LLONG_MAX
  std::optional<contents_range> contents;  // a read-only buffer of integers that indices read
  long long bytes = 0;             // a buffer's bytes from `address` (E100: what a view overlaps)
};

// What the checks read of one argument: a buffer's size, its address modulo 16 (a vector access
// moves 2, 4, 8 or 16 bytes, dsl/vector.hpp, so this decides its alignment), the first argument
// bound to the same memory (E100) and, where indices read it, the range of its contents; a value's
// integral value as the kernel receives it. check_launch reads the arguments only through their
// readings, which it hands back: with the grid, they are the launch check cache's key
// (launch/check_cache.hpp), so the key cannot leave out anything the checks depend on.
struct argument_reading {
  long long number = 0;        // a buffer's size, or an integral value
  std::uint32_t same_as = 0;   // a buffer: the first argument with its address (itself if none, or null)
  std::uint64_t overlaps = 0;  // a buffer: bit j for each earlier argument j whose bytes share some with its own (E100)
  unsigned char alignment = 0; // a buffer: its address modulo 16
  bool has_number = false;     // a value: whether it is integral (only those enter the checks)
  bool has_contents = false;   // a buffer whose contents indices read: `contents` holds them
  unsigned long long beyond = 0;  // a value: bound_argument::beyond
  contents_range contents;
  friend constexpr bool operator==(const argument_reading&, const argument_reading&) = default;
};

// Argument i's reading; the earlier arguments are the ones an alias is looked for in.
inline argument_reading read_argument(std::span<const bound_argument> arguments, std::size_t i) {
  const bound_argument& a = arguments[i];
  argument_reading r;
  r.same_as = static_cast<std::uint32_t>(i);
  if (a.is_buffer) {
    r.number = a.size;
    r.has_number = true;
    r.alignment = static_cast<unsigned char>(reinterpret_cast<std::uintptr_t>(a.address) % 16);
    if (a.contents) {
      r.has_contents = true;
      r.contents = *a.contents;
    }
    if (a.address != nullptr) {
      for (std::size_t j = 0; j < i; ++j)
        if (arguments[j].is_buffer && arguments[j].address == a.address) {
          r.same_as = static_cast<std::uint32_t>(j);
          break;
        }
      // Views of one buffer (memory/buffer_view.hpp) share memory without sharing an address.
      const auto begin = reinterpret_cast<std::uintptr_t>(a.address);
      for (std::size_t j = 0; j < i && j < 64; ++j) {
        const bound_argument& b = arguments[j];
        if (!b.is_buffer || b.address == nullptr || a.bytes <= 0 || b.bytes <= 0) continue;
        const auto other = reinterpret_cast<std::uintptr_t>(b.address);
        if (begin < other + static_cast<std::uintptr_t>(b.bytes) && other < begin + static_cast<std::uintptr_t>(a.bytes))
          r.overlaps |= std::uint64_t{1} << j;
      }
    }
  } else if (a.value) {
    r.number = *a.value;
    r.has_number = true;
  } else {
    r.beyond = a.beyond;
  }
  return r;
}

// A launch as the checks see it.
struct launch_request {
  std::string_view kernel;                        // the kernel's name
  std::span<const std::string_view> param_names;  // by position, one per argument; "" where the user gave none
  std::string_view source;                        // WARDEN_KERNEL's text, for messages in its names; may be empty
  std::span<const bound_argument> arguments;      // by position
  const dsl::kernel_ir* ir = nullptr;            // the kernel's description
  const obligation_list* obligations = nullptr;   // what its proof rests on
  detail::dims3 block, grid;
};

}  // namespace warden::check
