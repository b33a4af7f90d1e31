#pragma once
// The sync() a W020, W021 or W040 (one block) message suggests, checked before it is offered (issue 57, item 1): a
// placement of a barrier is a rewrite of the kernel's IR, and the checker runs again on the
// rewritten IR. A placement is offered only when the kernel with it (and, where one barrier is not
// enough, with at most `max_barriers` of them, each found the same way for the race that remains)
// is accepted. A barrier adds no access and takes none away, so the rewritten kernel writes what
// the original wrote: the footprint needs no second look. Where no placement is accepted, the
// message asks instead of instructing (check/explain.hpp).
//
// Where a barrier can go, for the race between an earlier access `a` and a later access `c` (in
// program order) of one barrier phase, innermost first:
//   * just before c's statement, in c's own context (both in one statement: between the load and
//     the store, which the source spells with a local: the message's w::local form);
//   * before the w::when or the loop around c, one construct further out each time, while the
//     construct begins after a (a barrier there still lies between them);
// and for W021, the race between trips of a loop: at the end of that loop's body. A barrier under
// a thread-dependent w::when is refused by the second run (W030), so the placements that survive
// are the ones every thread of the block reaches.
#include "../dsl/ir.hpp"
#include "finding.hpp"
#include "rules.hpp"

namespace warden::check {

// One barrier the message suggests, in words the source can follow.
struct barrier_placement {
  enum class where : unsigned char { before_statement, before_when, before_loop, end_of_loop };
  where at = where::before_statement;
  int access = -1;  // the statement's access: the one the barrier precedes (or, end_of_loop, follows)
  int guard = -1;   // before_when: the guard_pool entry of the w::when (in `access`'s range)
  int loop = -1;    // before_loop, end_of_loop: the loop (an index into kernel_ir::loops)
  int other = -1;   // before_statement: the earlier access of the pair
  bool one_statement = false;  // before_statement: both accesses in one statement (the w::local form)
};

inline constexpr int max_barriers = 2;

struct barrier_suggestion {
  int count = 0;  // 0: no placement the checker accepts
  barrier_placement at[max_barriers]{};
};

namespace detail_barriers {

// Where the new barrier sits in the IR: its position (the item now there moves one later) and its
// context, ranges of the pools that an existing access's context already holds.
struct slot {
  int position = 0;
  int guard_begin = 0, guard_end = 0, loop_begin = 0, loop_end = 0;
};

// The kernel with a barrier at `s`: every access and barrier at s.position or after moves one
// place (and one phase) later, and the loops around it hold a barrier.
constexpr kernel_ir with_barrier(const kernel_ir& ir, const slot& s) {
  kernel_ir out = ir;
  for (auto& a : out.accesses)
    if (a.position >= s.position) ++a.position, ++a.phase;
  std::size_t insert_at = out.syncs.size();
  int phase = 0;
  for (std::size_t i = 0; i < out.syncs.size(); ++i) {
    auto& y = out.syncs[i];
    if (y.position >= s.position) {
      if (insert_at == out.syncs.size()) insert_at = i;
      ++y.position, ++y.phase;
    } else {
      phase = y.phase + 1;
    }
  }
  dsl::ir_sync added;
  added.guard_begin = s.guard_begin;
  added.guard_end = s.guard_end;
  added.loop_begin = s.loop_begin;
  added.loop_end = s.loop_end;
  added.position = s.position;
  added.phase = phase;
  // In program order among the others (push_back and swaps: clang 14 cannot evaluate
  // vector::insert over libstdc++ in a constant expression).
  out.syncs.push_back(added);
  for (std::size_t i = out.syncs.size() - 1; i > insert_at; --i) {
    const dsl::ir_sync t = out.syncs[i];
    out.syncs[i] = out.syncs[i - 1];
    out.syncs[i - 1] = t;
  }
  for (int p = s.loop_begin; p < s.loop_end; ++p) out.loops[static_cast<std::size_t>(out.loop_pool[static_cast<std::size_t>(p)])].has_barrier = true;
  return out;
}

// The context of each position: accesses and barriers each hold one (dsl/ir.hpp), so a table of
// them, in program order, tells what surrounds the statements just before an access.
struct item {
  int guard_begin = 0, guard_end = 0, loop_begin = 0, loop_end = 0;
  bool present = false;
};
constexpr std::vector<item> items_by_position(const kernel_ir& ir) {
  int n = 0;
  for (const auto& a : ir.accesses) n = a.position + 1 > n ? a.position + 1 : n;
  for (const auto& s : ir.syncs) n = s.position + 1 > n ? s.position + 1 : n;
  std::vector<item> out;  // (grown by push_back: clang 14 cannot evaluate vector(n) over libstdc++)
  for (int i = 0; i < n; ++i) out.push_back(item{});
  for (const auto& a : ir.accesses) out[static_cast<std::size_t>(a.position)] = {a.guard_begin, a.guard_end, a.loop_begin, a.loop_end, true};
  for (const auto& s : ir.syncs) out[static_cast<std::size_t>(s.position)] = {s.guard_begin, s.guard_end, s.loop_begin, s.loop_end, true};
  return out;
}

// Whether `x` lies inside c's first `guards` guards and first `loops` loops.
template <class Context>
constexpr bool inside(const kernel_ir& ir, const item& x, const Context& c, int guards, int loops) {
  if (x.guard_end - x.guard_begin < guards || x.loop_end - x.loop_begin < loops) return false;
  for (int g = 0; g < guards; ++g) {
    const auto& u = ir.guard_pool[static_cast<std::size_t>(x.guard_begin + g)];
    const auto& v = ir.guard_pool[static_cast<std::size_t>(c.guard_begin + g)];
    if (u.condition != v.condition || u.negated != v.negated) return false;
  }
  for (int l = 0; l < loops; ++l)
    if (ir.loop_pool[static_cast<std::size_t>(x.loop_begin + l)] != ir.loop_pool[static_cast<std::size_t>(c.loop_begin + l)]) return false;
  return true;
}

// The first position of the construct around c made of its first `guards` guards and `loops`
// loops: walking back from c while the statements stay inside it.
template <class Context>
constexpr int construct_begin(const kernel_ir& ir, const std::vector<item>& items, const Context& c, int guards, int loops) {
  int p = c.position;
  while (p > 0 && (!items[static_cast<std::size_t>(p - 1)].present || inside(ir, items[static_cast<std::size_t>(p - 1)], c, guards, loops))) --p;
  return p;
}

// How many guards surround loop number `l` of c (its guards are a prefix of c's).
template <class Context>
constexpr int guards_around(const kernel_ir& ir, const Context& c, int l) {
  const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(c.loop_begin + l)])];
  return loop.guard_end - loop.guard_begin;
}

// The placements for the race `f`, innermost first, each with its slot; at most `cap` of them.
struct candidate {
  barrier_placement placement;
  slot at;
};
// `statement_begin[access]`: the position of the first access of the statement that holds it.
constexpr int candidates_for(const kernel_ir& ir, const finding& f, candidate* out, int cap, const std::vector<int>& statement_begin) {
  if (f.first < 0 || f.second < 0) return 0;
  const auto& x = ir.accesses[static_cast<std::size_t>(f.first)];
  const auto& y = ir.accesses[static_cast<std::size_t>(f.second)];
  const auto& a = x.position < y.position ? x : y;
  const auto& c = x.position < y.position ? y : x;
  const int c_id = x.position < y.position ? f.second : f.first;
  int n = 0;
  if (f.loop >= 0) {  // W021, or W040 across a loop's trips
    // At the end of the loop's body: after the last statement inside the loop.
    int depth = -1;
    for (int l = 0; l < c.loop_end - c.loop_begin; ++l)
      if (ir.loop_pool[static_cast<std::size_t>(c.loop_begin + l)] == f.loop) depth = l;
    if (depth < 0) return 0;
    int last = -1, last_access = -1;
    for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
      const auto& z = ir.accesses[static_cast<std::size_t>(i)];
      bool in_loop = false;
      for (int p = z.loop_begin; p < z.loop_end; ++p) in_loop = in_loop || ir.loop_pool[static_cast<std::size_t>(p)] == f.loop;
      if (in_loop && z.position > last) last = z.position, last_access = i;
    }
    for (const auto& s : ir.syncs)
      for (int p = s.loop_begin; p < s.loop_end; ++p)
        if (ir.loop_pool[static_cast<std::size_t>(p)] == f.loop && s.position > last) last = s.position;
    const int guards = guards_around(ir, c, depth);
    out[n++] = {{barrier_placement::where::end_of_loop, last_access, -1, f.loop},
                {last + 1, c.guard_begin, c.guard_begin + guards, c.loop_begin, c.loop_begin + depth + 1}};
    return n;
  }
  const std::vector<item> items = items_by_position(ir);
  // Just before c, then before each construct around c, innermost first.
  // The statement's first access where the source says where it begins: a barrier before the
  // statement precedes every access in it, not only c. Where it begins at or before a, both are
  // in one statement and the barrier goes between them (the message's w::local form).
  int guards = c.guard_end - c.guard_begin, loops = c.loop_end - c.loop_begin;
  int begin = statement_begin[static_cast<std::size_t>(c_id)];
  const bool one_statement = begin <= a.position;
  if (one_statement || begin > c.position) begin = c.position;
  const int a_id = x.position < y.position ? f.first : f.second;
  out[n++] = {{barrier_placement::where::before_statement, c_id, -1, -1, a_id, one_statement},
              {begin, c.guard_begin, c.guard_end, c.loop_begin, c.loop_end}};
  while (n < cap && (guards > 0 || loops > 0)) {
    // The innermost construct: guard number guards - 1, unless the innermost loop lies inside it.
    const bool guard_innermost = guards > 0 && (loops == 0 || guards - 1 >= guards_around(ir, c, loops - 1));
    candidate next;
    if (guard_innermost) {
      // An otherwise branch (a negated guard) has no place of its own "before" it in the source:
      // the barrier checked there would fall between the two branches.
      if (ir.guard_pool[static_cast<std::size_t>(c.guard_begin + guards - 1)].negated) break;
      const int begin = construct_begin(ir, items, c, guards, loops);
      --guards;
      next = {{barrier_placement::where::before_when, c_id, c.guard_begin + guards, -1},
              {begin, c.guard_begin, c.guard_begin + guards, c.loop_begin, c.loop_begin + loops}};
    } else {
      const int begin = construct_begin(ir, items, c, guards, loops);
      --loops;
      next = {{barrier_placement::where::before_loop, c_id, -1, ir.loop_pool[static_cast<std::size_t>(c.loop_begin + loops)]},
              {begin, c.guard_begin, c.guard_begin + guards_around(ir, c, loops), c.loop_begin, c.loop_begin + loops}};
      guards = next.at.guard_end - next.at.guard_begin;
    }
    if (next.at.position <= a.position) break;  // the construct holds a too: no barrier before it lies between them
    out[n++] = next;
  }
  return n;
}

// The races a barrier can order: on tiles (W020, W021), and an atomic and a plain access of one
// element by threads of one block (W040; across blocks no barrier orders them).
constexpr bool barrier_race(const finding& f) {
  return f.code == diagnostic::code::W020 || f.code == diagnostic::code::W021 ||
         (f.code == diagnostic::code::W040 && !f.across_blocks && f.first >= 0 && f.second >= 0);
}

// Placements for `f` on `ir`, added to those already in `so_far`; true once the kernel is accepted.
constexpr bool search(const kernel_ir& ir, block_shape shape, const finding& f, barrier_suggestion& so_far,
                      const std::vector<int>& statement_begin) {
  if (!barrier_race(f) || so_far.count >= max_barriers) return false;
  candidate options[8]{};
  const int n = candidates_for(ir, f, options, 8, statement_begin);
  for (int i = 0; i < n; ++i) {
    const kernel_ir next = with_barrier(ir, options[i].at);
    const finding after = analyse(next, shape);
    if (after.code == diagnostic::code::none) {
      so_far.at[so_far.count++] = options[i].placement;
      return true;
    }
    // Another race on the tiles: this barrier ordered the pair it was placed for (the finding
    // names another), and one more may order the rest.
    // (The same pair across the trips of a loop, W021 after W020, is another race for this.)
    const bool same_pair = after.code == f.code && after.loop == f.loop &&
                           ((after.first == f.first && after.second == f.second) || (after.first == f.second && after.second == f.first));
    if (barrier_race(after) && !same_pair && so_far.count + 1 < max_barriers) {
      barrier_suggestion deeper = so_far;
      deeper.at[deeper.count++] = options[i].placement;
      // The second barrier's statements begin where the first run found them: positions past
      // the new barrier have moved one later.
      std::vector<int> moved = statement_begin;
      for (int& p : moved) p += p >= options[i].at.position ? 1 : 0;
      if (search(next, shape, after, deeper, moved)) {
        so_far = deeper;
        return true;
      }
    }
  }
  return false;
}

}  // namespace detail_barriers

// The barriers that make the kernel of `ir` accepted where `f` (a W020 or W021) refused it, the
// checker itself having accepted the kernel with them; count 0 where none does.
// `statement_begin(access)`: the position of the first access of the statement that holds
// `access`, as the source shows it (the access's own position where there is no source).
template <class StatementBegin>
constexpr barrier_suggestion suggest_barriers(const kernel_ir& ir, block_shape shape, const finding& f,
                                              const StatementBegin& statement_begin) {
  std::vector<int> begins;
  for (std::size_t i = 0; i < ir.accesses.size(); ++i) begins.push_back(statement_begin(static_cast<int>(i)));
  barrier_suggestion s;
  if (!detail_barriers::search(ir, shape, f, s, begins)) s.count = 0;
  return s;
}

// W030: the barrier moved out of the thread-dependent w::when or loop it is in, to just after
// that construct or just before it, checked the same way: offered only where the kernel with the
// barrier moved is accepted.
struct moved_barrier {
  bool found = false;
  bool after = true;  // just after the construct; false: just before it
  int guard = -1;     // the w::when's guard_pool entry, or -1 for a loop
  int loop = -1;      // the loop (kernel_ir::loops), or -1 for a w::when
};

namespace detail_barriers {

// The kernel without barrier number `i`: what followed it moves one place (and one phase) earlier.
constexpr kernel_ir without_barrier(const kernel_ir& ir, int i) {
  kernel_ir out = ir;
  const int at = out.syncs[static_cast<std::size_t>(i)].position;
  out.syncs.clear();
  for (std::size_t k = 0; k < ir.syncs.size(); ++k)
    if (static_cast<int>(k) != i) out.syncs.push_back(ir.syncs[k]);
  for (auto& a : out.accesses)
    if (a.position > at) --a.position, --a.phase;
  for (auto& y : out.syncs)
    if (y.position > at) --y.position, --y.phase;
  for (auto& l : out.loops) l.has_barrier = false;
  for (const auto& y : out.syncs)
    for (int p = y.loop_begin; p < y.loop_end; ++p) out.loops[static_cast<std::size_t>(out.loop_pool[static_cast<std::size_t>(p)])].has_barrier = true;
  return out;
}

}  // namespace detail_barriers

constexpr moved_barrier suggest_moved_barrier(const kernel_ir& ir, block_shape shape, const finding& f) {
  using namespace detail_barriers;
  if (f.code != diagnostic::code::W030 || f.sync < 0) return {};
  const dsl::ir_sync& s = ir.syncs[static_cast<std::size_t>(f.sync)];
  moved_barrier m;
  // The construct: its guards and loops, as counts of the barrier's own (outermost first).
  int guards = -1, loops = -1;
  if (f.loop >= 0) {
    for (int l = 0; l < s.loop_end - s.loop_begin; ++l)
      if (ir.loop_pool[static_cast<std::size_t>(s.loop_begin + l)] == f.loop && loops < 0) loops = l;
    if (loops < 0) return {};
    guards = guards_around(ir, s, loops);
    m.loop = f.loop;
  } else {
    for (int g = 0; g < s.guard_end - s.guard_begin; ++g)
      if (ir.guard_pool[static_cast<std::size_t>(s.guard_begin + g)].condition == f.expr && guards < 0) guards = g;
    if (guards < 0) return {};
    loops = 0;
    while (loops < s.loop_end - s.loop_begin && guards_around(ir, s, loops) <= guards) ++loops;
    m.guard = s.guard_begin + guards;
  }
  // Its extent in program order, in the kernel as written: the statements around the barrier
  // that lie inside it (one more guard, or one more loop, than the context it moves to).
  const std::vector<item> items = items_by_position(ir);
  const int inner_guards = f.loop >= 0 ? guards : guards + 1, inner_loops = f.loop >= 0 ? loops + 1 : loops;
  const int begin = construct_begin(ir, items, s, inner_guards, inner_loops);
  int end = s.position;
  while (end + 1 < static_cast<int>(items.size()) && items[static_cast<std::size_t>(end + 1)].present &&
         inside(ir, items[static_cast<std::size_t>(end + 1)], s, inner_guards, inner_loops))
    ++end;
  // A w::when with an otherwise branch: "just after" or "just before" the w::when is not where the
  // walk above ends (between the branches), so no move is offered.
  if (f.loop < 0) {
    const auto& cond = ir.guard_pool[static_cast<std::size_t>(s.guard_begin + guards)];
    for (const int p : {begin - 1, end + 1}) {
      if (p < 0 || p >= static_cast<int>(items.size()) || !items[static_cast<std::size_t>(p)].present) continue;
      const item& x = items[static_cast<std::size_t>(p)];
      if (x.guard_end - x.guard_begin > guards && inside(ir, x, s, guards, loops)) {
        const auto& g = ir.guard_pool[static_cast<std::size_t>(x.guard_begin + guards)];
        if (g.condition == cond.condition && g.negated != cond.negated) return {};
      }
    }
    if (cond.negated) return {};
  }
  const kernel_ir moved_out = without_barrier(ir, f.sync);
  for (const bool after : {true, false}) {
    // Without the barrier, the construct spans begin .. end - 1.
    const slot at{after ? end : begin, s.guard_begin, s.guard_begin + guards, s.loop_begin, s.loop_begin + loops};
    if (analyse(with_barrier(moved_out, at), shape).code == diagnostic::code::none) {
      m.found = true;
      m.after = after;
      return m;
    }
  }
  return {};
}

}  // namespace warden::check
