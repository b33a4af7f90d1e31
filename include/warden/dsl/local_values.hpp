#pragma once
// What a thread-private variable holds where it is read (issue 56): the describing follows each
// local's value through the program, as a compiler's SSA form does, so that the launch-time checks
// can read `b` in `B[b + wB * ty + tx]` as `bBegin + trip * bStep`, and `computed` in
// `when(computed, out[x] = ...)` as the last trip's condition.
//
//   * An assignment of an integer whose every value the local's type holds sets the value; any
//     other (a conversion that may change it) makes it unknown (-1).
//   * A branch merges: after `when(c, x = e)`, x holds select(c, e, x before).
//   * A loop: at the start of a trip a local holds a placeholder (a read of it) whose value is
//     decided when the body has been described: the value before the loop where the body leaves
//     the local alone; `before + k * c` where the body adds a trip-invariant c once per trip (an
//     induction variable, k the trip's number), `before - k * c`, `before << (k * c)` for
//     `x <<= c` or `x *= 2^c`, `before >> (k * c)` for `x >>= c` (a doubling or halving offset);
//     else unknown. After the loop, a local the body
//     changes holds select(lo < hi, its value at the end of the last trip, its value before) where
//     that end value depends on the trip only through the loop's counter; else unknown.
//
// A read records the value in ir_expr::held. The static rules never look there (a local is data to
// them); the launch-time checks read through it (kernel_ir::held_value). Every expression built
// here is exact: the values of the program's own types, whose arithmetic E104 checks where it
// could leave them.
#include <vector>

#include "ir.hpp"

namespace warden::dsl {

// A read of the local declared at `level` in scope: a local_var node holding its current value.
constexpr int read_local(kernel_ir& b, int level, bool is_unsigned) {
  const int local = b.local_at(level);
  const int id = b.leaf(ir_op::local_var, local, is_unsigned);
  if (local >= 0) b.exprs[static_cast<std::size_t>(id)].held = b.locals[static_cast<std::size_t>(local)].value;
  return id;
}

// `x = value` for the local declared at `level` in scope; value -1: not an exact integer of x's type.
constexpr void assign_local(kernel_ir& b, int level, int value) {
  const int local = b.local_at(level);
  if (local < 0) return;
  ir_local& l = b.locals[static_cast<std::size_t>(local)];
  l.assigned = true;
  l.value = l.bits > 0 ? value : -1;
}

// `x op= value`: the operation in the type it computes in, exact where that is x's type.
constexpr void assign_local(kernel_ir& b, int level, ir_op op, int value, bool exact, int unsigned_bits, int signed_bits) {
  const int local = b.local_at(level);
  if (local < 0) return;
  const int now = b.locals[static_cast<std::size_t>(local)].value;
  assign_local(b, level, exact && now >= 0 && value >= 0 ? b.node(op, now, value, false, unsigned_bits, signed_bits) : -1);
}

namespace local_values_impl {
constexpr std::vector<int> values(const kernel_ir& b) {
  std::vector<int> v;
  v.reserve(b.locals.size());
  for (const ir_local& l : b.locals) v.push_back(l.value);
  return v;
}
constexpr void restore(kernel_ir& b, const std::vector<int>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) b.locals[i].value = v[i];
}
constexpr int select(kernel_ir& b, int condition, int yes, int no) {
  if (yes == no) return yes;
  if (yes < 0 || no < 0 || condition < 0) return -1;
  return b.node(ir_op::select, condition, b.node(ir_op::choice, yes, no));
}
}  // namespace local_values_impl

// when(c, then).otherwise(else): begin_branch before `then`, begin_otherwise between, end_branch after.
struct branch_values {
  std::vector<int> before, taken;
};
constexpr branch_values begin_branch(const kernel_ir& b) { return {local_values_impl::values(b), {}}; }
constexpr void begin_otherwise(kernel_ir& b, branch_values& s) {
  s.taken = local_values_impl::values(b);
  local_values_impl::restore(b, s.before);
}
constexpr void end_branch(kernel_ir& b, const branch_values& s, int condition) {
  // Locals declared inside a branch are out of scope now: only those declared before are merged.
  for (std::size_t i = 0; i < s.before.size(); ++i)
    b.locals[i].value = local_values_impl::select(b, condition, s.taken[i], b.locals[i].value);
}

// A loop's body: enter_loop_values after the loop is entered (kernel_ir::enter_loop), exit_loop_values
// after its body, while the loop is still innermost.
struct loop_values {
  int first = 0;                  // the first expression id made inside the loop
  std::vector<int> before;        // each local's value before the loop
  std::vector<int> placeholder;   // each local's read at the start of a trip; -1: none
};

constexpr loop_values enter_loop_values(kernel_ir& b) {
  loop_values s;
  s.first = static_cast<int>(b.exprs.size());
  s.before = local_values_impl::values(b);
  s.placeholder.assign(b.locals.size(), -1);
  for (const int local : b.local_stack) {
    ir_local& l = b.locals[static_cast<std::size_t>(local)];
    if (l.value < 0) continue;  // unknown before: unknown at every trip's start
    const int p = b.leaf(ir_op::local_var, local, l.is_unsigned);
    b.exprs[static_cast<std::size_t>(p)].held = l.value;
    s.placeholder[static_cast<std::size_t>(local)] = p;
    l.value = p;
  }
  return s;
}

namespace local_values_impl {
// Whether expression `id` takes one value in every trip of the loop `s` describes (where
// `counter_too`, also: or depends on the trip only through the loop's counter).
constexpr bool trip_invariant(const kernel_ir& b, const loop_values& s, int loop, int id, bool counter_too,
                              std::vector<signed char>& memo) {
  if (id < s.first) return true;  // made before the loop: one value throughout it
  signed char& known = memo[static_cast<std::size_t>(id - s.first)];
  if (known != 0) return known > 0;
  const ir_expr& e = b.exprs[static_cast<std::size_t>(id)];
  bool r = true;
  switch (e.op) {
    case ir_op::local_var: r = e.held >= 0 && trip_invariant(b, s, loop, e.held, counter_too, memo); break;
    case ir_op::load: case ir_op::tile_load: case ir_op::call: r = false; break;
    case ir_op::loop_var: {
      r = counter_too && e.value == loop;
      for (const int open : b.loop_stack) r = r || (open == e.value && open != loop);
      break;
    }
    default:
      r = (e.a < 0 || trip_invariant(b, s, loop, e.a, counter_too, memo)) &&
          (e.b < 0 || trip_invariant(b, s, loop, e.b, counter_too, memo));
  }
  known = r ? 1 : -1;
  return r;
}

// Expression `id` with the loop's counter replaced by `counter` (a copy of each node made inside
// the loop that reads it).
constexpr int with_counter(kernel_ir& b, const loop_values& s, int loop, int id, int counter, std::vector<int>& memo) {
  if (id < s.first) return id;
  if (memo[static_cast<std::size_t>(id - s.first)] >= 0) return memo[static_cast<std::size_t>(id - s.first)];
  ir_expr e = b.exprs[static_cast<std::size_t>(id)];
  int r = id;
  if (e.op == ir_op::loop_var && e.value == loop) {
    r = counter;
  } else if (e.op == ir_op::local_var) {
    if (e.held >= 0) {
      e.held = with_counter(b, s, loop, e.held, counter, memo);
      b.exprs.push_back(e);
      r = static_cast<int>(b.exprs.size()) - 1;
    }
  } else if (e.a >= 0 || e.b >= 0) {
    if (e.a >= 0) e.a = with_counter(b, s, loop, e.a, counter, memo);
    if (e.b >= 0) e.b = with_counter(b, s, loop, e.b, counter, memo);
    b.exprs.push_back(e);
    r = static_cast<int>(b.exprs.size()) - 1;
  }
  memo[static_cast<std::size_t>(id - s.first)] = r;
  return r;
}

// How a trip changes an induction variable: `x = x + c` (or `c + x`), `x - c`, `x << c`, `x >> c`,
// `x * 2^m` (a shift by m), x's trip-start read being `placeholder` and c trip-invariant.
struct induction {
  ir_op op = ir_op::add;  // add, sub, shl or shr
  int step = -1;          // c; -1: not an induction variable
  long long shift = -1;   // x * 2^m: m, and step is -1 until a constant is made for it
};
constexpr induction induction_of(const kernel_ir& b, const loop_values& s, int loop, int end, int placeholder,
                                 std::vector<signed char>& memo) {
  const ir_expr& e = b.exprs[static_cast<std::size_t>(end)];
  auto is_start = [&](int id) {
    if (id == placeholder) return true;
    const ir_expr& r = b.exprs[static_cast<std::size_t>(id)];
    return r.op == ir_op::local_var && r.held == placeholder;
  };
  induction found;
  switch (e.op) {
    case ir_op::add:
      found.step = is_start(e.a) ? e.b : is_start(e.b) ? e.a : -1;
      break;
    case ir_op::sub: case ir_op::shl: case ir_op::shr:
      found.step = is_start(e.a) ? e.b : -1;
      break;
    case ir_op::mul: {  // by a constant power of two: a shift
      const int other = is_start(e.a) ? e.b : is_start(e.b) ? e.a : -1;
      if (other < 0) return {};
      const ir_expr& c = b.exprs[static_cast<std::size_t>(other)];
      if (c.op != ir_op::constant || c.is_float || c.value < 1 || (c.value & (c.value - 1)) != 0) return {};
      found.op = ir_op::shl;
      found.shift = 0;
      for (long long v = c.value; v > 1; v >>= 1) ++found.shift;
      return found;
    }
    default: return {};
  }
  if (found.step < 0 || !trip_invariant(b, s, loop, found.step, false, memo)) return {};
  found.op = e.op;
  return found;
}
}  // namespace local_values_impl

constexpr void exit_loop_values(kernel_ir& b, const loop_values& s) {
  using namespace local_values_impl;
  const int loop = b.loop_stack.back();
  const ir_loop shape = b.loops[static_cast<std::size_t>(loop)];
  const std::size_t n = s.before.size();
  // The locals the body changes; their trip-start reads are unknown until shown otherwise.
  std::vector<int> end(n, -1);
  std::vector<char> changed(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    end[i] = b.locals[i].value;
    const int start = s.placeholder[i] >= 0 ? s.placeholder[i] : s.before[i];
    changed[i] = end[i] != start;
    if (changed[i] && s.placeholder[i] >= 0) b.exprs[static_cast<std::size_t>(s.placeholder[i])].held = -1;
  }
  // Induction variables: the trip-start value is before + k * c, k = (counter - lo) / step.
  std::vector<int> formula(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (!changed[i] || s.placeholder[i] < 0 || end[i] < 0 || shape.grid_stride) continue;
    std::vector<signed char> memo(b.exprs.size() - static_cast<std::size_t>(s.first), 0);
    induction step = induction_of(b, s, loop, end[i], s.placeholder[i], memo);
    if (step.shift >= 0) step.step = b.constant(step.shift, false);
    if (step.step < 0) continue;
    const ir_local& l = b.locals[i];
    const int unsigned_bits = l.is_unsigned ? l.bits : 0, signed_bits = l.is_unsigned ? 0 : l.bits;
    const int counter = b.leaf(ir_op::loop_var, loop);
    const int k = b.node(ir_op::div, b.node(ir_op::sub, counter, shape.lo), shape.step);
    // k steps at once: x + k * c, x - k * c, x << (k * c), x >> (k * c) (shifts compose, and one
    // by the type's width or more is not written by the checks: unknown there).
    const bool shift = step.op == ir_op::shl || step.op == ir_op::shr;
    const int amount = b.node(ir_op::mul, k, step.step, false, shift ? 0 : unsigned_bits, shift ? 0 : signed_bits);
    formula[i] = b.node(step.op, s.before[i], amount, false, unsigned_bits, signed_bits);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (formula[i] >= 0) b.exprs[static_cast<std::size_t>(s.placeholder[i])].held = formula[i];
  // After the loop: its value at the end of the last trip where the loop runs, else its value before.
  int counter = -1, runs = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!changed[i]) {
      b.locals[i].value = s.before[i];
      continue;
    }
    b.locals[i].value = -1;
    if (s.before[i] < 0 || end[i] < 0 || shape.grid_stride) continue;
    std::vector<signed char> memo(b.exprs.size() - static_cast<std::size_t>(s.first), 0);
    if (!trip_invariant(b, s, loop, end[i], true, memo)) continue;
    if (counter < 0) {
      // The last trip's counter: lo + ((hi - 1 - lo) / step) * step, in the integers (lo < hi).
      const ir_expr step = b.exprs[static_cast<std::size_t>(shape.step)];  // a copy: node() grows exprs
      const int last = b.node(ir_op::sub, shape.hi, b.constant(1, false));
      counter = step.op == ir_op::constant && step.value == 1
                    ? last
                    : b.node(ir_op::add, shape.lo,
                             b.node(ir_op::mul, b.node(ir_op::div, b.node(ir_op::sub, last, shape.lo), shape.step), shape.step));
      runs = b.node(ir_op::less, shape.lo, shape.hi);
    }
    std::vector<int> copies(b.exprs.size() - static_cast<std::size_t>(s.first), -1);
    const int at_last = with_counter(b, s, loop, end[i], counter, copies);
    b.locals[i].value = select(b, runs, at_last, s.before[i]);
  }
}

}  // namespace warden::dsl
