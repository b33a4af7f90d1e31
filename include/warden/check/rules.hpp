#pragma once
// The checker's rules (DESIGN §5) as constexpr functions over a kernel's value-level description.
// analyse() returns the first violation; the kernel's static_assert turns it into a diagnostic,
// and tests and the fuzzer call the very same function at run time.

#include <algorithm>
#include <vector>

#include "affine.hpp"
#include "concrete.hpp"
#include "order.hpp"

namespace warden::check {

enum class rule : unsigned char { none, W010, W011, W012, W020, W021, W022, W030, W040 };

constexpr const char* to_string(rule r) {
  constexpr const char* names[] = {"none", "W010", "W011", "W012", "W020", "W021", "W022", "W030", "W040"};
  return names[static_cast<int>(r)];
}

struct finding {
  rule code = rule::none;
  int first = -1, second = -1;  // accesses
  int sync = -1;                // W030: the barrier
  int expr = -1;                // W030: the thread-dependent condition or bound; W012: the index
  int loop = -1;                // W021, W030: the loop
  bool across_blocks = false;   // W010, W011, W040: threads of different blocks
  long long element = -1;       // shared memory: an element both touch
  int thread1 = -1, thread2 = -1;
  constexpr explicit operator bool() const { return code != rule::none; }
};

constexpr scope scope_of(const dsl::ir_access& a) { return {a.loop_begin, a.loop_end}; }

// ---- W030: barriers under thread-dependent control ------------------------------------------

constexpr finding check_barriers(const ir_builder& ir) {
  for (int i = 0; i < static_cast<int>(ir.syncs.size()); ++i) {
    const auto& s = ir.syncs[static_cast<std::size_t>(i)];
    if (s.trusted) continue;
    const scope sc{s.loop_begin, s.loop_end};
    for (int g = s.guard_begin; g < s.guard_end; ++g) {
      const int cond = ir.guard_pool[static_cast<std::size_t>(g)].condition;
      if (!uniform(ir, sc, cond)) return {rule::W030, -1, -1, i, cond};
    }
    for (int p = s.loop_begin; p < s.loop_end; ++p) {
      const int l = ir.loop_pool[static_cast<std::size_t>(p)];
      const auto& loop = ir.loops[static_cast<std::size_t>(l)];
      const scope outer{s.loop_begin, p};
      for (int bound : {loop.lo, loop.hi, loop.step})
        if (loop.grid_stride || !uniform(ir, outer, bound)) {
          finding f{rule::W030, -1, -1, i, loop.grid_stride ? loop.lo : bound};
          f.loop = l;
          return f;
        }
    }
  }
  return {};
}

// ---- W012: stores at data-dependent indices ---------------------------------------------------

constexpr finding check_data_indices(const ir_builder& ir) {
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const auto& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.trusted || a.kind != dsl::access_kind::store) continue;
    if (depends_on_data(ir, a.index) || depends_on_data(ir, a.column)) return {rule::W012, i, -1, -1, a.index};
  }
  return {};
}

// ---- shared memory: per-thread footprints -----------------------------------------------------

struct instance {
  int thread = 0;
  long long element = -1;  // -1: unknown
  int counters = 0;        // offset into the counter pool: one value per enclosing loop
};

struct footprint {
  std::vector<instance> items;
  std::vector<long long> counter_pool;
  // The exact range of the row (1-D: the index) and column over every thread and iteration, when
  // every index was known: launch's E101 uses it for tiles (no interval can follow `t ^ j`).
  bool all_known = true;
  long long row_lo = LLONG_MAX, row_hi = LLONG_MIN, col_lo = LLONG_MAX, col_hi = LLONG_MIN;
  constexpr long long counter(const instance& i, int depth) const {
    return counter_pool[static_cast<std::size_t>(i.counters + depth)];
  }
  constexpr void note(const maybe_value& v, long long& lo, long long& hi) {
    if (!v.known) {
      all_known = false;
      return;
    }
    if (v.v < lo) lo = v.v;
    if (v.v > hi) hi = v.v;
  }
};

inline constexpr long long max_enumerated_trips = 4096;

constexpr const dsl::ir_tile* tile_of(const ir_builder& ir, int level) {
  for (const auto& t : ir.tiles)
    if (t.level == level) return &t;
  return nullptr;
}
constexpr long long tile_elements(const dsl::ir_tile& t) { return t.cols == 0 ? t.rows : static_cast<long long>(t.rows) * (t.cols + t.pad); }

constexpr void enumerate(const ir_builder& ir, block_shape shape, const dsl::ir_access& a, thread_env& env,
                         std::vector<long long>& counters, int thread, int depth, footprint& out) {
  const int nloops = a.loop_end - a.loop_begin;
  if (depth < nloops) {
    const int l = ir.loop_pool[static_cast<std::size_t>(a.loop_begin + depth)];
    const auto& loop = ir.loops[static_cast<std::size_t>(l)];
    const scope outer{a.loop_begin, a.loop_begin + depth};
    const maybe_value lo = evaluate(ir, shape, outer, loop.lo, env), hi = evaluate(ir, shape, outer, loop.hi, env),
                      step = evaluate(ir, shape, outer, loop.step, env);
    if (!loop.grid_stride && lo.known && hi.known && step.known && step.v > 0) {
      const long long trips = hi.v <= lo.v ? 0 : (hi.v - lo.v + step.v - 1) / step.v;
      if (trips <= max_enumerated_trips) {
        for (long long k = 0; k < trips; ++k) {
          counters[static_cast<std::size_t>(l)] = k;
          enumerate(ir, shape, a, env, counters, thread, depth + 1, out);
        }
        counters[static_cast<std::size_t>(l)] = unknown_counter;
        return;
      }
    }
    counters[static_cast<std::size_t>(l)] = unknown_counter;  // some iteration, not known which
    enumerate(ir, shape, a, env, counters, thread, depth + 1, out);
    return;
  }
  const scope sc = scope_of(a);
  for (int g = a.guard_begin; g < a.guard_end; ++g) {
    const auto& guard = ir.guard_pool[static_cast<std::size_t>(g)];
    const maybe_value v = evaluate(ir, shape, sc, guard.condition, env);
    if (v.known && (v.v != 0) == guard.negated) return;  // this thread never runs the access
  }
  instance it;
  it.thread = thread;
  const maybe_value row = evaluate(ir, shape, sc, a.index, env);
  out.note(row, out.row_lo, out.row_hi);
  maybe_value col{true, 0};
  if (a.column >= 0) {
    col = evaluate(ir, shape, sc, a.column, env);
    out.note(col, out.col_lo, out.col_hi);
  }
  if (row.known && col.known) {
    // An index outside the tile is E101's business at launch; here it touches nothing shared.
    const dsl::ir_tile* tile = tile_of(ir, a.target);
    if (tile == nullptr) return;
    const long long rows = a.column >= 0 ? tile->rows : tile_elements(*tile);
    if (row.v < 0 || row.v >= rows || col.v < 0 || (a.column >= 0 && col.v >= tile->cols)) return;
    it.element = a.column >= 0 ? row.v * (tile->cols + tile->pad) + col.v : row.v;
  }
  it.counters = static_cast<int>(out.counter_pool.size());
  for (int d = 0; d < nloops; ++d)
    out.counter_pool.push_back(counters[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(a.loop_begin + d)])]);
  out.items.push_back(it);
}

constexpr footprint footprint_of(const ir_builder& ir, block_shape shape, const dsl::ir_access& a) {
  footprint f;
  std::vector<long long> counters(ir.loops.size(), unknown_counter);
  thread_env env;
  env.counters = &counters;
  for (int z = 0; z < shape.z; ++z)
    for (int y = 0; y < shape.y; ++y)
      for (int x = 0; x < shape.x; ++x) {
        env.t[0] = x;
        env.t[1] = y;
        env.t[2] = z;
        enumerate(ir, shape, a, env, counters, x + shape.x * (y + shape.y * z), 0, f);
      }
  return f;
}

// Relation between two executions' iterations: -1 = the same iteration of every common loop;
// d >= 0 = the same outside common loop number d, different in it.
constexpr bool iterations_match(const footprint& fa, const instance& ia, const footprint& fc, const instance& ic, int common,
                                int relation) {
  const int same_upto = relation < 0 ? common : relation;
  for (int d = 0; d < same_upto; ++d) {
    const long long x = fa.counter(ia, d), y = fc.counter(ic, d);
    if (x != unknown_counter && y != unknown_counter && x != y) return false;
  }
  if (relation >= 0) {
    const long long x = fa.counter(ia, relation), y = fc.counter(ic, relation);
    if (x != unknown_counter && y != unknown_counter && x == y) return false;
  }
  return true;
}

// A key for (element, counters of the first `depth` loops): instances that may meet in the same
// iterations share it. Unknown parts make no key (-1).
constexpr long long meeting_key(const footprint& f, const instance& i, int depth) {
  if (i.element < 0) return -1;
  unsigned long long key = static_cast<unsigned long long>(i.element);
  for (int d = 0; d < depth; ++d) {
    const long long k = f.counter(i, d);
    if (k == unknown_counter) return -1;
    key = key * 1000003ULL + static_cast<unsigned long long>(k) + 1ULL;
  }
  return static_cast<long long>(key >> 1);
}

// Two instances by different threads, related as `relation` says, at one element (or unknown).
// c's instances are sorted by meeting key, so each of a's looks only at those it may meet.
constexpr bool find_collision(const footprint& fa, const footprint& fc, int common, int relation, finding& witness) {
  const int depth = relation < 0 ? common : relation;
  struct keyed {
    long long key;
    int index;
    constexpr bool operator<(const keyed& o) const { return key < o.key; }
  };
  std::vector<keyed> sorted;
  std::vector<int> wild;  // no key: compared with everything
  for (int i = 0; i < static_cast<int>(fc.items.size()); ++i) {
    const long long key = meeting_key(fc, fc.items[static_cast<std::size_t>(i)], depth);
    if (key < 0) wild.push_back(i);
    else sorted.push_back({key, i});
  }
  std::sort(sorted.begin(), sorted.end());
  auto hit = [&](const instance& ia, const instance& ic) {
    if (ia.thread == ic.thread || (ia.element >= 0 && ic.element >= 0 && ia.element != ic.element) ||
        !iterations_match(fa, ia, fc, ic, common, relation))
      return false;
    witness.thread1 = ia.thread;
    witness.thread2 = ic.thread;
    witness.element = ia.element >= 0 ? ia.element : ic.element;
    return true;
  };
  for (const instance& ia : fa.items) {
    const long long key = meeting_key(fa, ia, depth);
    if (key < 0) {
      for (const instance& ic : fc.items)
        if (hit(ia, ic)) return true;
      continue;
    }
    auto at = std::lower_bound(sorted.begin(), sorted.end(), keyed{key, 0});
    for (; at != sorted.end() && at->key == key; ++at)
      if (hit(ia, fc.items[static_cast<std::size_t>(at->index)])) return true;
    for (int i : wild)
      if (hit(ia, fc.items[static_cast<std::size_t>(i)])) return true;
  }
  return false;
}

// Can loop number `depth` of the context run two or more iterations?
constexpr bool may_repeat(const ir_builder& ir, block_shape shape, const context& c, int depth) {
  const auto trips = static_trip_count(ir, shape, ir.loop_pool[static_cast<std::size_t>(c.loop_begin + depth)]);
  return !trips || *trips >= 2;
}

constexpr bool is_shared(const dsl::ir_access& a) { return a.memory == dsl::memory_kind::shared; }

constexpr finding check_shared(const ir_builder& ir, block_shape shape) {
  const int n = static_cast<int>(ir.accesses.size());
  std::vector<footprint> prints(static_cast<std::size_t>(n));
  std::vector<char> done(static_cast<std::size_t>(n), 0);  // (not vector<bool>: clang 14 cannot evaluate it)
  auto print = [&](int i) -> const footprint& {
    if (!done[static_cast<std::size_t>(i)]) {
      prints[static_cast<std::size_t>(i)] = footprint_of(ir, shape, ir.accesses[static_cast<std::size_t>(i)]);
      done[static_cast<std::size_t>(i)] = 1;
    }
    return prints[static_cast<std::size_t>(i)];
  };

  // W022: a load no store can precede. Per tile, the first store position at each element
  // (an unknown index stores everywhere); a load is covered by a store before it, or by one later
  // in a loop around both (an earlier iteration).
  std::vector<int> tiles_done;
  for (int i = 0; i < n; ++i) {
    const auto& a = ir.accesses[static_cast<std::size_t>(i)];
    if (!is_shared(a) || a.kind != dsl::access_kind::load) continue;
    bool seen = false;
    for (int t : tiles_done) seen = seen || t == a.target;
    if (seen) continue;
    tiles_done.push_back(a.target);
    const dsl::ir_tile* tile = tile_of(ir, a.target);
    if (tile == nullptr) continue;
    constexpr int never = 1 << 30;
    std::vector<int> first(static_cast<std::size_t>(tile_elements(*tile)), never);
    int first_anywhere = never;
    for (int j = 0; j < n; ++j) {
      const auto& s = ir.accesses[static_cast<std::size_t>(j)];
      if (!is_shared(s) || s.target != a.target || s.kind == dsl::access_kind::load) continue;
      for (const instance& it : print(j).items) {
        int& slot = it.element < 0 ? first_anywhere : first[static_cast<std::size_t>(it.element)];
        if (s.position < slot) slot = s.position;
      }
    }
    for (int l = i; l < n; ++l) {
      const auto& load = ir.accesses[static_cast<std::size_t>(l)];
      if (!is_shared(load) || load.target != a.target || load.kind != dsl::access_kind::load || load.trusted) continue;
      for (const instance& it : print(l).items) {
        if (it.element < 0 || first_anywhere < load.position || first[static_cast<std::size_t>(it.element)] < load.position) continue;
        // A store after the load in program order covers it only from an earlier iteration.
        bool covered = false;
        for (int j = 0; j < n && !covered; ++j) {
          const auto& s = ir.accesses[static_cast<std::size_t>(j)];
          if (!is_shared(s) || s.target != a.target || s.kind == dsl::access_kind::load) continue;
          if (common_loops(ir, context_of(load), context_of(s)) == 0) continue;
          for (const instance& st : print(j).items) covered = covered || st.element < 0 || st.element == it.element;
        }
        if (covered) continue;
        finding f{rule::W022, l};
        f.element = it.element;
        f.thread1 = it.thread;
        return f;
      }
    }
  }

  // W020 / W021: two threads, one element, one phase.
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const auto& a = ir.accesses[static_cast<std::size_t>(i)];
      const auto& c = ir.accesses[static_cast<std::size_t>(j)];
      if (!is_shared(a) || !is_shared(c) || a.target != c.target || a.trusted || c.trusted) continue;
      if (a.kind == dsl::access_kind::load && c.kind == dsl::access_kind::load) continue;
      const dsl::ir_tile* tile = tile_of(ir, a.target);
      if (tile == nullptr) continue;
      const context ca = context_of(a), cc = context_of(c);
      const int common = common_loops(ir, ca, cc);
      for (int relation = -1; relation < common; ++relation) {
        if (relation < 0 ? ordered_same_iteration(ir, ca, cc)
                         : (!may_repeat(ir, shape, ca, relation) || ordered_different_iterations(ir, ca, cc, relation)))
          continue;
        finding f{relation < 0 ? rule::W020 : rule::W021, i, j};
        if (relation >= 0) f.loop = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + relation)];
        if (find_collision(print(i), print(j), common, relation, f)) return f;
      }
    }
  return {};
}

// ---- global memory: symbolic separation -------------------------------------------------------

// Facts from the guards both accesses are under (the common prefix of their guard lists).
constexpr facts common_facts(const ir_builder& ir, block_shape shape, const dsl::ir_access& a, const dsl::ir_access& c) {
  facts out;
  const int n = a.guard_end - a.guard_begin < c.guard_end - c.guard_begin ? a.guard_end - a.guard_begin : c.guard_end - c.guard_begin;
  for (int g = 0; g < n; ++g) {
    const auto& x = ir.guard_pool[static_cast<std::size_t>(a.guard_begin + g)];
    const auto& y = ir.guard_pool[static_cast<std::size_t>(c.guard_begin + g)];
    if (x.condition != y.condition || x.negated != y.negated) break;
    learn(ir, shape, scope_of(a), x.condition, x.negated, out);
  }
  return out;
}

// For d != 0: can sum c_v * v (over varying v) never equal d? True when the gcd of the
// coefficients does not divide d.
constexpr bool gcd_excludes(const linear_form& f, long long d, const facts& known, varying vary) {
  long long g = 0;
  for (const auto& t : f.terms) {
    if (!vary(t.var) || known.pinned(t.var)) continue;
    if (!t.coefficient.is_constant()) return false;
    g = gcd(g, t.coefficient.constant_part());
  }
  return g == 0 ? d != 0 : d % g != 0;
}

// Do two accesses stay inside their own block's window (`b * S + f`, f spanning < S elements)?
constexpr bool blocks_separated(const ir_builder& ir, block_shape shape, const linear_form& la, const linear_form& lc) {
  linear_form blocks_a, blocks_c;
  for (const auto& t : la.terms)
    if (symbol::is_block(t.var)) blocks_a.add(t.var, t.coefficient);
  for (const auto& t : lc.terms)
    if (symbol::is_block(t.var)) blocks_c.add(t.var, t.coefficient);
  if (blocks_a.terms.empty() || !blocks_a.same_variables(blocks_c)) return false;
  const polynomial offset = lc.rest - la.rest;
  if (!offset.is_constant()) return false;
  const span_range ra = range_of(ir, shape, la, varying{}), rc = range_of(ir, shape, lc, varying{});
  if (!ra.ok || !rc.ok) return false;
  const long long d = offset.constant_part();
  const long long hi = ra.hi > rc.hi + d ? ra.hi : rc.hi + d, lo = ra.lo < rc.lo + d ? ra.lo : rc.lo + d;
  return radix_injective(ir, shape, blocks_a, facts{}, varying{true, false, false}, hi - lo);
}

constexpr rule global_rule(const dsl::ir_access& a, const dsl::ir_access& c) {
  using dsl::access_kind;
  const bool atomic_a = a.kind == access_kind::atomic, atomic_c = c.kind == access_kind::atomic;
  if (atomic_a && atomic_c) return rule::none;
  if (atomic_a != atomic_c) return rule::W040;
  if (a.kind == access_kind::store && c.kind == access_kind::store) return rule::W010;
  if (a.kind == access_kind::store || c.kind == access_kind::store) return rule::W011;
  return rule::none;
}

constexpr finding check_global_pair(const ir_builder& ir, block_shape shape, int i, int j) {
  const auto& a = ir.accesses[static_cast<std::size_t>(i)];
  const auto& c = ir.accesses[static_cast<std::size_t>(j)];
  finding conflict{global_rule(a, c), i, j};
  const linear_form la = linearise(lower(ir, shape, scope_of(a), a.index));
  const linear_form lc = linearise(lower(ir, shape, scope_of(c), c.index));
  conflict.across_blocks = true;
  if (!la.ok || !lc.ok) return conflict;
  const facts known = common_facts(ir, shape, a, c);
  const bool same = la.same_variables(lc);
  const polynomial offset = lc.rest - la.rest;
  const bool constant_offset = same && offset.is_constant();
  const long long d = constant_offset ? offset.constant_part() : 0;
  // Same variable part, constant offset: equal indices need equal variables (d == 0), or a
  // multiple of the coefficients' gcd (d != 0).
  auto never_meet = [&](varying vary) {
    return constant_offset && (d == 0 ? radix_injective(ir, shape, la, known, vary) : gcd_excludes(la, d, known, vary));
  };
  // No two distinct threads of the grid ever meet.
  if (never_meet(varying{true, true})) return {};
  if (shape.grid_rank > 0 && !blocks_separated(ir, shape, la, lc)) return conflict;
  conflict.across_blocks = false;
  // Inside one block: the same tests with the block ids equal, then barrier order.
  if (never_meet(varying{false, true})) return {};
  const context ca = context_of(a), cc = context_of(c);
  if (!ordered_same_iteration(ir, ca, cc)) return conflict;
  const int common = common_loops(ir, ca, cc);
  for (int depth = 0; depth < common; ++depth)
    if (may_repeat(ir, shape, ca, depth) && !ordered_different_iterations(ir, ca, cc, depth)) {
      conflict.loop = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + depth)];
      return conflict;
    }
  return {};
}

constexpr finding check_global(const ir_builder& ir, block_shape shape) {
  const int n = static_cast<int>(ir.accesses.size());
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const auto& a = ir.accesses[static_cast<std::size_t>(i)];
      const auto& c = ir.accesses[static_cast<std::size_t>(j)];
      if (is_shared(a) || is_shared(c) || a.target != c.target || a.trusted || c.trusted) continue;
      if (global_rule(a, c) == rule::none) continue;
      if (finding f = check_global_pair(ir, shape, i, j)) return f;
    }
  return {};
}

// ---- all rules ---------------------------------------------------------------------------------

// How many grid dimensions a program refers to: 1 + the highest dimension of a block id, global
// id or grid extent in it; 0 when it refers to none (a one-block kernel).
constexpr int grid_rank_of(const ir_builder& ir) {
  int rank = 0;
  for (const auto& e : ir.exprs)
    if ((e.op == ir_op::block_id || e.op == ir_op::global_id || e.op == ir_op::grid_dim) && e.value % 3 + 1 > rank)
      rank = static_cast<int>(e.value % 3) + 1;
  return rank;
}

constexpr finding analyse(const ir_builder& ir, block_shape shape) {
  shape.grid_rank = grid_rank_of(ir);
  if (finding f = check_barriers(ir)) return f;
  if (finding f = check_data_indices(ir)) return f;
  if (finding f = check_shared(ir, shape)) return f;
  return check_global(ir, shape);
}

}  // namespace warden::check
