#pragma once
// Symbolic handles: what a kernel body holds instead of memory. Indexing a buffer handle gives an
// element; reading the element is a load node, assigning to it a store node. The access mode of
// the parameter decides which of the two exist: W003 / W004 / W040 otherwise.

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

// Messages of the mode checks: the code's head from the table (diagnostic/table.hpp), then this
// entity's words. Macros because static_assert wants a literal.
#define WARDEN_W003_KERNEL_MESSAGE \
  WARDEN_DIAGNOSTIC_MESSAGE(W003, "warden::kernel", "a store through an in<T> parameter; declare it out<T> or inout<T>")
#define WARDEN_W004_KERNEL_MESSAGE \
  WARDEN_DIAGNOSTIC_MESSAGE(W004, "warden::kernel", "a load from an out<T> parameter; declare it inout<T> to read it")
#define WARDEN_W040_KERNEL_MESSAGE                                                                   \
  WARDEN_DIAGNOSTIC_MESSAGE(W040, "warden::kernel",                                                  \
                            "a plain load or store of an atomic<T> parameter; use atomic_add / atomic_min / " \
                            "atomic_max / atomic_exchange / atomic_compare_exchange, or declare it inout<T>")

// Element I[index] of buffer parameter I with mode Mode.
template <int I, class T, class Mode, class Idx>
struct element : expr_node {
  Idx index;

  static constexpr bool atomic_only = Mode::can_update_atomically;

  // As an expression: a load.
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return as_load().eval(c);
  }
  constexpr int describe(kernel_ir& b) const { return as_load().describe(b); }
  constexpr WARDEN_HOST_DEVICE load_e<I, T, Idx> as_load() const {
    static_assert(!atomic_only, WARDEN_W040_KERNEL_MESSAGE);
    static_assert(atomic_only || Mode::can_load, WARDEN_W004_KERNEL_MESSAGE);
    return load_e<I, T, Idx>{{}, index};
  }

  // As the target of an assignment: a store.
  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    static_assert(!atomic_only, WARDEN_W040_KERNEL_MESSAGE);
    static_assert(atomic_only || Mode::can_store, WARDEN_W003_KERNEL_MESSAGE);
    // After a W003, no store: the backends would only add an error of their own (a write through
    // the in<T> slot's const pointer), burying the diagnostic.
    if constexpr (!atomic_only && !Mode::can_store) {
      return nothing_s{};
    } else {
      auto value = as_expr(std::forward<V>(v));
      static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::kernel"));
      return store_s<I, T, Idx, decltype(value)>{{}, index, value};
    }
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const element& other) const { return *this = other.as_load(); }

  // `y[i] op= v`: a load, then a store. The mode is checked here, at the user's statement, rather
  // than in the load it would build: that kept three more frames (and clang++'s note on a macro)
  // between the error and the statement (43 lines on clang++ 14 for one W004).
  template <class Op, class V>
  constexpr WARDEN_HOST_DEVICE auto compound(V&& v) const {
    static_assert(!atomic_only, WARDEN_W040_KERNEL_MESSAGE);
    static_assert(atomic_only || Mode::can_load, WARDEN_W004_KERNEL_MESSAGE);
    if constexpr (!atomic_only && Mode::can_load) return *this = make_binary<Op>(*this, std::forward<V>(v));
    else return nothing_s{};
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
    return as_load().eval(c);
  }
  constexpr int describe(kernel_ir& b) const { return as_load().describe(b); }
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
    static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::local"));
    return assign_s<L, T, void, decltype(value)>{{}, value};
  }
  constexpr WARDEN_HOST_DEVICE auto operator=(const local_handle& other) const {
    return *this = other.as_load();
  }
#define WARDEN_DSL_LOCAL_COMPOUND(symbol, name)                                  \
  template <operand V>                                                           \
  constexpr WARDEN_HOST_DEVICE auto operator symbol(V&& v) const {               \
    auto value = as_expr(std::forward<V>(v));                                    \
    static_assert(!narrowing_store<T, decltype(value)>, WARDEN_W008_KERNEL_MESSAGE("warden::local")); \
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
