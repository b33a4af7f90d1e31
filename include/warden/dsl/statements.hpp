#pragma once
// The statements and scopes of the kernel language: seq, sync, when/otherwise, given, the loops
// (for_range, for_down, for_halving, for_shift_down, for_shift_up, for_doubling, grid_stride,
// for_until), local, shared tiles and trusted.
#include <type_traits>
#include <utility>

#include "context.hpp"
#include "../diagnostic/table.hpp"
#include "expr.hpp"
#include "handles.hpp"
#include "stmt.hpp"

namespace warden {

// trusted(statements...): the statements run as written and the race rules skip their accesses.
template <dsl::statement... S>
constexpr auto trusted(S... s) {
  return dsl::trusted_s<dsl::seq_s<S...>>{{}, dsl::seq_s<S...>{{}, detail::make_pack(s...)}};
}

// ---- statements ----------------------------------------------------------------------------------

template <dsl::statement... S>
constexpr auto seq(S... s) {
  return dsl::seq_s<S...>{{}, detail::make_pack(s...)};
}

constexpr dsl::sync_s sync() { return {}; }

// when(condition, statements...): the statements run only in threads where the condition holds.
// .otherwise(statements...) adds the others.
template <dsl::operand C, dsl::statement... S>
constexpr auto when(C&& condition, S... s) {
  auto c = dsl::as_expr(std::forward<C>(condition));
  return dsl::when_s<decltype(c), dsl::seq_s<S...>, dsl::nothing_s>{{}, c, dsl::seq_s<S...>{{}, detail::make_pack(s...)}, {}};
}

// given(fact, statements...): states a fact over the launch's values (`pitch >= width`,
// `cols >= 17`, `hid == 16`) that the checker may use to prove the statements, as it would a
// guard. It is never taken on trust: every launch evaluates it before anything runs and refuses a
// launch for which it is false (E107, fact_error); w::obligations_of lists it.
template <dsl::operand C, dsl::statement... S>
constexpr auto given(C&& fact, S... s) {
  auto c = dsl::as_expr(std::forward<C>(fact));
  // Fix: state facts over value<T> parameters of integral type, buffer sizes (x.size()), block and
  // grid extents and integer constants only; a condition on thread ids, loaded data, locals, loop
  // variables or floating-point values is a guard: write it with when(...).
  static_assert(dsl::launch_uniform<decltype(c)>::value,
                WARDEN_DIAGNOSTIC_MESSAGE(W007, "warden::given",
                                          "a stated fact may read only what the launch fixes (integral value<T> "
                                          "parameters, buffer sizes, block and grid extents, integer constants), so "
                                          "that launch can check it before running; use when(...) for a condition on "
                                          "threads or data"));
  return dsl::given_s<decltype(c), dsl::seq_s<S...>>{{}, c, dsl::seq_s<S...>{{}, detail::make_pack(s...)}};
}

// distinct(x): a fact over the contents of x, an in<T> buffer of integers, for given(...): no two
// elements are equal (a permutation, a list of distinct keys). The checker then takes the accesses
// `y[x[e]]` as accesses at e, exactly, when every access to y goes through x (W012 otherwise); the
// launch measures x before running (launch/contents.hpp) and refuses a launch where two elements
// are equal, naming both (E107). A buffer the kernel writes changes while it runs: W007.
template <int I, class T, class Mode>
constexpr dsl::distinct_e<I> distinct(dsl::buffer_handle<I, T, Mode>) {
  static_assert(std::is_same_v<Mode, access::read> && std::is_integral_v<T> && !std::is_same_v<T, bool>,
                WARDEN_DIAGNOSTIC_MESSAGE(W007, "warden::distinct",
                                          "a fact about a buffer's contents names an in<T> buffer of integers, which "
                                          "launch can measure before running and which cannot change while the kernel "
                                          "runs; declare the parameter in<T>"));
  return {};
}

// Facts about the order and the range of a buffer's contents, for given(...), measured by the
// launch as distinct(x) is (launch/contents.hpp: once per version of the buffer) and refused, naming
// the first element that breaks them, where false (E107):
//  - sorted(x): each element above the one before it (keys without repeats, in order);
//  - non_decreasing(x): none below the one before it (CSR row pointers, sorted keys with repeats);
//  - either with .rows(n): only within rows of n elements, element e in row e / n, the rows
//    unrelated (B+tree nodes); sorted(x).below(hi): strictly rising only where the earlier element
//    is below hi, so padding at or above hi may repeat (INT_MAX to a node's end). n and hi read
//    only what the launch fixes (W007 otherwise); a launch with n below 1 is refused (E107);
//  - within(x, lo, hi): every element in [lo, hi), lo and hi read only what the launch fixes;
//  - permutation(x): x holds each of 0 .. x.size() - 1 once (distinct(x) and within(x, 0, x.size())).
// The checker takes them as it takes every stated fact: a scatter y[p[e]] through a permutation is
// judged at e (distinct), and a guard lo[t] <= v && v < lo[t + 1] over a non-decreasing lo holds for
// one t at most (docs/soundness.md, "Facts about data").
namespace dsl {
// Whether a fact about a buffer's contents may name a parameter of this mode and element type.
template <class T, class Mode>
inline constexpr bool measurable_contents =
    std::is_same_v<Mode, access::read> && std::is_integral_v<T> && !std::is_same_v<T, bool>;
}  // namespace dsl
// Fix: declare the parameter in<T> of an integer type.
#define WARDEN_DETAIL_CONTENTS_FACT_TARGET(call)                                                                     \
  static_assert(dsl::measurable_contents<T, Mode>,                                                                \
                WARDEN_DIAGNOSTIC_MESSAGE(W007, call,                                                             \
                                          "a fact about a buffer's contents names an in<T> buffer of integers, "   \
                                          "which launch can measure before running and which cannot change while " \
                                          "the kernel runs; declare the parameter in<T>"))
template <int I, class T, class Mode>
constexpr dsl::contents_fact_e<I, dsl::ir_op::contents_sorted> sorted(dsl::buffer_handle<I, T, Mode>) {
  WARDEN_DETAIL_CONTENTS_FACT_TARGET("warden::sorted");
  return {};
}
template <int I, class T, class Mode>
constexpr dsl::contents_fact_e<I, dsl::ir_op::contents_non_decreasing> non_decreasing(dsl::buffer_handle<I, T, Mode>) {
  WARDEN_DETAIL_CONTENTS_FACT_TARGET("warden::non_decreasing");
  return {};
}
template <int I, class T, class Mode, dsl::operand Lo, dsl::operand Hi>
constexpr auto within(dsl::buffer_handle<I, T, Mode>, Lo&& lo, Hi&& hi) {
  WARDEN_DETAIL_CONTENTS_FACT_TARGET("warden::within");
  auto l = dsl::as_expr(std::forward<Lo>(lo));
  auto h = dsl::as_expr(std::forward<Hi>(hi));
  // Fix: bound the elements by integral value<T> parameters, buffer sizes, extents and constants.
  // (The fact itself counts as launch-uniform either way, so that given(...) adds no second error.)
  static_assert(dsl::launch_uniform<decltype(l)>::value && dsl::launch_uniform<decltype(h)>::value,
                WARDEN_DIAGNOSTIC_MESSAGE(W007, "warden::within",
                                          "the bounds of within(x, lo, hi) may read only what the launch fixes "
                                          "(integral value<T> parameters, buffer sizes, block and grid extents, "
                                          "integer constants); a bound on threads or data is a guard: when(...)"));
  return dsl::within_e<I, decltype(l), decltype(h)>{{}, l, h};
}
template <int I, class T, class Mode>
constexpr auto permutation(dsl::buffer_handle<I, T, Mode> x) {
  WARDEN_DETAIL_CONTENTS_FACT_TARGET("warden::permutation");
  if constexpr (dsl::measurable_contents<T, Mode>) return distinct(x) && within(x, 0, x.size());
  else return dsl::contents_fact_e<I, dsl::ir_op::contents_sorted>{};  // reported above: no second error
}
#undef WARDEN_DETAIL_CONTENTS_FACT_TARGET

// for_range(k, lo, hi, [step,] [](auto k, auto i) { return ...; }): i = lo, lo + step, ... < hi.
template <class B, int L, dsl::operand Lo, dsl::operand Hi, dsl::operand Step, class F>
constexpr auto for_range(dsl::kernel_context<B, L>, Lo&& lo, Hi&& hi, Step&& step, F body) {
  auto l = dsl::as_expr(std::forward<Lo>(lo));
  auto h = dsl::as_expr(std::forward<Hi>(hi));
  auto s = dsl::as_expr(std::forward<Step>(step));
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::var_e<L, int, true>{}));
  return dsl::for_s<L, decltype(l), decltype(h), decltype(s), decltype(inner)>{{}, l, h, s, inner};
}
template <class B, int L, dsl::operand Lo, dsl::operand Hi, class F>
  requires(!dsl::operand<F>)
constexpr auto for_range(dsl::kernel_context<B, L> k, Lo&& lo, Hi&& hi, F body) {
  return for_range(k, std::forward<Lo>(lo), std::forward<Hi>(hi), 1, body);
}

// for_down(k, hi, lo, [](auto k, auto i) { ... }): i = hi - 1, hi - 2, ..., lo, in that order
// (C++'s `for (i = hi - 1; i >= lo; --i)`). A loop over a counter j from lo to hi, with
// i = hi - 1 - (j - lo): the checker sees i as the counter counted downwards.
template <class B, int L, dsl::operand Hi, dsl::operand Lo, class F>
constexpr auto for_down(dsl::kernel_context<B, L> k, Hi&& hi, Lo&& lo, F body) {
  auto h = dsl::as_expr(std::forward<Hi>(hi));
  auto l = dsl::as_expr(std::forward<Lo>(lo));
  return for_range(k, l, h, [&](auto inner, auto j) { return body(inner, h - 1 - (j - l)); });
}

// for_halving(k, start, [](auto k, auto s) { ... }): s = start, start / 2, ..., 1 (C++'s
// `for (s = start; s > 0; s >>= 1)`, as in tree reductions), for start >= 0. With a constant start
// the loop has exactly its bit width in trips; otherwise 32 trips of which those with s == 0 do
// nothing (a uniform guard, so barriers may sit in the body when start is uniform).
template <class B, int L, dsl::operand Start, class F>
constexpr auto for_halving(dsl::kernel_context<B, L> k, Start&& start, F body) {
  if constexpr (std::is_integral_v<std::remove_cvref_t<Start>>) {
    int trips = 0;
    for (auto v = start; v > 0; v >>= 1) ++trips;
    const auto first = start;
    return for_range(k, 0, trips, [&](auto inner, auto level) { return body(inner, first >> level); });
  } else {
    auto first = dsl::as_expr(std::forward<Start>(start));
    return for_range(k, 0, 32, [&](auto inner, auto level) { return when((first >> level) > 0, body(inner, first >> level)); });
  }
}

// for_shift_down<Bits>(k, start, [](auto k, auto s) { ... }): s = start, start >> Bits, ..., while
// s > 0 (C++'s `for (s = start; s > 0; s >>= Bits)`: a 4-ary tree with Bits = 2), for start >= 0.
// for_shift_up<Bits>(k, start, limit, [](auto k, auto s) { ... }): s = start, start << Bits, ...,
// while s < limit (`for (s = start; s < limit; s <<= Bits)`), for start >= 1; for_doubling is
// Bits = 1 (a scan's doubling offset). Loops over the exponent, as for_halving: with constant
// bounds exactly their trips; otherwise ceil(31 / Bits) trips (every value a non-negative int can
// take), those past the end doing nothing under a guard that cannot overflow (s < limit is tested
// as start <= (limit - 1) >> (Bits * level)). Factors other than powers of two: for_range over the
// exponent, the value computed in the body.
namespace dsl {
template <int Bits, class Level>
constexpr auto shift_of(Level level) {
  static_assert(Bits >= 1 && Bits < 31, "warden::for_shift_down / for_shift_up: shift by 1 to 30 bits");
  if constexpr (Bits == 1) return level;
  else return Bits * level;
}
}  // namespace dsl
template <int Bits, class B, int L, dsl::operand Start, class F>
constexpr auto for_shift_down(dsl::kernel_context<B, L> k, Start&& start, F body) {
  if constexpr (std::is_integral_v<std::remove_cvref_t<Start>>) {
    int trips = 0;
    for (auto v = start; v > 0; v >>= Bits) ++trips;
    const auto first = start;
    return for_range(k, 0, trips, [&](auto inner, auto level) { return body(inner, first >> dsl::shift_of<Bits>(level)); });
  } else {
    auto first = dsl::as_expr(std::forward<Start>(start));
    return for_range(k, 0, (31 + Bits - 1) / Bits, [&](auto inner, auto level) {
      return when((first >> dsl::shift_of<Bits>(level)) > 0, body(inner, first >> dsl::shift_of<Bits>(level)));
    });
  }
}
template <int Bits, class B, int L, dsl::operand Start, dsl::operand Limit, class F>
constexpr auto for_shift_up(dsl::kernel_context<B, L> k, Start&& start, Limit&& limit, F body) {
  if constexpr (std::is_integral_v<std::remove_cvref_t<Start>> && std::is_integral_v<std::remove_cvref_t<Limit>>) {
    int trips = 0;
    for (long long v = start; v >= 1 && v < limit; v <<= Bits) ++trips;
    const auto first = start;
    return for_range(k, 0, trips, [&](auto inner, auto level) { return body(inner, first << dsl::shift_of<Bits>(level)); });
  } else {
    auto first = dsl::as_expr(std::forward<Start>(start));
    auto last = dsl::as_expr(std::forward<Limit>(limit)) - 1;
    return for_range(k, 0, (31 + Bits - 1) / Bits, [&](auto inner, auto level) {
      return when(first <= (last >> dsl::shift_of<Bits>(level)), body(inner, first << dsl::shift_of<Bits>(level)));
    });
  }
}
template <class B, int L, dsl::operand Start, dsl::operand Limit, class F>
constexpr auto for_doubling(dsl::kernel_context<B, L> k, Start&& start, Limit&& limit, F body) {
  return for_shift_up<1>(k, std::forward<Start>(start), std::forward<Limit>(limit), body);
}

// grid_stride(k, n, [](auto k, auto i) { ... }): every i in [0, n) exactly once across the grid.
template <class B, int L, dsl::operand N, class F>
constexpr auto grid_stride(dsl::kernel_context<B, L>, N&& n, F body) {
  auto count = dsl::as_expr(std::forward<N>(n));
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::var_e<L, int, true>{}));
  return dsl::grid_stride_s<L, decltype(count), decltype(inner)>{{}, count, inner};
}

// local(k, init, [](auto k, auto v) { ... }): a thread-private variable, of init's type or T.
template <class T = void, class B, int L, dsl::operand Init, class F>
constexpr auto local(dsl::kernel_context<B, L>, Init&& init, F body) {
  auto i = dsl::as_expr(std::forward<Init>(init));
  using V = std::conditional_t<std::is_void_v<T>, dsl::value_type_of<decltype(i)>, T>;
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::local_handle<L, V>{}));
  return dsl::local_s<L, V, decltype(i), decltype(inner)>{{}, i, inner};
}

// locals(k, init1, init2, ..., [](auto k, auto v1, auto v2, ...) { ... }): several thread-private
// variables in one scope (a register pipeline), each of its init's type: local() nested, without
// the nesting in the user's code.
namespace dsl {
// The handles made so far are empty types, passed as types; the arguments are never put in a
// std::tuple, whose assignability checks would instantiate a buffer element's operator= (the
// DSL's store, which asserts its mode).
template <class... Handles, class B, int L, class First, class... Rest>
constexpr auto locals_from(kernel_context<B, L> k, First&& first, Rest&&... rest) {
  if constexpr (sizeof...(Rest) == 0) {
    return first(k, Handles{}...);  // the body, last
  } else {
    return warden::local(k, std::forward<First>(first), [&](auto inner, auto v) {
      return locals_from<Handles..., decltype(v)>(inner, std::forward<Rest>(rest)...);
    });
  }
}
}  // namespace dsl
template <class B, int L, class... Args>
  requires(sizeof...(Args) >= 2)
constexpr auto locals(dsl::kernel_context<B, L> k, Args&&... args) {
  return dsl::locals_from<>(k, std::forward<Args>(args)...);
}

// for_until(k, lo, hi, [](auto k, auto i) { return stop; }, [](auto k, auto i) { return body; }):
// C++'s `for (i = lo; i < hi; ++i) { if (stop) break; body }`, per thread. The break is a
// thread-private flag (a local): the statements after it run under "not stopped", which the
// checker reads as data, so a barrier in the body is W030 unless no thread could stop early.
template <class B, int L, dsl::operand Lo, dsl::operand Hi, class Stop, class F>
constexpr auto for_until(dsl::kernel_context<B, L> k, Lo&& lo, Hi&& hi, Stop stop, F body) {
  auto l = dsl::as_expr(std::forward<Lo>(lo));
  auto h = dsl::as_expr(std::forward<Hi>(hi));
  return local<int>(k, 0, [&](auto k_flag, auto stopped) {
    return for_range(k_flag, l, h, [&](auto k_body, auto i) {
      return when(stopped == 0, when(stop(k_body, i), stopped = 1).otherwise(body(k_body, i)));
    });
  });
}

// shared<T, N>(k, body): a 1-D tile of N elements per block. shared<T, R, C, Pad>(k, body): a 2-D
// tile indexed tile(row, col), rows C + Pad elements apart (padding staggers banks).
template <class T, int Rows, int Cols = 0, int Pad = 0, class B, int L, class F>
constexpr auto shared(dsl::kernel_context<B, L>, F body) {
  static_assert(std::is_trivially_default_constructible_v<T>, "warden::shared: the element type must be trivial");
  static_assert(Rows > 0 && Cols >= 0 && Pad >= 0, "warden::shared: extents must be positive");
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::tile_handle<L, T, Rows, Cols, Pad>{}));
  return dsl::shared_s<L, T, Rows, Cols, Pad, decltype(inner)>{{}, inner};
}

}  // namespace warden
