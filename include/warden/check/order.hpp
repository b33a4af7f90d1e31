#pragma once
// Barrier order: when is every execution of two accesses separated by a sync() that all threads
// of the block pass? Barriers are uniform (W030), so a sync() runs for all threads or none.
//
// A sync() s runs whenever an access a runs if s's context (guards and loops) encloses a's. So:
//   * in one iteration of their common loops, a (earlier) and c are ordered when some s between
//     them in program order encloses a (and runs after it) or encloses c (and runs before it);
//   * in different iterations of a common loop L (the outermost that differs), X then Y are
//     ordered when some s inside L encloses X and follows it, or encloses Y and precedes it.

#include "../dsl/ir.hpp"

namespace warden::check {

struct context {
  int guard_begin, guard_end, loop_begin, loop_end, position;
};

constexpr context context_of(const dsl::ir_access& a) {
  return {a.guard_begin, a.guard_end, a.loop_begin, a.loop_end, a.position};
}
constexpr context context_of(const dsl::ir_sync& s) { return {s.guard_begin, s.guard_end, s.loop_begin, s.loop_end, s.position}; }

// Does `outer`'s context enclose `inner`'s (its guards and loops are a prefix of inner's)?
constexpr bool encloses(const dsl::ir_builder& ir, const context& outer, const context& inner) {
  const int g = outer.guard_end - outer.guard_begin, l = outer.loop_end - outer.loop_begin;
  if (g > inner.guard_end - inner.guard_begin || l > inner.loop_end - inner.loop_begin) return false;
  for (int i = 0; i < g; ++i) {
    const auto& x = ir.guard_pool[static_cast<std::size_t>(outer.guard_begin + i)];
    const auto& y = ir.guard_pool[static_cast<std::size_t>(inner.guard_begin + i)];
    if (x.condition != y.condition || x.negated != y.negated) return false;
  }
  for (int i = 0; i < l; ++i)
    if (ir.loop_pool[static_cast<std::size_t>(outer.loop_begin + i)] != ir.loop_pool[static_cast<std::size_t>(inner.loop_begin + i)])
      return false;
  return true;
}

// The number of loops enclosing both.
constexpr int common_loops(const dsl::ir_builder& ir, const context& a, const context& c) {
  int n = 0;
  while (a.loop_begin + n < a.loop_end && c.loop_begin + n < c.loop_end &&
         ir.loop_pool[static_cast<std::size_t>(a.loop_begin + n)] == ir.loop_pool[static_cast<std::size_t>(c.loop_begin + n)])
    ++n;
  return n;
}

// Ordered within one iteration of all common loops.
constexpr bool ordered_same_iteration(const dsl::ir_builder& ir, context a, context c) {
  if (a.position == c.position) return false;
  if (a.position > c.position) {
    const context t = a;
    a = c;
    c = t;
  }
  for (const auto& s : ir.syncs) {
    const context cs = context_of(s);
    if (cs.position > a.position && cs.position < c.position && (encloses(ir, cs, a) || encloses(ir, cs, c))) return true;
  }
  return false;
}

// Ordered when X runs in one iteration of common loop number `depth` and Y in a later one.
constexpr bool ordered_across_iterations(const dsl::ir_builder& ir, const context& x, const context& y, int depth) {
  const int loop = ir.loop_pool[static_cast<std::size_t>(x.loop_begin + depth)];
  for (const auto& s : ir.syncs) {
    const context cs = context_of(s);
    bool inside = false;
    for (int p = cs.loop_begin; p < cs.loop_end; ++p) inside = inside || ir.loop_pool[static_cast<std::size_t>(p)] == loop;
    if (!inside) continue;
    if ((encloses(ir, cs, x) && cs.position > x.position) || (encloses(ir, cs, y) && cs.position < y.position)) return true;
  }
  return false;
}

constexpr bool ordered_different_iterations(const dsl::ir_builder& ir, const context& a, const context& c, int depth) {
  return ordered_across_iterations(ir, a, c, depth) && ordered_across_iterations(ir, c, a, depth);
}

}  // namespace warden::check
