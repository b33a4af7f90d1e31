#pragma once
// Kernels: kernel<block<Bx, By, Bz>, params...>(body) builds the program by calling `body` with
// symbolic handles, once, at compile time.
//
//   inline constexpr auto saxpy = w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(
//       [](auto k, auto x, auto y, auto a) {
//         auto i = k.global_id();
//         return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
//       });
//
// Scopes (loops, thread-private variables, shared tiles) take the kernel context `k` and hand a
// new one to their body: `for_range(k, 0, n, [](auto k, auto i) { ... })`. The context's type
// carries the nesting level, which names the scope's variable; use the innermost `k`.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "expr.hpp"
#include "handles.hpp"
#include "ir.hpp"
#include "stmt.hpp"
#include "../check/diagnostic.hpp"
#include "../check/explain.hpp"
#include "../check/rules.hpp"

namespace warden {

// ---- the kernel's type: block shape and parameter kinds ------------------------------------------

template <int X, int Y = 1, int Z = 1>
struct block {
  static_assert(X > 0 && Y > 0 && Z > 0, "warden::block: every extent must be positive");
  static_assert(X * Y * Z <= 1024, "warden::block: at most 1024 threads per block (a CUDA limit)");
  static constexpr int x = X, y = Y, z = Z, threads = X * Y * Z;
};

namespace dsl {
// What every buffer parameter kind has in common; the kinds differ in their mode and name.
template <class T, class Mode>
struct buffer_param {
  using value_type = T;
  using mode = Mode;
  static constexpr bool is_buffer = true;
};
}  // namespace dsl

template <class T>
struct in : dsl::buffer_param<T, access::read> {
  static constexpr std::string_view kind = "in";
};
template <class T>
struct out : dsl::buffer_param<T, access::write> {
  static constexpr std::string_view kind = "out";
};
template <class T>
struct inout : dsl::buffer_param<T, access::read_write> {
  static constexpr std::string_view kind = "inout";
};
template <class T>
struct atomic : dsl::buffer_param<T, access::atomic> {
  static constexpr std::string_view kind = "atomic";
};
template <class T>
struct value {
  using value_type = T;
  static constexpr bool is_buffer = false;
  static constexpr std::string_view kind = "value";
};

namespace dsl {

template <int I, class Param>
constexpr auto make_handle() {
  using T = typename Param::value_type;
  if constexpr (Param::is_buffer) return buffer_handle<I, T, typename Param::mode>{};
  else return value_e<I, T>{};
}

// The kernel context handed to the body and to every scope's body: indices of this thread.
template <class Block, int Level>
struct kernel_context {
  using block_type = Block;
  static constexpr int level = Level;
  constexpr auto thread_id() const { return index_e<ir_op::thread_id, 0>{}; }
  constexpr auto thread_id_y() const { return index_e<ir_op::thread_id, 1>{}; }
  constexpr auto thread_id_z() const { return index_e<ir_op::thread_id, 2>{}; }
  constexpr auto block_id() const { return index_e<ir_op::block_id, 0>{}; }
  constexpr auto block_id_y() const { return index_e<ir_op::block_id, 1>{}; }
  constexpr auto block_id_z() const { return index_e<ir_op::block_id, 2>{}; }
  constexpr auto global_id() const { return index_e<ir_op::global_id, 0>{}; }
  constexpr auto global_id_y() const { return index_e<ir_op::global_id, 1>{}; }
  constexpr auto global_id_z() const { return index_e<ir_op::global_id, 2>{}; }
  constexpr auto block_dim() const { return index_e<ir_op::block_dim, 0>{}; }
  constexpr auto block_dim_y() const { return index_e<ir_op::block_dim, 1>{}; }
  constexpr auto grid_dim() const { return index_e<ir_op::grid_dim, 0>{}; }
  constexpr auto grid_dim_y() const { return index_e<ir_op::grid_dim, 1>{}; }
};

template <class S>
constexpr auto to_statement(S s) {
  static_assert(statement<S>,
                "warden::kernel: a kernel body (or a scope's body) must return a statement: an assignment, "
                "when(...), seq(...), a loop, sync() or an atomic");
  return s;
}

// type_probe and value_type_of: dsl/expr.hpp.

}  // namespace dsl

// A defined kernel: its block shape, parameter kinds and program. Literal, so `inline constexpr`.
template <class Block, class Program, class... Params>
struct kernel_def {
  using block_type = Block;
  using program_type = Program;
  static constexpr int threads = Block::threads;
  static constexpr std::size_t arity = sizeof...(Params);
  template <std::size_t I>
  using param = std::tuple_element_t<I, std::tuple<Params...>>;

  Program program;
  std::string_view name = "kernel";
  std::array<std::string_view, sizeof...(Params)> param_names{};
  // What launch must check before running it (E106): the conditions the checker's proof rests on.
  check::obligation_list obligations{};

  // The same kernel with a name (and parameter names) for messages.
  template <class... Names>
  constexpr kernel_def named(std::string_view kernel_name, Names... names) const {
    static_assert(sizeof...(Names) == 0 || sizeof...(Names) == sizeof...(Params),
                  "warden::kernel_def::named: name every parameter, or none");
    kernel_def copy = *this;
    copy.name = kernel_name;
    if constexpr (sizeof...(Names) > 0) copy.param_names = {std::string_view(names)...};
    return copy;
  }

  // The value-level description of the program.
  constexpr dsl::ir_builder describe() const {
    dsl::ir_builder b;
    program.describe(b);
    return b;
  }
};

// A kernel identified by a named type: Holder::definition is its kernel_def. The cuda backend
// instantiates its __global__ entry on Holder, so the program, constants included, is known while
// the kernel is compiled (nvcc accepts neither lambda closure types nor, in its host stubs,
// references to namespace-scope objects as template arguments of __global__ functions; a named
// class is what remains). WARDEN_KERNEL(name, definition) declares both at once.
template <class Holder>
struct kernel_handle {
  using holder = Holder;
  using definition_type = std::remove_cvref_t<decltype(Holder::definition)>;
  using block_type = typename definition_type::block_type;
  using program_type = typename definition_type::program_type;
  static constexpr int threads = definition_type::threads;
  static constexpr std::size_t arity = definition_type::arity;
  template <std::size_t I>
  using param = typename definition_type::template param<I>;
  static constexpr const definition_type& definition() { return Holder::definition; }
  constexpr dsl::ir_builder describe() const { return Holder::definition.describe(); }
};

// The kernel_def behind a kernel or a kernel handle.
template <class K>
constexpr const auto& definition_of(const K& kernel) {
  if constexpr (requires { typename K::holder; }) return K::holder::definition;
  else return kernel;
}

namespace dsl {
// The program of a body, built without the checker.
template <class Block, class... Params, class F>
constexpr auto build_program(F body) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return dsl::to_statement(body(dsl::kernel_context<Block, 0>{}, dsl::make_handle<static_cast<int>(I), Params>()...));
  }(std::index_sequence_for<Params...>{});
}

// A program nobody checked (build_kernel's): it can be described, given a verdict and recorded,
// but launch refuses it, so that no unchecked kernel runs by accident.
template <class P>
struct unchecked_program {
  P program;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    program.run(c);
  }
  constexpr void describe(ir_builder& b) const { program.describe(b); }
};
template <class P>
inline constexpr bool is_unchecked = false;
template <class P>
inline constexpr bool is_unchecked<unchecked_program<P>> = true;

// The kernel_def of a body, unchecked: tests and the fuzzer use it to look at the verdict of
// programs the checker rejects (check::verdict_of) and to record them; launch refuses it.
template <class Block, class... Params, class F>
constexpr auto build_kernel(F body) {
  using program_type = decltype(build_program<Block, Params...>(body));
  return kernel_def<Block, unchecked_program<program_type>, Params...>{{build_program<Block, Params...>(body)}};
}
}  // namespace dsl

namespace check {
// The checker's verdict on a kernel: the first finding of analyse() and its explanation.
template <class K>
constexpr verdict verdict_of(const K& kernel) {
  const auto& def = definition_of(kernel);
  using D = std::remove_cvref_t<decltype(def)>;
  const dsl::ir_builder ir = def.describe();
  const block_shape shape{D::block_type::x, D::block_type::y, D::block_type::z};
  const auto kinds = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, D::arity>{D::template param<I>::kind...};
  }(std::make_index_sequence<D::arity>{});
  // A plain access of an atomic<T> parameter has already failed where it was written (W040 in
  // dsl/handles.hpp); a second report of the same mistake would only bury it.
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::global && a.kind != dsl::access_kind::atomic &&
        kinds[static_cast<std::size_t>(a.target)] == "atomic")
      return {};
  const finding f = analyse(ir, shape);
  return {f, explain(ir, kinds, f)};
}

// The verdict on the kernel whose body has type F (a lambda without captures, so F{} is its body).
template <class Block, class F, class... Params>
struct verdict_on_body {
  static constexpr verdict value = verdict_of(dsl::build_kernel<Block, Params...>(F{}));
};
}  // namespace check

// Defines a kernel and checks it: a program that may race or diverge at a barrier does not
// compile (W010-W040; see docs/diagnostics.md). `body` must not capture: pass run-time values as
// value<T> parameters and compile-time ones as template arguments or constexpr globals.
template <class Block, class... Params, class F>
constexpr auto kernel(F body) {
  static_assert(std::is_default_constructible_v<F>,
                "warden::kernel: the body must be a lambda without captures (the checker rebuilds the program "
                "from its type); pass values as value<T> parameters");
  static_assert(sizeof(typename check::report<check::verdict_on_body<Block, F, Params...>>::type) > 0);
  auto program = dsl::build_program<Block, Params...>(body);
  return kernel_def<Block, decltype(program), Params...>{program, "kernel", {},
                                                          check::verdict_on_body<Block, F, Params...>::value.finding.obligations};
}

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
                "W007 [fact-not-uniform] warden::given: a stated fact may read only what the launch fixes "
                "(integral value<T> parameters, buffer sizes, block and grid extents, integer constants), so that "
                "launch can check it before running; use when(...) for a condition on threads or data");
  return dsl::given_s<decltype(c), dsl::seq_s<S...>>{{}, c, dsl::seq_s<S...>{{}, detail::make_pack(s...)}};
}

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

// shared<T, N>(k, body): a 1-D tile of N elements per block. shared<T, R, C, Pad>(k, body): a 2-D
// tile indexed tile(row, col), rows C + Pad elements apart (padding staggers banks).
template <class T, int Rows, int Cols = 0, int Pad = 0, class B, int L, class F>
constexpr auto shared(dsl::kernel_context<B, L>, F body) {
  static_assert(std::is_trivially_default_constructible_v<T>, "warden::shared: the element type must be trivial");
  static_assert(Rows > 0 && Cols >= 0 && Pad >= 0, "warden::shared: extents must be positive");
  auto inner = dsl::to_statement(body(dsl::kernel_context<B, L + 1>{}, dsl::tile_handle<L, T, Rows, Cols, Pad>{}));
  return dsl::shared_s<L, T, Rows, Cols, Pad, decltype(inner)>{{}, inner};
}

// ---- atomics ---------------------------------------------------------------------------------------

namespace dsl {
template <atomic_op Op, int I, class T, class Mode, class Idx, class V, class E = no_column>
constexpr auto make_atomic(const element<I, T, Mode, Idx>& target, V&& v, E e = {}) {
  static_assert(Mode::can_update_atomically || Mode::can_store, WARDEN_W003_KERNEL_MESSAGE);
  static_assert(Mode::can_update_atomically || Mode::can_load, WARDEN_W004_KERNEL_MESSAGE);
  auto value = as_expr(std::forward<V>(v));
  return atomic_s<I, T, Op, Idx, decltype(value), E>{{}, target.index, value, e};
}
// The element type of an atomic update's target.
template <class Target>
struct element_value;
template <int I, class T, class Mode, class Idx>
struct element_value<element<I, T, Mode, Idx>> {
  using type = T;
};
template <class Target>
using element_value_t = typename element_value<Target>::type;
}  // namespace dsl

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

// WARDEN_KERNEL(name, w::kernel<...>(body)): declares the kernel `name` at namespace scope, named
// "name" in messages, with zero-cost CUDA launches (see kernel_handle).
#define WARDEN_KERNEL(name, ...)                                              \
  struct name##_warden_kernel {                                               \
    static constexpr auto definition = (__VA_ARGS__).named(#name);           \
  };                                                                          \
  inline constexpr ::warden::kernel_handle<name##_warden_kernel> name {}
