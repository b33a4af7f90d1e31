#pragma once
// E104: integer operations that may wrap or overflow for this launch.

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../../config.hpp"
#include "../../dsl/ir.hpp"
#include "../footprint.hpp"
#include "global_pairs.hpp"
#include "integer_set.hpp"
#include "interval_evaluator.hpp"
#include "presburger.hpp"
#include "launch_values.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"

namespace warden::check {

namespace launch_impl {
// Does the value of node `n`, in some thread of this launch that runs access `at` (its loops and
// guards), leave [lo, hi]? Decided as an integer set (presburger.hpp: the value in the integers,
// which it is while every operation under it stays in its type, checked first); undecided where
// the solver cannot write the value or a loop's bound.
inline pair_answer value_outside(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& at, int n, long long lo,
                                 long long hi) {
  presburger_question q(ir, facts);
  presburger_instance one = q.thread("a");
  if (!q.enter_loops(at, one, "a")) return pair_answer::undecided;
  if (!q.enter_guards(at.guard_begin, at.guard_end, one)) return pair_answer::apart;  // runs in no thread
  const std::optional<std::string> v = q.term(n, one);
  if (!v) return pair_answer::undecided;
  q.require("(" + *v + " < " + std::to_string(lo) + " or " + *v + " > " + std::to_string(hi) + ")");
  std::string why;
  return answer_of(decide_integer_set(q.text(), q.dimensions()), why);
}

// The value of launch-uniform node `n` in the integers, its operands taken as the kernel computes
// them (exact_value, which wraps an unsigned result: the question here is whether it must);
// nullopt where it is not uniform or the operation is not one of these.
inline std::optional<long long> unwrapped_value(const dsl::kernel_ir& ir, const launch_facts& facts, int n) {
  using dsl::ir_op;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(n)];
  // A leaf (a local's read: the value it holds), or a select that converts neither side, which
  // computes nothing: the side it chooses (whose own operations the walk checks).
  if (e.op < ir_op::add || (e.op == ir_op::select && e.unsigned_bits == 0)) return exact_value(ir, n, facts);
  const std::optional<long long> a = exact_value(ir, e.a, facts);
  const std::optional<long long> b = e.b >= 0 ? exact_value(ir, e.b, facts) : std::optional<long long>(0);
  if (!a || !b || !exact_value(ir, n, facts)) return std::nullopt;
  // In long double: its 64-bit significand holds every result that fits a long long exactly.
  const long double x = static_cast<long double>(*a), y = static_cast<long double>(*b);
  long double r = 0;
  switch (e.op) {
    case ir_op::add: r = x + y; break;
    case ir_op::sub: r = x - y; break;
    case ir_op::mul: r = x * y; break;
    case ir_op::negate: r = -x; break;
    case ir_op::shl: if (*b < 0 || *b > 62) return std::nullopt; r = x * static_cast<long double>(1LL << *b); break;
    default: return exact_value(ir, n, facts);  // cannot leave the range of in-range operands
  }
  if (r >= 9223372036854775808.0L || r < -9223372036854775808.0L) return std::nullopt;
  return static_cast<long long>(r);
}

// Exactly, for this launch: does no operation under `id` (written in access `at`) leave its type,
// in any thread and any iteration? The intervals cannot see `2 * t - (t & m)` stay at or above 0.
// Each operation, innermost first, is asked of the solver (value_outside), and where it cannot
// write one, listed over a block's threads as the shared-memory rules list footprints (which
// evaluates a mask by a loop's power of two, but not a block id, data or a loop of unknown trips).
inline bool exactly_in_range(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& at, int id) {
  const launch_numbers numbers = numbers_of(facts);
  block_shape shape{facts.block.x, facts.block.y, facts.block.z};
  shape.grid_dims = grid_dims_of(ir);
  shape.numbers = &numbers;
  std::vector<char> seen(ir.exprs.size(), 0);
  // Whether node n stays in [lo, hi] over every thread and iteration that runs `at`.
  auto within = [&](int n, long long lo, long long hi) {
    if (exact_value(ir, n, facts)) {  // launch-uniform: one value, in the integers
      const std::optional<long long> v = unwrapped_value(ir, facts, n);
      return v && *v >= lo && *v <= hi;
    }
    const pair_answer solved = value_outside(ir, facts, at, n, lo, hi);
    if (solved != pair_answer::undecided) return solved == pair_answer::apart;
    dsl::ir_access probe = at;
    probe.memory = dsl::memory_kind::global;  // a value, not an element: no tile to fit
    probe.index = n;
    probe.column = -1;
    const footprint f = footprint_of(ir, shape, probe);
    return f.all_known && (f.row_lo > f.row_hi || (f.row_lo >= lo && f.row_hi <= hi));
  };
  auto walk = [&](auto& self, int n) -> bool {
    if (n < 0 || seen[static_cast<std::size_t>(n)]) return true;
    seen[static_cast<std::size_t>(n)] = 1;
    const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(n)];
    // A local that holds its init is read through by the solver: the init's operations too.
    if (e.op == dsl::ir_op::local_var) return ir.held_value(e) < 0 || self(self, ir.held_value(e));
    if (e.op < dsl::ir_op::add) return true;  // a leaf: a launch number is its type's already
    if (!self(self, e.a) || !self(self, e.b)) return false;
    if (e.unsigned_bits > 0) {
      const long long top = e.unsigned_bits >= 64 ? std::numeric_limits<long long>::max() : (1LL << e.unsigned_bits) - 1;
      for (int operand : {e.a, e.b})
        if (operand >= 0 && !within(operand, 0, top)) return false;
      return within(n, 0, top);
    }
    if (e.signed_bits == 32) return within(n, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    return true;
  };
  return walk(walk, id);
}
}  // namespace launch_impl

// The first operation carried out in an unsigned type that may wrap for this launch, or in int
// arithmetic that may overflow, where its value decides something (an index, a guard, a loop
// bound, a shuffle's lane), described for an E104 message; empty if none. The checker reasons about such operations as about integers: this is
// the launch obligation that makes that sound.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_integer_wrap(const dsl::kernel_ir& ir, const launch_facts& facts,
                                       const launch_names& names, int* wrapped) {
  interval_evaluator evaluator(ir, facts);
  long long reached = 0;
  // `wrapped`: the operation of the message returned, where it is one (not a loop's int counter);
  // set when that message is returned, since a description may be dropped (exactly_in_range).
  int described = -1;
  if (wrapped != nullptr) *wrapped = -1;
  auto found = [&](std::string m) {
    if (wrapped != nullptr) *wrapped = described;
    return m;
  };
  auto describe = [&](int id) {
    described = id;
    const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
    if (e.signed_bits > 0) {
      const bool unbounded = reached == std::numeric_limits<long long>::min() || reached == std::numeric_limits<long long>::max();
      return render(ir, id, names) + " is computed in a " + std::to_string(e.signed_bits) + "-bit signed type and " +
             (unbounded ? std::string("cannot be bounded") : "may overflow it (reaching " + std::to_string(reached) + ")") +
             " for this launch, which is undefined and wraps on the device";
    }
    return render(ir, id, names) + " is computed in a " + std::to_string(e.unsigned_bits) + "-bit unsigned type and may " +
           (reached < 0 ? "go below 0 (reaching " : "leave its range (reaching ") + std::to_string(reached) +
           ") for this launch, which wraps around";
  };
  auto check = [&](int id, int begin, int end) {
    const int w = id < 0 ? -1 : evaluator.first_wrap(id, begin, end, &reached);
    return w >= 0 ? describe(w) : std::string();
  };
  for (const dsl::ir_access& a : ir.accesses) {
    for (int g = a.guard_begin; g < a.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, a.guard_begin, g); !m.empty()) return found(std::move(m));
    // Where the intervals see a wrap, an index that only thread ids, loop counters and the
    // launch's numbers make is decided exactly before the launch is refused.
    if (auto m = check(a.index, a.guard_begin, a.guard_end); !m.empty() && !launch_impl::exactly_in_range(ir, facts, a, a.index)) return found(std::move(m));
    if (auto m = check(a.column, a.guard_begin, a.guard_end); !m.empty() && !launch_impl::exactly_in_range(ir, facts, a, a.column)) return found(std::move(m));
  }
  for (const dsl::ir_loop& loop : ir.loops)
    for (int id : {loop.lo, loop.hi, loop.step})
      if (auto m = check(id, loop.guard_begin, loop.guard_end); !m.empty()) return found(std::move(m));
  // A loop runs with its bounds converted to its int counter (a value<unsigned> start of
  // 4294967295, a host's `center - radius` that wrapped, starts at -1), while every check reasons
  // on the bound's own value: the two agree only while that value fits an int. A bound read from
  // data is no launch's choice (`counts[t] + 1u` may reach 2^32 - 1 whatever the launch): the
  // intervals take such a loop's variable as unknown instead (interval_evaluator::loop_range).
  for (const dsl::ir_loop& loop : ir.loops) {
    const char* roles[] = {"starts at ", "ends at ", "steps by "};
    const int bounds[] = {loop.lo, loop.hi, loop.step};
    for (int r = 0; r < 3; ++r) {
      if (depends_on_data(ir, bounds[r])) continue;
      const interval v = evaluator.index_interval(bounds[r], loop.guard_begin, loop.guard_end);
      if (!v.bounded()) continue;  // past any range: reasoned about as unknown already
      constexpr long long int_min = std::numeric_limits<int>::min(), int_max = std::numeric_limits<int>::max();
      if (v.lo >= int_min && v.hi <= int_max) continue;
      const long long reached = v.hi > int_max ? v.hi : v.lo;
      return "the loop over " + names.loop(ir, loop) + " " + roles[r] + render(ir, bounds[r], names) +
             ", which is " + std::to_string(reached) + " for this launch: its int counter receives " +
             std::to_string(static_cast<int>(static_cast<unsigned>(static_cast<unsigned long long>(reached)))) +
             " instead; pass the bound as an int, or a value that fits one";
    }
  }
  // The increment i += step, in int: below hi, i + step passes INT_MAX only if hi - 1 + step does
  // (and then i wraps to a negative value, still below hi: the loop never ends, and every bound
  // the checker drew from it is wrong). A step of 1 never does.
  for (const dsl::ir_loop& loop : ir.loops) {
    const interval step = evaluator.index_interval(loop.step, loop.guard_begin, loop.guard_end);
    if (!step.bounded() || step.hi <= 1) continue;  // an unbounded step is E103's
    const interval hi = evaluator.index_interval(loop.hi, loop.guard_begin, loop.guard_end);
    const long double last = hi.bounded() ? static_cast<long double>(hi.hi) - 1 + static_cast<long double>(step.hi) : 0;
    if (hi.bounded() && last <= static_cast<long double>(std::numeric_limits<int>::max())) continue;
    return "the loop over " + names.loop(ir, loop) + " up to " + render(ir, loop.hi, names) + " steps by " +
           render(ir, loop.step, names) + ", and i + step " +
           (hi.bounded() ? "may reach " + std::to_string(static_cast<long long>(last)) : std::string("cannot be bounded")) +
           " for this launch: past INT_MAX it wraps and the loop never ends; bound the loop's end so that it cannot";
  }
  for (const dsl::ir_shuffle& s : ir.shuffles) {
    for (int g = s.guard_begin; g < s.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, s.guard_begin, g); !m.empty()) return found(std::move(m));
    if (auto m = check(s.lane, s.guard_begin, s.guard_end); !m.empty()) return found(std::move(m));
  }
  for (const dsl::ir_sync& s : ir.syncs)
    for (int g = s.guard_begin; g < s.guard_end; ++g)
      if (auto m = check(ir.guard_pool[static_cast<std::size_t>(g)].condition, s.guard_begin, g); !m.empty()) return found(std::move(m));
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
