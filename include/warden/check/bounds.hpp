#pragma once
// Launch-time bounds (E101): the largest and smallest index each access can reach, from its
// symbolic form, the launch geometry, the value parameters and the buffer sizes, narrowed by the
// guards that enclose it. An interval analysis over the value-level description (dsl/ir.hpp):
//   * thread, block and global ids range over the launch; loop variables over their loop;
//   * `when(a < b, ...)` narrows a (likewise <=, >, >=, &&, and the negations in otherwise
//     branches) when a is made of ids, loop variables, parameters and sizes only, since those keep
//     their value inside the guarded statements; a narrowed expression is recognised wherever it
//     appears again, by its shape;
//   * loaded values, thread-private variables and user functions are unbounded, so an index made
//     of them must be clamped (min, %, &) to pass.
// Sound: the interval always contains every index the access can take.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../detail/dims3.hpp"
#include "../dsl/ir.hpp"
#include "launch_checks.hpp"
#include "rules.hpp"

namespace warden::check {

struct interval {
  long long lo = std::numeric_limits<long long>::min();
  long long hi = std::numeric_limits<long long>::max();
  bool bounded() const {
    return lo != std::numeric_limits<long long>::min() && hi != std::numeric_limits<long long>::max();
  }
  static interval top() { return {}; }
  static interval point(long long v) { return {v, v}; }
};

namespace bounds_impl {

constexpr long long big = std::numeric_limits<long long>::max() / 4;

inline long long clamp(long double v) {
  if (v > static_cast<long double>(big)) return std::numeric_limits<long long>::max();
  if (v < -static_cast<long double>(big)) return std::numeric_limits<long long>::min();
  return static_cast<long long>(v);
}

inline interval combine(dsl::ir_op op, interval a, interval b) {
  using dsl::ir_op;
  if (op >= ir_op::less && op <= ir_op::logical_or) return {0, 1};
  // min and max are exact on intervals, infinite ends included.
  if (op == ir_op::min) return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  if (op == ir_op::max) return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  if (!a.bounded() || !b.bounded()) {
    // A bounded positive modulus or mask still bounds the result.
    if (op == ir_op::mod && b.bounded() && b.lo > 0) {
      const long long m = b.hi - 1;  // the sign follows the dividend
      return {a.lo >= 0 ? 0 : -m, m};
    }
    if (op == ir_op::bit_and && b.bounded() && b.lo >= 0) return {0, b.hi};
    if (op == ir_op::bit_and && a.bounded() && a.lo >= 0) return {0, a.hi};
    return interval::top();
  }
  auto ld = [](long long v) { return static_cast<long double>(v); };
  switch (op) {
    case ir_op::add: return {clamp(ld(a.lo) + ld(b.lo)), clamp(ld(a.hi) + ld(b.hi))};
    case ir_op::sub: return {clamp(ld(a.lo) - ld(b.hi)), clamp(ld(a.hi) - ld(b.lo))};
    case ir_op::mul: {
      const long double p[] = {ld(a.lo) * ld(b.lo), ld(a.lo) * ld(b.hi), ld(a.hi) * ld(b.lo), ld(a.hi) * ld(b.hi)};
      return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
    }
    case ir_op::div:
      if (b.lo > 0) {  // C++ truncates toward zero
        const long double p[] = {ld(a.lo) / ld(b.lo), ld(a.lo) / ld(b.hi), ld(a.hi) / ld(b.lo), ld(a.hi) / ld(b.hi)};
        return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
      }
      return interval::top();
    case ir_op::mod:
      if (b.lo > 0) {
        if (a.lo >= 0) return {0, std::min(a.hi, b.hi - 1)};
        return {-(b.hi - 1), b.hi - 1};
      }
      return interval::top();
    // A shift by 32 or more is undefined in C++ for int (x86 shifts by the amount mod 32): unbounded.
    // x << s is x * 2^s (C++20, negative x too; E104 checks the result stays in the type), and
    // x >> s rounds toward minus infinity: both are monotone in x and in s, so the corners bound
    // them. Exact here because the checker's polynomials (affine.hpp) take x << c as 2^c * x: an
    // interval that gave up would hide an overflow the polynomial reasons past.
    case ir_op::shl:
      if (b.lo >= 0 && b.hi <= 30) {
        const long double p[] = {ld(a.lo) * ld(1LL << b.lo), ld(a.lo) * ld(1LL << b.hi), ld(a.hi) * ld(1LL << b.lo),
                                 ld(a.hi) * ld(1LL << b.hi)};
        return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
      }
      return interval::top();
    case ir_op::shr:
      if (b.lo >= 0 && b.hi <= 31) {
        const long long p[] = {a.lo >> b.lo, a.lo >> b.hi, a.hi >> b.lo, a.hi >> b.hi};
        return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
      }
      return interval::top();
    case ir_op::bit_and:
      if (a.lo >= 0 && b.lo >= 0) return {0, std::min(a.hi, b.hi)};
      if (b.lo >= 0) return {0, b.hi};
      if (a.lo >= 0) return {0, a.hi};
      [[fallthrough]];
    case ir_op::bit_or:
    case ir_op::bit_xor: {
      if (a.lo >= 0 && b.lo >= 0) {
        long long m = std::max(a.hi, b.hi), p = 1;
        while (p <= m && p < big) p <<= 1;
        return {0, p - 1};
      }
      // Operands in [-2^k, 2^k - 1] (two's complement, k bits and a sign): so is the result.
      long long p = 1;
      while ((p < -a.lo || p < -b.lo || p <= a.hi || p <= b.hi) && p < big) p <<= 1;
      return {-p, p - 1};
    }
    default: return interval::top();
  }
}

}  // namespace bounds_impl

// Evaluates expression intervals for one access, with the narrowing its guards allow.
class interval_evaluator {
 public:
  interval_evaluator(const dsl::kernel_ir& ir, const launch_facts& facts) : ir_(ir), facts_(facts) {}

  // The interval of expression `id` with the accesses' guards [guard_begin, guard_end) applied.
  interval index_interval(int id, int guard_begin, int guard_end) {
    narrowed_.clear();
    for (int g = guard_begin; g < guard_end; ++g) {
      const dsl::ir_guard& guard = ir_.guard_pool[static_cast<std::size_t>(g)];
      narrow(guard.condition, !guard.negated);
    }
    return eval(id);
  }

  // The first operation under `id` carried out in an unsigned type (dsl::ir_expr::unsigned_bits)
  // that may wrap here: an operand below 0 or a result outside the type's range, with the guards
  // [guard_begin, guard_end) applied, and the right operand of && and || narrowed by the left.
  // Operations on loaded data are left out: they are data to the checker, whatever they compute.
  // Returns -1 if none; *reached gets the offending end of the interval.
  int first_wrap(int id, int guard_begin, int guard_end, long long* reached) {
    narrowed_.clear();
    for (int g = guard_begin; g < guard_end; ++g) {
      const dsl::ir_guard& guard = ir_.guard_pool[static_cast<std::size_t>(g)];
      narrow(guard.condition, !guard.negated);
    }
    return wrap_in(id, reached);
  }

  // Can any thread pass the guards [guard_begin, guard_end) for this launch? False when they narrow
  // some value they compare to nothing (`x < size - 1 - t` with size == 0 and t == 0).
  bool may_run(int guard_begin, int guard_end) {
    narrowed_.clear();
    for (int g = guard_begin; g < guard_end; ++g) {
      const dsl::ir_guard& guard = ir_.guard_pool[static_cast<std::size_t>(g)];
      narrow(guard.condition, !guard.negated);
    }
    for (int g = guard_begin; g < guard_end; ++g)
      if (empty_somewhere(ir_.guard_pool[static_cast<std::size_t>(g)].condition)) return false;
    return true;
  }

  // Does loop `loop` run no trip in any thread, for this launch and under the guards may_run last
  // narrowed by (`grid_stride(k, x.size() / 4, ...)` with x.size() < 4)? Its body's accesses then
  // never run either, and the intervals of its variable mean nothing.
  bool never_runs(const dsl::ir_loop& loop) {
    const interval lo = eval(loop.lo), hi = eval(loop.hi);
    return lo.bounded() && hi.bounded() && hi.hi <= lo.lo;
  }

  interval eval(int id) {
    // A floating-point value is no integer: no interval of integers bounds it, and a guard on an
    // integer expression that renders alike (`t + 2` for `t + 2.9f`) says nothing about it.
    if (ir_.exprs[static_cast<std::size_t>(id)].is_float) return interval::top();
    interval base = eval_unnarrowed(id);
    if (!narrowed_.empty()) {
      auto it = narrowed_.find(key(id));
      if (it != narrowed_.end()) base = {std::max(base.lo, it->second.lo), std::min(base.hi, it->second.hi)};
    }
    return base;
  }

 private:
  bool empty_somewhere(int id) {
    if (id < 0) return false;
    const interval v = eval(id);
    if (v.lo > v.hi) return true;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (is_atom(e)) return false;
    return empty_somewhere(e.a) || empty_somewhere(e.b);
  }

  interval eval_unnarrowed(int id) {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (is_atom(e)) return atom(e);
    switch (e.op) {
      case ir_op::constant: return e.is_float ? interval::top() : interval::point(e.value);
      case ir_op::block_dim: return interval::point(facts_.block[static_cast<int>(e.value)]);
      case ir_op::grid_dim: return interval::point(facts_.grid[static_cast<int>(e.value)]);
      case ir_op::param_value: {
        const auto p = static_cast<std::size_t>(e.value);
        if (p < facts_.values.size() && facts_.values[p]) return interval::point(*facts_.values[p]);
        interval unknown = interval::top();
        if (e.is_unsigned) unknown.lo = 0;
        return unknown;
      }
      case ir_op::param_size: return interval::point(facts_.sizes[static_cast<std::size_t>(e.value)]);
      case ir_op::load:
      case ir_op::tile_load:
        // A narrow integral type bounds what any load can give (uint8_t: 0..255).
        if (e.narrow_bits > 0) {
          const long long span = 1LL << e.narrow_bits;
          return e.is_unsigned ? interval{0, span - 1} : interval{-span / 2, span / 2 - 1};
        }
        [[fallthrough]];
      case ir_op::local_var:
      case ir_op::call: {
        interval unknown = interval::top();
        if (e.is_unsigned) unknown.lo = 0;  // an unsigned value is never negative
        return unknown;
      }
      case ir_op::negate: {
        const interval a = eval(e.a);
        return a.bounded() ? interval{-a.hi, -a.lo} : interval::top();
      }
      case ir_op::logical_not: return {0, 1};
      case ir_op::bit_not: {  // ~x == -x - 1
        const interval a = eval(e.a);
        return a.bounded() ? interval{-a.hi - 1, -a.lo - 1} : interval::top();
      }
      case ir_op::select: return eval(e.b);
      case ir_op::choice: {  // either side: the hull
        const interval x = eval(e.a), y = eval(e.b);
        return {std::min(x.lo, y.lo), std::max(x.hi, y.hi)};
      }
      default: {
        const interval a = eval(e.a), b = e.b >= 0 ? eval(e.b) : interval::top();
        // Carried out in an unsigned type: integer arithmetic only while no operand or result
        // leaves the type. E104 refuses launches where that fails without data deciding it; with
        // loaded data it is checked here: otherwise the result is anywhere in the type.
        const bool data = e.unsigned_bits > 0 && depends_on_data(ir_, id);
        if (data && e.unsigned_bits < 64) {
          const long long top = (1LL << e.unsigned_bits) - 1;
          auto inside = [&](interval v) { return v.bounded() && v.lo >= 0 && v.hi <= top; };
          // Each operand converted to the type: where it may leave it, anywhere in it.
          const interval ua = inside(a) ? a : interval{0, top}, ub = e.b < 0 || inside(b) ? b : interval{0, top};
          const interval r = bounds_impl::combine(e.op, ua, ub);
          using dsl::ir_op;
          const bool may_wrap = e.op == ir_op::add || e.op == ir_op::sub || e.op == ir_op::mul || e.op == ir_op::shl ||
                                e.op == ir_op::negate || e.op == ir_op::bit_not;
          if (e.op >= ir_op::less && e.op <= ir_op::logical_or) return r;
          if (!inside(r)) return may_wrap ? interval{0, top} : interval{std::max(0LL, r.lo), std::min(top, r.hi)};
          return r;
        }
        if (data) return interval::top();
        const interval r = bounds_impl::combine(e.op, a, b);
        // Signed arithmetic on data that may leave int: it wraps on the device (E104 looks only
        // where no data decides), so the result is anywhere.
        if (e.signed_bits == 32 && r.bounded() && (r.lo < std::numeric_limits<int>::min() || r.hi > std::numeric_limits<int>::max()) &&
            depends_on_data(ir_, id))
          return interval::top();
        return r;
      }
    }
  }

  int wrap_in(int id, long long* reached) {
    if (id < 0) return -1;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (e.op < ir_op::add) return -1;  // a leaf
    if (e.op == ir_op::logical_and || e.op == ir_op::logical_or) {
      if (const int w = wrap_in(e.a, reached); w >= 0) return w;
      const auto saved = narrowed_;
      narrow(e.a, e.op == ir_op::logical_and);  // the right side runs only when the left decides nothing
      const int w = wrap_in(e.b, reached);
      narrowed_ = saved;
      return w;
    }
    if (const int w = wrap_in(e.a, reached); w >= 0) return w;
    if (const int w = wrap_in(e.b, reached); w >= 0) return w;
    const bool arithmetic = e.op == ir_op::add || e.op == ir_op::sub || e.op == ir_op::mul || e.op == ir_op::shl ||
                            e.op == ir_op::negate || e.op == ir_op::bit_not;
    if (e.signed_bits == 32 && arithmetic && !depends_on_data(ir_, id)) {
      // Signed overflow: undefined in C++, a wrap on the device.
      const interval r = eval_unnarrowed(id);
      if (!r.bounded()) {
        // Unbounded because an input is (a loop bound the launch cannot see), or because the
        // arithmetic itself runs past what intervals hold: it may overflow. Unbounded only
        // because a shift's amount or a divisor is not known well enough (`1 << (i1 - 1 - i2)`),
        // the operation is none the checker lowers to a polynomial (affine.hpp wants constant
        // amounts and divisors), the footprints take an int result outside int as unknown
        // (tape.hpp), and an index it reaches is E101's.
        if (!may_overflow_unbounded(id)) return -1;
        *reached = r.lo == std::numeric_limits<long long>::min() ? r.lo : r.hi;
        return id;
      }
      if (r.lo < std::numeric_limits<int>::min() || r.hi > std::numeric_limits<int>::max()) {
        *reached = r.lo < std::numeric_limits<int>::min() ? r.lo : r.hi;
        return id;
      }
      return -1;
    }
    if (e.unsigned_bits == 0 || depends_on_data(ir_, id)) return -1;
    const long long top = e.unsigned_bits >= 64 ? std::numeric_limits<long long>::max() : (1LL << e.unsigned_bits) - 1;
    auto outside = [&](interval v) {
      if (!v.bounded() || v.lo < 0) {
        *reached = v.lo;
        return true;
      }
      if (v.hi > top) {
        *reached = v.hi;
        return true;
      }
      return false;
    };
    if (outside(eval(e.a)) || (e.b >= 0 && outside(eval(e.b)))) return id;  // converted with a wrap
    if (arithmetic && outside(eval_unnarrowed(id))) return id;
    return -1;
  }

  // Why an expression's interval is unbounded: true if an input is (an id, a loop variable, a
  // parameter without bound) or arithmetic on bounded operands ran past what intervals hold (an
  // overflow), false if only a shift's amount or a divisor not known well enough lost it.
  bool may_overflow_unbounded(int id) {
    if (id < 0) return false;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.a < 0 && e.b < 0) return !eval(id).bounded();
    const bool a_bounded = eval(e.a).bounded(), b_bounded = e.b < 0 || eval(e.b).bounded();
    using dsl::ir_op;
    if (a_bounded && b_bounded) {
      const bool lossy = e.op == ir_op::shl || e.op == ir_op::shr || e.op == ir_op::div || e.op == ir_op::mod;
      return !lossy && !eval(id).bounded();
    }
    return (!a_bounded && may_overflow_unbounded(e.a)) || (!b_bounded && may_overflow_unbounded(e.b));
  }

  static bool is_atom(const dsl::ir_expr& e) {
    using dsl::ir_op;
    return e.op == ir_op::thread_id || e.op == ir_op::block_id || e.op == ir_op::global_id || e.op == ir_op::loop_var;
  }

  // The shape of an expression: equal for two descriptions of the same expression.
  std::string key(int id) const { return dsl::render(ir_, id, {}); }

  // Whether the expression keeps its value inside a guarded region: no loads, locals or calls.
  bool invariant(int id) const {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (e.op == ir_op::load || e.op == ir_op::tile_load || e.op == ir_op::local_var || e.op == ir_op::call) return false;
    return (e.a < 0 || invariant(e.a)) && (e.b < 0 || invariant(e.b));
  }

  interval atom(const dsl::ir_expr& e) {
    using dsl::ir_op;
    const int d = static_cast<int>(e.value % 3);
    switch (e.op) {
      case ir_op::thread_id: return {0, facts_.block[d] - 1};
      case ir_op::block_id: return {0, facts_.grid[d] - 1};
      case ir_op::global_id: {
        // block_id * block + thread_id, each as its guards narrow it: `t < 2` bounds a halo load
        // at `global_id + block` to the first two threads of each block.
        const char* dims[] = {".x", ".y", ".z"};
        const interval t = narrowed_atom(std::string("thread_id") + dims[d], {0, facts_.block[d] - 1});
        const interval b = narrowed_atom(std::string("block_id") + dims[d], {0, facts_.grid[d] - 1});
        if (t.lo > t.hi || b.lo > b.hi) return {0, static_cast<long long>(facts_.grid[d]) * facts_.block[d] - 1};
        return {b.lo * facts_.block[d] + t.lo, b.hi * facts_.block[d] + t.hi};
      }
      default: {  // loop variable: the range of its own loop
        if (e.value >= 0 && e.value < static_cast<long long>(ir_.loops.size()))
          return loop_range(ir_.loops[static_cast<std::size_t>(e.value)]);
        return interval::top();
      }
    }
  }

  // An atom's range, narrowed by the guards that name it by this rendering.
  interval narrowed_atom(const std::string& key, interval range) const {
    const auto it = narrowed_.find(key);
    if (it == narrowed_.end()) return range;
    return {std::max(range.lo, it->second.lo), std::min(range.hi, it->second.hi)};
  }

  interval loop_range(const dsl::ir_loop& loop) {
    const interval lo = eval(loop.lo), hi = eval(loop.hi), step = eval(loop.step);
    if (!lo.bounded() || !step.bounded() || step.lo < 1) return interval::top();
    if (!hi.bounded()) return {lo.lo, interval::top().hi};  // counts up from lo: a guard may bound the rest
    // One start and one step: the last value the loop takes, not hi - 1 (`for i = 0; i < 32;
    // i += 16` takes 0 and 16).
    if (lo.lo == lo.hi && step.lo == step.hi && hi.hi - 1 >= lo.lo)
      return {lo.lo, lo.lo + step.lo * ((hi.hi - 1 - lo.lo) / step.lo)};
    return {lo.lo, std::max(lo.lo, hi.hi - 1)};
  }

  // Records what `condition == holds` says about atoms.
  void narrow(int condition, bool holds) {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(condition)];
    using dsl::ir_op;
    if (e.op == ir_op::logical_not) return narrow(e.a, !holds);
    if (e.op == ir_op::logical_and && holds) {
      narrow(e.a, true);
      narrow(e.b, true);
      return;
    }
    if (e.op == ir_op::logical_or && !holds) {
      narrow(e.a, false);
      narrow(e.b, false);
      return;
    }
    // A comparison with a floating-point side is carried out in floating point: `p < 3` leaves
    // p = 2.9, so the integer step of a strict bound does not apply. Such guards narrow nothing.
    if (e.op >= ir_op::less && e.op <= ir_op::equal &&
        (ir_.exprs[static_cast<std::size_t>(e.a)].is_float || ir_.exprs[static_cast<std::size_t>(e.b)].is_float))
      return;
    if (e.op == ir_op::equal && holds) {
      const interval left = eval(e.a), right = eval(e.b);
      bound_atom(e.a, ir_op::greater_equal, right);
      bound_atom(e.a, ir_op::less_equal, right);
      bound_atom(e.b, ir_op::greater_equal, left);
      bound_atom(e.b, ir_op::less_equal, left);
      return;
    }
    if ((e.op == ir_op::not_equal && holds) || (e.op == ir_op::equal && !holds)) {
      // x != c with x's interval ending at c: the end moves in (the otherwise branch of i == 0,
      // with i >= 0, has i >= 1).
      for (int side = 0; side < 2; ++side) {
        const int subject = side == 0 ? e.a : e.b;
        const interval other = eval(side == 0 ? e.b : e.a);
        if (other.lo != other.hi) continue;
        const interval now = eval(subject);
        if (now.lo == other.lo) bound_atom(subject, ir_op::greater, other);
        if (now.hi == other.hi) bound_atom(subject, ir_op::less, other);
      }
      return;
    }
    if (e.op < ir_op::less || e.op > ir_op::greater_equal) return;
    if (e.unsigned_bits > 0 && depends_on_data(ir_, condition)) {  // compared in unsigned, data deciding (E104 does not look): as integers only if both sides fit
      const long long top = e.unsigned_bits >= 64 ? std::numeric_limits<long long>::max() : (1LL << e.unsigned_bits) - 1;
      const interval l = eval(e.a), r = eval(e.b);
      if (!l.bounded() || !r.bounded() || l.lo < 0 || r.lo < 0 || l.hi > top || r.hi > top) return;
    }
    // Normalise to "left op right" holding, with op one of <, <=, >, >=.
    ir_op op = e.op;
    if (!holds) {
      op = op == ir_op::less ? ir_op::greater_equal
           : op == ir_op::less_equal ? ir_op::greater
           : op == ir_op::greater ? ir_op::less_equal
                                  : ir_op::less;
    }
    const interval left = eval(e.a), right = eval(e.b);
    bound_atom(e.a, op, right);
    const ir_op mirrored = op == ir_op::less ? ir_op::greater
                           : op == ir_op::less_equal ? ir_op::greater_equal
                           : op == ir_op::greater ? ir_op::less
                                                  : ir_op::less_equal;
    bound_atom(e.b, mirrored, left);
  }

  // Records "subject op limit", and passes it on through `x + c` and `x - c` to x.
  void bound_atom(int subject, dsl::ir_op op, interval limit) {
    const dsl::ir_expr& s = ir_.exprs[static_cast<std::size_t>(subject)];
    using dsl::ir_op;
    if (s.op == ir_op::constant || !invariant(subject)) return;
    auto [it, inserted] = narrowed_.try_emplace(key(subject), interval::top());
    constexpr long long min = std::numeric_limits<long long>::min(), max = std::numeric_limits<long long>::max();
    if (op == ir_op::less && limit.hi != max) it->second.hi = std::min(it->second.hi, limit.hi - 1);
    if (op == ir_op::less_equal) it->second.hi = std::min(it->second.hi, limit.hi);
    if (op == ir_op::greater && limit.lo != min) it->second.lo = std::max(it->second.lo, limit.lo + 1);
    if (op == ir_op::greater_equal) it->second.lo = std::max(it->second.lo, limit.lo);
    if (s.op != ir_op::add && s.op != ir_op::sub) return;
    auto constant = [&](int id) -> std::optional<long long> {
      const dsl::ir_expr& c = ir_.exprs[static_cast<std::size_t>(id)];
      if (c.op == ir_op::constant && !c.is_float) return c.value;
      return std::nullopt;
    };
    auto shift = [&](interval l, long long by) {
      if (l.lo != min) l.lo -= by;
      if (l.hi != max) l.hi -= by;
      return l;
    };
    if (auto c = constant(s.b)) bound_atom(s.a, op, shift(limit, s.op == ir_op::add ? *c : -*c));  // x + c, x - c
    else if (auto c = constant(s.a); c && s.op == ir_op::add) bound_atom(s.b, op, shift(limit, *c));  // c + x
    else bound_sides(s, op, limit);
  }

  // a + b op limit, a - b op limit, neither side constant: each side bounded through the other's
  // interval (`width - x > 16 * i` gives x < width - 16 * i.lo). Sound for every thread: a = s - b
  // and b's interval holds every value b takes.
  void bound_sides(const dsl::ir_expr& s, dsl::ir_op op, interval limit) {
    using dsl::ir_op;
    constexpr long long min = std::numeric_limits<long long>::min(), max = std::numeric_limits<long long>::max();
    const bool upper = op == ir_op::less || op == ir_op::less_equal;  // s bounded from above
    const ir_op mirrored = op == ir_op::less ? ir_op::greater
                           : op == ir_op::less_equal ? ir_op::greater_equal
                           : op == ir_op::greater ? ir_op::less
                                                  : ir_op::less_equal;
    auto ld = [](long long v) { return static_cast<long double>(v); };
    const interval a = eval(s.a), b = eval(s.b);
    if (upper && limit.hi == max) return;
    if (!upper && limit.lo == min) return;
    if (s.op == ir_op::add) {
      // a < L - b: above by L.hi - b.lo; below by L.lo - b.hi. Likewise b through a.
      if (upper) {
        if (b.lo != min && b.lo > -bounds_impl::big) bound_atom(s.a, op, {min, bounds_impl::clamp(ld(limit.hi) - ld(b.lo))});
        if (a.lo != min && a.lo > -bounds_impl::big) bound_atom(s.b, op, {min, bounds_impl::clamp(ld(limit.hi) - ld(a.lo))});
      } else {
        if (b.hi != max && b.hi < bounds_impl::big) bound_atom(s.a, op, {bounds_impl::clamp(ld(limit.lo) - ld(b.hi)), max});
        if (a.hi != max && a.hi < bounds_impl::big) bound_atom(s.b, op, {bounds_impl::clamp(ld(limit.lo) - ld(a.hi)), max});
      }
    } else {
      // a - b < L: a < L + b (above by L.hi + b.hi) and b > a - L (below by a.lo - L.hi).
      if (upper) {
        if (b.hi != max && b.hi < bounds_impl::big) bound_atom(s.a, op, {min, bounds_impl::clamp(ld(limit.hi) + ld(b.hi))});
        if (a.lo != min && a.lo > -bounds_impl::big) bound_atom(s.b, mirrored, {bounds_impl::clamp(ld(a.lo) - ld(limit.hi)), max});
      } else {
        if (b.lo != min && b.lo > -bounds_impl::big) bound_atom(s.a, op, {bounds_impl::clamp(ld(limit.lo) + ld(b.lo)), max});
        if (a.hi != max && a.hi < bounds_impl::big) bound_atom(s.b, mirrored, {min, bounds_impl::clamp(ld(a.hi) - ld(limit.lo))});
      }
    }
  }

  const dsl::kernel_ir& ir_;
  const launch_facts& facts_;
  std::map<std::string, interval> narrowed_;
};

// The first operation carried out in an unsigned type that may wrap for this launch, or in int
// arithmetic that may overflow, where its value decides something (an index, a guard, a loop
// bound, a shuffle's lane), described for an E104 message; empty if none. The checker reasons about such operations as about integers: this is
// the launch obligation that makes that sound.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_integer_wrap(const dsl::kernel_ir& ir, const launch_facts& facts,
                                       const std::vector<std::string>& names) {
  interval_evaluator evaluator(ir, facts);
  long long reached = 0;
  auto describe = [&](int id) {
    const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
    if (e.signed_bits > 0) {
      const bool unbounded = reached == std::numeric_limits<long long>::min() || reached == std::numeric_limits<long long>::max();
      return dsl::render(ir, id, names) + " is computed in a " + std::to_string(e.signed_bits) + "-bit signed type and " +
             (unbounded ? std::string("cannot be bounded") : "may overflow it (reaching " + std::to_string(reached) + ")") +
             " for this launch, which is undefined and wraps on the device; compute it in a 64-bit type, or guard it so that it cannot";
    }
    return dsl::render(ir, id, names) + " is computed in a " + std::to_string(e.unsigned_bits) + "-bit unsigned type and may " +
           (reached < 0 ? "go below 0 (reaching " : "leave its range (reaching ") + std::to_string(reached) +
           ") for this launch, which wraps around; compute it in a signed type, or guard it so that it cannot";
  };
  auto check = [&](int id, int begin, int end) {
    const int w = id < 0 ? -1 : evaluator.first_wrap(id, begin, end, &reached);
    return w >= 0 ? describe(w) : std::string();
  };
  for (const dsl::ir_access& a : ir.accesses) {
    for (int g = a.guard_begin; g < a.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, a.guard_begin, g); !m.empty()) return m;
    if (auto m = check(a.index, a.guard_begin, a.guard_end); !m.empty()) return m;
    if (auto m = check(a.column, a.guard_begin, a.guard_end); !m.empty()) return m;
  }
  for (const dsl::ir_loop& loop : ir.loops)
    for (int id : {loop.lo, loop.hi, loop.step})
      if (auto m = check(id, loop.guard_begin, loop.guard_end); !m.empty()) return m;
  // The increment i += step, in int: below hi, i + step passes INT_MAX only if hi - 1 + step does
  // (and then i wraps to a negative value, still below hi: the loop never ends, and every bound
  // the checker drew from it is wrong). A step of 1 never does.
  for (const dsl::ir_loop& loop : ir.loops) {
    const interval step = evaluator.index_interval(loop.step, loop.guard_begin, loop.guard_end);
    if (!step.bounded() || step.hi <= 1) continue;  // an unbounded step is E103's
    const interval hi = evaluator.index_interval(loop.hi, loop.guard_begin, loop.guard_end);
    const long double last = hi.bounded() ? static_cast<long double>(hi.hi) - 1 + static_cast<long double>(step.hi) : 0;
    if (hi.bounded() && last <= static_cast<long double>(std::numeric_limits<int>::max())) continue;
    return "the loop over i" + std::to_string(loop.level) + " up to " + dsl::render(ir, loop.hi, names) + " steps by " +
           dsl::render(ir, loop.step, names) + ", and i + step " +
           (hi.bounded() ? "may reach " + std::to_string(static_cast<long long>(last)) : std::string("cannot be bounded")) +
           " for this launch: past INT_MAX it wraps and the loop never ends; bound the loop's end so that it cannot";
  }
  for (const dsl::ir_shuffle& s : ir.shuffles) {
    for (int g = s.guard_begin; g < s.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, s.guard_begin, g); !m.empty()) return m;
    if (auto m = check(s.lane, s.guard_begin, s.guard_end); !m.empty()) return m;
  }
  for (const dsl::ir_sync& s : ir.syncs)
    for (int g = s.guard_begin; g < s.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, s.guard_begin, g); !m.empty()) return m;
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

// The first run-time loop whose step may not be positive (it would never end), described for an
// E103 message; empty if none. Grid-stride loops step by the grid's size, always positive.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_bad_step(const dsl::kernel_ir& ir, const launch_facts& facts, const std::vector<std::string>& names) {
  interval_evaluator evaluator(ir, facts);
  for (const dsl::ir_loop& loop : ir.loops) {
    if (loop.grid_stride) continue;
    const interval step = evaluator.index_interval(loop.step, loop.guard_begin, loop.guard_end);
    if (step.bounded() && step.lo >= 1) continue;
    return "the loop over i" + std::to_string(loop.level) + " from " + dsl::render(ir, loop.lo, names) + " to " +
           dsl::render(ir, loop.hi, names) + " steps by " + dsl::render(ir, loop.step, names) +
           (step.bounded() ? ", which may be " + std::to_string(step.lo) : std::string(", which cannot be bounded")) +
           ": a step below 1 never ends the loop";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

namespace bounds_impl {
inline void params_read(const dsl::kernel_ir& ir, int id, std::vector<std::size_t>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::param_value && std::find(out.begin(), out.end(), static_cast<std::size_t>(e.value)) == out.end())
    out.push_back(static_cast<std::size_t>(e.value));
  params_read(ir, e.a, out);
  params_read(ir, e.b, out);
}
// "n = 40, m = 3": the value parameters expression `id` reads, with the values the kernel receives.
inline std::string values_read(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                               const std::vector<std::string>& names) {
  std::vector<std::size_t> params;
  params_read(ir, id, params);
  std::string out;
  for (std::size_t p : params) {
    const std::optional<long long> v = p < facts.values.size() ? facts.values[p] : std::nullopt;
    out += (out.empty() ? "" : ", ") + names[p] + " = " + (v ? std::to_string(*v) : std::string("(not an integer)"));
  }
  return out;
}
}  // namespace bounds_impl

// The most trips loop `l` can run in any thread for this launch, or -1 if that cannot be bounded.
inline long long most_trips(const dsl::kernel_ir& ir, const launch_facts& facts, int l) {
  const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(l)];
  interval_evaluator evaluator(ir, facts);
  const interval lo = evaluator.index_interval(loop.lo, loop.guard_begin, loop.guard_end);
  const interval hi = evaluator.index_interval(loop.hi, loop.guard_begin, loop.guard_end);
  const interval step = evaluator.index_interval(loop.step, loop.guard_begin, loop.guard_end);
  if (!lo.bounded() || !hi.bounded() || !step.bounded() || step.lo < 1) return -1;
  if (hi.hi <= lo.lo) return 0;
  return (hi.hi - lo.lo + step.lo - 1) / step.lo;
}

// A symbol of a positive obligation as the kernel's user names it, and its value for this launch.
inline std::string symbol_name(int s, const std::vector<std::string>& names) {
  if (symbol::is_param_value(s)) return names[static_cast<std::size_t>(s - symbol::param_value(0))];
  if (s >= symbol::param_size(0)) return names[static_cast<std::size_t>(s - symbol::param_size(0))] + ".size()";
  return std::string("grid_dim.") + "xyz"[s - symbol::grid_dim(0)];
}
inline std::optional<long long> symbol_value(int s, const launch_facts& facts) {
  if (symbol::is_param_value(s)) {
    const auto p = static_cast<std::size_t>(s - symbol::param_value(0));
    return p < facts.values.size() ? facts.values[p] : std::nullopt;
  }
  if (s >= symbol::param_size(0)) return facts.sizes[static_cast<std::size_t>(s - symbol::param_size(0))];
  if (s >= symbol::grid_dim(0) && s < symbol::grid_dim(3)) return facts.grid[s - symbol::grid_dim(0)];
  return std::nullopt;
}

// "pitch - width >= 0": a positive obligation's condition (its terms >= 1), constant moved right.
// With no positive symbol term it reads as a limit: "nj <= 50", not "-nj >= -50".
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string render_condition(const obligation& o, const std::vector<std::string>& names) {
  std::string left;
  long long constant = 0;
  bool any_positive = false;
  for (int t = 0; t < o.term_count; ++t) any_positive = any_positive || (o.terms[t].symbols[0] >= 0 && o.terms[t].coefficient > 0);
  const long long sign = any_positive ? 1 : -1;
  for (int pass = 0; pass < 2; ++pass)  // positive terms first: "pitch - width", not "-width + pitch"
  for (int t = 0; t < o.term_count; ++t) {
    const obligation_term& term = o.terms[t];
    if (term.symbols[0] < 0) {
      if (pass == 0) constant += term.coefficient;
      continue;
    }
    const long long c = sign * term.coefficient;
    if ((c > 0) != (pass == 0)) continue;
    left += left.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
    if (c != 1 && c != -1) left += std::to_string(c < 0 ? -c : c) + " * ";
    for (int k = 0; k < 3 && term.symbols[k] >= 0; ++k) left += (k > 0 ? " * " : "") + symbol_name(term.symbols[k], names);
  }
  if (!any_positive) return left + " <= " + std::to_string(constant - 1);
  return left + " >= " + std::to_string(1 - constant);
}
}  // inline namespace WARDEN_RUNTIME_ABI

// The value of a positive obligation's terms for this launch, or nullopt if a value is unknown.
inline std::optional<long double> condition_value(const obligation& o, const launch_facts& facts) {
  long double sum = 0;
  for (int t = 0; t < o.term_count; ++t) {
    long double product = static_cast<long double>(o.terms[t].coefficient);
    for (int k = 0; k < 3 && o.terms[t].symbols[k] >= 0; ++k) {
      const std::optional<long long> v = symbol_value(o.terms[t].symbols[k], facts);
      if (!v) return std::nullopt;
      product *= static_cast<long double>(*v);
    }
    sum += product;
  }
  return sum;
}

// "pitch = 60, width = 64": the values of a positive obligation's symbols for this launch, in the
// order render_condition names them.
inline std::string condition_values(const obligation& o, const launch_facts& facts, const std::vector<std::string>& names) {
  std::vector<int> seen;
  std::string out;
  for (int pass = 0; pass < 2; ++pass)
  for (int t = 0; t < o.term_count; ++t)
    for (int k = 0; k < 3 && o.terms[t].symbols[k] >= 0 && (o.terms[t].coefficient > 0) == (pass == 0); ++k) {
      const int s = o.terms[t].symbols[k];
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      const std::optional<long long> v = symbol_value(s, facts);
      out += (out.empty() ? "" : ", ") + symbol_name(s, names) + " = " + (v ? std::to_string(*v) : std::string("(not an integer)"));
    }
  return out;
}

// The first obligation (dsl/obligation.hpp) that fails or cannot be decided for this launch,
// described for an E106 message; empty if all hold.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_unmet_obligation(const dsl::kernel_ir& ir, const launch_facts& facts,
                                          const std::vector<std::string>& names, const obligation_list& duties) {
  for (const obligation& o : duties) {
    if (o.kind == obligation_kind::positive) {
      const std::optional<long double> v = condition_value(o, facts);
      if (v && *v >= 1) continue;
      // Void when one of the two accesses runs in no thread of this launch.
      interval_evaluator evaluator(ir, facts);
      const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
      const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
      if (!evaluator.may_run(a.guard_begin, a.guard_end) || !evaluator.may_run(c.guard_begin, c.guard_end)) continue;
      return "the checker proved " + std::string(diagnostic::to_string(o.protects)) + " for " + names[static_cast<std::size_t>(a.target)] +
             "[" + dsl::render(ir, a.index, names) + "] and " + names[static_cast<std::size_t>(c.target)] + "[" +
             dsl::render(ir, c.index, names) + "] when " + render_condition(o, names) + ", which fails for this launch (" +
             condition_values(o, facts, names) +
             ") (w::obligations_of lists this condition): launch with values that meet it, or guard the accesses so "
             "that no thread runs them otherwise";
    }
    if (o.kind != obligation_kind::trip_limit || o.loop < 0 || o.loop >= static_cast<int>(ir.loops.size())) continue;
    const long long most = most_trips(ir, facts, o.loop);
    if (most >= 0 && most <= o.most_trips) continue;
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(o.loop)];
    const std::string values = bounds_impl::values_read(ir, loop.hi, facts, names);
    return "the loop over i" + std::to_string(loop.level) + " from " + dsl::render(ir, loop.lo, names) + " to " +
           dsl::render(ir, loop.hi, names) + (most < 0 ? std::string(" cannot be bounded") : " may run " + std::to_string(most) + " trips") +
           " for this launch" + (values.empty() ? std::string() : " (" + values + ")") + "; the checker proved " +
           to_string(o.protects) + " for at most " + std::to_string(o.most_trips) +
           " trips of it (w::obligations_of lists this condition): launch with fewer, or give the loop a constant trip count";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

namespace bounds_impl {
// The exact value of a launch-uniform expression (dsl::launch_uniform) for this launch, computed as
// the kernel computes it; nullopt where it cannot be: a division by zero, a shift outside the
// type, a signed result outside int (undefined behaviour in the kernel), or a node that is not
// launch-uniform.
inline std::optional<long long> exact_value(const dsl::kernel_ir& ir, int id, const launch_facts& facts) {
  using dsl::ir_op;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.is_float) return std::nullopt;
  switch (e.op) {
    case ir_op::constant: return e.value;
    case ir_op::block_dim: return facts.block[static_cast<int>(e.value)];
    case ir_op::grid_dim: return facts.grid[static_cast<int>(e.value)];
    case ir_op::param_value: {
      const auto p = static_cast<std::size_t>(e.value);
      return p < facts.values.size() ? facts.values[p] : std::nullopt;
    }
    case ir_op::param_size: return facts.sizes[static_cast<std::size_t>(e.value)];
    default: break;
  }
  if (e.op < ir_op::add) return std::nullopt;  // thread ids, loop variables, locals, loads, calls
  if (e.op == ir_op::select) {  // the side chosen, alone
    const std::optional<long long> c = exact_value(ir, e.a, facts);
    if (!c) return std::nullopt;
    const dsl::ir_expr& sides = ir.exprs[static_cast<std::size_t>(e.b)];
    return exact_value(ir, *c != 0 ? sides.a : sides.b, facts);
  }
  const std::optional<long long> a = exact_value(ir, e.a, facts);
  if (!a) return std::nullopt;
  // && and || as C++ evaluates them: the right side only when the left decides nothing.
  if (e.op == ir_op::logical_and && *a == 0) return 0;
  if (e.op == ir_op::logical_or && *a != 0) return 1;
  std::optional<long long> b;
  if (e.b >= 0) {
    b = exact_value(ir, e.b, facts);
    if (!b) return std::nullopt;
  }
  const long long x = *a, y = b.value_or(0);
  if (e.unsigned_bits > 0) {  // computed in an unsigned type: operands converted, results wrap
    const unsigned long long mask = e.unsigned_bits >= 64 ? ~0ULL : (1ULL << e.unsigned_bits) - 1;
    const unsigned long long u = static_cast<unsigned long long>(x) & mask;
    const unsigned long long v = static_cast<unsigned long long>(y) & mask;
    unsigned long long r = 0;
    switch (e.op) {
      case ir_op::add: r = u + v; break;
      case ir_op::sub: r = u - v; break;
      case ir_op::mul: r = u * v; break;
      case ir_op::div: if (v == 0) return std::nullopt; r = u / v; break;
      case ir_op::mod: if (v == 0) return std::nullopt; r = u % v; break;
      case ir_op::shl: if (v >= e.unsigned_bits) return std::nullopt; r = u << v; break;
      case ir_op::shr: if (v >= e.unsigned_bits) return std::nullopt; r = u >> v; break;
      case ir_op::bit_and: r = u & v; break;
      case ir_op::bit_or: r = u | v; break;
      case ir_op::bit_xor: r = u ^ v; break;
      case ir_op::less: return u < v;
      case ir_op::less_equal: return u <= v;
      case ir_op::greater: return u > v;
      case ir_op::greater_equal: return u >= v;
      case ir_op::equal: return u == v;
      case ir_op::not_equal: return u != v;
      case ir_op::min: r = u < v ? u : v; break;
      case ir_op::max: r = u < v ? v : u; break;
      case ir_op::negate: r = 0 - u; break;
      case ir_op::bit_not: r = ~u; break;
      default: return std::nullopt;
    }
    return static_cast<long long>(r & mask);
  }
  // Signed: computed exactly in long double (64-bit significand: exact wherever the result fits in
  // int, the only results kept).
  const long double lx = static_cast<long double>(x), ly = static_cast<long double>(y);
  long double r = 0;
  switch (e.op) {
    case ir_op::add: r = lx + ly; break;
    case ir_op::sub: r = lx - ly; break;
    case ir_op::mul: r = lx * ly; break;
    case ir_op::div: if (y == 0) return std::nullopt; r = static_cast<long double>(x / y); break;
    case ir_op::mod: if (y == 0) return std::nullopt; r = static_cast<long double>(x % y); break;
    case ir_op::shl: if (y < 0 || y >= 31 || x < 0) return std::nullopt; r = lx * static_cast<long double>(1LL << y); break;
    case ir_op::shr: if (y < 0 || y >= 32) return std::nullopt; r = static_cast<long double>(x >> y); break;
    case ir_op::bit_and: r = static_cast<long double>(x & y); break;
    case ir_op::bit_or: r = static_cast<long double>(x | y); break;
    case ir_op::bit_xor: r = static_cast<long double>(x ^ y); break;
    case ir_op::less: return x < y;
    case ir_op::less_equal: return x <= y;
    case ir_op::greater: return x > y;
    case ir_op::greater_equal: return x >= y;
    case ir_op::equal: return x == y;
    case ir_op::not_equal: return x != y;
    case ir_op::logical_and:
    case ir_op::logical_or: return y != 0;
    case ir_op::logical_not: return x == 0;
    case ir_op::min: r = static_cast<long double>(x < y ? x : y); break;
    case ir_op::max: r = static_cast<long double>(x < y ? y : x); break;
    case ir_op::negate: r = -lx; break;
    case ir_op::bit_not: r = static_cast<long double>(~x); break;
    default: return std::nullopt;
  }
  if (r < std::numeric_limits<int>::min() || r > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<long long>(r);
}

inline void sizes_read(const dsl::kernel_ir& ir, int id, std::vector<std::size_t>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::param_size && std::find(out.begin(), out.end(), static_cast<std::size_t>(e.value)) == out.end())
    out.push_back(static_cast<std::size_t>(e.value));
  sizes_read(ir, e.a, out);
  sizes_read(ir, e.b, out);
}
}  // namespace bounds_impl

// The first fact stated with given(...) that is false, or cannot be computed, for this launch,
// described for an E107 message; empty if all hold.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_false_fact(const dsl::kernel_ir& ir, const launch_facts& facts, const std::vector<std::string>& names) {
  for (int fact : ir.stated) {
    const std::optional<long long> v = bounds_impl::exact_value(ir, fact, facts);
    if (v && *v != 0) continue;
    std::string values = bounds_impl::values_read(ir, fact, facts, names);
    std::vector<std::size_t> sizes;
    bounds_impl::sizes_read(ir, fact, sizes);
    for (std::size_t p : sizes)
      values += (values.empty() ? "" : ", ") + names[p] + ".size() = " + std::to_string(facts.sizes[p]);
    return "the stated fact " + dsl::render(ir, fact, names) + (v ? " is false" : " cannot be computed without overflow or division by zero") +
           " for this launch" + (values.empty() ? std::string() : " (" + values + ")") +
           "; the checker's proof rests on it: launch with values that meet it";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

// The first access that may leave its buffer or tile, described for an E101 message; empty if none.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_overrun(const dsl::kernel_ir& ir, const launch_facts& facts,
                                 const std::vector<std::string>& names, const std::vector<std::string>& kinds) {
  interval_evaluator evaluator(ir, facts);
  const char* verbs[] = {"load", "store", "atomic update"};
  for (const dsl::ir_access& a : ir.accesses) {
    // Guards that no thread passes for this launch (they narrow some value to nothing): the
    // access never runs, and its index intervals, computed from empty ones, mean nothing.
    if (!evaluator.may_run(a.guard_begin, a.guard_end)) continue;
    bool in_empty_loop = false;
    for (int p = a.loop_begin; p < a.loop_end && !in_empty_loop; ++p)
      in_empty_loop = evaluator.never_runs(ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])]);
    if (in_empty_loop) continue;
    const interval index = evaluator.index_interval(a.index, a.guard_begin, a.guard_end);
    long long size = 0;
    std::string target;
    if (a.memory == dsl::memory_kind::global) {
      size = facts.sizes[static_cast<std::size_t>(a.target)];
      target = names[static_cast<std::size_t>(a.target)];
    } else {
      if (const dsl::ir_tile* t = tile_of(ir, a.target)) size = t->rows;
      target = "tile" + std::to_string(a.target);
    }
    const std::string text = target + "[" + dsl::render(ir, a.index, names) + "]";
    // A tile index the intervals cannot follow (`t ^ j`, `(1 << d) * (2 * t + 2) - 1`) usually
    // depends only on the thread and static loops: then the checker's per-thread footprint gives
    // its exact range. Only computed when the intervals fail, so other launches do not pay for it.
    if (a.memory == dsl::memory_kind::shared && (!index.bounded() || index.lo < 0 || index.hi >= size)) {
      const footprint exact = footprint_of(ir, block_shape{facts.block.x, facts.block.y, facts.block.z}, a);
      if (exact.all_known) {
        const long long cols = tile_of(ir, a.target) != nullptr ? tile_of(ir, a.target)->cols : 0;
        const bool never = exact.row_lo > exact.row_hi;  // no thread runs it
        if (!never && (exact.row_lo < 0 || exact.row_hi >= size))
          return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " reaches index " +
                 std::to_string(exact.row_lo < 0 ? exact.row_lo : exact.row_hi) + ", but " + target + " has " +
                 std::to_string(size) + " rows";
        if (!never && a.column >= 0 && (exact.col_lo < 0 || exact.col_hi >= cols))
          return std::string(verbs[static_cast<int>(a.kind)]) + " " + target + "(" + dsl::render(ir, a.index, names) +
                 ", " + dsl::render(ir, a.column, names) + "): the column reaches " +
                 std::to_string(exact.col_lo < 0 ? exact.col_lo : exact.col_hi) + ", outside [0, " + std::to_string(cols) + ")";
        continue;
      }
    }
    if (!index.bounded() && ir.exprs[static_cast<std::size_t>(a.index)].is_float)
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text +
             ": the index is computed in floating point, which launch does not bound (its guards compare "
             "reals, its conversion truncates); compute the index in integers";
    if (!index.bounded())
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text +
             ": the index cannot be bounded (it depends on loaded data, a thread-private variable or a "
             "function); clamp it (min, %, &) or guard it with when(index < " + target + ".size(), ...)";
    if (index.lo < 0 || index.hi >= size) {
      std::string where = a.memory == dsl::memory_kind::global
                              ? ", but " + target + " (parameter " + std::to_string(a.target) + ", " +
                                    kinds[static_cast<std::size_t>(a.target)] + ") has " + std::to_string(size) + " elements"
                              : ", but " + target + " has " + std::to_string(size) + " rows";
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " may reach index " +
             std::to_string(index.lo < 0 ? index.lo : index.hi) + where;
    }
    if (a.column >= 0) {  // 2-D tile: the column stays inside a row
      const interval column = evaluator.index_interval(a.column, a.guard_begin, a.guard_end);
      const long long cols = tile_of(ir, a.target) != nullptr ? tile_of(ir, a.target)->cols : 0;
      if (!column.bounded() || column.lo < 0 || column.hi >= cols)
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + target + "(" + dsl::render(ir, a.index, names) +
               ", " + dsl::render(ir, a.column, names) + "): the column may leave [0, " + std::to_string(cols) + ")";
    }
  }
  // A shuffle's lane operand (delta, mask or lane) must name a lane of the warp.
  for (const dsl::ir_shuffle& s : ir.shuffles) {
    const interval lane = evaluator.index_interval(s.lane, s.guard_begin, s.guard_end);
    if (!lane.bounded() || lane.lo < 0 || lane.hi >= dsl::warp_lanes)
      return std::string(dsl::name_of(s.kind)) + " lane operand " + dsl::render(ir, s.lane, names) +
             (lane.bounded() ? " may reach " + std::to_string(lane.lo < 0 ? lane.lo : lane.hi) : std::string(" cannot be bounded")) +
             ", outside the warp's lanes [0, 32)";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
