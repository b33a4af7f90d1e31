#pragma once
// Index expressions as polynomials, and the two facts the global-memory rules need of them:
//   * injectivity: distinct threads (and iterations) never compute the same index, proved by a
//     mixed-radix argument: order the terms c_i * v_i so that every partial sum stays below the
//     next coefficient; then the index determines every v_i (like digits of a number);
//   * block separation: blocks work on disjoint windows `b * S + f(t)` with f spanning fewer than
//     S elements.
// Bounds come from the static block shape, static trip counts, and the guards around an access
// (`col < n` bounds `col` by n - 1), so `row * n + col` under `col < n` is proved injective.

#include <climits>
#include <optional>
#include <vector>

#include "../dsl/ir.hpp"
#include "polynomial.hpp"

namespace warden::check {

using dsl::kernel_ir;
using dsl::ir_op;

// What a launch fixes and the compiler cannot know: the integral value of each value parameter
// (absent_number where it has none), each buffer's size and the grid. The shared-memory listing
// reads them where the checker handed the launch its question (check_shared, launch/shared_races.hpp).
inline constexpr long long absent_number = LLONG_MIN;
struct launch_numbers {
  std::vector<long long> values;  // by parameter position
  std::vector<long long> sizes;   // by parameter position
  long long grid[3] = {1, 1, 1};
};

struct block_shape {
  int x = 1, y = 1, z = 1;
  // Set only when launch decides: every parameter, size and grid extent is then a number.
  const launch_numbers* numbers = nullptr;
  // The grid dimensions the kernel refers to (block ids, global ids, grid extents), as bits (1: x,
  // 2: y, 4: z); the others must be 1 at launch (checked there, E102), so their block ids are 0.
  // A kernel laid out along y alone is judged as one along x.
  int grid_dims = 7;
  constexpr bool grid_has(int d) const { return (grid_dims >> d & 1) != 0; }
  constexpr int extent(int d) const { return d == 0 ? x : d == 1 ? y : z; }
  constexpr int threads() const { return x * y * z; }
};

// A loop variable not fixed to one iteration (see scope::pins).
inline constexpr long long unpinned = -1;

// Where an expression is evaluated: the loops around it (a range of the loop pool), and, when the
// global rules unroll loops of constant trips (rules.hpp, check_global_pair_unrolled), the
// iteration each loop is fixed to, by loop id (unpinned: symbolic).
struct scope {
  int loop_begin = 0, loop_end = 0;
  const std::vector<long long>* pins = nullptr;
  constexpr long long pin_of(int loop) const { return pins == nullptr ? unpinned : (*pins)[static_cast<std::size_t>(loop)]; }
};

// Does the expression depend on loaded data (loads, thread-private variables whose value the
// describing could not follow, user calls)? A local read is the value it holds there
// (dsl/local_values.hpp).
constexpr bool depends_on_data(const kernel_ir& ir, int id) {
  if (id < 0) return false;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (const int held = ir.held_value(e); held >= 0) return depends_on_data(ir, held);
  switch (e.op) {
    case ir_op::load: case ir_op::tile_load: case ir_op::local_var: case ir_op::call: return true;
    default: return depends_on_data(ir, e.a) || depends_on_data(ir, e.b);
  }
}

// The grid dimensions a program refers to, as bits (1: x, 2: y, 4: z): those of its block ids,
// global ids and grid extents; 0 when it refers to none (a one-block kernel).
constexpr int grid_dims_of(const kernel_ir& ir) {
  int dims = 0;
  for (const auto& e : ir.exprs)
    if (e.op == ir_op::block_id || e.op == ir_op::global_id || e.op == ir_op::grid_dim) dims |= 1 << (e.value % 3);
  return dims;
}

// Loop `loop` if the scope is inside it (and where in the scope), else -1.
constexpr int loop_of(const kernel_ir& ir, scope s, int loop, int* position = nullptr) {
  for (int p = s.loop_end - 1; p >= s.loop_begin; --p) {
    const int l = ir.loop_pool[static_cast<std::size_t>(p)];
    if (l == loop) {
      if (position != nullptr) *position = p;
      return l;
    }
  }
  return -1;
}

// An index expression as a polynomial; invalid when it is not one (loaded data, division, masks,
// ...: W012 tells data apart through depends_on_data).
constexpr polynomial lower(const kernel_ir& ir, block_shape shape, scope s, int id) {
  if (id < 0) return polynomial::invalid();
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (const int held = ir.held_value(e); held >= 0) return lower(ir, shape, s, held);  // a local: its value here
  const int d = static_cast<int>(e.value % 3);
  switch (e.op) {
    case ir_op::constant:
      if (e.is_float) return polynomial::invalid();
      return polynomial::constant(e.value);
    case ir_op::thread_id:
      if (shape.extent(d) == 1) return polynomial::constant(0);
      return polynomial::of_symbol(symbol::thread(d));
    case ir_op::block_id:
      if (!shape.grid_has(d)) return polynomial::constant(0);
      return polynomial::of_symbol(symbol::block(d));
    case ir_op::block_dim: return polynomial::constant(shape.extent(d));
    case ir_op::grid_dim: return polynomial::of_symbol(symbol::grid_dim(d));
    case ir_op::global_id: {
      polynomial g;
      if (shape.grid_has(d)) g = polynomial::of_symbol(symbol::block(d), shape.extent(d));
      if (shape.extent(d) > 1) g = g + polynomial::of_symbol(symbol::thread(d));
      return g;
    }
    case ir_op::param_value:
      if (e.is_float) return polynomial::invalid();  // not an integer: no symbol stands for it
      return polynomial::of_symbol(symbol::param_value(static_cast<int>(e.value)));
    case ir_op::param_size: return polynomial::of_symbol(symbol::param_size(static_cast<int>(e.value)));
    case ir_op::loop_var: {
      int position = 0;
      const int l = loop_of(ir, s, static_cast<int>(e.value), &position);
      if (l < 0) return polynomial::invalid();
      const auto& loop = ir.loops[static_cast<std::size_t>(l)];
      const scope outer{s.loop_begin, position, s.pins};
      const polynomial lo = lower(ir, shape, outer, loop.lo);
      const polynomial step = lower(ir, shape, outer, loop.step);
      if (const long long k = s.pin_of(l); k != unpinned) {  // unrolled (named operands: see add, below)
        const polynomial iteration = polynomial::constant(k);
        const polynomial advanced = step * iteration;
        return lo + advanced;
      }
      const polynomial counted = step * polynomial::of_symbol(symbol::counter(l));
      return lo + counted;
    }
    case ir_op::load: case ir_op::tile_load: case ir_op::local_var: case ir_op::call: return polynomial::invalid();
    // (Operands in named locals: g++ 12 mishandles two temporaries of a class with a vector
    // member in one return expression during constant evaluation.)
    case ir_op::add: case ir_op::sub: case ir_op::mul: {
      const polynomial x = lower(ir, shape, s, e.a);
      const polynomial y = lower(ir, shape, s, e.b);
      if (e.op == ir_op::add) return x + y;
      if (e.op == ir_op::sub) return x - y;
      return x * y;
    }
    case ir_op::negate: {
      const polynomial x = lower(ir, shape, s, e.a);
      return (-1) * x;
    }
    case ir_op::shl: {
      const polynomial amount = lower(ir, shape, s, e.b);
      if (!amount.is_constant() || amount.constant_part() < 0 || amount.constant_part() > 30) return polynomial::invalid();
      const polynomial x = lower(ir, shape, s, e.a);
      return (1LL << amount.constant_part()) * x;
    }
    case ir_op::shr: case ir_op::div: case ir_op::mod: case ir_op::bit_and: case ir_op::bit_or: case ir_op::bit_xor:
    case ir_op::min: case ir_op::max: {
      // Only of constants (an unrolled loop makes `32 >> e` one): no polynomial divides or masks.
      const polynomial x = lower(ir, shape, s, e.a);
      const polynomial y = lower(ir, shape, s, e.b);
      if (!x.is_constant() || !y.is_constant()) return polynomial::invalid();
      const long long u = x.constant_part(), v = y.constant_part();
      // (A shift by 32 or more is undefined in C++ for int.)
      if ((e.op == ir_op::shr && (u < 0 || v < 0 || v >= 32)) || ((e.op == ir_op::div || e.op == ir_op::mod) && v == 0))
        return polynomial::invalid();
      long long r = 0;
      switch (e.op) {
        case ir_op::shr: r = u >> v; break;
        case ir_op::div: r = u / v; break;
        case ir_op::mod: r = u % v; break;
        case ir_op::bit_and: r = u & v; break;
        case ir_op::bit_or: r = u | v; break;
        case ir_op::bit_xor: r = u ^ v; break;
        case ir_op::min: r = u < v ? u : v; break;
        default: r = u > v ? u : v; break;
      }
      return polynomial::constant(r);
    }
    default: return polynomial::invalid();
  }
}

// A loop's iteration count when it is the same constant for every thread, else nullopt.
constexpr std::optional<long long> static_trip_count(const kernel_ir& ir, block_shape shape, int l) {
  const auto& loop = ir.loops[static_cast<std::size_t>(l)];
  if (loop.grid_stride) return std::nullopt;
  // The loop's bounds are evaluated outside it; their loops are irrelevant to constancy.
  const scope none{};
  const polynomial lo = lower(ir, shape, none, loop.lo), hi = lower(ir, shape, none, loop.hi),
                   step = lower(ir, shape, none, loop.step);
  if (!lo.is_constant() || !hi.is_constant() || !step.is_constant() || step.constant_part() <= 0) return std::nullopt;
  const long long span = hi.constant_part() - lo.constant_part();
  return span <= 0 ? 0 : (span + step.constant_part() - 1) / step.constant_part();
}

// The largest value of a variable, if bounded. (Not std::optional: nvcc's front end does not take
// an optional of a class with a vector member as a literal type.)
struct bound {
  bool bounded = false;
  polynomial max;
  constexpr explicit operator bool() const { return bounded; }
  constexpr const polynomial& operator*() const { return max; }
  constexpr const polynomial* operator->() const { return &max; }
};
constexpr bound max_of(const kernel_ir& ir, block_shape shape, int var) {
  bound b;
  if (symbol::is_thread(var)) {
    b.bounded = true;
    b.max = polynomial::constant(shape.extent(var) - 1);
  } else if (symbol::is_block(var)) {
    b.bounded = true;
    b.max = polynomial::of_symbol(symbol::grid_dim(var - 3)) - polynomial::constant(1);
  } else if (auto trips = static_trip_count(ir, shape, var - 16)) {
    b.bounded = true;
    b.max = polynomial::constant(*trips - 1);
  }
  return b;
}

// The largest value of loop l's counter as a polynomial over launch-known symbols: its constant
// trip count less one, or hi - lo - 1 for a step of 1 whose bounds the launch fixes (a loop over a
// row of `cols - 1`). Unbounded otherwise. (Where the loop runs no trip, no access in it runs.)
constexpr bound counter_max(const kernel_ir& ir, block_shape shape, int l) {
  bound b = max_of(ir, shape, symbol::counter(l));
  if (b) return b;
  const auto& loop = ir.loops[static_cast<std::size_t>(l)];
  if (loop.grid_stride) return b;
  const scope outside{0, 0, nullptr};
  const polynomial step = lower(ir, shape, outside, loop.step);
  if (!step.is_constant() || step.constant_part() != 1) return b;
  const polynomial lo = lower(ir, shape, outside, loop.lo);
  const polynomial hi = lower(ir, shape, outside, loop.hi);
  polynomial max = hi - lo;
  max = max - polynomial::constant(1);
  if (!max.valid) return b;
  for (const term& t : max.terms)
    if (variables_in(t.m) != 0) return b;  // thread-dependent (a triangular loop): not here
  b.bounded = true;
  b.max = max;
  return b;
}

// An index as sum_v coefficient(v) * v + rest, over the variables; `ok` false if not of that form.
struct linear_form {
  struct entry {
    int var = 0;
    polynomial coefficient;
  };
  std::vector<entry> terms;  // sorted by variable
  polynomial rest;
  bool ok = true;

  constexpr const polynomial* coefficient_of(int var) const {
    for (const entry& e : terms)
      if (e.var == var) return &e.coefficient;
    return nullptr;
  }
  constexpr void add(int var, const polynomial& c) {
    std::size_t i = 0;
    while (i < terms.size() && terms[i].var < var) ++i;
    if (i < terms.size() && terms[i].var == var) terms[i].coefficient = terms[i].coefficient + c;
    else terms.insert(terms.begin() + static_cast<long>(i), entry{var, c});
    if (terms[i].coefficient.terms.empty()) terms.erase(terms.begin() + static_cast<long>(i));
  }
  // The same variable part (coefficients equal), whatever the rest.
  constexpr bool same_variables(const linear_form& o) const {
    if (terms.size() != o.terms.size()) return false;
    for (std::size_t i = 0; i < terms.size(); ++i)
      if (terms[i].var != o.terms[i].var || !(terms[i].coefficient == o.terms[i].coefficient)) return false;
    return true;
  }
};

constexpr linear_form linearise(const polynomial& p) {
  linear_form f;
  if (!p.valid) {
    f.ok = false;
    return f;
  }
  for (const term& t : p.terms) {
    int var = -1;
    const int n = variables_in(t.m, &var);
    if (n == 0) f.rest.add_term(t.m, t.coefficient);
    else if (n == 1) {
      polynomial c;
      c.add_term(without(t.m, var), t.coefficient);
      f.add(var, c);
    } else {
      f.ok = false;
    }
  }
  return f;
}

// What the guards around an access say: upper bounds `bound <= 0`, and pinned variables.
struct facts {
  std::vector<polynomial> at_most_zero;
  struct pin {
    int var = 0;
    long long value = 0;
  };
  std::vector<pin> pins;

  constexpr bool pinned(int var) const {
    for (const pin& p : pins)
      if (p.var == var) return true;
    return false;
  }
};

constexpr void learn(const kernel_ir& ir, block_shape shape, scope s, int id, bool negated, facts& out) {
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  auto side = [&](int x) { return lower(ir, shape, s, x); };
  auto at_most = [&](const polynomial& a, const polynomial& b, long long slack) {  // a <= b - slack
    const polynomial f = a - b + polynomial::constant(slack);
    if (f.valid) out.at_most_zero.push_back(f);
  };
  switch (e.op) {
    case ir_op::logical_and:
      if (!negated) {
        learn(ir, shape, s, e.a, false, out);
        learn(ir, shape, s, e.b, false, out);
      }
      return;
    case ir_op::logical_or:
      if (negated) {
        learn(ir, shape, s, e.a, true, out);
        learn(ir, shape, s, e.b, true, out);
      }
      return;
    case ir_op::logical_not: learn(ir, shape, s, e.a, !negated, out); return;
    case ir_op::less: negated ? at_most(side(e.b), side(e.a), 0) : at_most(side(e.a), side(e.b), 1); return;
    case ir_op::less_equal: negated ? at_most(side(e.b), side(e.a), 1) : at_most(side(e.a), side(e.b), 0); return;
    case ir_op::greater: negated ? at_most(side(e.a), side(e.b), 0) : at_most(side(e.b), side(e.a), 1); return;
    case ir_op::greater_equal: negated ? at_most(side(e.a), side(e.b), 1) : at_most(side(e.b), side(e.a), 0); return;
    case ir_op::equal: {
      if (negated) return;
      const polynomial a = side(e.a), b = side(e.b);
      at_most(a, b, 0);
      at_most(b, a, 0);
      // `v == c` pins v; a sum of non-negative variables with positive coefficients `== 0` pins
      // them all to 0 (global_id == 0: one thread of the grid).
      for (int flip = 0; flip < 2; ++flip) {
        const linear_form f = linearise(flip == 0 ? a : b);
        const polynomial& other = flip == 0 ? b : a;
        if (!f.ok || !f.rest.terms.empty() || !other.is_constant()) continue;
        if (f.terms.size() == 1 && f.terms[0].coefficient == polynomial::constant(1)) {
          out.pins.push_back({f.terms[0].var, other.constant_part()});
        } else if (other.constant_part() == 0) {
          bool positive = true;
          for (const auto& t : f.terms) positive = positive && t.coefficient.is_constant() && t.coefficient.constant_part() > 0;
          if (positive)
            for (const auto& t : f.terms) out.pins.push_back({t.var, 0});
        }
      }
      return;
    }
    default: return;
  }
}

// What a loop says of its variable inside it: v < hi, for a loop whose step is a constant of at
// least 1 (v = lo + step * counter). The loops are those at pool positions [begin, end) of scope s.
constexpr void learn_loops(const kernel_ir& ir, block_shape shape, scope s, int begin, int end, facts& out) {
  for (int p = begin; p < end; ++p) {
    const int l = ir.loop_pool[static_cast<std::size_t>(p)];
    const auto& loop = ir.loops[static_cast<std::size_t>(l)];
    if (loop.grid_stride) continue;
    const scope outer{s.loop_begin, p, s.pins};
    const polynomial step = lower(ir, shape, outer, loop.step);
    if (!step.is_constant() || step.constant_part() < 1) continue;
    const scope inside{s.loop_begin, p + 1, s.pins};
    int var = -1;
    for (int id = 0; id < static_cast<int>(ir.exprs.size()) && var < 0; ++id)
      if (ir.exprs[static_cast<std::size_t>(id)].op == ir_op::loop_var && ir.exprs[static_cast<std::size_t>(id)].value == l) var = id;
    if (var < 0) continue;  // the variable is never read
    const polynomial v = lower(ir, shape, inside, var);
    const polynomial hi = lower(ir, shape, outer, loop.hi);
    const polynomial lo = lower(ir, shape, outer, loop.lo);
    const polynomial one = polynomial::constant(1);
    polynomial f = v - hi;
    f = f + one;
    // Constant bounds and a step above 1: v stops at its exact last value, not at hi - 1
    // (`for (i = 0; i < 32; i += 16)` ends at 16), which keeps i * height apart from the rows
    // that follow.
    if (hi.is_constant() && lo.is_constant() && step.constant_part() > 1 && hi.constant_part() > lo.constant_part()) {
      const long long last = lo.constant_part() + (hi.constant_part() - 1 - lo.constant_part()) / step.constant_part() * step.constant_part();
      f = v - polynomial::constant(last);
    }
    if (f.valid) out.at_most_zero.push_back(f);
  }
}

// Which variables may differ between the two executions compared.
struct varying {
  bool blocks = true;    // two different blocks may be compared
  bool counters = true;  // two different iterations may be compared
  bool threads = true;   // two different threads may be compared
  constexpr bool operator()(int var) const {
    return (threads && symbol::is_thread(var)) || (blocks && symbol::is_block(var)) || (counters && symbol::is_counter(var));
  }
};

// Does the polynomial hold only symbols the launch knows (parameters, sizes, grid extents), and
// at least one of them? Launch can then evaluate it.
constexpr bool launch_known(const polynomial& p) {
  if (!p.valid || p.is_constant()) return false;
  for (const term& t : p.terms)
    if (variables_in(t.m) != 0) return false;
  return true;
}

// Can no launch meet `p >= 1`? So when p reads grid extents only (no parameters or sizes), each
// in terms of negative coefficient and degree 1: p is then largest for a grid of one block, and
// below 1 there (`16 - 16 * grid_dim.x`: a row stride of 16 under a column that a grid of 16-wide
// blocks covers). Such a condition is no obligation but a refusal.
constexpr bool never_met(const polynomial& p) {
  long long at_one = 0;
  for (const term& t : p.terms) {
    const int degree = t.m.degree();
    if (degree == 0) {
      at_one += t.coefficient;
      continue;
    }
    const int s = t.m.s[0];
    if (degree > 1 || s < symbol::grid_dim(0) || s >= symbol::grid_dim(3) || t.coefficient >= 0) return false;
    at_one += t.coefficient;
  }
  return at_one < 1;
}

// How much a condition asks of a launch, for choosing among conditions: any grid extent in it
// first, then its length.
constexpr int condition_rank(const polynomial& p) {
  int grid = 0;
  for (const term& t : p.terms)
    for (int i = 0; i < t.m.degree(); ++i)
      if (t.m.s[static_cast<std::size_t>(i)] >= symbol::grid_dim(0) && t.m.s[static_cast<std::size_t>(i)] < symbol::grid_dim(3)) grid = 1;
  return grid * 1000 + static_cast<int>(p.terms.size());
}

// Is condition `a >= 1` asking less of a launch than `b >= 1`? When they differ by a constant, the
// larger is (1 - border over -border); else by condition_rank.
constexpr bool weaker(const polynomial& a, const polynomial& b) {
  const polynomial d = a - b;
  if (d.valid && d.is_constant()) return d.constant_part() > 0;
  return condition_rank(a) < condition_rank(b);
}

// Is `p >= 1` for every thread that passes the guards? Either for any values of its symbols, or
// because a guard says so: some `q <= 0` with 1 - p = q + k, k <= 0 (`when(pitch >= width, ...)`
// or `given(pitch >= width, ...)` gives width - pitch <= 0, which makes pitch - width + 1 >= 1).
constexpr bool positive_given(const polynomial& p, const facts& known) {
  if (provably_positive(p)) return true;
  const polynomial one = polynomial::constant(1);
  for (const polynomial& q : known.at_most_zero) {
    polynomial rest = one - p;
    rest = rest - q;
    if (rest.valid && rest.is_constant() && rest.constant_part() <= 0) return true;
  }
  return false;
}

// Mixed radix: does `form` take distinct values for distinct values of the varying variables?
// `initial` bounds a non-negative quantity already below the lowest term (block separation).
// With `assumed`, a digit whose coefficient exceeds the span below it only for some launches (a
// stride `pitch` above a column `x < width`: pitch - (width - 1) >= 1) may be taken when no other
// fits: the condition, over launch-known symbols, is appended to *assumed if the form is then
// proved injective (the caller turns it into a launch obligation, E106).
constexpr bool radix_injective_from(const kernel_ir& ir, block_shape shape, const linear_form& form, const facts& known,
                                    varying vary, const polynomial& initial, std::vector<polynomial>* assumed) {
  if (!form.ok) return false;
  struct item {
    int var;
    polynomial coefficient;
    bound max;
    bool flipped;  // counted downwards: the index has -coefficient
  };
  // Every variable that may differ must take part (or be pinned), or two threads differing only
  // in it would meet.
  for (int d = 0; d < 3; ++d) {
    if (vary.threads && shape.extent(d) > 1 && !known.pinned(symbol::thread(d)) && form.coefficient_of(symbol::thread(d)) == nullptr)
      return false;
    if (vary.blocks && shape.grid_has(d) && !known.pinned(symbol::block(d)) && form.coefficient_of(symbol::block(d)) == nullptr)
      return false;
  }
  std::vector<item> left;
  for (const auto& t : form.terms) {
    if (!vary(t.var) || known.pinned(t.var)) continue;  // equal on both sides: cancels
    // (No conditional between two bound temporaries: g++ 12, as in lower().)
    bound max;
    if (symbol::is_counter(t.var)) max = counter_max(ir, shape, t.var - symbol::counter(0));
    else max = max_of(ir, shape, t.var);
    item it{t.var, t.coefficient, max, false};
    // A negative constant coefficient on a bounded variable: count it downwards instead
    // (c * v with c < 0 is |c| * (max - v) - |c| * max, and max - v has the same range as v).
    if (it.coefficient.is_constant() && it.coefficient.constant_part() < 0 && it.max) {
      it.coefficient = (-1) * it.coefficient;
      it.flipped = true;
    }
    left.push_back(it);
  }
  // The bounds that guards give a low part exactly: `low + rest <= 0` gives low <= -rest (upper),
  // `-low + rest <= 0` gives low >= rest (lower), each moved by what the flips added (see below).
  auto guard_bounds = [&](const linear_form& written, const polynomial& offset, bool lower = false) {
    std::vector<polynomial> out;
    linear_form wanted;
    for (const auto& t : written.terms) {
      // (No conditional between polynomial temporaries: see lower() on g++ 12.)
      polynomial c = t.coefficient;
      if (lower) c = (-1) * t.coefficient;
      wanted.add(t.var, c);
    }
    for (const polynomial& f : known.at_most_zero) {
      const linear_form g = linearise(f);
      if (!g.ok) continue;
      linear_form vars;
      for (const auto& t : g.terms)
        if (vary(t.var) && !known.pinned(t.var)) vars.add(t.var, t.coefficient);
      if (!vars.same_variables(wanted)) continue;
      // Variables equal on both sides (not varying, or pinned) belong to the bound.
      polynomial rest = g.rest;
      for (const auto& t : g.terms)
        if (!(vary(t.var) && !known.pinned(t.var))) rest = rest + t.coefficient * polynomial::of_symbol(t.var);
      if (rest.valid) {
        polynomial moved = rest;
        if (!lower) moved = (-1) * rest;
        moved = moved + offset;
        out.push_back(moved);
      }
    }
    return out;
  };
  // The low part lies in [lower, upper] for some pair of these: a digit's coefficient must exceed
  // upper - lower (a window `W * b + t - h` under `h <= t < B - h` spans B - 2h - 1 < W).
  std::vector<polynomial> bounds{initial};  // each bounds the low part from above
  std::vector<polynomial> lowers{polynomial::constant(0)};        // each bounds it from below
  // The digits so far, twice: `low` as counted (flipped coefficients positive), `low_as_written`
  // with the signs of the index itself. A guard bounds the index as written, so it is matched
  // against low_as_written, and its bound moved by what the flips added: low = low_as_written +
  // flip_offset, flip_offset = sum over flipped digits of |c| * max.
  linear_form low, low_as_written;
  polynomial flip_offset;
  std::vector<polynomial> conditions;  // assumed so far (`>= 1` each)
  while (!left.empty()) {
    // The next digit: a coefficient above some bound of the low part; prefer constant, small ones,
    // and ones that need no assumption.
    int pick = -1, assumed_pick = -1;
    polynomial assumed_condition;
    for (int i = 0; i < static_cast<int>(left.size()); ++i) {
      const item& it = left[static_cast<std::size_t>(i)];
      bool fits = false;
      polynomial condition;
      bool condition_found = false;
      for (const polynomial& b : bounds)
        for (const polynomial& l : lowers) {
          if (fits) break;
          const polynomial span = b - l;
          const polynomial margin = it.coefficient - span;
          fits = positive_given(margin, known);
          // Of the conditions that would do, the one on values over one on the launch shape (a
          // guard's `x < width` over the grid's extent), then the shortest.
          if (!fits && assumed != nullptr && launch_known(margin) && !never_met(margin) && (!condition_found || weaker(margin, condition))) {
            condition = margin;
            condition_found = true;
          }
        }
      // Of the digits that fit under a condition, the one of smallest coefficient, as below: a
      // larger one taken first leaves the smaller one a condition no launch of several blocks meets.
      // (Smaller by the size of its terms' coefficients: 16 * height before 32 * height. A choice
      // only: the proof holds in either order, under the conditions it keeps.)
      auto size_of = [](const polynomial& p) {
        long long total = 0;
        for (const term& t : p.terms) total += t.coefficient < 0 ? -t.coefficient : t.coefficient;
        return total;
      };
      const bool smaller = assumed_pick >= 0 && size_of(it.coefficient) < size_of(left[static_cast<std::size_t>(assumed_pick)].coefficient);
      if (!fits && condition_found && (assumed_pick < 0 || smaller) && (it.max || left.size() == 1)) {
        assumed_pick = i;
        assumed_condition = condition;
      }
      if (!fits) continue;
      // An unbounded digit must come last, unless a guard bounds the low part it completes (the
      // loop bound `j < cols` of `for j = t; j < cols; j += block` bounds t + block * i).
      if (!it.max && left.size() > 1) {
        linear_form trial = low_as_written;
        trial.add(it.var, it.coefficient);
        if (guard_bounds(trial, flip_offset).empty()) continue;
      }
      if (pick < 0) {
        pick = i;
        continue;
      }
      const item& best = left[static_cast<std::size_t>(pick)];
      const bool c1 = it.coefficient.is_constant(), c2 = best.coefficient.is_constant();
      if ((c1 && !c2) || (c1 && c2 && it.coefficient.constant_part() < best.coefficient.constant_part())) pick = i;
    }
    if (pick < 0 && assumed_pick >= 0) {
      pick = assumed_pick;
      conditions.push_back(assumed_condition);
    }
    if (pick < 0) return false;
    const item it = left[static_cast<std::size_t>(pick)];
    left.erase(left.begin() + pick);
    low.add(it.var, it.coefficient);
    polynomial written = it.coefficient;
    if (it.flipped) written = (-1) * it.coefficient;
    low_as_written.add(it.var, written);
    if (it.flipped) {
      const polynomial added = it.coefficient.constant_part() * *it.max;
      flip_offset = flip_offset + added;
    }
    std::vector<polynomial> next;
    if (it.max)
      for (const polynomial& b : bounds) {
        const polynomial n = b + it.coefficient * *it.max;
        if (n.valid) next.push_back(n);
      }
    // A guard that bounds exactly the low part so far. (Lower bounds found before stay: each digit
    // adds a non-negative amount.)
    for (const polynomial& b : guard_bounds(low_as_written, flip_offset)) next.push_back(b);
    for (const polynomial& l : guard_bounds(low_as_written, flip_offset, true)) lowers.push_back(l);
    bounds = next;
    if (bounds.empty() && !left.empty()) return false;
  }
  if (assumed != nullptr)
    for (const polynomial& c : conditions) assumed->push_back(c);
  return true;
}

// The same, from a constant `initial`. (A named local, not a default argument of class type: g++ 12
// frees such a temporary too early during constant evaluation.)
constexpr bool radix_injective(const kernel_ir& ir, block_shape shape, const linear_form& form, const facts& known,
                               varying vary, long long initial = 0, std::vector<polynomial>* assumed = nullptr) {
  const polynomial start = polynomial::constant(initial);
  return radix_injective_from(ir, shape, form, known, vary, start, assumed);
}

constexpr long long floor_div(long long a, long long b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Narrows [lo, hi], the range of variable `var`, by the facts of one access's own guards: `c * var
// + r <= 0` with constant c and r, and pins. (The guards of an access hold whenever it runs.)
constexpr void narrow_by(const facts& known, int var, long long& lo, long long& hi) {
  for (const polynomial& f : known.at_most_zero) {
    const linear_form g = linearise(f);
    if (!g.ok || g.terms.size() != 1 || g.terms[0].var != var || !g.terms[0].coefficient.is_constant() || !g.rest.is_constant())
      continue;
    const long long c = g.terms[0].coefficient.constant_part(), r = g.rest.constant_part();
    if (c > 0) hi = hi < floor_div(-r, c) ? hi : floor_div(-r, c);        // var <= -r / c
    else if (c < 0) lo = lo > -floor_div(-r, -c) ? lo : -floor_div(-r, -c);  // var >= r / |c|
  }
  for (const auto& p : known.pins)
    if (p.var == var) lo = hi = p.value;
}

// The range [lo, hi] of sum c_v * v over thread variables and static counters, with constant c_v,
// narrowed by `own`, the facts of the guards of the access the form belongs to (if given).
struct span_range {
  long long lo = 0, hi = 0;
  bool ok = true;
};
constexpr span_range range_of(const kernel_ir& ir, block_shape shape, const linear_form& form, varying vary,
                              const facts* own = nullptr) {
  span_range r;
  for (const auto& t : form.terms) {
    if (symbol::is_block(t.var)) continue;
    if (!vary(t.var)) continue;
    const auto max = max_of(ir, shape, t.var);
    if (!t.coefficient.is_constant() || !max || !max->is_constant()) {
      r.ok = false;
      return r;
    }
    long long lo = 0, hi = max->constant_part();  // thread ids and iteration counters start at 0
    if (own != nullptr) {
      long long nlo = lo, nhi = hi;
      narrow_by(*own, t.var, nlo, nhi);
      if (nlo <= nhi) {  // (guards that exclude every value leave the plain range: still a bound)
        lo = nlo;
        hi = nhi;
      }
    }
    const long long c = t.coefficient.constant_part();
    r.lo += c < 0 ? c * hi : c * lo;
    r.hi += c < 0 ? c * lo : c * hi;
  }
  return r;
}

}  // namespace warden::check
