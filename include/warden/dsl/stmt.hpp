#pragma once
// Statements of the kernel language. Like expressions, each is a literal value whose type spells
// its shape, with
//   * run(ctx):          what one thread does (the cuda backend runs this; so does the cpu backend
//                        for statements with no control flow of their own)
//   * describe(builder): its accesses, guards, loops and barriers as value-level records
// Control flow across a whole block (the cpu backend's phase-by-phase execution) lives in
// backend/cpu.hpp, so that these nodes stay a plain description of the program.

#include <type_traits>

#include "../config.hpp"
#include "../detail/pack.hpp"
#include "expr.hpp"
#include "ir.hpp"
#include "local_values.hpp"

namespace warden::dsl {

struct stmt_node {};

template <class S>
concept statement = std::is_base_of_v<stmt_node, std::remove_cvref_t<S>>;

// ---- memory ----------------------------------------------------------------------------------

// Tells a recording context which program node makes the access that follows (the cpu backend's
// record mode: each recorded access is attributed to its node, recording::meets). A node passes
// itself, or, where a handle's element builds the node on the fly (`x[i]` as an expression), the
// element, which lives in the program as the description does. Other contexts: nothing.
WARDEN_EXEC_CHECK_DISABLE
template <class C>
constexpr WARDEN_HOST_DEVICE void at_site(const C& c, const void* site) {
  if constexpr (requires { c.at_site(site); }) c.at_site(site);
  else (void)c, (void)site;
}

// The index of a 1-D access: no column.
struct no_column : expr_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE int eval(const C&) const {
    return 0;
  }
  constexpr int describe(kernel_ir&) const { return -1; }
};

template <int I, class T, class Idx>
struct load_e : expr_node {
  Idx index;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return eval_at(c, this);
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval_at(const C& c, const void* site) const {
    const int i = index.eval(c);
    at_site(c, site);
    return c.template load<I, T>(i);
  }
  constexpr int describe(kernel_ir& b) const { return describe_at(b, this); }
  constexpr int describe_at(kernel_ir& b, const void* site) const {
    const int at = index.describe(b);
    const int id = b.access(access_kind::load, memory_kind::global, I, at, -1, sizeof(T));
    b.made_by(id, 1, site);
    return b.leaf(ir_op::load, id, std::is_unsigned_v<T>, false, narrow_bits_of<T>);
  }
};

template <int I, class T, class Idx, class V>
struct store_s : stmt_node {
  Idx index;
  V value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int i = index.eval(c);
    const T v = static_cast<T>(value.eval(c));
    at_site(c, this);
    c.template store<I, T>(i, v);
  }
  constexpr void describe(kernel_ir& b) const {
    const int v = value.describe(b);  // the value is computed (and its loads happen) before the store
    const int id = b.access(access_kind::store, memory_kind::global, I, index.describe(b), -1, sizeof(T));
    b.accesses[static_cast<std::size_t>(id)].value = v;
    b.made_by(id, 1, this);
  }
};

// inc and dec wrap as CUDA's atomicInc / atomicDec do: inc stores (old >= v) ? 0 : old + 1, dec
// stores (old == 0 || old > v) ? v : old - 1.
enum class atomic_op { add, min, max, exchange, compare_exchange, sub, bit_and, bit_or, bit_xor, inc, dec };

// The value an atomic update leaves, from the one it found: for the backends' compare-and-swap
// loops, and the reference for the built-ins.
template <atomic_op Op, class T>
constexpr WARDEN_HOST_DEVICE T atomic_result(T old, T v) {
  if constexpr (Op == atomic_op::add) return static_cast<T>(old + v);
  else if constexpr (Op == atomic_op::sub) return static_cast<T>(old - v);
  else if constexpr (Op == atomic_op::min) return v < old ? v : old;
  else if constexpr (Op == atomic_op::max) return old < v ? v : old;
  else if constexpr (Op == atomic_op::bit_and) return static_cast<T>(old & v);
  else if constexpr (Op == atomic_op::bit_or) return static_cast<T>(old | v);
  else if constexpr (Op == atomic_op::bit_xor) return static_cast<T>(old ^ v);
  else if constexpr (Op == atomic_op::inc) return old >= v ? T(0) : static_cast<T>(old + 1);
  else if constexpr (Op == atomic_op::dec) return (old == T(0) || old > v) ? v : static_cast<T>(old - 1);
  else return v;  // exchange
}

template <int I, class T, atomic_op Op, class Idx, class V, class Expected = no_column>
struct atomic_s : stmt_node {
  Idx index;
  V value;
  Expected expected;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int i = index.eval(c);
    const T v = static_cast<T>(value.eval(c));
    const T e = static_cast<T>(expected.eval(c));
    at_site(c, this);
    c.template atomic<I, T, Op>(i, v, e);
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    expected.describe(b);
    b.made_by(b.access(access_kind::atomic, memory_kind::global, I, index.describe(b), -1, sizeof(T)), 1, this);
  }
};

// A tile element's offset: the row (1-D: the index), or row * Stride + column.
WARDEN_EXEC_CHECK_DISABLE
template <int Stride, class Row, class Col, class C>
constexpr WARDEN_HOST_DEVICE int flat_index(const Row& row, const Col& col, const C& c) {
  if constexpr (std::is_same_v<Col, no_column>) return row.eval(c);
  else return row.eval(c) * Stride + col.eval(c);
}

template <int L, class T, int Stride, class Row, class Col>
struct tile_load_e : expr_node {
  Row row;
  Col col;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval(const C& c) const {
    return eval_at(c, this);
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE T eval_at(const C& c, const void* site) const {
    const int i = flat(c);
    at_site(c, site);
    return c.template tile_load<L, T>(i);
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE int flat(const C& c) const {
    return flat_index<Stride>(row, col, c);
  }
  constexpr int describe(kernel_ir& b) const { return describe_at(b, this); }
  constexpr int describe_at(kernel_ir& b, const void* site) const {
    const int r = row.describe(b);
    const int k = col.describe(b);
    const int id = b.access(access_kind::load, memory_kind::shared, b.tile_at(L), r, k);
    b.made_by(id, 1, site);
    return b.leaf(ir_op::tile_load, id, std::is_unsigned_v<T>, false, narrow_bits_of<T>);
  }
};

template <int L, class T, int Stride, class Row, class Col, class V>
struct tile_store_s : stmt_node {
  Row row;
  Col col;
  V value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int i = flat(c);
    const T v = static_cast<T>(value.eval(c));
    at_site(c, this);
    c.template tile_store<L, T>(i, v);
  }
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE int flat(const C& c) const {
    return flat_index<Stride>(row, col, c);
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    const int r = row.describe(b);
    const int k = col.describe(b);
    b.made_by(b.access(access_kind::store, memory_kind::shared, b.tile_at(L), r, k), 1, this);
  }
};

// An atomic update of a shared tile's element (a privatised histogram's `atomic_add(bins[v], 1)`):
// atomics among themselves never race; with a plain access of the element in one phase, W040.
template <int L, class T, int Stride, atomic_op Op, class Row, class Col, class V, class Expected = no_column>
struct tile_atomic_s : stmt_node {
  Row row;
  Col col;
  V value;
  Expected expected;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int i = flat_index<Stride>(row, col, c);
    const T v = static_cast<T>(value.eval(c));
    const T e = static_cast<T>(expected.eval(c));
    at_site(c, this);
    c.template tile_atomic<L, T, Op>(i, v, e);
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    expected.describe(b);
    const int r = row.describe(b);
    const int k = col.describe(b);
    b.made_by(b.access(access_kind::atomic, memory_kind::shared, b.tile_at(L), r, k), 1, this);
  }
};

// A thread-private variable: `x = e` or `x op= e`.
template <int L, class T, class Op, class V>
struct assign_s : stmt_node {
  V value;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    T& slot = c.template var<L, T>();
    if constexpr (std::is_void_v<Op>) slot = static_cast<T>(value.eval(c));
    else slot = static_cast<T>(Op::apply(slot, value.eval(c)));
  }
  constexpr void describe(kernel_ir& b) const {
    const int v = value.describe(b);
    // The declaration in scope at level L (a sibling's at the same level keeps its own value).
    if constexpr (std::is_void_v<Op>) {
      assign_local(b, L, holds_every_value<value_type_of<V>, T> ? v : -1);
    } else {
      using R = typename computed_in<Op, T, value_type_of<V>>::type;
      assign_local(b, L, Op::kind, v, std::is_integral_v<T> && std::is_same_v<R, T>, unsigned_bits_of<R>, signed_bits_of<R>);
    }
  }
};

// ---- structure -------------------------------------------------------------------------------

struct nothing_s : stmt_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C&) const {}
  constexpr void describe(kernel_ir&) const {}
};

struct sync_s : stmt_node {
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    c.sync();
  }
  constexpr void describe(kernel_ir& b) const { b.barrier(); }
};

// trusted(statements...): runs them as written; the race rules (W010-W040) skip their accesses.
// The escape hatch for what the checker cannot prove: grep for `trusted(` to audit a code base.
template <class Body>
struct trusted_s : stmt_node {
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    body.run(c);
  }
  constexpr void describe(kernel_ir& b) const {
    ++b.trusted_depth;
    body.describe(b);
    --b.trusted_depth;
  }
};

template <class... S>
struct seq_s : stmt_node {
  detail::pack<S...> body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    detail::for_each(body, [&](const auto& s) { s.run(c); });
  }
  constexpr void describe(kernel_ir& b) const {
    detail::for_each(body, [&](const auto& s) { s.describe(b); });
  }
};

// pure_index (expr.hpp) of a 1-D access's missing column.
template <>
struct pure_index<no_column> : std::true_type {};

// Is it `when(p, tile(r, c) = a).otherwise(tile(r2, c2) = b)`: one store of one tile in each branch,
// at pure indices? Then the cuda backend stores once, `p ? a : b`, where the two indices agree.
template <class Then, class Else>
struct one_tile_element : std::false_type {};
template <int L, class T, int S, class R1, class C1, class V1, class R2, class C2, class V2>
struct one_tile_element<seq_s<tile_store_s<L, T, S, R1, C1, V1>>, seq_s<tile_store_s<L, T, S, R2, C2, V2>>>
    : std::bool_constant<pure_index<R1>::value && pure_index<C1>::value && pure_index<R2>::value && pure_index<C2>::value> {
  using value_type = T;
  static constexpr int level = L;
};

template <class Cond, class Then, class Else>
struct when_s : stmt_node {
  Cond condition;
  Then then_branch;
  Else else_branch;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const bool p = condition.eval(c);
    if constexpr (one_tile_element<Then, Else>::value) {
      // when(p, tile(r, c) = a).otherwise(tile(r, c) = b): one store of `p ? a : b`, as a twin
      // writes it, where both branches name the same element (nvcc folds the comparison of the
      // two constant-built indices); only the chosen value is evaluated, so a guarded load stays
      // guarded.
      const auto& yes = detail::get<0>(then_branch.body);
      const auto& no = detail::get<0>(else_branch.body);
      const int at = yes.flat(c);
      if (at == no.flat(c)) {
        using T = typename one_tile_element<Then, Else>::value_type;
        c.template tile_store<one_tile_element<Then, Else>::level, T>(
            at, p ? static_cast<T>(yes.value.eval(c)) : static_cast<T>(no.value.eval(c)));
        return;
      }
    }
    if (p) then_branch.run(c);
    else else_branch.run(c);
  }
  constexpr void describe(kernel_ir& b) const {
    const int cond = condition.describe(b);
    // `when(a && b, s)` is `when(a, when(b, s))`: one guard per conjunct, so each is judged on its
    // own (a uniform `n > 0` next to `t < 32` then never counts as splitting a warp). The otherwise
    // branch runs under the negation of the whole condition.
    const int conjuncts = b.push_conjuncts(cond);
    branch_values values = begin_branch(b);
    then_branch.describe(b);
    for (int i = 0; i < conjuncts; ++i) b.guard_stack.pop_back();
    b.guard_stack.push_back({cond, true});
    begin_otherwise(b, values);
    else_branch.describe(b);
    b.guard_stack.pop_back();
    end_branch(b, values, cond);
  }

  // when(c, ...).otherwise(...): the statements for threads where c is false.
  template <statement... S>
    requires std::is_same_v<Else, nothing_s>
  constexpr auto otherwise(S... s) const {
    return when_s<Cond, Then, seq_s<S...>>{{}, condition, then_branch, seq_s<S...>{{}, detail::make_pack(s...)}};
  }
};

// given(fact, statements...): the statements, under a fact over the launch's values that the user
// states (`pitch >= width`). The checker reasons with it as with a guard; launch evaluates it before
// running and refuses a launch for which it is false (E107), so a stated fact is never a promise
// taken on trust. On the device it is also tested, once per thread, as a guard would be.
template <class Fact, class Body>
struct given_s : stmt_node {
  Fact fact;
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    if (fact.eval(c)) body.run(c);
  }
  constexpr void describe(kernel_ir& b) const {
    const int condition = fact.describe(b);
    b.stated.push_back(condition);
    const int conjuncts = b.push_conjuncts(condition);
    branch_values values = begin_branch(b);
    body.describe(b);
    for (int i = 0; i < conjuncts; ++i) b.guard_stack.pop_back();
    begin_otherwise(b, values);
    end_branch(b, values, condition);
  }
};

// Records a loop and describes its body inside it.
template <class Body>
constexpr void describe_loop(kernel_ir& b, const ir_loop& loop, const Body& body, scope_kind kind = scope_kind::loop) {
  b.enter_loop(loop);
  const loop_values values = enter_loop_values(b);
  b.open_scope(loop.level, kind);
  body.describe(b);
  b.close_scope();
  exit_loop_values(b, values);
  b.loop_stack.pop_back();
}

// for (i = lo; i < hi; i += step) body, with i bound at level L.
template <int L, class Lo, class Hi, class Step, class Body>
struct for_s : stmt_node {
  Lo lo;
  Hi hi;
  Step step;
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int end = hi.eval(c);
    const int stride = step.eval(c);
    for (int i = lo.eval(c); i < end; i += stride) {
      auto inner = c.template bind<L, int>(i);
      body.run(inner);
    }
  }
  constexpr void describe(kernel_ir& b) const {
    ir_loop loop;
    loop.level = L;
    loop.lo = lo.describe(b);
    loop.hi = hi.describe(b);
    loop.step = step.describe(b);
    describe_loop(b, loop, body);
  }
};

// for (i = global_id.x; i < n; i += grid_dim.x * block_dim.x) body: every index in [0, n) once.
template <int L, class N, class Body>
struct grid_stride_s : stmt_node {
  N n;
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const int end = n.eval(c);
    const int stride = c.grid_dim(0) * c.block_dim(0);
    for (int i = c.block_idx(0) * c.block_dim(0) + c.thread_idx(0); i < end; i += stride) {
      auto inner = c.template bind<L, int>(i);
      body.run(inner);
    }
  }
  constexpr void describe(kernel_ir& b) const {
    ir_loop loop;
    loop.level = L;
    loop.grid_stride = true;
    loop.lo = b.leaf(ir_op::global_id, 0);
    loop.hi = n.describe(b);
    loop.step = b.node(ir_op::mul, b.leaf(ir_op::grid_dim, 0), b.leaf(ir_op::block_dim, 0));
    describe_loop(b, loop, body, scope_kind::grid_stride);
  }
};

// A thread-private variable of type T at level L, initialised from `init`, visible in `body`.
template <int L, class T, class Init, class Body>
struct local_s : stmt_node {
  Init init;
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    T value = static_cast<T>(init.eval(c));
    auto inner = c.template bind_ref<L, T>(value);
    body.run(inner);
  }
  constexpr void describe(kernel_ir& b) const {
    ir_local local;
    local.level = L;
    local.init = init.describe(b);
    local.is_unsigned = std::is_unsigned_v<T>;
    local.bits = std::is_integral_v<T> ? static_cast<unsigned char>(sizeof(T) * 8) : 0;
    local.value = holds_every_value<value_type_of<Init>, T> ? local.init : -1;
    local.loop_begin = static_cast<int>(b.loop_pool.size());
    for (int l : b.loop_stack) b.loop_pool.push_back(l);
    local.loop_end = static_cast<int>(b.loop_pool.size());
    b.locals.push_back(local);
    b.local_stack.push_back(static_cast<int>(b.locals.size()) - 1);
    b.open_scope(L, scope_kind::local);
    body.describe(b);
    b.close_scope();
    b.local_stack.pop_back();
  }
};

// Where a shuffle takes lane `lane`'s value from, as CUDA's __shfl_*_sync(0xffffffff, v, operand)
// does with width 32; -1 where the lane keeps its own value (down past the last lane, up before
// the first). `operand` must lie in [0, 32): the backends check it (cpu) or pass it on (cuda).
constexpr int source_lane(shuffle_kind kind, int lane, int operand) {
  switch (kind) {
    case shuffle_kind::down: return lane + operand < warp_lanes ? lane + operand : -1;
    case shuffle_kind::up: return lane - operand >= 0 ? lane - operand : -1;
    case shuffle_kind::xor_lanes: return lane ^ operand;
    case shuffle_kind::index: return operand;
  }
  return -1;
}

// shuffle_*(k, value, operand, body): `value` of another lane of the warp (source_lane above),
// bound read-only at level L for `body`. Every lane of the warp must reach it (W031).
template <int L, class T, shuffle_kind Kind, class V, class Lane, class Body>
struct shuffle_s : stmt_node {
  V value;
  Lane lane;
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    const T theirs = c.template shuffle<Kind>(static_cast<T>(value.eval(c)), lane.eval(c));
    auto inner = c.template bind<L, T>(theirs);
    body.run(inner);
  }
  constexpr void describe(kernel_ir& b) const {
    value.describe(b);
    b.shuffle(Kind, lane.describe(b));
    // The value received is a variable at level L that differs between lanes: never uniform.
    ir_local received;
    received.level = L;
    received.assigned = true;
    b.locals.push_back(received);
    b.local_stack.push_back(static_cast<int>(b.locals.size()) - 1);
    b.open_scope(L, scope_kind::shuffle);
    body.describe(b);
    b.close_scope();
    b.local_stack.pop_back();
  }
};

// A block-shared tile of Rows elements (Cols == 0) or Rows x Cols elements with rows Cols + Pad
// apart, at level L, visible in `body`.
template <int L, class T, int Rows, int Cols, int Pad, class Body>
struct shared_s : stmt_node {
  static constexpr int elements = Cols == 0 ? Rows : Rows * (Cols + Pad);
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    auto inner = c.template bind_tile<L, T, elements, shared_s>();
    body.run(inner);
  }
  constexpr void describe(kernel_ir& b) const {
    b.tiles.push_back({L, Rows, Cols, Pad, static_cast<int>(sizeof(T))});
    b.tile_stack.push_back(static_cast<int>(b.tiles.size()) - 1);
    b.open_scope(L, scope_kind::tile);
    body.describe(b);
    b.close_scope();
    b.tile_stack.pop_back();
  }
};

}  // namespace warden::dsl
