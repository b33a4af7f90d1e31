#pragma once
// Warp shuffles: shuffle_down, shuffle_up, shuffle_xor, shuffle_from.
#include <utility>

#include "context.hpp"
#include "expr.hpp"
#include "stmt.hpp"

namespace warden {

// ---- warp shuffles ----------------------------------------------------------------------------------
//
// shuffle_down(k, v, delta, [](auto k, auto other) { ... }): `other` is v as lane + delta of the
// same warp computed it (the lane's own v where lane + delta > 31), like __shfl_down_sync with
// every lane taking part. shuffle_up (lane - delta), shuffle_xor (lane ^ mask) and
// shuffle_from (a given lane) likewise. Every lane of the warp must reach the shuffle: under a
// condition or loop that differs within a warp it does not compile (W031). Registers only: no
// memory is touched, so the race rules have nothing to say about it.
namespace dsl {
template <shuffle_kind Kind, class B, int L, operand V, operand Lane, class F>
constexpr auto make_shuffle(V&& value, Lane&& lane, F body) {
  auto v = as_expr(std::forward<V>(value));
  auto l = as_expr(std::forward<Lane>(lane));
  using T = value_type_of<decltype(v)>;
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8,
                "warden::shuffle: the value must be arithmetic and at most 8 bytes (what __shfl_sync exchanges)");
  static_assert(std::is_integral_v<value_type_of<decltype(l)>>, "warden::shuffle: the lane operand must be an integer");
  auto inner = to_statement(body(kernel_context<B, L + 1>{}, var_e<L, T, false>{}));
  return shuffle_s<L, T, Kind, decltype(v), decltype(l), decltype(inner)>{{}, v, l, inner};
}
}  // namespace dsl

template <class B, int L, dsl::operand V, dsl::operand D, class F>
constexpr auto shuffle_down(dsl::kernel_context<B, L>, V&& value, D&& delta, F body) {
  return dsl::make_shuffle<dsl::shuffle_kind::down, B, L>(std::forward<V>(value), std::forward<D>(delta), body);
}
template <class B, int L, dsl::operand V, dsl::operand D, class F>
constexpr auto shuffle_up(dsl::kernel_context<B, L>, V&& value, D&& delta, F body) {
  return dsl::make_shuffle<dsl::shuffle_kind::up, B, L>(std::forward<V>(value), std::forward<D>(delta), body);
}
template <class B, int L, dsl::operand V, dsl::operand M, class F>
constexpr auto shuffle_xor(dsl::kernel_context<B, L>, V&& value, M&& mask, F body) {
  return dsl::make_shuffle<dsl::shuffle_kind::xor_lanes, B, L>(std::forward<V>(value), std::forward<M>(mask), body);
}
template <class B, int L, dsl::operand V, dsl::operand S, class F>
constexpr auto shuffle_from(dsl::kernel_context<B, L>, V&& value, S&& source_lane, F body) {
  return dsl::make_shuffle<dsl::shuffle_kind::index, B, L>(std::forward<V>(value), std::forward<S>(source_lane), body);
}

}  // namespace warden
