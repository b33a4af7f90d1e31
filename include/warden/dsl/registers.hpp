#pragma once
// Register arrays and unrolled loops (proposals/0006, feature 3): what a register-tiled matrix
// multiply needs, each thread accumulating a block of C in registers.
//
//   w::registers<float, 8, 8>(k, [](auto k, auto acc) {        // 64 floats, zero, per thread
//     return w::unroll<8>(k, [&](auto k, auto i) {             // i = 0 .. 7, unrolled
//       return w::unroll<8>(k, [&](auto, auto j) { return acc(i, j) += a(i) * b(j); });
//     });
//   });
//
// nvcc keeps an array in registers only if every index is a constant once the loops around it are
// unrolled. So an index is a w::unroll counter (a loop whose trip count is in its type, unrolled in
// full by the cuda backend) or an integer constant, and nothing else: a run-time index does not
// compile. Counters are checked against the array's extents in the type (a counter of unroll<9>
// into an extent of 8 does not compile), constants when the kernel is defined (a constant index
// outside the array makes the definition fail to be a constant expression, at a call of
// `register_index_outside_the_array`). No race rule applies: the array is the thread's own.
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../diagnostic/table.hpp"
#include "context.hpp"
#include "expr.hpp"
#include "ir.hpp"
#include "stmt.hpp"

namespace warden {

// Size elements of T, one per register.
template <class T, int Size>
struct register_array {
  T lane[Size];
  constexpr WARDEN_HOST_DEVICE T& operator[](int i) { return lane[i]; }
  constexpr WARDEN_HOST_DEVICE const T& operator[](int i) const { return lane[i]; }
};

namespace detail {
// Not constexpr on purpose: reached only when a constant register index is outside its array,
// which makes the kernel's definition fail to compile here.
inline WARDEN_HOST_DEVICE int register_index_outside_the_array(int index) { return index; }
}  // namespace detail

namespace dsl {

// The counter of w::unroll<N>: a loop variable whose values, 0 .. N - 1, are in its type.
template <int L, int N>
struct unroll_var : var_e<L, int, true> {
  static constexpr int extent = N;
};

// for (i = 0; i < N; ++i) body, unrolled in full where it runs per thread (the cuda backend):
// every copy of the body sees i as a constant. The checker sees a loop of N trips.
template <int L, int N, class Body>
struct unroll_s : stmt_node {
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    [&]<int... J>(std::integer_sequence<int, J...>) {
      (run_one<J>(c), ...);
    }(std::make_integer_sequence<int, N>{});
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <int J, class C>
  constexpr WARDEN_HOST_DEVICE void run_one(C& c) const {
    auto inner = c.template bind<L, int>(J);
    body.run(inner);
  }
  constexpr void describe(kernel_ir& b) const {
    ir_loop loop;
    loop.level = L;
    loop.lo = b.constant(0, false);
    loop.hi = b.constant(N, false);
    loop.step = b.constant(1, false);
    describe_loop(b, loop, body, scope_kind::unroll);
  }
};

// An all-zero register array: a register tile's accumulators start at zero.
template <class A>
struct zero_array_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE A eval(const C&) const {
    return A{};
  }
  constexpr int describe(kernel_ir& b) const { return b.constant(0, false); }
};

// Whether Idx may index an extent of `extent` registers: an unroll counter of at most that many
// trips, or an integer constant (checked by register_index when the kernel is defined).
template <class Idx>
inline constexpr bool is_unroll_counter = false;
template <int L, int N>
inline constexpr bool is_unroll_counter<unroll_var<L, N>> = true;

template <class Idx, int Extent>
constexpr bool register_index_fits() {
  if constexpr (is_unroll_counter<Idx>) return Idx::extent <= Extent;
  else return true;
}

template <int Extent, class Idx>
constexpr WARDEN_HOST_DEVICE auto register_index(const Idx& i) {
  // Fix: index a register array with the counter of a w::unroll loop or an integer constant; for a
  // run-time index, use a shared tile (whose indices the checker follows) instead.
  static_assert(is_unroll_counter<Idx> || std::is_same_v<Idx, lit<int>>,
                WARDEN_DIAGNOSTIC_MESSAGE(W009, "warden::registers",
                                          "an index must be a w::unroll counter or an integer constant, so that nvcc "
                                          "can keep the array in registers"));
  // Fix: unroll no more trips than the array's extent.
  static_assert(register_index_fits<Idx, Extent>(),
                WARDEN_DIAGNOSTIC_MESSAGE(W009, "warden::registers", "a w::unroll counter runs past the array's extent"));
  if constexpr (std::is_same_v<Idx, lit<int>>) {
    const int at = i.value;
    if (at < 0 || at >= Extent) (void)detail::register_index_outside_the_array(at);
  }
  return i;
}

// The value of element (row, col) of a register array (1-D arrays: col is no_column).
template <int L, class T, int Size, int Stride, class Row, class Col>
struct register_read_e : expr_node {
  Row row;
  Col col;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return c.template var<L, register_array<T, Size>>()[flat_index<Stride>(row, col, c)];
  }
  // A thread's own value, as a local's: data to the checker.
  constexpr int describe(kernel_ir& b) const { return b.leaf(ir_op::local_var, b.local_at(L), std::is_unsigned_v<T>); }
};

// Element (row, col) of a register array, as an operand (its value) or the target of `=`, `+=`.
template <int L, class T, int Size, int Stride, class Row, class Col>
struct register_element : expr_node {
  Row row;
  Col col;

  constexpr WARDEN_HOST_DEVICE register_read_e<L, T, Size, Stride, Row, Col> as_load() const { return {{}, row, col}; }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return as_load().eval(c);
  }
  constexpr int describe(kernel_ir& b) const { return as_load().describe(b); }

  template <class Op, operand V>
  constexpr WARDEN_HOST_DEVICE auto assign(V&& v) const;
  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    return assign<void>(std::forward<V>(v));
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const register_element& other) const { return assign<void>(other.as_load()); }
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator+=(V&& v) const { return assign<op::add>(std::forward<V>(v)); }
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator-=(V&& v) const { return assign<op::sub>(std::forward<V>(v)); }
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator*=(V&& v) const { return assign<op::mul>(std::forward<V>(v)); }
};

template <int L, class T, int Size, int Stride, class Row, class Col, class Op, class V>
struct register_assign_s : stmt_node {
  Row row;
  Col col;
  V value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    T& slot = c.template var<L, register_array<T, Size>>()[flat_index<Stride>(row, col, c)];
    if constexpr (std::is_void_v<Op>) slot = static_cast<T>(value.eval(c));
    else slot = static_cast<T>(Op::apply(slot, value.eval(c)));
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    if (const int local = b.local_at(L); local >= 0) b.locals[static_cast<std::size_t>(local)].assigned = true;
  }
};

template <int L, class T, int Size, int Stride, class Row, class Col>
template <class Op, operand V>
constexpr WARDEN_HOST_DEVICE auto register_element<L, T, Size, Stride, Row, Col>::assign(V&& v) const {
  auto value = as_expr(std::forward<V>(v));
  static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::registers"));
  return register_assign_s<L, T, Size, Stride, Row, Col, Op, decltype(value)>{{}, row, col, value};
}

// A register array bound at level L: r[i] (1-D) or r(i, j) (2-D, Rows x Cols).
template <int L, class T, int Rows, int Cols>
struct register_handle {
  static constexpr int size = Rows * (Cols == 0 ? 1 : Cols);
  template <operand Idx>
    requires(Cols == 0)
  constexpr WARDEN_HOST_DEVICE auto operator[](Idx&& i) const {
    auto index = register_index<Rows>(as_expr(std::forward<Idx>(i)));
    return register_element<L, T, size, 1, decltype(index), no_column>{{}, index, {}};
  }
  template <operand R, operand C>
    requires(Cols != 0)
  constexpr WARDEN_HOST_DEVICE auto operator()(R&& r, C&& c) const {
    auto row = register_index<Rows>(as_expr(std::forward<R>(r)));
    auto col = register_index<Cols>(as_expr(std::forward<C>(c)));
    return register_element<L, T, size, Cols, decltype(row), decltype(col)>{{}, row, col};
  }
};

}  // namespace dsl

// unroll<N>(k, [](auto k, auto i) { ... }): i = 0 .. N - 1, the loop unrolled in full; i may index
// register arrays.
template <int N, class B, int L, class F>
constexpr auto unroll(dsl::kernel_context<B, L>, F body) {
  static_assert(N > 0 && N <= 64, "warden::unroll: 1 to 64 trips (each is a copy of the body)");
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::unroll_var<L, N>{}));
  return dsl::unroll_s<L, N, decltype(inner)>{{}, inner};
}

// registers<T, N>(k, body), registers<T, R, C>(k, body): a thread's array of N (R x C) values of T
// in registers, zero to begin with.
template <class T, int Rows, int Cols = 0, class B, int L, class F>
constexpr auto registers(dsl::kernel_context<B, L>, F body) {
  static_assert(std::is_arithmetic_v<T>, "warden::registers: the element must be of arithmetic type");
  static_assert(Rows > 0 && Cols >= 0 && Rows * (Cols == 0 ? 1 : Cols) <= 256,
                "warden::registers: 1 to 256 elements (a thread has at most 255 registers)");
  using handle = dsl::register_handle<L, T, Rows, Cols>;
  using array = register_array<T, handle::size>;
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, handle{}));
  return dsl::local_s<L, array, dsl::zero_array_e<array>, decltype(inner)>{{}, {}, inner};
}

}  // namespace warden
