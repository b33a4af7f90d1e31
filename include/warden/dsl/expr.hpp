#pragma once
// Expressions of the kernel language. An expression is a small literal value whose type spells
// its shape: `a * x[i] + y[i]` is binary_e<op::add, binary_e<op::mul, value_e<2>, load_e<0, ...>>, load_e<1, ...>>.
// Every node can
//   * evaluate itself for one thread:     e.eval(ctx)      (cuda and cpu backends; see backend/)
//   * describe itself as value-level IR:  e.describe(out)  (the checker and launch-time bounds; see dsl/ir.hpp)
// Handles (buffers, tiles, locals, loop variables) are identified by numbers in their types: a
// kernel parameter by its position, a scope (loop, local, tile) by its nesting level.

#include <concepts>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/pack.hpp"
#include "../diagnostic/table.hpp"
#include "ir.hpp"
#include "local_values.hpp"

namespace warden {
template <class T, int N>
struct vec;  // dsl/vector.hpp: the value of a vector load (type_probe below names it)
}  // namespace warden

namespace warden::dsl {

// Every expression node derives from expr_node; operators are enabled for those types only.
struct expr_node {};

template <class E>
concept expression = std::is_base_of_v<expr_node, std::remove_cvref_t<E>>;

template <class T>
concept operand = expression<T> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

// ---- leaves ----------------------------------------------------------------------------------

template <class T>
struct lit : expr_node {
  T value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C&) const {
    return value;
  }
  // A floating-point constant is described by its integer part, for diagnostics only (the checker
  // treats it as unknown); 0 when that does not fit (INFINITY, NaN, 1e30f), whose conversion
  // would not be a constant expression.
  constexpr int describe(kernel_ir& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      const bool fits = value > -9.0e18 && value < 9.0e18;
      return b.constant(fits ? static_cast<long long>(value) : 0, true);
    } else {
      return b.constant(static_cast<long long>(value), false);
    }
  }
};

// An operand as an expression node. Assignable handles (buffer and tile elements, locals) become
// their load node here, so the program never stores the handle itself (whose operator= builds
// statements instead of copying).
template <operand T>
constexpr WARDEN_HOST_DEVICE auto as_expr(T&& x) {
  if constexpr (requires { x.as_load(); }) return x.as_load();
  else if constexpr (expression<T>) return std::remove_cvref_t<T>(x);
  else return lit<std::remove_cvref_t<T>>{{}, x};
}

// Thread, block and global indices, block and grid sizes, along dimension D (0 = x, 1 = y, 2 = z).
template <ir_op Op, int D>
struct index_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE int eval(const C& c) const {
    if constexpr (Op == ir_op::thread_id) return c.thread_idx(D);
    else if constexpr (Op == ir_op::block_id) return c.block_idx(D);
    else if constexpr (Op == ir_op::block_dim) return c.block_dim(D);
    else if constexpr (Op == ir_op::grid_dim) return c.grid_dim(D);
    else return c.block_idx(D) * c.block_dim(D) + c.thread_idx(D);  // global_id
  }
  constexpr int describe(kernel_ir& b) const { return b.leaf(Op, D); }
};

// A value<T> kernel parameter.
template <int I, class T>
struct value_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return c.template value<I, T>();
  }
  // A floating-point value is no integer symbol: the checker treats it as unknown (t < 2.5 holds
  // for t = 2, and b * 2.5 + t meets b * 2.5 + t' after conversion to an index).
  constexpr int describe(kernel_ir& b) const {
    return b.leaf(ir_op::param_value, I, std::is_unsigned_v<T>, std::is_floating_point_v<T>);
  }
};

// The element count of buffer parameter I (an int: warden indexes with int, like the CUDA it replaces).
template <int I>
struct size_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE int eval(const C& c) const {
    return c.template size<I>();
  }
  constexpr int describe(kernel_ir& b) const { return b.leaf(ir_op::param_size, I); }
};

// An order fact over rows, or up to a bound (contents_order_e): the part not given.
struct no_bound_e {};

// sorted(x) or non_decreasing(x) of buffer parameter I (op Fact, value I) that holds only within
// rows of n elements (.rows(n): element e is in row e / n; a B+tree's nodes, each row sorted and
// the rows unrelated), and for sorted(x), strictly only where the earlier element is below hi
// (.below(hi): padding at or above hi, INT_MAX repeated to the row's end, may repeat). n and hi
// are the node's children a and b (-1: not given), launch-uniform as within's bounds are, so that
// the launch measures the fact for the n and hi of that launch (E107 where it is false).
template <int I, ir_op Fact, class Rows, class Below>
struct contents_order_e : expr_node {
  Rows row_length;
  Below bound;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE bool eval(const C&) const {
    return true;
  }
  constexpr int describe(kernel_ir& b) const {
    int n = -1, hi = -1;
    if constexpr (!std::is_same_v<Rows, no_bound_e>) n = row_length.describe(b);
    if constexpr (!std::is_same_v<Below, no_bound_e>) hi = bound.describe(b);
    const int id = b.node(Fact, n, hi);
    b.exprs[static_cast<std::size_t>(id)].value = I;
    return id;
  }
  template <class N>
    requires(std::is_same_v<Rows, no_bound_e>)
  constexpr auto rows(N&& n) const;
  template <class H>
    requires(Fact == ir_op::contents_sorted && std::is_same_v<Below, no_bound_e>)
  constexpr auto below(H&& hi) const;
};

// A stated fact about the contents of buffer parameter I, one leaf of the IR (op Fact, value I):
// distinct(x) (no two elements equal: a permutation, keys without repeats), sorted(x) (each
// element above the one before it), non_decreasing(x) (none below the one before it). Launch
// measures it before running and refuses a launch where it is false (E107), so every thread of a
// launch that runs may take it as true. The order facts take .rows(n) and (sorted) .below(hi).
template <int I, ir_op Fact>
struct contents_fact_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE bool eval(const C&) const {
    return true;
  }
  constexpr int describe(kernel_ir& b) const { return b.leaf(Fact, I); }
  template <class N>
    requires(Fact == ir_op::contents_sorted || Fact == ir_op::contents_non_decreasing)
  constexpr auto rows(N&& n) const {
    return contents_order_e<I, Fact, no_bound_e, no_bound_e>{}.rows(std::forward<N>(n));
  }
  template <class H>
    requires(Fact == ir_op::contents_sorted)
  constexpr auto below(H&& hi) const {
    return contents_order_e<I, Fact, no_bound_e, no_bound_e>{}.below(std::forward<H>(hi));
  }
};
template <int I>
using distinct_e = contents_fact_e<I, ir_op::contents_distinct>;

// within(x, lo, hi): the stated fact that every element of buffer parameter I lies in [lo, hi),
// lo and hi launch-uniform (dsl::launch_uniform). Launch compares them with the least and greatest
// element it measured (E107).
template <int I, class Lo, class Hi>
struct within_e : expr_node {
  Lo lo;
  Hi hi;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE bool eval(const C&) const {
    return true;
  }
  constexpr int describe(kernel_ir& b) const {
    const int low = lo.describe(b);
    const int high = hi.describe(b);
    const int id = b.node(ir_op::contents_within, low, high);
    b.exprs[static_cast<std::size_t>(id)].value = I;
    return id;
  }
};

// A thread-private variable or a loop variable bound at scope level L.
template <int L, class T, bool Loop>
struct var_e : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return c.template var<L, T>();
  }
  constexpr int describe(kernel_ir& b) const {
    if constexpr (Loop) return b.leaf(ir_op::loop_var, b.loop_at(L), std::is_unsigned_v<T>);
    else return read_local(b, L, std::is_unsigned_v<T>);
  }
};

// ---- operators -------------------------------------------------------------------------------

namespace op {
#define WARDEN_DSL_BINARY_OP(name, symbol, ir)                                           \
  struct name {                                                                           \
    static constexpr ir_op kind = ir_op::ir;                                              \
    template <class A, class B>                                                           \
    static constexpr WARDEN_HOST_DEVICE auto apply(const A& a, const B& b) { return a symbol b; } \
  };
WARDEN_DSL_BINARY_OP(add, +, add)
WARDEN_DSL_BINARY_OP(sub, -, sub)
WARDEN_DSL_BINARY_OP(mul, *, mul)
WARDEN_DSL_BINARY_OP(div, /, div)
WARDEN_DSL_BINARY_OP(mod, %, mod)
WARDEN_DSL_BINARY_OP(shl, <<, shl)
WARDEN_DSL_BINARY_OP(shr, >>, shr)
WARDEN_DSL_BINARY_OP(bit_and, &, bit_and)
WARDEN_DSL_BINARY_OP(bit_or, |, bit_or)
WARDEN_DSL_BINARY_OP(bit_xor, ^, bit_xor)
WARDEN_DSL_BINARY_OP(less, <, less)
WARDEN_DSL_BINARY_OP(less_equal, <=, less_equal)
WARDEN_DSL_BINARY_OP(greater, >, greater)
WARDEN_DSL_BINARY_OP(greater_equal, >=, greater_equal)
WARDEN_DSL_BINARY_OP(equal, ==, equal)
WARDEN_DSL_BINARY_OP(not_equal, !=, not_equal)
#undef WARDEN_DSL_BINARY_OP

// && and || keep C++'s short circuit: eval() below evaluates b only when it must (see binary_e
// for the one exception, on the cuda backend).
struct logical_and {
  static constexpr ir_op kind = ir_op::logical_and;
};
struct logical_or {
  static constexpr ir_op kind = ir_op::logical_or;
};

struct min {
  static constexpr ir_op kind = ir_op::min;
  template <class A, class B>
  static constexpr WARDEN_HOST_DEVICE auto apply(const A& a, const B& b) {
    using R = decltype(a + b);  // C++'s usual arithmetic conversions, as for the other operators
    return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a);
  }
};
struct max {
  static constexpr ir_op kind = ir_op::max;
  template <class A, class B>
  static constexpr WARDEN_HOST_DEVICE auto apply(const A& a, const B& b) {
    using R = decltype(a + b);
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a);
  }
};

struct negate {
  static constexpr ir_op kind = ir_op::negate;
  template <class A>
  static constexpr WARDEN_HOST_DEVICE auto apply(const A& a) { return -a; }
};
struct logical_not {
  static constexpr ir_op kind = ir_op::logical_not;
  template <class A>
  static constexpr WARDEN_HOST_DEVICE auto apply(const A& a) { return !a; }
};
struct bit_not {
  static constexpr ir_op kind = ir_op::bit_not;
  template <class A>
  static constexpr WARDEN_HOST_DEVICE auto apply(const A& a) { return ~a; }
};
}  // namespace op

// Is E an index expression whose evaluation has no effect and cannot fault? Defined below, after
// the nodes it accepts.
template <class E>
struct pure_index;

// Does the context evaluate the right operand of && and || before the test when that operand is a
// pure_index (cuda_context::eager_pure_logic)? A guard `y < rows && x < cols` then compiles to
// one predicate, as the twins' guards do; evaluated lazily, its right operand's index arithmetic
// stayed in a block of its own that nvcc kept as a second branch (transpose, stencil_2d:
// docs/benchmarks.md). Nothing is loaded or divided early, and the result is the same.
template <class C>
concept eager_pure_logic = requires { requires C::eager_pure_logic; };

// The type a value expression evaluates to, without evaluating it.
struct type_probe {
  int thread_idx(int) const;
  int block_idx(int) const;
  int block_dim(int) const;
  int grid_dim(int) const;
  template <int I>
  int size() const;
  template <int I, class T>
  T load(int) const;
  template <int I, class T, int N>
  vec<T, N> load_vector(int) const;  // `w::get<C>(w::vectors<N>(x)[i])` asks for the load's type
  template <int L, class T>
  T tile_load(int) const;
  template <int L, class T>
  T& var() const;
  template <int I, class T>
  T value() const;
};
template <class E>
using value_type_of = std::remove_cvref_t<decltype(std::declval<const E&>().eval(std::declval<const type_probe&>()))>;

// Whether storing expression E into an element of type To drops a fraction, as C++'s implicit
// conversion does without a word (W008 at the store; w::convert<To>(e) says it is meant).
template <class To, class E>
inline constexpr bool narrowing_store = std::is_integral_v<To> && std::is_floating_point_v<value_type_of<E>>;
#define WARDEN_W008_KERNEL_MESSAGE(entity)                                                                  \
  WARDEN_DIAGNOSTIC_MESSAGE(W008, entity,                                                                  \
                            "a floating-point value stored into an integral element would be truncated; " \
                            "write w::convert<T>(value) to convert it on purpose")
// A local takes its type from its initial value, so `w::local(k, 0, ...)` is an int: an
// accumulator of fractions begun at 0 truncates every step, and converting the value keeps that.
// Both fixes are named, the type first (issue 57: the conversion alone was followed to a wrong sum).
#define WARDEN_W008_LOCAL_MESSAGE                                                                          \
  WARDEN_DIAGNOSTIC_MESSAGE(W008, "warden::local",                                                        \
                            "a floating-point value stored into an integral local would be truncated; "   \
                            "a local takes the type of its initial value: if it is to hold fractions, "   \
                            "begin it with a value of the type it should hold (w::local(k, 0.f, ...) for "\
                            "float, not 0); to truncate on purpose, write w::convert<T>(value)")

// Whether every value of integral type From is a value of integral type To, so that `To x = e`
// holds e's value unchanged (dsl/local_values.hpp follows it then): the same type, or a wider one
// that keeps the sign (bool, short, int into int or long long; unsigned into a wider signed type).
template <class From, class To>
inline constexpr bool holds_every_value =
    std::is_integral_v<From> && std::is_integral_v<To> &&
    (std::is_same_v<From, To> || std::is_same_v<From, bool> ||
     (sizeof(From) < sizeof(To) && (std::is_signed_v<To> || std::is_unsigned_v<From>)) ||
     (sizeof(From) == sizeof(To) && std::is_signed_v<From> == std::is_signed_v<To>));

// The type an operator computes in (C++'s usual arithmetic conversions; a shift: its promoted left
// operand; && and ||: bool), and how many bits of unsigned arithmetic that is (0: none).
template <class Op, class L, class R>
struct computed_in {
  using type = decltype(std::declval<L>() + std::declval<R>());
};
template <class L, class R>
struct computed_in<op::shl, L, R> {
  using type = decltype(+std::declval<L>());
};
template <class L, class R>
struct computed_in<op::shr, L, R> {
  using type = decltype(+std::declval<L>());
};
template <class L, class R>
struct computed_in<op::logical_and, L, R> {
  using type = bool;
};
template <class L, class R>
struct computed_in<op::logical_or, L, R> {
  using type = bool;
};
template <class T>
inline constexpr int unsigned_bits_of =
    std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool> ? static_cast<int>(sizeof(T) * 8) : 0;
template <class T>
inline constexpr int signed_bits_of = std::is_integral_v<T> && std::is_signed_v<T> ? static_cast<int>(sizeof(T) * 8) : 0;

template <class Op, class A, class B>
struct binary_e : expr_node {
  A a;
  B b;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE auto eval(const C& c) const {
    constexpr bool logical = std::is_same_v<Op, op::logical_and> || std::is_same_v<Op, op::logical_or>;
    if constexpr (logical && eager_pure_logic<C> && pure_index<B>::value) {
      const bool x = a.eval(c);
      const bool y = b.eval(c);
      if constexpr (std::is_same_v<Op, op::logical_and>) return x && y;
      else return x || y;
    } else if constexpr (std::is_same_v<Op, op::logical_and>) {
      return a.eval(c) && b.eval(c);
    } else if constexpr (std::is_same_v<Op, op::logical_or>) {
      return a.eval(c) || b.eval(c);
    } else {
      return Op::apply(a.eval(c), b.eval(c));
    }
  }
  constexpr int describe(kernel_ir& builder) const {
    const int left = a.describe(builder);
    // The right operand of && (||) runs only where the left one holds (fails): its loads are
    // guarded by it, so `i < in.size() && in[i] > 0` loads in[i] only below in.size().
    constexpr bool logical = std::is_same_v<Op, op::logical_and> || std::is_same_v<Op, op::logical_or>;
    if constexpr (logical) builder.guard_stack.push_back({left, std::is_same_v<Op, op::logical_or>});
    const int right = b.describe(builder);
    if constexpr (logical) builder.guard_stack.pop_back();
    using T = typename computed_in<Op, value_type_of<A>, value_type_of<B>>::type;
    return builder.node(Op::kind, left, right, std::is_floating_point_v<T>, unsigned_bits_of<T>, signed_bits_of<T>);
  }
};

template <class Op, class A>
struct unary_e : expr_node {
  A a;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE auto eval(const C& c) const {
    return Op::apply(a.eval(c));
  }
  constexpr int describe(kernel_ir& builder) const {
    using T = std::remove_cvref_t<decltype(Op::apply(std::declval<value_type_of<A>>()))>;
    return builder.node(Op::kind, a.describe(builder), -1, std::is_floating_point_v<T>, unsigned_bits_of<T>, signed_bits_of<T>);
  }
};

// select(c, x, y): x where c holds, else y, evaluating only the one chosen (C++'s `c ? x : y`).
template <class Cond, class A, class B>
struct select_e : expr_node {
  Cond condition;
  A a;
  B b;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE auto eval(const C& c) const {
    using R = decltype(true ? a.eval(c) : b.eval(c));
    return condition.eval(c) ? static_cast<R>(a.eval(c)) : static_cast<R>(b.eval(c));
  }
  constexpr int describe(kernel_ir& builder) const {
    const int cond = condition.describe(builder);
    // Each side's loads run only where the condition chooses it, as in when(...).otherwise(...).
    builder.guard_stack.push_back({cond, false});
    const int x = a.describe(builder);
    builder.guard_stack.back().negated = true;
    const int y = b.describe(builder);
    builder.guard_stack.pop_back();
    using R = decltype(true ? std::declval<value_type_of<A>>() : std::declval<value_type_of<B>>());
    const int pair = builder.node(ir_op::choice, x, y, std::is_floating_point_v<R>);
    // In an unsigned type, an arm of another type arrives converted (`c ? -1 : 5u` is 4294967295).
    constexpr int unsigned_bits = std::is_unsigned_v<R> && !std::is_same_v<R, bool> ? static_cast<int>(sizeof(R) * 8) : 0;
    return builder.node(ir_op::select, cond, pair, std::is_floating_point_v<R>, unsigned_bits);
  }
};

// An index expression whose evaluation has no effect and cannot fault: ids, constants,
// parameters, variables, and +, -, *, shifts and comparisons of them (no loads, no division).
template <class E>
struct pure_index : std::false_type {};
template <ir_op Op, int D>
struct pure_index<index_e<Op, D>> : std::true_type {};
template <class T>
struct pure_index<lit<T>> : std::true_type {};
template <int I, class T>
struct pure_index<value_e<I, T>> : std::true_type {};
template <int I>
struct pure_index<size_e<I>> : std::true_type {};
template <int L, class T, bool Loop>
struct pure_index<var_e<L, T, Loop>> : std::true_type {};
template <class Op, class A, class B>
struct pure_index<binary_e<Op, A, B>>
    : std::bool_constant<!std::is_same_v<Op, op::div> && !std::is_same_v<Op, op::mod> && pure_index<A>::value && pure_index<B>::value> {};
template <class Op, class A>
struct pure_index<unary_e<Op, A>> : pure_index<A> {};
template <class Cond, class A, class B>
struct pure_index<select_e<Cond, A, B>> : std::bool_constant<pure_index<Cond>::value && pure_index<A>::value && pure_index<B>::value> {};

// Is E computed from what the launch fixes alone: integer constants, value<T> parameters of
// integral type, buffer sizes, block and grid extents, and operators on them? Such an expression
// has one value for the whole launch, which launch can compute before running (given(...)).
template <class E>
struct launch_uniform : std::false_type {};
template <int D>
struct launch_uniform<index_e<ir_op::block_dim, D>> : std::true_type {};
template <int D>
struct launch_uniform<index_e<ir_op::grid_dim, D>> : std::true_type {};
template <class T>
struct launch_uniform<lit<T>> : std::bool_constant<std::is_integral_v<T>> {};
template <int I, class T>
struct launch_uniform<value_e<I, T>> : std::bool_constant<std::is_integral_v<T>> {};
template <int I>
struct launch_uniform<size_e<I>> : std::true_type {};
template <int I, ir_op Fact>
struct launch_uniform<contents_fact_e<I, Fact>> : std::true_type {};
// rows(n) and below(hi) report a part that is not launch-uniform themselves (W007).
template <int I, ir_op Fact, class Rows, class Below>
struct launch_uniform<contents_order_e<I, Fact, Rows, Below>> : std::true_type {};

// Fix: give the row length and the bound as integral value<T> parameters, buffer sizes, extents
// or integer constants.
template <int I, ir_op Fact, class Rows, class Below>
template <class N>
  requires(std::is_same_v<Rows, no_bound_e>)
constexpr auto contents_order_e<I, Fact, Rows, Below>::rows(N&& n) const {
  auto e = as_expr(std::forward<N>(n));
  static_assert(launch_uniform<decltype(e)>::value,
                WARDEN_DIAGNOSTIC_MESSAGE(W007, "warden::sorted(x).rows / non_decreasing(x).rows",
                                          "the row length of an order fact may read only what the launch fixes "
                                          "(integral value<T> parameters, buffer sizes, block and grid extents, "
                                          "integer constants), so that launch can measure the rows before running"));
  return contents_order_e<I, Fact, decltype(e), Below>{{}, e, bound};
}
template <int I, ir_op Fact, class Rows, class Below>
template <class H>
  requires(Fact == ir_op::contents_sorted && std::is_same_v<Below, no_bound_e>)
constexpr auto contents_order_e<I, Fact, Rows, Below>::below(H&& hi) const {
  auto e = as_expr(std::forward<H>(hi));
  static_assert(launch_uniform<decltype(e)>::value,
                WARDEN_DIAGNOSTIC_MESSAGE(W007, "warden::sorted(x).below",
                                          "the bound of sorted(x).below(hi) may read only what the launch fixes "
                                          "(integral value<T> parameters, buffer sizes, block and grid extents, "
                                          "integer constants), so that launch can measure the order before running"));
  return contents_order_e<I, Fact, Rows, decltype(e)>{{}, row_length, e};
}
// within(x, lo, hi) reports bounds that are not launch-uniform itself (warden::within, W007): the
// fact counts as uniform so that the given(...) around it adds no second error.
template <int I, class Lo, class Hi>
struct launch_uniform<within_e<I, Lo, Hi>> : std::true_type {};
template <class Op, class A, class B>
struct launch_uniform<binary_e<Op, A, B>> : std::bool_constant<launch_uniform<A>::value && launch_uniform<B>::value> {};
template <class Op, class A>
struct launch_uniform<unary_e<Op, A>> : launch_uniform<A> {};
template <class Cond, class A, class B>
struct launch_uniform<select_e<Cond, A, B>>
    : std::bool_constant<launch_uniform<Cond>::value && launch_uniform<A>::value && launch_uniform<B>::value> {};

template <class Op, operand A, operand B>
  requires(expression<A> || expression<B>)
constexpr WARDEN_HOST_DEVICE auto make_binary(A&& a, B&& b) {
  auto ea = as_expr(std::forward<A>(a));
  auto eb = as_expr(std::forward<B>(b));
  return binary_e<Op, decltype(ea), decltype(eb)>{{}, ea, eb};
}

#define WARDEN_DSL_OPERATOR(symbol, name)                                     \
  template <operand A, operand B>                                             \
    requires(expression<A> || expression<B>)                                  \
  constexpr WARDEN_HOST_DEVICE auto operator symbol(A&& a, B&& b) {           \
    return make_binary<op::name>(std::forward<A>(a), std::forward<B>(b));     \
  }
WARDEN_DSL_OPERATOR(+, add)
WARDEN_DSL_OPERATOR(-, sub)
WARDEN_DSL_OPERATOR(*, mul)
WARDEN_DSL_OPERATOR(/, div)
WARDEN_DSL_OPERATOR(%, mod)
WARDEN_DSL_OPERATOR(<<, shl)
WARDEN_DSL_OPERATOR(>>, shr)
WARDEN_DSL_OPERATOR(&, bit_and)
WARDEN_DSL_OPERATOR(|, bit_or)
WARDEN_DSL_OPERATOR(^, bit_xor)
WARDEN_DSL_OPERATOR(<, less)
WARDEN_DSL_OPERATOR(<=, less_equal)
WARDEN_DSL_OPERATOR(>, greater)
WARDEN_DSL_OPERATOR(>=, greater_equal)
WARDEN_DSL_OPERATOR(==, equal)
WARDEN_DSL_OPERATOR(!=, not_equal)
WARDEN_DSL_OPERATOR(&&, logical_and)
WARDEN_DSL_OPERATOR(||, logical_or)
#undef WARDEN_DSL_OPERATOR

template <expression A>
constexpr WARDEN_HOST_DEVICE auto operator-(A&& a) {
  auto e = as_expr(std::forward<A>(a));
  return unary_e<op::negate, decltype(e)>{{}, e};
}
template <expression A>
constexpr WARDEN_HOST_DEVICE auto operator!(A&& a) {
  auto e = as_expr(std::forward<A>(a));
  return unary_e<op::logical_not, decltype(e)>{{}, e};
}
template <expression A>
constexpr WARDEN_HOST_DEVICE auto operator~(A&& a) {
  auto e = as_expr(std::forward<A>(a));
  return unary_e<op::bit_not, decltype(e)>{{}, e};
}

// ---- calls of user function objects ------------------------------------------------------------

// call(f, args...): f(args...) per thread. f is a stateless __host__ __device__ function object
// (an empty class: a lambda without captures, a struct without members); it computes on values
// and touches no memory, so the checker treats the result as data. State (a pointer, a counter)
// is the way memory would slip past the checker, so call() refuses it.
template <class F, class... A>
struct call_e : expr_node {
  F f;
  detail::pack<A...> args;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE auto eval(const C& c) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return f(detail::get<I>(args).eval(c)...);
    }(std::index_sequence_for<A...>{});
  }
  constexpr int describe(kernel_ir& builder) const {
    int first = -1;
    detail::for_each(args, [&](const auto& arg) {
      const int id = arg.describe(builder);
      if (first < 0) first = id;
    });
    return builder.node(ir_op::call, first);
  }
};

}  // namespace warden::dsl

namespace warden {

template <class F, dsl::operand... A>
constexpr WARDEN_HOST_DEVICE auto call(F f, A&&... args) {
  // Fix: make f a lambda without captures or a struct without data members; pass what it needs
  // as arguments (values, loads), or put code the checker cannot see under trusted(...).
  static_assert(std::is_empty_v<F>,
                WARDEN_DIAGNOSTIC_MESSAGE(W005, "warden::call",
                                          "the function object keeps state (captures or data members); the race "
                                          "checker cannot see what state does, so call() takes only stateless "
                                          "functions: pass the state as arguments"));
  return dsl::call_e<F, decltype(dsl::as_expr(std::forward<A>(args)))...>{
      {}, f, detail::make_pack(dsl::as_expr(std::forward<A>(args))...)};
}

namespace dsl {
// The explicit conversion behind w::convert<T>: C++'s static_cast, a function of its operand.
template <class T>
struct convert_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class U>
  constexpr WARDEN_HOST_DEVICE T operator()(U u) const {
    return static_cast<T>(u);
  }
};

// An integer converted to another integral type T. Where T holds every value of the operand's type
// it is the operand; else the checker describes it as an operation carried out in T, which launch
// checks neither gets a negative operand (unsigned T) nor leaves T (E104): where that holds, the
// conversion keeps the value, so the checker reasons about it as about the integer it is.
template <class T, class A>
struct integer_convert_e : expr_node {
  A a;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return static_cast<T>(a.eval(c));
  }
  constexpr int describe(kernel_ir& b) const {
    const int x = a.describe(b);
    if constexpr (holds_every_value<value_type_of<A>, T>) return x;
    else return b.node(ir_op::add, x, b.constant(0, false), false, unsigned_bits_of<T>, signed_bits_of<T>);
  }
};
}  // namespace dsl

// convert<T>(e): e converted to T as static_cast<T> does (a float to an integer drops its
// fraction). The explicit form a narrowing store asks for (W008). An integer converted to an
// integral type is the integer it is, checked at launch to fit T (E104); any other conversion is
// a function to the checker, whose result it treats as data (an index written with it is W012).
template <class T, dsl::operand A>
  requires std::is_arithmetic_v<T>
constexpr WARDEN_HOST_DEVICE auto convert(A&& a) {
  auto e = dsl::as_expr(std::forward<A>(a));
  using From = dsl::value_type_of<decltype(e)>;
  if constexpr (std::is_integral_v<T> && std::is_integral_v<From> && !std::is_same_v<T, bool>)
    return dsl::integer_convert_e<T, decltype(e)>{{}, e};
  else
    return call(dsl::convert_fn<T>{}, e);
}

// select(c, x, y): the kernel language's `c ? x : y`, per thread; only the chosen side is
// evaluated, so a load on one side runs only where c chooses it.
template <dsl::operand C, dsl::operand A, dsl::operand B>
  requires(dsl::expression<C> || dsl::expression<A> || dsl::expression<B>)
constexpr WARDEN_HOST_DEVICE auto select(C&& c, A&& a, B&& b) {
  auto ec = dsl::as_expr(std::forward<C>(c));
  auto ea = dsl::as_expr(std::forward<A>(a));
  auto eb = dsl::as_expr(std::forward<B>(b));
  return dsl::select_e<decltype(ec), decltype(ea), decltype(eb)>{{}, ec, ea, eb};
}

template <dsl::operand A, dsl::operand B>
  requires(dsl::expression<A> || dsl::expression<B>)
constexpr WARDEN_HOST_DEVICE auto min(A&& a, B&& b) {
  return dsl::make_binary<dsl::op::min>(std::forward<A>(a), std::forward<B>(b));
}
template <dsl::operand A, dsl::operand B>
  requires(dsl::expression<A> || dsl::expression<B>)
constexpr WARDEN_HOST_DEVICE auto max(A&& a, B&& b) {
  return dsl::make_binary<dsl::op::max>(std::forward<A>(a), std::forward<B>(b));
}

}  // namespace warden
