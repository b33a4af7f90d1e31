#pragma once
// Access modes. A mode is a tag type that says which operations an access path allows; views
// and kernel parameters carry it in their type (in<T> reads, out<T> writes, inout<T> both,
// atomic<T> only commutative atomic updates).

#include <concepts>
#include <string_view>

namespace warden::access {

struct read {
  static constexpr std::string_view name = "read";
  static constexpr bool can_load = true;
  static constexpr bool can_store = false;
  static constexpr bool can_update_atomically = false;
};

struct write {
  static constexpr std::string_view name = "write";
  static constexpr bool can_load = false;
  static constexpr bool can_store = true;
  static constexpr bool can_update_atomically = false;
};

struct read_write {
  static constexpr std::string_view name = "read_write";
  static constexpr bool can_load = true;
  static constexpr bool can_store = true;
  static constexpr bool can_update_atomically = false;
};

// Atomic: every access is an atomic read-modify-write, so concurrent updates commute. Plain loads
// and stores are not allowed: mixing them with atomics on one element is a race.
struct atomic {
  static constexpr std::string_view name = "atomic";
  static constexpr bool can_load = false;
  static constexpr bool can_store = false;
  static constexpr bool can_update_atomically = true;
};

}  // namespace warden::access

namespace warden {

template <class M>
concept access_mode = requires {
  { M::name } -> std::convertible_to<std::string_view>;
  { M::can_load } -> std::convertible_to<bool>;
  { M::can_store } -> std::convertible_to<bool>;
  { M::can_update_atomically } -> std::convertible_to<bool>;
};

template <class M>
concept readable = access_mode<M> && M::can_load;

template <class M>
concept writable = access_mode<M> && M::can_store;

}  // namespace warden
