#pragma once
// Vector accesses (proposals/0006, feature 1): `w::vectors<4>(x)[i]` is the four elements 4i .. 4i + 3
// of a buffer, loaded or stored with one instruction (ld.global.v4 for floats), as CUB's
// vectorised loads and `float4` casts are. The value is a w::vec<T, N>; w::get<C>(v) is one of
// its components, w::make_vec(a, b, ...) builds one to store.
//
// The checker sees N accesses (index N i + c for each component c), so every race and bounds rule
// holds for each element unchanged. Alignment: every buffer starts on a pool block (256-byte
// aligned) and binds whole (no offset views), so element N i starts on a multiple of
// N * sizeof(T); launch checks the address anyway, before anything runs (E101), in case a
// user-supplied pool hands out less.
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../diagnostic/table.hpp"
#include "expr.hpp"
#include "handles.hpp"
#include "ir.hpp"
#include "stmt.hpp"

namespace warden {

// N elements of T, aligned as one vector load of the hardware wants them (float4: 16 bytes).
template <class T, int N>
struct alignas(sizeof(T) * N) vec {
  static_assert(std::is_arithmetic_v<T>, "warden::vec: the element must be of arithmetic type");
  static_assert(N == 2 || N == 4, "warden::vec: 2 or 4 elements (what one vector instruction moves)");
  static_assert(sizeof(T) * N <= 16, "warden::vec: at most 16 bytes (the widest vector load: float4, int4, double2)");
  T lane[N];
  constexpr WARDEN_HOST_DEVICE T& operator[](int c) { return lane[c]; }
  constexpr WARDEN_HOST_DEVICE const T& operator[](int c) const { return lane[c]; }
  friend constexpr WARDEN_HOST_DEVICE bool operator==(const vec& a, const vec& b) {
    for (int c = 0; c < N; ++c)
      if (a.lane[c] != b.lane[c]) return false;
    return true;
  }
};

namespace dsl {

template <class V>
inline constexpr bool is_vec = false;
template <class T, int N>
inline constexpr bool is_vec<vec<T, N>> = true;

// Describes the N element accesses of vector access `index` (in units of vectors): element
// N * index + c for each component c. Returns the first access's position.
template <int N, class T>
constexpr int describe_vector_access(kernel_ir& b, access_kind kind, int target, int index) {
  const int width = b.constant(N, false);
  const int base = b.node(ir_op::mul, index, width, false, 0, 32);
  int first = -1;
  for (int c = 0; c < N; ++c) {
    const int element = c == 0 ? base : b.node(ir_op::add, base, b.constant(c, false), false, 0, 32);
    const int at = b.access(kind, memory_kind::global, target, element, -1, static_cast<int>(sizeof(T)));
    b.accesses.back().vector_bytes = static_cast<unsigned char>(sizeof(T) * N);
    if (first < 0) first = at;
  }
  return first;
}

template <int I, class T, int N, class Idx>
struct vector_load_e : expr_node {
  Idx index;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE vec<T, N> eval(const C& c) const {
    return eval_at(c, this);
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE vec<T, N> eval_at(const C& c, const void* site) const {
    const int i = index.eval(c);
    at_site(c, site);
    return c.template load_vector<I, T, N>(i);
  }
  // The value is data, as a load's: the first component's load stands for it.
  constexpr int describe(kernel_ir& b) const { return describe_at(b, this); }
  constexpr int describe_at(kernel_ir& b, const void* site) const {
    const int at = index.describe(b);
    const int first = describe_vector_access<N, T>(b, access_kind::load, I, at);
    b.made_by(first, N, site);
    return b.leaf(ir_op::load, first, std::is_unsigned_v<T>, false, narrow_bits_of<T>);
  }
};

template <int I, class T, int N, class Idx, class V>
struct vector_store_s : stmt_node {
  Idx index;
  V value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int i = index.eval(c);
    const auto v = value.eval(c);
    at_site(c, this);
    c.template store_vector<I, T, N>(i, v);
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    b.made_by(describe_vector_access<N, T>(b, access_kind::store, I, index.describe(b)), N, this);
  }
};

// Component C of a vector value.
template <int C, class E>
struct component_e : expr_node {
  E vector;
  WARDEN_EXEC_CHECK_DISABLE
  template <class Ctx>
  constexpr WARDEN_HOST_DEVICE auto eval(const Ctx& c) const {
    return vector.eval(c)[C];
  }
  constexpr int describe(kernel_ir& b) const { return vector.describe(b); }
};

// A vector of N values, each converted to T.
template <class T, class... E>
struct make_vec_e : expr_node {
  detail::pack<E...> parts;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE vec<T, sizeof...(E)> eval(const C& c) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return vec<T, sizeof...(E)>{{static_cast<T>(detail::get<K>(parts).eval(c))...}};
    }(std::index_sequence_for<E...>{});
  }
  // Computed from its parts, as a call's result is: data.
  constexpr int describe(kernel_ir& b) const {
    int first = -1;
    detail::for_each(parts, [&](const auto& part) {
      const int id = part.describe(b);
      if (first < 0) first = id;
    });
    return b.node(ir_op::call, first);
  }
};

// vectors<N>(x)[i]: vector i of buffer parameter I, with the parameter's access mode.
template <int I, class T, class Mode, int N, class Idx>
struct vector_element : expr_node {
  Idx index;
  // A vector access its parameter's mode forbids (a store through in<T>: W003, a load from
  // out<T>: W004, a plain access of atomic<T>: W040) is described as the access and runs as
  // nothing, as a scalar one is (refused_load_e, refused_s: dsl/handles.hpp), so that the checker
  // reports it with the parameter's name and statement (check/modes.hpp).
  static constexpr bool may_load = !Mode::can_update_atomically && Mode::can_load;
  static constexpr bool may_store = !Mode::can_update_atomically && Mode::can_store;
  constexpr WARDEN_HOST_DEVICE auto as_load() const {
    using load = vector_load_e<I, T, N, Idx>;
    if constexpr (may_load) return load{{}, index};
    else return refused_load_e<load, vec<T, N>>{{}, load{{}, index}};
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE vec<T, N> eval(const C& c) const {
    if constexpr (may_load) return as_load().eval_at(c, this);  // the access is this element's
    else return as_load().eval(c);
  }
  constexpr int describe(kernel_ir& b) const {
    if constexpr (may_load) return as_load().describe_at(b, this);
    else return as_load().describe(b);
  }

  template <operand V>
  constexpr WARDEN_HOST_DEVICE auto operator=(V&& v) const {
    auto value = as_expr(std::forward<V>(v));
    // Fix: store a w::vec<T, N> of the buffer's element type: w::make_vec(a, b, ...) or a vector load.
    static_assert(std::is_same_v<value_type_of<decltype(value)>, vec<T, N>>,
                  "warden::vec: a vector store takes a w::vec<T, N> of the buffer's element type and width "
                  "(w::make_vec<T>(a, b, ...) builds one)");
    using store = vector_store_s<I, T, N, Idx, decltype(value)>;
    if constexpr (may_store) return store{{}, index, value};
    else return refused_s<store>{{}, store{{}, index, value}};
  }
  // `vectors<4>(y)[i] = vectors<4>(y)[j]`: a load and a store, not C++'s copy of the handle.
  constexpr WARDEN_HOST_DEVICE auto operator=(const vector_element& other) const { return *this = other.as_load(); }
};

template <int I, class T, class Mode, int N>
struct vector_view {
  template <operand Idx>
  constexpr WARDEN_HOST_DEVICE auto operator[](Idx&& i) const {
    auto index = as_expr(std::forward<Idx>(i));
    static_assert(std::is_integral_v<value_type_of<decltype(index)>>, "warden::vec: the vector index must be an integer");
    return vector_element<I, T, Mode, N, decltype(index)>{{}, index};
  }
};

}  // namespace dsl

// The buffer parameter x seen as vectors of N elements: w::vectors<4>(x)[i] is x[4i .. 4i + 3], one
// access of 16 bytes for floats. (A free function, not a member: a member template of a generic
// lambda's parameter would need `x.template vec<4>()`.)
template <int N, class Handle>
constexpr WARDEN_HOST_DEVICE auto vectors(const Handle&) {
  static_assert(requires { Handle::position; typename Handle::mode; },
                "warden::vectors<N>(x): x must be a buffer parameter of the kernel");
  using T = typename Handle::value_type;
  static_assert(std::is_arithmetic_v<T> && sizeof(T) * N <= 16 && (N == 2 || N == 4),
                "warden::vectors<N>(x): N is 2 or 4, and N elements are at most 16 bytes");
  return dsl::vector_view<Handle::position, T, typename Handle::mode, N>{};
}

// Component C of a vector value (a vector load, a local holding one): w::get<0>(v).
template <int C, dsl::operand E>
constexpr WARDEN_HOST_DEVICE auto get(E&& v) {
  auto e = dsl::as_expr(std::forward<E>(v));
  using V = dsl::value_type_of<decltype(e)>;
  static_assert(dsl::is_vec<V>, "warden::get<C>: the operand must be a w::vec<T, N> (a vector load w::vectors<N>(x)[i])");
  if constexpr (dsl::is_vec<V>) {
    static_assert(C >= 0 && C < static_cast<int>(sizeof(V) / sizeof(V{}.lane[0])), "warden::get<C>: C must be a component of the vector, 0 .. N - 1");
    return dsl::component_e<C, decltype(e)>{{}, e};
  }
}

// A vector of the values given, of element type T (default: the first value's type).
template <class T = void, dsl::operand... E>
constexpr WARDEN_HOST_DEVICE auto make_vec(E&&... parts) {
  using U = std::conditional_t<std::is_void_v<T>, dsl::value_type_of<decltype(dsl::as_expr(std::declval<std::tuple_element_t<0, std::tuple<E...>>>()))>, T>;
  static_assert((!(std::is_integral_v<U> && std::is_floating_point_v<dsl::value_type_of<decltype(dsl::as_expr(std::declval<E>()))>>) && ...),
                "warden::make_vec: a floating-point value in an integral vector would be truncated; write w::convert<T>(value)");
  return dsl::make_vec_e<U, decltype(dsl::as_expr(std::forward<E>(parts)))...>{{}, detail::make_pack(dsl::as_expr(std::forward<E>(parts))...)};
}

}  // namespace warden
