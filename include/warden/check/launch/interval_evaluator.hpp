#pragma once
// Launch-time bounds (E101): the largest and smallest index each access can reach, from its
// symbolic form, the launch geometry, the value parameters and the buffer sizes, narrowed by the
// guards that enclose it. An interval analysis over the value-level description (dsl/ir.hpp):
//   * thread, block and global ids range over the launch; loop variables over their loop;
//   * `when(a < b, ...)` narrows a (likewise <=, >, >=, &&, and the negations in otherwise
//     branches) when a is made of ids, loop variables, parameters and sizes only, since those keep
//     their value inside the guarded statements; a narrowed expression is recognised wherever it
//     appears again, by its shape;
//   * a loop whose start and step are multiples of g takes multiples of g only (its last value
//     is its end minus 1 rounded down to one);
//   * a sum is also bounded through any guarded sum of some of its terms, however the two are
//     grouped: under `ph * 32 + tx < n`, `row * n + ph * 32 + tx` (parsed as `(row * n + ph * 32)
//     + tx`) is at most row's bound times n plus n - 1;
//   * a load of a read-only buffer of integers whose contents the launch measured lies between
//     their least and greatest element (launch/contents.hpp: `x[col[e]]` for a column array);
//   * a local that holds its init's value (never assigned, of the init's integral type) is its
//     init, read through as deep as max_local_depth; E104 checks the init's arithmetic at the use;
//   * other loaded values, thread-private variables and user functions are unbounded, so an index
//     made of them must be clamped (min, %, &) to pass.
// Sound: the interval always contains every index the access can take.

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../affine.hpp"
#include "../order.hpp"
#include "interval.hpp"
#include "launch_request.hpp"

namespace warden::check {

// Evaluates expression intervals for one access, with the narrowing its guards allow.
class interval_evaluator {
 public:
  interval_evaluator(const dsl::kernel_ir& ir, const launch_facts& facts) : ir_(ir), facts_(facts) {}

  // The interval of expression `id` with the accesses' guards [guard_begin, guard_end) applied.
  interval index_interval(int id, int guard_begin, int guard_end) {
    narrowed_.clear();
    narrowed_subjects_.clear();
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
    narrowed_subjects_.clear();
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
    narrowed_subjects_.clear();
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
    // Only on bounds the int counter receives unchanged: a start of 4294967295 is -1 (E104).
    constexpr long long int_min = std::numeric_limits<int>::min(), int_max = std::numeric_limits<int>::max();
    if (lo.lo < int_min || lo.hi > int_max || hi.lo < int_min || hi.hi > int_max) return false;
    return lo.bounded() && hi.bounded() && hi.hi <= lo.lo;
  }

  interval eval(int id) {
    // A floating-point value is no integer: no interval of integers bounds it, and a guard on an
    // integer expression that renders alike (`t + 2` for `t + 2.9f`) says nothing about it.
    if (ir_.exprs[static_cast<std::size_t>(id)].is_float) return interval::top();
    interval base = eval_unnarrowed(id);
    if (!narrowed_.empty()) {
      const std::string k = key(id);
      auto it = narrowed_.find(k);
      bool holds = it != narrowed_.end();
      if (holds)
        if (const auto subjects = narrowed_subjects_.find(k); subjects != narrowed_subjects_.end())
          for (const int subject : subjects->second) holds = holds && same_value_at(subject, id);
      if (holds) base = {std::max(base.lo, it->second.lo), std::min(base.hi, it->second.hi)};
    }
    return base;
  }

  // The values expression `id` can take as an unsigned 64-bit number, where the intervals cannot
  // hold them (a launch value above LLONG_MAX, launch_facts::beyond) and they stay within 0 and
  // 2^64 - 1 (subtraction that cannot go below 0, sums and products that cannot pass the top,
  // division and shifts by known amounts, masks, min and max). Empty where a negative value or
  // an unknown one enters, or the operation might leave the range.
  std::optional<std::pair<unsigned long long, unsigned long long>> unsigned_range(int id) {
    using range = std::pair<unsigned long long, unsigned long long>;
    if (id < 0) return std::nullopt;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (e.op == ir_op::param_value) {
      const auto p = static_cast<std::size_t>(e.value);
      if (p < facts_.beyond.size() && facts_.beyond[p] != 0) return range{facts_.beyond[p], facts_.beyond[p]};
    }
    const interval v = eval(id);
    if (v.bounded()) {
      if (v.lo < 0) return std::nullopt;
      return range{static_cast<unsigned long long>(v.lo), static_cast<unsigned long long>(v.hi)};
    }
    // Only through operations carried out in unsigned 64 bits: a signed one that left long long
    // (`(x + y) / 2` with x + y past 2^63) wrapped to a negative value, which no unsigned range holds.
    if (e.op < ir_op::add || e.unsigned_bits < 64 || e.signed_bits != 0 || depends_on_data(ir_, id)) return std::nullopt;
    const auto a = unsigned_range(e.a);
    const auto b = unsigned_range(e.b);
    if (!a || !b) return std::nullopt;
    range r{};
    switch (e.op) {
      case ir_op::add:
        if (__builtin_add_overflow(a->second, b->second, &r.second)) return std::nullopt;
        return range{a->first + b->first, r.second};
      case ir_op::sub:
        if (a->first < b->second) return std::nullopt;
        return range{a->first - b->second, a->second - b->first};
      case ir_op::mul:
        if (__builtin_mul_overflow(a->second, b->second, &r.second)) return std::nullopt;
        return range{a->first * b->first, r.second};
      case ir_op::div:
        if (b->first == 0) return std::nullopt;
        return range{a->first / b->second, a->second / b->first};
      case ir_op::shr:
        if (b->second > 63) return std::nullopt;
        return range{a->first >> b->second, a->second >> b->first};
      case ir_op::mod:
        if (b->first == 0) return std::nullopt;
        return range{0, std::min(a->second, b->second - 1)};
      case ir_op::bit_and: return range{0, std::min(a->second, b->second)};
      case ir_op::min: return range{std::min(a->first, b->first), std::min(a->second, b->second)};
      case ir_op::max: return range{std::max(a->first, b->first), std::max(a->second, b->second)};
      default: return std::nullopt;
    }
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
        // Above LLONG_MAX (an unsigned 64-bit value): at least `big`, which every result the
        // intervals compute from it keeps sound (they clamp above `big` to the unbounded end).
        if (p < facts_.beyond.size() && facts_.beyond[p] != 0) return {launch_impl::big, interval::top().hi};
        interval unknown = interval::top();
        if (e.is_unsigned) unknown.lo = 0;
        return unknown;
      }
      case ir_op::param_size: return interval::point(facts_.sizes[static_cast<std::size_t>(e.value)]);
      case ir_op::contents_distinct: case ir_op::contents_sorted: case ir_op::contents_non_decreasing: case ir_op::contents_within: return {0, 1};  // a stated fact: a truth value (E107 decides it)
      case ir_op::load:
        // A read-only buffer of integers whose contents the launch measured (launch/contents.hpp):
        // any element it loads lies between the least and the greatest.
        if (const dsl::ir_access& a = ir_.accesses[static_cast<std::size_t>(e.value)];
            a.memory == dsl::memory_kind::global && a.vector_bytes == 0 &&
            static_cast<std::size_t>(a.target) < facts_.contents.size() && facts_.contents[static_cast<std::size_t>(a.target)])
          return {facts_.contents[static_cast<std::size_t>(a.target)]->lo, facts_.contents[static_cast<std::size_t>(a.target)]->hi};
        [[fallthrough]];
      case ir_op::tile_load:
        // A narrow integral type bounds what any load can give (uint8_t: 0..255).
        if (e.narrow_bits > 0) {
          const long long span = 1LL << e.narrow_bits;
          return e.is_unsigned ? interval{0, span - 1} : interval{-span / 2, span / 2 - 1};
        }
        [[fallthrough]];
      case ir_op::local_var:
        // A read of a local is the value it holds there (`index_t t = target[i]; ... weights[t]`,
        // dsl/local_values.hpp), where the describing could follow it (an exact integer of the
        // local's type; not a value carried from an earlier trip). That value's variables are the
        // same then as here (the loops it reads are still open, or it was rewritten for the last
        // trip), and guards narrow only what is invariant (no load, local or call), so the
        // narrowing stays sound.
        if (const int init = exact_local_init(e); init >= 0) {
          ++local_depth_;
          const interval v = eval(init);
          --local_depth_;
          return v;
        }
        [[fallthrough]];
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
      case ir_op::bit_not: {
        const interval a = eval(e.a);
        // In an unsigned type of b < 64 bits, ~x is 2^b - 1 - x: always inside the type, no wrap
        // (an operand outside it is converted with one, which wrap_in reports on the operand).
        if (e.unsigned_bits > 0 && e.unsigned_bits < 64) {
          const long long top = (1LL << e.unsigned_bits) - 1;
          return a.bounded() && a.lo >= 0 && a.hi <= top ? interval{top - a.hi, top - a.lo} : interval{0, top};
        }
        return a.bounded() ? interval{-a.hi - 1, -a.lo - 1} : interval::top();  // ~x == -x - 1
      }
      case ir_op::select: {
        // Each arm under its side of the condition (`select(i < n, i, n - 1)` stays below n), as
        // a when(...).otherwise(...) narrows its branches; an arm the condition leaves no value
        // for is never chosen.
        const dsl::ir_expr& pair = ir_.exprs[static_cast<std::size_t>(e.b)];
        const interval x = arm(e.a, true, pair.a), y = arm(e.a, false, pair.b);
        interval r = x.lo > x.hi ? y : y.lo > y.hi ? x : interval{std::min(x.lo, y.lo), std::max(x.hi, y.hi)};
        // Chosen in an unsigned type (`c ? -1 : 5u`): an arm outside it arrives converted (E104
        // refuses that where no data decides it).
        if (e.unsigned_bits > 0 && e.unsigned_bits < 64) {
          const long long top = (1LL << e.unsigned_bits) - 1;
          if (!r.bounded() || r.lo < 0 || r.hi > top) r = {0, top};
        }
        return r;
      }
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
          const interval r = launch_impl::combine(e.op, ua, ub);
          using dsl::ir_op;
          const bool may_wrap = e.op == ir_op::add || e.op == ir_op::sub || e.op == ir_op::mul || e.op == ir_op::shl ||
                                e.op == ir_op::negate || e.op == ir_op::bit_not;
          if (e.op >= ir_op::less && e.op <= ir_op::logical_or) return r;
          if (!inside(r)) return may_wrap ? interval{0, top} : interval{std::max(0LL, r.lo), std::min(top, r.hi)};
          return r;
        }
        if (data) return interval::top();
        interval r = launch_impl::combine(e.op, a, b);
        if ((e.op == ir_op::add || e.op == ir_op::sub) && !narrowed_.empty()) {
          const interval g = regrouped(id);
          r = {std::max(r.lo, g.lo), std::min(r.hi, g.hi)};
        }
        // Signed arithmetic on data that may leave int: it wraps on the device (E104 looks only
        // where no data decides), so the result is anywhere.
        if (e.signed_bits == 32 && r.bounded() && (r.lo < std::numeric_limits<int>::min() || r.hi > std::numeric_limits<int>::max()) &&
            depends_on_data(ir_, id))
          return interval::top();
        return r;
      }
    }
  }

  // A term of a sum: an expression that is no integer + or - of data-free operands, and its sign.
  struct term {
    int id;
    int sign;
  };
  void flatten(int id, int sign, std::vector<term>& out) const {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if ((e.op == ir_op::add || e.op == ir_op::sub) && !e.is_float && !depends_on_data(ir_, id)) {
      flatten(e.a, sign, out);
      flatten(e.b, e.op == ir_op::add ? sign : -sign, out);
      return;
    }
    out.push_back({id, sign});
  }
  static interval negated(interval v) {
    constexpr long long min = std::numeric_limits<long long>::min(), max = std::numeric_limits<long long>::max();
    return {v.hi == max ? min : -v.hi, v.lo == min ? max : -v.lo};
  }

  // The sum `id` bounded through a guarded sum of some of its terms (narrowed_, by shape): the
  // guarded group's interval plus the other terms' (every term is data-free, so a sum of them is
  // one value however grouped; E104 keeps the arithmetic integer). top() where no group applies.
  interval regrouped(int id) {
    std::vector<term> whole;
    flatten(id, 1, whole);
    interval best = interval::top();
    if (whole.size() < 3) return best;  // a group of two is a node: narrowed by its shape already
    std::vector<std::string> keys;
    for (const term& t : whole) keys.push_back(key(t.id));
    // (A snapshot: eval below may narrow and restore narrowed_, as a select's arms do.)
    std::vector<std::string> groups;
    for (const auto& entry : narrowed_) groups.push_back(entry.first);
    for (const std::string& group_key : groups) {
      const auto at = narrowed_ids_.find(group_key);
      if (at == narrowed_ids_.end()) continue;
      const dsl::ir_expr& g = ir_.exprs[static_cast<std::size_t>(at->second)];
      if (g.op != dsl::ir_op::add && g.op != dsl::ir_op::sub) continue;
      std::vector<term> group;
      flatten(at->second, 1, group);
      if (group.size() < 2 || group.size() >= whole.size()) continue;
      std::vector<std::string> group_keys;
      for (const term& t : group) group_keys.push_back(key(t.id));
      for (const int flip : {1, -1}) {  // the group, or its negation, inside the sum
        std::vector<char> used(whole.size(), 0);
        bool inside = true;
        for (std::size_t i = 0; i < group.size() && inside; ++i) {
          bool found = false;
          for (std::size_t j = 0; j < whole.size() && !found; ++j)
            if (!used[j] && whole[j].sign == group[i].sign * flip && keys[j] == group_keys[i]) used[j] = found = true;
          inside = found;
        }
        if (!inside) continue;
        const interval part = eval(at->second);
        interval sum = flip > 0 ? part : negated(part);
        for (std::size_t j = 0; j < whole.size(); ++j)
          if (!used[j]) {
            const interval v = eval(whole[j].id);
            sum = launch_impl::combine(dsl::ir_op::add, sum, whole[j].sign > 0 ? v : negated(v));
          }
        best = {std::max(best.lo, sum.lo), std::min(best.hi, sum.hi)};
      }
    }
    return best;
  }

  // The interval of `id` where `condition == holds`: the guards' narrowing plus the condition's.
  interval arm(int condition, bool holds, int id) {
    const auto saved = narrowed_;
    narrow(condition, holds);
    const interval v = eval(id);
    narrowed_ = saved;
    return v;
  }

  // The init of a local read through it by eval and wrap_in (kernel_ir::held_value); -1 past
  // dsl::max_local_read_depth locals in a row, where the local is unknown instead.
  int local_depth_ = 0;
  int exact_local_init(const dsl::ir_expr& e) const { return local_depth_ < dsl::max_local_read_depth ? ir_.held_value(e) : -1; }

  int wrap_in(int id, long long* reached) {
    if (id < 0) return -1;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    // A local read as its init (eval, above) wraps where its init does: `local(k, i * 16777619)`
    // bounded by its init's interval must be refused where that arithmetic overflows, as it is
    // written inline (tests/unit/launch_check_cache_test.cpp).
    if (const int init = exact_local_init(e); init >= 0) {
      ++local_depth_;
      const int w = wrap_in(init, reached);
      --local_depth_;
      return w;
    }
    if (e.op < ir_op::add) return -1;  // a leaf
    if (e.op == ir_op::select) {
      // Each arm runs only where the condition chooses it, and arrives in the select's type.
      if (const int w = wrap_in(e.a, reached); w >= 0) return w;
      const dsl::ir_expr& pair = ir_.exprs[static_cast<std::size_t>(e.b)];
      for (int side = 0; side < 2; ++side) {
        const int chosen = side == 0 ? pair.a : pair.b;
        const auto saved = narrowed_;
        narrow(e.a, side == 0);
        int w = wrap_in(chosen, reached);
        if (w < 0 && e.unsigned_bits > 0 && e.unsigned_bits < 64 && !depends_on_data(ir_, chosen)) {
          const interval v = eval(chosen);
          const long long top = (1LL << e.unsigned_bits) - 1;
          if (v.lo <= v.hi && (!v.bounded() || v.lo < 0 || v.hi > top)) {
            *reached = !v.bounded() || v.lo < 0 ? v.lo : v.hi;
            w = id;
          }
        }
        narrowed_ = saved;
        if (w >= 0) return w;
      }
      return -1;
    }
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
    auto outside_of = [&](int n, interval v) {
      // In 64 bits, a value above LLONG_MAX is in range where its unsigned range is known (a
      // value<std::size_t> of 2^63 compared with an id, or less one).
      if (e.unsigned_bits >= 64 && !v.bounded() && unsigned_range(n)) return false;
      return outside(v);
    };
    if (outside_of(e.a, eval(e.a)) || (e.b >= 0 && outside_of(e.b, eval(e.b)))) return id;  // converted with a wrap
    if (arithmetic && outside_of(id, eval_unnarrowed(id))) return id;
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

  // The identity of an expression: equal for two descriptions of the same expression, and only
  // for those. Built from the nodes themselves, never from a rendering: two loops at one nesting
  // level render alike (i1), as do `t + 2` and `t + 2.9f`.
  std::string key(int id) const {
    if (id < 0) return "_";
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    // A load by what it loads, the buffer and the element's index, not by its node: a guard on
    // `idx[o * W + t]` bounds the `idx[o * W + t]` the guarded statement stores (narrowable_load
    // and same_value_at decide where that holds).
    if (narrowable_load(e))
      return "L" + std::to_string(ir_.accesses[static_cast<std::size_t>(e.value)].target) + ':' + std::to_string(e.is_unsigned ? 1 : 0) +
             ':' + std::to_string(e.narrow_bits) + '(' + key(ir_.accesses[static_cast<std::size_t>(e.value)].index) + ')';
    std::string k = std::to_string(static_cast<int>(e.op)) + ':' + std::to_string(e.value) + ':' +
                    std::to_string((e.is_float ? 1 : 0) | (e.is_unsigned ? 2 : 0)) + ':' + std::to_string(e.unsigned_bits) +
                    ':' + std::to_string(e.signed_bits) + ':' + std::to_string(e.narrow_bits);
    if (e.a < 0 && e.b < 0) return k;
    return k + '(' + key(e.a) + ',' + key(e.b) + ')';
  }
  static std::string atom_key(dsl::ir_op op, int dimension) {
    return std::to_string(static_cast<int>(op)) + ':' + std::to_string(dimension) + ":0:0:0:0";
  }

  // Whether the expression keeps its value inside a guarded region: no locals, calls or loads of
  // shared memory, and loads only of global scalars of integers at indices that keep theirs. A
  // buffer the kernel never writes holds one value per element for the whole run (nothing
  // writable shares its memory, E100); one the kernel writes, only between two points of one
  // thread that no barrier and no store to it of this thread separate (same_value_at, checked
  // where the narrowing is used), since any other store there would race with this thread's
  // load, which the launch's race checks refuse.
  bool invariant(int id) const {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (e.op == ir_op::load)
      return narrowable_load(e) && invariant(ir_.accesses[static_cast<std::size_t>(e.value)].index);
    if (e.op == ir_op::tile_load || e.op == ir_op::local_var || e.op == ir_op::call) return false;
    return (e.a < 0 || invariant(e.a)) && (e.b < 0 || invariant(e.b));
  }
  bool narrowable_load(const dsl::ir_expr& e) const {
    if (e.op != dsl::ir_op::load || e.is_float) return false;
    const dsl::ir_access& a = ir_.accesses[static_cast<std::size_t>(e.value)];
    return a.memory == dsl::memory_kind::global && a.vector_bytes == 0 && a.permuted_by < 0;
  }
  // Whether buffer parameter p is one the kernel stores into (or updates atomically): listed once
  // per evaluator, on first use (each guard's narrowing asks it of every load it reads).
  bool written(int p) const {
    if (!written_known_) {
      for (const dsl::ir_access& a : ir_.accesses)
        if (a.memory == dsl::memory_kind::global && a.kind != dsl::access_kind::load && a.target >= 0) {
          if (static_cast<std::size_t>(a.target) >= written_.size()) written_.resize(static_cast<std::size_t>(a.target) + 1, 0);
          written_[static_cast<std::size_t>(a.target)] = 1;
        }
      written_known_ = true;
    }
    return p >= 0 && static_cast<std::size_t>(p) < written_.size() && written_[static_cast<std::size_t>(p)] != 0;
  }
  // Whether expression `id` reads a load of a buffer the kernel writes.
  bool reads_written(int id) const {
    if (id < 0) return false;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.op == dsl::ir_op::load) {
      const dsl::ir_access& a = ir_.accesses[static_cast<std::size_t>(e.value)];
      return written(a.target) || reads_written(a.index);
    }
    return reads_written(e.a) || reads_written(e.b);
  }
  // Whether the loads of written buffers in `guarded` (a guard's subject) and in `used` (the same
  // shape, where the narrowing is read) load the same values in one thread: for each pair, no
  // barrier and no store to that buffer lies between the two in the program, nor in a loop
  // around one of them only.
  bool same_value_at(int guarded, int used) const {
    if (guarded == used || guarded < 0 || used < 0) return true;
    const dsl::ir_expr &g = ir_.exprs[static_cast<std::size_t>(guarded)], &u = ir_.exprs[static_cast<std::size_t>(used)];
    if (g.op != u.op) return false;
    if (g.op != dsl::ir_op::load) return same_value_at(g.a, u.a) && same_value_at(g.b, u.b);
    const dsl::ir_access &x = ir_.accesses[static_cast<std::size_t>(g.value)], &y = ir_.accesses[static_cast<std::size_t>(u.value)];
    if (!same_value_at(x.index, y.index)) return false;
    return !written(x.target) || !separated_in_program(ir_, x, y, true);
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
        const interval t = narrowed_atom(atom_key(dsl::ir_op::thread_id, d), {0, facts_.block[d] - 1});
        const interval b = narrowed_atom(atom_key(dsl::ir_op::block_id, d), {0, facts_.grid[d] - 1});
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

  // An atom's range, narrowed by the guards that name it (key above).
  interval narrowed_atom(const std::string& key, interval range) const {
    const auto it = narrowed_.find(key);
    if (it == narrowed_.end()) return range;
    return {std::max(range.lo, it->second.lo), std::min(range.hi, it->second.hi)};
  }

  interval loop_range(const dsl::ir_loop& loop) {
    const interval lo = eval(loop.lo), hi = eval(loop.hi), step = eval(loop.step);
    if (!lo.bounded() || !step.bounded() || step.lo < 1) return interval::top();
    // The counter is an int: a start or step outside int reaches it converted (4294967295 as -1),
    // which no interval of the unconverted value bounds; an end above INT_MAX only comes down, so
    // the range below still holds, but one below INT_MIN goes up. (E104 refuses such bounds
    // unless data gives them.)
    auto fits_int = [](const interval& v) {
      return v.lo >= std::numeric_limits<int>::min() && v.hi <= std::numeric_limits<int>::max();
    };
    if (!fits_int(lo) || !fits_int(step) || (hi.bounded() && hi.lo < std::numeric_limits<int>::min())) return interval::top();
    if (!hi.bounded()) return {lo.lo, interval::top().hi};  // counts up from lo: a guard may bound the rest
    // One start and one step: the last value the loop takes, not hi - 1 (`for i = 0; i < 32;
    // i += 16` takes 0 and 16).
    if (lo.lo == lo.hi && step.lo == step.hi && hi.hi - 1 >= lo.lo)
      return {lo.lo, lo.lo + step.lo * ((hi.hi - 1 - lo.lo) / step.lo)};
    // Every start and step a multiple of g: so is every value, the last one at most hi - 1
    // rounded down to one (`for i = 2 * idx; i < n; i += 2 * stride` stays at n - 2 for an even n,
    // so in[i + 1] stays inside).
    const long long g = std::gcd(divisor(loop.lo), divisor(loop.step));
    long long last = hi.hi - 1;
    if (g > 1) last -= ((last % g) + g) % g;
    return {lo.lo, std::max(lo.lo, last)};
  }

  // A number that divides every value `id` takes in this launch (0: it is always 0), from
  // constants, the launch's numbers and + - * <<: `2 * idx` is even, `block_dim() * grid_dim()`
  // divides by the block. 1 where nothing is known, and for anything computed from data (which
  // may wrap).
  long long divisor(int id) const {
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    using dsl::ir_op;
    if (e.is_float || depends_on_data(ir_, id)) return 1;
    constexpr long long cap = 1LL << 40;  // a divisor of a divisor still divides: products are capped
    auto magnitude = [](long long v) { return v < 0 ? (v == std::numeric_limits<long long>::min() ? 1 : -v) : v; };
    const int d = static_cast<int>(e.value % 3);
    switch (e.op) {
      case ir_op::constant: return magnitude(e.value);
      case ir_op::block_dim: return facts_.block[d];
      case ir_op::grid_dim: return facts_.grid[d];
      case ir_op::param_value: {
        const auto p = static_cast<std::size_t>(e.value);
        return p < facts_.values.size() && facts_.values[p] ? magnitude(*facts_.values[p]) : 1;
      }
      case ir_op::param_size: return magnitude(facts_.sizes[static_cast<std::size_t>(e.value)]);
      case ir_op::negate: return divisor(e.a);
      case ir_op::add:
      case ir_op::sub: return std::gcd(divisor(e.a), divisor(e.b));
      case ir_op::mul: {
        const long long a = divisor(e.a), b = divisor(e.b);
        if (a == 0 || b == 0) return 0;
        return a < cap / b ? a * b : (a > 1 ? a : b);
      }
      case ir_op::shl: {
        const dsl::ir_expr& amount = ir_.exprs[static_cast<std::size_t>(e.b)];
        const long long a = divisor(e.a);
        if (a == 0) return 0;
        if (amount.op != ir_op::constant || amount.value < 0 || amount.value > 30) return a;  // x * 2^s: x divides it
        return a < (cap >> amount.value) ? a << amount.value : a;
      }
      default: return 1;
    }
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
    narrowed_ids_.try_emplace(it->first, subject);  // one expression of that shape (regrouped)
    if (reads_written(subject)) narrowed_subjects_[it->first].push_back(subject);
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
        if (b.lo != min && b.lo > -launch_impl::big) bound_atom(s.a, op, {min, launch_impl::clamp(ld(limit.hi) - ld(b.lo))});
        if (a.lo != min && a.lo > -launch_impl::big) bound_atom(s.b, op, {min, launch_impl::clamp(ld(limit.hi) - ld(a.lo))});
      } else {
        if (b.hi != max && b.hi < launch_impl::big) bound_atom(s.a, op, {launch_impl::clamp(ld(limit.lo) - ld(b.hi)), max});
        if (a.hi != max && a.hi < launch_impl::big) bound_atom(s.b, op, {launch_impl::clamp(ld(limit.lo) - ld(a.hi)), max});
      }
    } else {
      // a - b < L: a < L + b (above by L.hi + b.hi) and b > a - L (below by a.lo - L.hi).
      if (upper) {
        if (b.hi != max && b.hi < launch_impl::big) bound_atom(s.a, op, {min, launch_impl::clamp(ld(limit.hi) + ld(b.hi))});
        if (a.lo != min && a.lo > -launch_impl::big) bound_atom(s.b, mirrored, {launch_impl::clamp(ld(a.lo) - ld(limit.hi)), max});
      } else {
        if (b.lo != min && b.lo > -launch_impl::big) bound_atom(s.a, op, {launch_impl::clamp(ld(limit.lo) + ld(b.lo)), max});
        if (a.hi != max && a.hi < launch_impl::big) bound_atom(s.b, mirrored, {min, launch_impl::clamp(ld(a.hi) - ld(limit.lo))});
      }
    }
  }

  const dsl::kernel_ir& ir_;
  const launch_facts& facts_;
  std::map<std::string, interval> narrowed_;
  // An expression of each narrowed shape: a shape is a function of the nodes, so this never
  // goes stale when narrowed_ is cleared or restored.
  std::map<std::string, int> narrowed_ids_;
  // By shape: each guard subject of that shape that reads a buffer the kernel writes, which a use
  // must load the same values as (same_value_at) for the narrowing to apply there.
  std::map<std::string, std::vector<int>> narrowed_subjects_;
  mutable std::vector<char> written_;  // written(): by parameter, 1 where the kernel stores into it
  mutable bool written_known_ = false;
};

}  // namespace warden::check
