#pragma once
// Atomic updates: atomic_add, _sub, _min, _max, _and, _or, _xor, _inc, _dec, _exchange,
// _compare_exchange, of a buffer parameter's element or of a shared tile's.
#include <type_traits>
#include <utility>

#include "../diagnostic/table.hpp"
#include "expr.hpp"
#include "handles.hpp"
#include "stmt.hpp"

namespace warden {

// ---- atomics ---------------------------------------------------------------------------------------

namespace dsl {
// As = void: the update is of the element's type T; otherwise of As (w::as<U>, below).
template <atomic_op Op, class As = void, int I, class T, class Mode, class Idx, class V, class E = no_column>
constexpr auto make_atomic(const element<I, T, Mode, Idx>& target, V&& v, E e = {}) {
  using U = std::conditional_t<std::is_void_v<As>, T, As>;
  auto value = as_expr(std::forward<V>(v));
  using update = atomic_s<I, U, Op, Idx, decltype(value), E>;
  // An update through in<T> (W003) or out<T> (W004) is described as the update and runs as nothing
  // (refused_s, dsl/handles.hpp): the checker reports it with the parameter's name and statement
  // (check/modes.hpp). Its value's W008 is left for after that fix: one mistake, one error.
  // A floating-point operand into an integral element (W008) is refused the same way.
  if constexpr (!(Mode::can_update_atomically || (Mode::can_store && Mode::can_load)))
    return refused_s<update>{{}, update{{}, target.index, value, e}};
  else if constexpr (narrowing_store<U, decltype(value)>)
    return refused_s<narrowing_store_s<update>>{{}, {update{{}, target.index, value, e}}};
  else
    return update{{}, target.index, value, e};
}
// A shared tile's element: every tile may be updated atomically (it is the block's own memory);
// the checker keeps plain accesses of the element out of the atomics' phase (W040).
template <atomic_op Op, int L, class T, int Stride, class Row, class Col, class V, class E = no_column>
constexpr auto make_atomic(const tile_element<L, T, Stride, Row, Col>& target, V&& v, E e = {}) {
  auto value = as_expr(std::forward<V>(v));
  static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::atomic_*"));
  return tile_atomic_s<L, T, Stride, Op, Row, Col, decltype(value), E>{{}, target.row, target.col, value, e};
}
// w::as<U>(y[i]): a buffer element taken, for one atomic update, as an integer of another type of
// the same size (`atomicInc((unsigned*)&counts[i], n)` on an int buffer). Only in atomics: a plain
// load or store keeps the buffer's type. The checker sees the same access (same element, same size).
template <class U, int I, class T, class Mode, class Idx>
struct reinterpreted_element {
  element<I, T, Mode, Idx> target;
};
template <atomic_op Op, class U, int I, class T, class Mode, class Idx, class V, class E = no_column>
constexpr auto make_atomic(const reinterpreted_element<U, I, T, Mode, Idx>& as, V&& v, E e = {}) {
  return make_atomic<Op, U>(as.target, std::forward<V>(v), e);
}

// The element type of an atomic update's target.
template <class Target>
struct element_value;
template <class U, int I, class T, class Mode, class Idx>
struct element_value<reinterpreted_element<U, I, T, Mode, Idx>> {
  using type = U;
};
template <int I, class T, class Mode, class Idx>
struct element_value<element<I, T, Mode, Idx>> {
  using type = T;
};
template <int L, class T, int Stride, class Row, class Col>
struct element_value<tile_element<L, T, Stride, Row, Col>> {
  using type = T;
};
template <class Target>
using element_value_t = typename element_value<Target>::type;
}  // namespace dsl

// w::as<U>(y[i]) for an atomic update of y[i] as U: integers of one size, signed or not (int and
// unsigned, long long and unsigned long long), as a cast of the element's address does in CUDA.
template <class U, int I, class T, class Mode, class Idx>
constexpr auto as(const dsl::element<I, T, Mode, Idx>& target) {
  static_assert(std::is_integral_v<U> && std::is_integral_v<T> && sizeof(U) == sizeof(T) &&
                    std::is_same_v<std::make_unsigned_t<U>, std::make_unsigned_t<T>>,
                "warden::as<U>(y[i]): U and the element's type must be the signed and unsigned kinds of one "
                "integer type (int and unsigned, long long and unsigned long long)");
  return dsl::reinterpreted_element<U, I, T, Mode, Idx>{target};
}

template <class Target, dsl::operand V>
constexpr auto atomic_add(const Target& target, V&& v) {
  return dsl::make_atomic<dsl::atomic_op::add>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_min(const Target& target, V&& v) {
  return dsl::make_atomic<dsl::atomic_op::min>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_max(const Target& target, V&& v) {
  return dsl::make_atomic<dsl::atomic_op::max>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_exchange(const Target& target, V&& v) {
  return dsl::make_atomic<dsl::atomic_op::exchange>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_sub(const Target& target, V&& v) {
  return dsl::make_atomic<dsl::atomic_op::sub>(target, std::forward<V>(v));
}
// Bitwise updates, of integral elements.
template <class Target, dsl::operand V>
constexpr auto atomic_and(const Target& target, V&& v) {
  static_assert(std::is_integral_v<dsl::element_value_t<Target>>, "warden::atomic_and: the element must be of integral type");
  return dsl::make_atomic<dsl::atomic_op::bit_and>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_or(const Target& target, V&& v) {
  static_assert(std::is_integral_v<dsl::element_value_t<Target>>, "warden::atomic_or: the element must be of integral type");
  return dsl::make_atomic<dsl::atomic_op::bit_or>(target, std::forward<V>(v));
}
template <class Target, dsl::operand V>
constexpr auto atomic_xor(const Target& target, V&& v) {
  static_assert(std::is_integral_v<dsl::element_value_t<Target>>, "warden::atomic_xor: the element must be of integral type");
  return dsl::make_atomic<dsl::atomic_op::bit_xor>(target, std::forward<V>(v));
}
// Counting with wraparound, as CUDA's atomicInc / atomicDec (unsigned int elements): inc stores
// (old >= limit) ? 0 : old + 1; dec stores (old == 0 || old > limit) ? limit : old - 1.
template <class Target, dsl::operand V>
constexpr auto atomic_inc(const Target& target, V&& limit) {
  static_assert(std::is_same_v<dsl::element_value_t<Target>, unsigned>, "warden::atomic_inc: the element must be unsigned int (as atomicInc's)");
  return dsl::make_atomic<dsl::atomic_op::inc>(target, std::forward<V>(limit));
}
template <class Target, dsl::operand V>
constexpr auto atomic_dec(const Target& target, V&& limit) {
  static_assert(std::is_same_v<dsl::element_value_t<Target>, unsigned>, "warden::atomic_dec: the element must be unsigned int (as atomicDec's)");
  return dsl::make_atomic<dsl::atomic_op::dec>(target, std::forward<V>(limit));
}
// Stores `desired` where the element equals `expected`.
template <class Target, dsl::operand E, dsl::operand V>
constexpr auto atomic_compare_exchange(const Target& target, E&& expected, V&& desired) {
  return dsl::make_atomic<dsl::atomic_op::compare_exchange>(target, std::forward<V>(desired),
                                                            dsl::as_expr(std::forward<E>(expected)));
}

}  // namespace warden
