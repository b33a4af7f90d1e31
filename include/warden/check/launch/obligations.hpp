#pragma once
// E106: the conditions on the launch that the checker's proof rests on (dsl/obligation.hpp),
// decided with this launch's numbers, and rendered in the user's names (w::obligations_of).

#include <optional>
#include <string>
#include <vector>

#include "../../config.hpp"
#include "../../diagnostic/codes.hpp"
#include "../../dsl/ir.hpp"
#include "../../dsl/obligation.hpp"
#include "../polynomial.hpp"
#include "global_pairs.hpp"
#include "interval_evaluator.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "launch_values.hpp"
#include "shared_races.hpp"

namespace warden::check {

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
inline std::string symbol_name(int s, const launch_names& names) {
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
WARDEN_RUNTIME_API std::string render_condition(const obligation& o, const launch_names& names) {
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
inline std::string condition_values(const obligation& o, const launch_facts& facts, const launch_names& names) {
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

// `out[i % n + i / n * n] and out[...]`: the two accesses of a pair, as the kernel writes them.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string pair_text(const dsl::kernel_ir& ir, const launch_names& names, int first, int second) {
  const auto& a = ir.accesses[static_cast<std::size_t>(first)];
  const auto& c = ir.accesses[static_cast<std::size_t>(second)];
  const std::string x = names[static_cast<std::size_t>(a.target)] + "[" + render(ir, a.index, names) + "]";
  const std::string y = names[static_cast<std::size_t>(c.target)] + "[" + render(ir, c.index, names) + "]";
  return first == second ? x + " (one store, two threads)" : x + " and " + y;
}
}  // inline namespace WARDEN_RUNTIME_ABI

// A global pair the checker left to the launch (global_at_launch): decided with this launch's
// numbers; the E106 text when two threads meet or the solver cannot decide, else empty.
inline std::string unmet_global_pair(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names,
                                     const dsl::global_pair& o, const std::vector<char>* race_free = nullptr) {
  interval_evaluator evaluator(ir, facts);
  const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
  const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
  if (!evaluator.may_run(a.guard_begin, a.guard_end) || !evaluator.may_run(c.guard_begin, c.guard_end)) return {};
  const launch_impl::pair_verdict p = launch_impl::global_pair_meeting(ir, facts, o.first, o.second, race_free);
  if (p.answer == launch_impl::pair_answer::apart) return {};
  // The launch's values the two reach through: their indices and the bounds of their loops.
  std::vector<std::size_t> read;
  for (const dsl::ir_access* x : {&a, &c}) {
    launch_impl::parameters_read(ir, x->index, dsl::ir_op::param_value, read);
    for (int p = x->loop_begin; p < x->loop_end; ++p) {
      const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
      for (int bound : {loop.lo, loop.hi, loop.step}) launch_impl::parameters_read(ir, bound, dsl::ir_op::param_value, read);
    }
  }
  std::string values;
  for (std::size_t p : read)  // each once (parameters_read)
    values += (values.empty() ? "" : ", ") + names[p] + " = " + launch_impl::value_text(facts, p);
  const std::string rule = std::string(diagnostic::to_string(o.protects)) + " for " + pair_text(ir, names, o.first, o.second);
  const std::string with = values.empty() ? std::string() : " (" + values + ")";
  if (p.answer == launch_impl::pair_answer::meet)
    return rule + ": decided with this launch's numbers" + with + ", " + launch_impl::meeting_text(ir, names, facts, p) +
           " (the checker left this pair to the launch, w::obligations_of): launch with values for which no two threads "
           "reach one element, or give each thread elements of its own";
  return rule + ": the launch cannot decide it" + with + ": an index or a loop bound holds " + p.why +
         " (the checker left this pair to the launch, w::obligations_of; docs/soundness.md, \"What the launch decides\"): "
         "write the index from thread ids, loop variables and launch values, or state the fact it rests on";
}

// The buffers the kernel writes whose every pair of a store and a load the checker proved
// race-free at compile time, unconditionally: written only by plain stores, none trusted, and no
// pair of theirs left to the launch or resting on a condition (proposals/0011, piece 2).
inline std::vector<char> race_free_written(const dsl::kernel_ir& ir, const obligation_list& duties, std::size_t arity) {
  std::vector<char> written(arity, 0), eligible(arity, 1);
  for (const dsl::ir_access& a : ir.accesses) {
    if (a.memory != dsl::memory_kind::global || static_cast<std::size_t>(a.target) >= arity) continue;
    const auto p = static_cast<std::size_t>(a.target);
    if (a.kind != dsl::access_kind::load) written[p] = 1;
    if (a.kind == dsl::access_kind::atomic || a.trusted || a.vector_bytes != 0 || a.permuted_by >= 0) eligible[p] = 0;
  }
  const auto target_of = [&](int access) { return static_cast<std::size_t>(ir.accesses[static_cast<std::size_t>(access)].target); };
  for (const obligation& o : duties)
    if (o.kind == obligation_kind::positive && o.first >= 0 && target_of(o.first) < arity) eligible[target_of(o.first)] = 0;
  for (std::size_t p = 0; p < arity; ++p) written[p] = written[p] && eligible[p];
  return written;
}

// The first pair the checker left to the launch (global_at_launch) that meets or cannot be
// decided, described for E106; empty if all are apart. Decided in rounds (proposals/0011, piece
// 2): a pair may use the loads of a buffer the kernel writes (presburger_question::write_loads_of)
// only once every pair of a store and a load of that buffer is apart, decided without it; a
// buffer whose last open pair closes joins the next round. A B+tree's `offset[b]` pairs are
// decided with `node[b]`'s loads (whose own pairs the compile-time check proved), then `ans[b]`'s.
inline std::string first_unmet_global_pair(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names,
                                           const obligation_list& duties) {
  const std::size_t arity = facts.sizes.size();
  std::vector<char> eligible = race_free_written(ir, duties, arity);
  std::vector<char> race_free(arity, 0), open(static_cast<std::size_t>(duties.pair_count), 1);
  std::vector<std::string> unmet(static_cast<std::size_t>(duties.pair_count));
  const auto target_of = [&](int p) { return static_cast<std::size_t>(ir.accesses[static_cast<std::size_t>(duties.pairs[p].first)].target); };
  // Eligible buffers with no pair left to the launch are race-free from the start.
  const auto close_buffers = [&] {
    bool more = false;
    for (std::size_t b = 0; b < arity; ++b) {
      if (!eligible[b] || race_free[b]) continue;
      bool any_open = false;
      for (int p = 0; p < duties.pair_count; ++p) any_open = any_open || (open[static_cast<std::size_t>(p)] && target_of(p) == b);
      if (!any_open) race_free[b] = more = true;
    }
    return more;
  };
  close_buffers();
  for (bool again = true; again;) {
    again = false;
    for (int p = 0; p < duties.pair_count; ++p) {
      if (!open[static_cast<std::size_t>(p)]) continue;
      std::vector<char> usable = race_free;
      if (target_of(p) < arity) usable[target_of(p)] = 0;  // never the pair's own buffer
      unmet[static_cast<std::size_t>(p)] = unmet_global_pair(ir, facts, names, duties.pairs[p], &usable);
      if (unmet[static_cast<std::size_t>(p)].empty()) open[static_cast<std::size_t>(p)] = 0;
    }
    again = close_buffers();
  }
  for (int p = 0; p < duties.pair_count; ++p)
    if (open[static_cast<std::size_t>(p)]) return unmet[static_cast<std::size_t>(p)];
  return {};
}

// Whether expression `id` reads the grid's size.
using launch_impl::reads_op;
inline bool reads_grid_dim(const dsl::kernel_ir& ir, int id) { return reads_op(ir, id, dsl::ir_op::grid_dim); }

// "pitch >= width": a positive obligation's condition as a guard reads it, every term on the side
// where it adds (nothing subtracted, so an unsigned guard cannot wrap).
inline std::string guard_condition(const obligation& o, const launch_names& names) {
  std::string sides[2];
  long long constant = 0;
  for (int t = 0; t < o.term_count; ++t) {
    const obligation_term& term = o.terms[t];
    if (term.symbols[0] < 0) {
      constant += term.coefficient;
      continue;
    }
    std::string& side = sides[term.coefficient > 0 ? 0 : 1];
    const long long c = term.coefficient > 0 ? term.coefficient : -term.coefficient;
    side += side.empty() ? "" : " + ";
    if (c != 1) side += std::to_string(c) + " * ";
    for (int k = 0; k < 3 && term.symbols[k] >= 0; ++k) side += (k > 0 ? " * " : "") + symbol_name(term.symbols[k], names);
  }
  // terms >= 1 - constant, that is: left >= right + (1 - constant)
  const long long rest = 1 - constant;
  if (sides[0].empty()) sides[0] = "0";
  if (sides[1].empty()) return sides[0] + " >= " + std::to_string(rest);
  return sides[0] + " >= " + sides[1] + (rest > 0 ? " + " + std::to_string(rest) : rest < 0 ? " - " + std::to_string(-rest) : "");
}
inline bool condition_reads_grid(const obligation& o) {
  for (int t = 0; t < o.term_count; ++t)
    for (int k = 0; k < 3 && o.terms[t].symbols[k] >= 0; ++k)
      if (o.terms[t].symbols[k] >= symbol::grid_dim(0) && o.terms[t].symbols[k] < symbol::grid_dim(3)) return true;
  return false;
}

// "two threads may store out[j] at one element, a write-write race (W010), which the checker ruled
// out only where 256 * grid_dim.x <= 256; this launch has grid_dim.x = 4": the race E106 guards
// against, in plain words and the kernel's names.
inline std::string race_under_condition(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names,
                                        const obligation& o) {
  const char* verbs[] = {"load", "store", "atomically update"};
  const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
  const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
  const auto text = [&](const dsl::ir_access& x) {
    return names[static_cast<std::size_t>(x.target)] + "[" + render(ir, x.index, names) + "]";
  };
  const std::string what = o.first == o.second || (a.kind == c.kind && text(a) == text(c))
                               ? std::string("two threads may ") + verbs[static_cast<int>(a.kind)] + " " + text(a) + " at one element"
                               : std::string("one thread may ") + verbs[static_cast<int>(a.kind)] + " " + text(a) + " and another " +
                                     verbs[static_cast<int>(c.kind)] + " " + text(c) + " at one element";
  return what + " (" + std::string(diagnostic::to_string(o.protects)) + " [" + std::string(diagnostic::row(o.protects).short_name) +
         "]); the checker ruled that out only where " + render_condition(o, names) + ", and this launch has " +
         condition_values(o, facts, names);
}

// What to change in the kernel so that it needs no condition on the launch: a loop that starts at
// the thread's global index but steps by less than the grid (so the blocks overlap) steps by the
// grid; a condition on the grid's size asks for the block in the index; any other, for a guard.
inline std::string kernel_fix(const dsl::kernel_ir& ir, const launch_names& names, const obligation& o) {
  const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
  if (condition_reads_grid(o)) {
    // A grid-stride loop written by hand: it starts at the thread's global index, the access's
    // index reads its variable, and it steps by less than the grid.
    for (int p = a.loop_end - 1; p >= a.loop_begin; --p) {
      const int id = ir.loop_pool[static_cast<std::size_t>(p)];
      const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(id)];
      if (loop.grid_stride || reads_grid_dim(ir, loop.step) || !reads_op(ir, loop.lo, dsl::ir_op::global_id) ||
          !reads_op(ir, a.index, dsl::ir_op::loop_var, id))
        continue;
      const bool from_global_id = ir.exprs[static_cast<std::size_t>(loop.lo)].op == dsl::ir_op::global_id &&
                                  spelled_as_written(render(ir, loop.hi, names));
      return "In the kernel: the loop over " + names.loop(ir, loop) + " steps by " + render(ir, loop.step, names) +
             ", less than the grid, so the blocks' elements overlap; step by the whole grid, k.block_dim() * k.grid_dim()" +
             (from_global_id ? " (or write the loop as w::grid_stride(k, " + render(ir, loop.hi, names) + ", ...))" : std::string());
    }
    return "In the kernel: the index does not separate the blocks; index by the block as well as the thread "
           "(k.global_id() where the kernel has k.thread_id())";
  }
  const std::string guard = guard_condition(o, names);
  return spelled_as_written(guard) ? "In the kernel: guard the accesses with the condition, w::when(" + guard +
                                         ", ...), so that no thread runs them when it fails"
                                   : "In the kernel: guard the accesses with the condition, so that no thread runs them when it fails";
}

// The first obligation (dsl/obligation.hpp) that fails or cannot be decided for this launch,
// described for an E106 message; empty if all hold.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_unmet_obligation(const dsl::kernel_ir& ir, const launch_facts& facts,
                                          const launch_names& names, const obligation_list& duties, int* failed) {
  const launch_impl::integer_set_memo memo;  // a set two pairs ask is decided once
  if (failed != nullptr) *failed = -1;
  for (const obligation& o : duties) {
    if (o.kind == obligation_kind::shared_at_launch) {
      // Every tile rule, W022 too: a listing that could not place a store (its index read a
      // launch number) covered every element with it, so W022 was never judged at compile time.
      if (std::string e = first_shared_race(ir, facts, names); !e.empty()) return e;
      continue;
    }
    if (o.kind == obligation_kind::positive) {
      const std::optional<long double> v = condition_value(o, facts);
      if (v && *v >= 1) continue;
      // Void when one of the two accesses runs in no thread of this launch.
      interval_evaluator evaluator(ir, facts);
      const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
      const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
      if (!evaluator.may_run(a.guard_begin, a.guard_end) || !evaluator.may_run(c.guard_begin, c.guard_end)) continue;
      // The condition is sufficient, not necessary: the pair itself, decided with this launch's
      // numbers (launch/global_pairs.hpp), may still be apart.
      std::string listed;
      if (o.protects == diagnostic::code::W010 || o.protects == diagnostic::code::W011) {
        const launch_impl::pair_verdict p = launch_impl::global_pair_meeting(ir, facts, o.first, o.second);
        if (p.answer == launch_impl::pair_answer::apart) continue;
        if (p.answer == launch_impl::pair_answer::meet) listed = ": " + launch_impl::meeting_text(ir, names, facts, p);
      }
      if (failed != nullptr) *failed = static_cast<int>(&o - &duties.items[0]);
      return race_under_condition(ir, facts, names, o) + listed + ". " + kernel_fix(ir, names, o) +
             "; or launch with values that meet the condition (w::obligations_of lists it)";
    }
    if (o.kind != obligation_kind::trip_limit || o.loop < 0 || o.loop >= static_cast<int>(ir.loops.size())) continue;
    const long long most = most_trips(ir, facts, o.loop);
    if (most >= 0 && most <= o.most_trips) continue;
    // More trips than the compile-time listing went through: the tile rules it protects are
    // decided for this launch's trips instead, as integer sets (shared_tiles.hpp, every trip at
    // once); refused only where that finds a breach or cannot decide (issue 56: a histogram's
    // input loop that votes through shared atomics runs as many trips as its input needs).
    if (o.protects == diagnostic::code::W020 || o.protects == diagnostic::code::W021 || o.protects == diagnostic::code::W022 ||
        o.protects == diagnostic::code::W040) {
      const launch_numbers numbers = launch_impl::numbers_of(facts);
      block_shape shape{facts.block.x, facts.block.y, facts.block.z};
      shape.grid_dims = grid_dims_of(ir);
      shape.numbers = &numbers;
      std::string why;
      if (!launch_impl::first_tile_finding(ir, facts, shape, why)) continue;
    }
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(o.loop)];
    const std::string values = launch_impl::values_read(ir, loop.hi, facts, names);
    return "the loop over " + names.loop(ir, loop) + " from " + render(ir, loop.lo, names) + " to " +
           render(ir, loop.hi, names) + (most < 0 ? std::string(" cannot be bounded") : " may run " + std::to_string(most) + " trips") +
           " for this launch" + (values.empty() ? std::string() : " (" + values + ")") + "; the checker proved " +
           to_string(o.protects) + " for at most " + std::to_string(o.most_trips) +
           " trips of it (w::obligations_of lists this condition): launch with fewer, or give the loop a constant trip count";
  }
  return first_unmet_global_pair(ir, facts, names, duties);
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
