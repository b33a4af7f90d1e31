#pragma once
// Barrier order: when is every execution of two accesses separated by a sync() that all threads
// of the block pass? Barriers are uniform (W030), so a sync() runs for all threads or none. A
// barrier inside trusted(...) is one W030 does not judge, so it orders nothing here.
//
// A sync() s runs whenever an access a runs if s's context (guards and loops) encloses a's, or
// encloses it but for loops that surely run (runs_with). So:
//   * in one iteration of their common loops, a (earlier) and c are ordered when some s between
//     them in program order runs with a (and after it) or runs with c (and before it);
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
constexpr bool encloses(const dsl::kernel_ir& ir, const context& outer, const context& inner) {
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

// Does a loop run at least once, whatever the launch? (constant bounds, lo < hi, step >= 1)
constexpr bool surely_runs(const dsl::kernel_ir& ir, const dsl::ir_loop& loop) {
  if (loop.grid_stride || loop.lo < 0 || loop.hi < 0 || loop.step < 0) return false;
  const auto& lo = ir.exprs[static_cast<std::size_t>(loop.lo)];
  const auto& hi = ir.exprs[static_cast<std::size_t>(loop.hi)];
  const auto& step = ir.exprs[static_cast<std::size_t>(loop.step)];
  for (const auto* e : {&lo, &hi, &step})
    if (e->op != dsl::ir_op::constant || e->is_float) return false;
  return lo.value < hi.value && step.value >= 1;
}

// Does a sync() with context `s` run whenever an access with context `x` runs, in the same
// iteration of x's loops, possibly from inside loops that x is not in? It does when s's guards are
// a prefix of x's (no condition of its own) and every loop of s that x is not in runs at least once
// (a barrier in a loop of constant trips orders what comes before the loop against what follows).
constexpr bool runs_with(const dsl::kernel_ir& ir, const context& s, const context& x) {
  const int g = s.guard_end - s.guard_begin;
  if (g > x.guard_end - x.guard_begin) return false;
  for (int i = 0; i < g; ++i) {
    const auto& a = ir.guard_pool[static_cast<std::size_t>(s.guard_begin + i)];
    const auto& b = ir.guard_pool[static_cast<std::size_t>(x.guard_begin + i)];
    if (a.condition != b.condition || a.negated != b.negated) return false;
  }
  int shared = 0;
  while (s.loop_begin + shared < s.loop_end && x.loop_begin + shared < x.loop_end &&
         ir.loop_pool[static_cast<std::size_t>(s.loop_begin + shared)] == ir.loop_pool[static_cast<std::size_t>(x.loop_begin + shared)])
    ++shared;
  for (int p = s.loop_begin + shared; p < s.loop_end; ++p)
    if (!surely_runs(ir, ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])])) return false;
  return true;
}

// The number of loops enclosing both.
constexpr int common_loops(const dsl::kernel_ir& ir, const context& a, const context& c) {
  int n = 0;
  while (a.loop_begin + n < a.loop_end && c.loop_begin + n < c.loop_end &&
         ir.loop_pool[static_cast<std::size_t>(a.loop_begin + n)] == ir.loop_pool[static_cast<std::size_t>(c.loop_begin + n)])
    ++n;
  return n;
}

// Ordered within one iteration of all common loops.
constexpr bool ordered_same_iteration(const dsl::kernel_ir& ir, context a, context c) {
  if (a.position == c.position) return false;
  if (a.position > c.position) {
    const context t = a;
    a = c;
    c = t;
  }
  for (const auto& s : ir.syncs) {
    if (s.trusted) continue;  // W030 does not judge it: it may be one only some threads reach
    const context cs = context_of(s);
    if (cs.position > a.position && cs.position < c.position && (runs_with(ir, cs, a) || runs_with(ir, cs, c))) return true;
  }
  return false;
}

// Ordered when X runs in one iteration of common loop number `depth` and Y in a later one.
constexpr bool ordered_across_iterations(const dsl::kernel_ir& ir, const context& x, const context& y, int depth) {
  const int loop = ir.loop_pool[static_cast<std::size_t>(x.loop_begin + depth)];
  for (const auto& s : ir.syncs) {
    if (s.trusted) continue;  // W030 does not judge it: it may be one only some threads reach
    const context cs = context_of(s);
    bool inside = false;
    for (int p = cs.loop_begin; p < cs.loop_end; ++p) inside = inside || ir.loop_pool[static_cast<std::size_t>(p)] == loop;
    if (!inside) continue;
    if ((encloses(ir, cs, x) && cs.position > x.position) || (encloses(ir, cs, y) && cs.position < y.position)) return true;
  }
  return false;
}

// Whether every trip of loop number `level` around X passes a barrier: one directly in the loop's
// body, under no guard but the loop's own (W030 keeps a barrier's guards and trip counts the same
// in every thread). Then an instance of X in one trip is ordered before anything after the loop
// by the next trip's barrier, and one in a trip after the first is ordered after anything before
// the loop by the first trip's: only the loop's last (first) trip can meet an access after
// (before) it (tile_listing.hpp).
constexpr bool barrier_every_trip(const dsl::kernel_ir& ir, const context& x, int level) {
  const int loop = ir.loop_pool[static_cast<std::size_t>(x.loop_begin + level)];
  const dsl::ir_loop& shape = ir.loops[static_cast<std::size_t>(loop)];
  const int guards = shape.guard_end - shape.guard_begin;
  for (const auto& s : ir.syncs) {
    if (s.trusted || s.loop_end - s.loop_begin != level + 1 || s.guard_end - s.guard_begin != guards) continue;
    bool same = true;
    for (int d = 0; d <= level && same; ++d)
      same = ir.loop_pool[static_cast<std::size_t>(s.loop_begin + d)] == ir.loop_pool[static_cast<std::size_t>(x.loop_begin + d)];
    for (int g = 0; g < guards && same; ++g) {
      const auto& u = ir.guard_pool[static_cast<std::size_t>(s.guard_begin + g)];
      const auto& v = ir.guard_pool[static_cast<std::size_t>(shape.guard_begin + g)];
      same = u.condition == v.condition && u.negated == v.negated;
    }
    if (same) return true;
  }
  return false;
}

// Whether something may run between accesses x and y of one thread, at the same trips of their
// common loops, that changes what the thread loads of x's buffer without a race: a barrier (a
// store by another thread after it is ordered) between them in the program, or in a loop around
// one of them only; with `own_stores`, also a store or atomic update of that buffer there (the
// thread's own). Trusted barriers count too: a conservative answer, never a phase too long.
constexpr bool separated_in_program(const dsl::kernel_ir& ir, const dsl::ir_access& x, const dsl::ir_access& y, bool own_stores) {
  const int lo = x.position < y.position ? x.position : y.position, hi = x.position < y.position ? y.position : x.position;
  const auto encloses = [&](const dsl::ir_access& z, int l) {
    for (int p = z.loop_begin; p < z.loop_end; ++p)
      if (ir.loop_pool[static_cast<std::size_t>(p)] == l) return true;
    return false;
  };
  const auto between = [&](int position, int loop_begin, int loop_end) {
    if (position > lo && position < hi) return true;
    for (int p = loop_begin; p < loop_end; ++p)
      if (encloses(x, ir.loop_pool[static_cast<std::size_t>(p)]) != encloses(y, ir.loop_pool[static_cast<std::size_t>(p)])) return true;
    return false;
  };
  for (const auto& s : ir.syncs)
    if (between(s.position, s.loop_begin, s.loop_end)) return true;
  if (own_stores)
    for (const auto& z : ir.accesses)
      if (z.memory == dsl::memory_kind::global && z.target == x.target && z.kind != dsl::access_kind::load &&
          between(z.position, z.loop_begin, z.loop_end))
        return true;
  return false;
}

constexpr bool ordered_different_iterations(const dsl::kernel_ir& ir, const context& a, const context& c, int depth) {
  return ordered_across_iterations(ir, a, c, depth) && ordered_across_iterations(ir, c, a, depth);
}

}  // namespace warden::check
