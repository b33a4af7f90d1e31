#pragma once
// Symbolic handles: what a kernel body holds instead of memory. Indexing a buffer handle gives an
// element; reading the element is a load node, assigning to it a store node. The access mode of
// the parameter decides which of the two run; the others are refused by the checker, which names
// the parameter (W003 / W004 / W040, check/modes.hpp).

#include <type_traits>

#include "../access.hpp"
#include "expr.hpp"
#include "stmt.hpp"
#include "../diagnostic/table.hpp"

// `x op= v` for every compound operator, as the class's compound<Op>(v): a buffer's element and a
// tile's element spell them alike (the operators are members: a handle is a C++ aggregate).
#define WARDEN_DSL_COMPOUND_ASSIGNMENTS()                                                                                    \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator+=(V&& v) const { return compound<op::add>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator-=(V&& v) const { return compound<op::sub>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator*=(V&& v) const { return compound<op::mul>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator/=(V&& v) const { return compound<op::div>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator%=(V&& v) const { return compound<op::mod>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator&=(V&& v) const { return compound<op::bit_and>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator|=(V&& v) const { return compound<op::bit_or>(std::forward<V>(v)); } \
  template <operand V> constexpr WARDEN_HOST_DEVICE auto operator^=(V&& v) const { return compound<op::bit_xor>(std::forward<V>(v)); }

namespace warden::dsl {

// An access its parameter's mode forbids (a store through in<T>: W003, a load through out<T>: W004,
// a plain access of atomic<T>: W040). It is described as the access it would be, so that the
// checker reports it where it reports races, with the parameter's name, the statement and a fix
// that fits the kernel (check/modes.hpp), and it runs as nothing, so that the backends add no
// error of their own (a write through an in<T> slot's const pointer) to the one diagnostic.
template <class Load, class T>
struct refused_load_e : expr_node {
  Load load;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C&) const {
    return T{};
  }
  constexpr int describe(kernel_ir& b) const { return load.describe(b); }
};
template <class Store>
struct refused_s : stmt_node {
  Store store;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C&) const {}
  constexpr void describe(kernel_ir& b) const { store.describe(b); }
};
// A store that would truncate a floating-point value into an integral element (W008), refused the
// same way: described as the store, marked, so that the checker names the parameter.
template <class Store>
struct narrowing_store_s {
  Store store;
  constexpr void describe(kernel_ir& b) const {
    store.describe(b);
    b.accesses.back().narrowing = true;  // the store's access comes last (its value's loads first)
  }
};

// Element I[index] of buffer parameter I with mode Mode.
template <int I, class T, class Mode, class Idx>
struct element : expr_node {
  Idx index;

  static constexpr bool atomic_only = Mode::can_update_atomically;
  static constexpr bool may_load = !atomic_only && Mode::can_load;
  static constexpr bool may_store = !atomic_only && Mode::can_store;

  // As an expression: a load.
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    if constexpr (may_load) return as_load().eval_at(c, this);  // the access is this element's
    else return as_load().eval(c);
  }
  constexpr int describe(kernel_ir& b) const {
    if constexpr (may_load) return as_load().describe_at(b, this);
    else return as_load().describe(b);
  }
  constexpr WARDEN_HOST_DEVICE auto as_load() const {
    if constexpr (may_load) return load_e<I, T, Idx>{{}, index};
    else return refused_load_e<load_e<I, T, Idx>, T>{{}, {{}, index}};
  }

  // As the target of an assignment: a store.
  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    auto value = as_expr(std::forward<V>(v));
    using store = store_s<I, T, Idx, decltype(value)>;
    if constexpr (narrowing_store<T, decltype(value)>) return refused_s<narrowing_store_s<store>>{{}, {store{{}, index, value}}};
    else if constexpr (may_store) return store{{}, index, value};
    else return refused_s<store>{{}, store{{}, index, value}};
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const element& other) const { return *this = other.as_load(); }

  // `y[i] op= v`: a load, then a store; each is refused on its own where the mode forbids it.
  template <class Op, class V>
  constexpr WARDEN_HOST_DEVICE auto compound(V&& v) const {
    return *this = make_binary<Op>(as_load(), std::forward<V>(v));
  }
  WARDEN_DSL_COMPOUND_ASSIGNMENTS()
};

// A buffer parameter at position I.
template <int I, class T, class Mode>
struct buffer_handle {
  using value_type = T;
  using mode = Mode;
  static constexpr int position = I;
  template <operand Idx>
  constexpr WARDEN_HOST_DEVICE auto operator[](Idx&& i) const {
    auto index = as_expr(std::forward<Idx>(i));
    return element<I, T, Mode, decltype(index)>{{}, index};
  }
  constexpr WARDEN_HOST_DEVICE size_e<I> size() const { return {}; }
};

// An element of a shared tile.
template <int L, class T, int Stride, class Row, class Col>
struct tile_element : expr_node {
  Row row;
  Col col;
  constexpr WARDEN_HOST_DEVICE auto as_load() const { return tile_load_e<L, T, Stride, Row, Col>{{}, row, col}; }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return as_load().eval_at(c, this);  // the access is this element's
  }
  constexpr int describe(kernel_ir& b) const { return as_load().describe_at(b, this); }
  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    auto value = as_expr(std::forward<V>(v));
    static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::shared"));
    return tile_store_s<L, T, Stride, Row, Col, decltype(value)>{{}, row, col, value};
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const tile_element& other) const { return *this = other.as_load(); }
  // `tile[i] op= v`: a load of the element, then a store, checked like the two written out (a race
  // on the element is W020/W021 as for `tile[i] = tile[i] op v`), as a buffer element's.
  template <class Op, class V>
  constexpr WARDEN_HOST_DEVICE auto compound(V&& v) const {
    return *this = make_binary<Op>(*this, std::forward<V>(v));
  }
  WARDEN_DSL_COMPOUND_ASSIGNMENTS()
};

#undef WARDEN_DSL_COMPOUND_ASSIGNMENTS

// A shared tile bound at level L: tile[i] (1-D) or tile(row, col) (2-D).
template <int L, class T, int Rows, int Cols, int Pad>
struct tile_handle {
  static constexpr int rows = Rows, cols = Cols, pad = Pad, stride = Cols + Pad;
  template <operand Idx>
    requires(Cols == 0)
  constexpr WARDEN_HOST_DEVICE auto operator[](Idx&& i) const {
    auto index = as_expr(std::forward<Idx>(i));
    return tile_element<L, T, stride, decltype(index), no_column>{{}, index, {}};
  }
  template <operand R, operand C>
    requires(Cols != 0)
  constexpr WARDEN_HOST_DEVICE auto operator()(R&& r, C&& c) const {
    auto row = as_expr(std::forward<R>(r));
    auto col = as_expr(std::forward<C>(c));
    return tile_element<L, T, stride, decltype(row), decltype(col)>{{}, row, col};
  }
};

// A thread-private variable bound at level L. Reads are expressions; `v = e` and `v op= e` are statements.
template <int L, class T>
struct local_handle : var_e<L, T, false> {
  constexpr WARDEN_HOST_DEVICE var_e<L, T, false> as_load() const { return {}; }
  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    auto value = as_expr(std::forward<V>(v));
    static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_LOCAL_MESSAGE);
    return assign_s<L, T, void, decltype(value)>{{}, value};
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const local_handle& other) const {
    return *this = other.as_load();
  }
#define WARDEN_DSL_LOCAL_COMPOUND(symbol, name)                                  \
  template <operand V>                                                           \
  constexpr WARDEN_HOST_DEVICE auto operator symbol(V&& v) const {               \
    auto value = as_expr(std::forward<V>(v));                                    \
    static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_LOCAL_MESSAGE); \
    return assign_s<L, T, op::name, decltype(value)>{{}, value};                 \
  }
  WARDEN_DSL_LOCAL_COMPOUND(+=, add)
  WARDEN_DSL_LOCAL_COMPOUND(-=, sub)
  WARDEN_DSL_LOCAL_COMPOUND(*=, mul)
  WARDEN_DSL_LOCAL_COMPOUND(/=, div)
  WARDEN_DSL_LOCAL_COMPOUND(%=, mod)
  WARDEN_DSL_LOCAL_COMPOUND(&=, bit_and)
  WARDEN_DSL_LOCAL_COMPOUND(|=, bit_or)
  WARDEN_DSL_LOCAL_COMPOUND(^=, bit_xor)
  WARDEN_DSL_LOCAL_COMPOUND(<<=, shl)
  WARDEN_DSL_LOCAL_COMPOUND(>>=, shr)
#undef WARDEN_DSL_LOCAL_COMPOUND
};

}  // namespace warden::dsl
