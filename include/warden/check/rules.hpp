#pragma once
// The checker's rules (proposals/0003-race-freedom.md, docs/diagnostics.md) as constexpr functions over a kernel's value-level description.
// analyse() returns the first violation; the kernel's static_assert turns it into a diagnostic,
// and tests and the fuzzer call the very same function at run time.

#include <vector>

#include "affine.hpp"
#include "uniform.hpp"
#include "bank_conflicts.hpp"
#include "finding.hpp"
#include "footprint.hpp"
#include "launch_knowledge.hpp"
#include "tile_listing.hpp"
#include "../dsl/obligation.hpp"
#include "order.hpp"
#include "../diagnostic/codes.hpp"

namespace warden::check {


constexpr scope scope_of(const dsl::ir_access& a, const std::vector<long long>* pins = nullptr) {
  return {a.loop_begin, a.loop_end, pins};
}

// ---- W030, W031: collectives under thread-dependent control -------------------------------------

// The bound of loop number `p` in the loop pool (its loops from `loop_begin` outward in) that is
// not the same in every thread of the block, or -1.
constexpr int varying_bound(const kernel_ir& ir, int loop_begin, int p) {
  const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
  const scope outer{loop_begin, p};
  for (int bound : {loop.lo, loop.hi, loop.step})
    if (loop.grid_stride || !uniform(ir, outer, bound)) return loop.grid_stride ? loop.lo : bound;
  return -1;
}

// The first condition or loop bound around a collective (a barrier or a shuffle) that is not the
// same in every thread of the block, or -1; its loop in `loop_out` (-1 for a condition).
constexpr int first_varying_control(const kernel_ir& ir, int guard_begin, int guard_end, int loop_begin, int loop_end,
                                    int& loop_out) {
  loop_out = -1;
  const scope sc{loop_begin, loop_end};
  for (int g = guard_begin; g < guard_end; ++g) {
    const int cond = ir.guard_pool[static_cast<std::size_t>(g)].condition;
    if (!uniform(ir, sc, cond)) return cond;
  }
  for (int p = loop_begin; p < loop_end; ++p)
    if (const int bound = varying_bound(ir, loop_begin, p); bound >= 0) {
      loop_out = ir.loop_pool[static_cast<std::size_t>(p)];
      return bound;
    }
  return -1;
}

// A barrier every thread of the block must reach: its control must be uniform over the block.
constexpr finding check_barriers(const kernel_ir& ir) {
  for (int i = 0; i < static_cast<int>(ir.syncs.size()); ++i) {
    const auto& s = ir.syncs[static_cast<std::size_t>(i)];
    if (s.trusted) continue;
    finding f{diagnostic::code::W030, -1, -1, i};
    f.expr = first_varying_control(ir, s.guard_begin, s.guard_end, s.loop_begin, s.loop_end, f.loop);
    if (f.expr >= 0) return f;
  }
  return {};
}

// Two lanes of one warp of which one reaches the footprint's access (`reaches`) and the other
// does not (`skips`), in some pass; false when every warp is reached whole or not at all.
constexpr bool splits_warp(const footprint& print, int& reaches, int& skips) {
  for (int p = 0; p < print.passes; ++p) {
    const long long* pass = print.pass(p);
    for (int w = 0; w < print.threads; w += dsl::warp_lanes)
      for (int t = w + 1; t < w + dsl::warp_lanes; ++t)
        if ((pass[t] == no_instance) != (pass[w] == no_instance)) {
          reaches = pass[w] == no_instance ? t : w;
          skips = pass[w] == no_instance ? w : t;
          return true;
        }
  }
  return false;
}

// A shuffle exchanges registers among the 32 lanes of a warp (consecutive linear thread ids, x
// fastest), all of which must reach it. Control uniform over the block passes at once; otherwise
// the threads that reach the shuffle are listed iteration by iteration (as a footprint with no
// element) and every warp must be reached whole or not at all. Control that a thread's ids do not
// decide (a parameter, loaded data) and that is not uniform may split a warp: rejected.
constexpr finding check_shuffles(const kernel_ir& ir, block_shape shape) {
  for (int i = 0; i < static_cast<int>(ir.shuffles.size()); ++i) {
    const auto& s = ir.shuffles[static_cast<std::size_t>(i)];
    if (s.trusted) continue;
    finding f{diagnostic::code::W031};
    f.shuffle = i;
    f.element = shape.threads();
    if (shape.threads() % dsl::warp_lanes != 0) return f;  // a partial last warp: its missing lanes never arrive
    f.expr = first_varying_control(ir, s.guard_begin, s.guard_end, s.loop_begin, s.loop_end, f.loop);
    if (f.expr < 0) continue;
    // The threads that reach the shuffle under the guards [begin, end) and all its loops, each
    // with the value of `value` there (a footprint whose element is that value, outside any tile).
    auto reach = [&](int begin, int end, int value) {
      dsl::ir_access a;
      a.target = -1;
      a.index = value;
      a.guard_begin = begin;
      a.guard_end = end;
      a.loop_begin = s.loop_begin;
      a.loop_end = s.loop_end;
      return footprint_of(ir, shape, a);
    };
    // A thread-dependent condition some thread reaching it cannot evaluate may split a warp.
    const scope sc{s.loop_begin, s.loop_end};
    for (int g = s.guard_begin; g < s.guard_end; ++g) {
      const int cond = ir.guard_pool[static_cast<std::size_t>(g)].condition;
      if (!uniform(ir, sc, cond) && reach(s.guard_begin, g, cond).some_unknown_element) {
        f.expr = cond;
        f.loop = -1;
        return f;
      }
    }
    const footprint all = reach(s.guard_begin, s.guard_end, -1);
    for (int d = 0; d < all.depth; ++d) {
      if ((all.unknown_levels >> d & 1) == 0) continue;
      if (const int bound = varying_bound(ir, s.loop_begin, s.loop_begin + d); bound >= 0) {
        f.expr = bound;
        f.loop = ir.loop_pool[static_cast<std::size_t>(s.loop_begin + d)];
        return f;
      }
    }
    if (!splits_warp(all, f.thread1, f.thread2)) continue;
    // Name the control that splits a warp on its own: a condition, else the loops' trip counts.
    for (int g = s.guard_begin; g < s.guard_end; ++g) {
      const int cond = ir.guard_pool[static_cast<std::size_t>(g)].condition;
      if (!uniform(ir, sc, cond) && splits_warp(reach(g, g + 1, -1), f.thread1, f.thread2)) {
        f.expr = cond;
        f.loop = -1;
        return f;
      }
    }
    if (splits_warp(reach(0, 0, -1), f.thread1, f.thread2))
      f.expr = first_varying_control(ir, 0, 0, s.loop_begin, s.loop_end, f.loop);
    return f;
  }
  return {};
}

// ---- W012: stores at data-dependent indices ---------------------------------------------------

constexpr finding check_data_indices(const kernel_ir& ir) {
  // An access through a buffer stated distinct (`y[p[e]]`, recorded at e: dsl::ir_access::
  // permuted_by) is exact only if every access to y goes through p, element for element: an access
  // to y at a plain index, or through another buffer, could meet it anywhere.
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const auto& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.permuted_by < 0) continue;
    if (a.vector_bytes != 0) return {diagnostic::code::W012, i, -1, -1, a.index};
    for (int j = 0; j < static_cast<int>(ir.accesses.size()); ++j) {
      const auto& c = ir.accesses[static_cast<std::size_t>(j)];
      if (c.memory == dsl::memory_kind::global && c.target == a.target && c.permuted_by != a.permuted_by &&
          (a.kind != dsl::access_kind::load || c.kind != dsl::access_kind::load))
        return {diagnostic::code::W012, c.kind == dsl::access_kind::store ? j : i, -1, -1, c.kind == dsl::access_kind::store ? c.index : a.index};
    }
  }
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const auto& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.trusted || a.kind != dsl::access_kind::store) continue;
    if (depends_on_data(ir, a.index) || depends_on_data(ir, a.column)) return {diagnostic::code::W012, i, -1, -1, a.index};
  }
  return {};
}


// Can the launch list every tile access exactly? `*reads_launch`: some of them read a launch number.
constexpr bool launch_decides_shared(const kernel_ir& ir, bool* reads_launch) {
  for (const auto& a : ir.accesses) {
    if (!is_shared(a)) continue;
    const launch_knowledge k = launch_known(ir, a);
    if (k == known_never) return false;
    *reads_launch = *reads_launch || k == known_at_launch;
  }
  return true;
}

// The thread-instances a listing of the tile accesses holds (threads x static trips, a loop the
// compiler cannot count as one pass), and the most the compile-time listing takes on when the
// launch could decide instead: a bitonic sort whose stages a parameter bounds lists 512 threads
// x 10 stages x 32 halvings for each of six accesses, minutes of constant evaluation.
inline constexpr long long max_compile_listing = 1 << 18;
constexpr long long shared_listing_work(const kernel_ir& ir, block_shape shape) {
  long long work = 0;
  for (const auto& a : ir.accesses) {
    if (!is_shared(a)) continue;
    long long passes = 1;
    for (int p = a.loop_begin; p < a.loop_end && passes <= max_compile_listing; ++p) {
      const auto trips = static_trip_count(ir, shape, ir.loop_pool[static_cast<std::size_t>(p)]);
      passes *= trips && *trips > 1 ? *trips : 1;
    }
    work += passes * shape.threads();
    if (work > max_compile_listing) return work;
  }
  return work;
}

// An accepted verdict that leaves the tiles to the launch (dsl/obligation.hpp, shared_at_launch).
constexpr finding handed_to_launch(diagnostic::code protects, int first, int second) {
  finding f;
  obligation o;
  o.kind = obligation_kind::shared_at_launch;
  o.protects = protects;
  o.first = first;
  o.second = second;
  f.obligations.add(o);
  return f;
}

// Shared memory. A loop whose trip count only the launch knows is first taken as "some
// iteration": enough when its variable does not decide what the accesses touch. When that finds
// two threads meeting (W020, W021), they may meet only in iterations no launch reaches together
// (a halving tree over `levels` levels: `t < 128 >> level` and `t + (128 >> level)` meet in no
// level). So the loops are listed again iteration by iteration, up to assumed_trip_limit: if no
// meeting remains, the kernel is accepted with the obligation that those loops run no more trips
// (checked at launch, E106); if one remains, it is reported with the iteration where it happens.
//
// What the listing cannot decide for every value, the launch can: where every tile access is made
// of thread ids, loop counters, constants and launch numbers (launch_decides_shared), a meeting
// that rests on a launch number (the pair found reads one) is handed to the launch, which lists
// again with its own numbers (launch/shared_races.hpp) and refuses only a launch in which two
// threads do meet (E106). So does a listing past its compile-time budget (max_compile_listing).
// A meeting at a known element of two accesses whose indices read no launch number, and one found
// at a known element in an iteration listed by assumed trips, happen in every launch whose loops
// run that far: both refused here.
constexpr finding check_shared(const kernel_ir& ir, block_shape shape, shared_lint* lint = nullptr) {
  bool reads_launch = false;
  const bool launch_decides = shape.numbers == nullptr && launch_decides_shared(ir, &reads_launch) && reads_launch;
  // Past the budget, handed over untried only where the listing could not be exact here anyway
  // (some tile index reads a launch number): one whose indices the block alone fixes is listed.
  bool index_reads_launch = false;
  for (const auto& a : ir.accesses)
    index_reads_launch = index_reads_launch || (is_shared(a) && (launch_known(ir, a.index) == known_at_launch ||
                                                                 (a.column >= 0 && launch_known(ir, a.column) == known_at_launch)));
  if (launch_decides && index_reads_launch && shared_listing_work(ir, shape) > max_compile_listing)
    return handed_to_launch(diagnostic::code::W020, -1, -1);
  const finding first = check_shared_listing(ir, shape, 0, nullptr, lint);
  auto is_meeting = [](const finding& f) {
    return f.code == diagnostic::code::W020 || f.code == diagnostic::code::W021 || (f.code == diagnostic::code::W040 && f.element >= 0);
  };
  if (!is_meeting(first)) return first;
  // Definite: a meeting at a known element of two accesses whose indices read no launch number.
  // Their guards or loop bounds may (a missing barrier at the end of a K loop meets as soon as
  // the loop makes two trips, which nearly every launch does): refused here, as a bug.
  auto index_known_here = [&](int access) {
    const auto& a = ir.accesses[static_cast<std::size_t>(access)];
    return launch_known(ir, a.index) == known_here && (a.column < 0 || launch_known(ir, a.column) == known_here);
  };
  auto handed_or = [&](const finding& f) {
    if (!launch_decides || !is_meeting(f)) return f;
    const bool definite = f.element >= 0 && index_known_here(f.first) && index_known_here(f.second);
    return definite ? f : handed_to_launch(f.code, f.first, f.second);
  };
  // A listing past its budget proves nothing either way: the first finding stands. (Counted
  // before listing: the accesses listed before the one past the budget would be work thrown away.)
  if (!assumed_listing_fits(ir, shape, assumed_trip_limit)) return handed_or(first);
  unsigned long long assumed = 0;
  bool too_large = false;
  finding listed = check_shared_listing(ir, shape, assumed_trip_limit, &assumed, lint, &too_large);
  // A listing that gave up proves nothing either way: the first finding stands.
  if (assumed == 0 || too_large) return handed_or(first);
  // Listed iteration by iteration, a meeting at a known element happens in every launch whose
  // loop runs that far: reported with it, as before (a halving tree without its barrier).
  if (listed) return listed.element >= 0 ? listed : handed_or(listed);
  for (int l = 0; l < 64 && l < static_cast<int>(ir.loops.size()); ++l) {
    if ((assumed >> l & 1) == 0) continue;
    obligation o;
    o.kind = obligation_kind::trip_limit;
    o.protects = first.code;
    o.loop = l;
    o.most_trips = assumed_trip_limit;
    if (!listed.obligations.add(o)) return first;
  }
  return listed;
}

// ---- global memory: symbolic separation -------------------------------------------------------

// How many of the guards starting at x and at y agree, up to n: the same conditions, the same way.
constexpr int agreeing_guards(const kernel_ir& ir, int x, int y, int n) {
  for (int g = 0; g < n; ++g) {
    const auto& gx = ir.guard_pool[static_cast<std::size_t>(x + g)];
    const auto& gy = ir.guard_pool[static_cast<std::size_t>(y + g)];
    if (gx.condition != gy.condition || gx.negated != gy.negated) return g;
  }
  return n;
}

// How many guards two accesses share (the common prefix of their guard lists).
constexpr int common_guards(const kernel_ir& ir, const dsl::ir_access& a, const dsl::ir_access& c) {
  const int n = a.guard_end - a.guard_begin < c.guard_end - c.guard_begin ? a.guard_end - a.guard_begin : c.guard_end - c.guard_begin;
  return agreeing_guards(ir, a.guard_begin, c.guard_begin, n);
}

// Does expression `id` read the variable of a loop that the two pin sets fix to different iterations?
constexpr bool reads_split_loop(const kernel_ir& ir, int id, const std::vector<long long>* pa, const std::vector<long long>* pc) {
  if (id < 0 || pa == nullptr) return false;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == ir_op::loop_var) {
    const auto l = static_cast<std::size_t>(e.value);
    return l < pa->size() && (*pa)[l] != (*pc)[l];
  }
  return reads_split_loop(ir, e.a, pa, pc) || reads_split_loop(ir, e.b, pa, pc);
}

// Facts from the guards both accesses are under. With loops unrolled (pins), a guard that reads a
// loop the two accesses run in different iterations of says different things of each: left out.
constexpr facts common_facts(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a, const dsl::ir_access& c,
                             const std::vector<long long>* pins_a = nullptr, const std::vector<long long>* pins_c = nullptr) {
  facts out;
  const int n = common_guards(ir, a, c);
  for (int g = 0; g < n; ++g) {
    const auto& x = ir.guard_pool[static_cast<std::size_t>(a.guard_begin + g)];
    if (reads_split_loop(ir, x.condition, pins_a, pins_c)) continue;
    learn(ir, shape, scope_of(a, pins_a), x.condition, x.negated, out);
  }
  // The loops both are in bound their variables alike (unrolled ones are constants already).
  const int loops = common_loops(ir, context_of(a), context_of(c));
  learn_loops(ir, shape, scope_of(a, pins_a), a.loop_begin, a.loop_begin + loops, out);
  return out;
}

// Facts from all the guards of one access: they hold whenever it runs.
constexpr facts own_facts(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a,
                          const std::vector<long long>* pins = nullptr) {
  facts out;
  for (int g = a.guard_begin; g < a.guard_end; ++g) {
    const auto& x = ir.guard_pool[static_cast<std::size_t>(g)];
    learn(ir, shape, scope_of(a, pins), x.condition, x.negated, out);
  }
  learn_loops(ir, shape, scope_of(a, pins), a.loop_begin, a.loop_end, out);
  return out;
}

// For d != 0: can sum c_v * v (over varying v) never equal d? True when the gcd of the
// coefficients does not divide d. A coefficient that is a polynomial of the launch's numbers (a
// grid-stride loop's 2 * 256 * grid_dim.x, for w::vectors<2>(a)[i]'s components) takes only
// multiples of its content, the gcd of its own coefficients: every symbol stands for an integer
// (affine.hpp leaves no float in a polynomial).
constexpr bool gcd_excludes(const linear_form& f, long long d, const facts& known, varying vary) {
  long long g = 0;
  for (const auto& t : f.terms) {
    if (!vary(t.var) || known.pinned(t.var)) continue;
    if (!t.coefficient.valid) return false;
    for (const auto& part : t.coefficient.terms) g = gcd(g, part.coefficient);
  }
  return g == 0 ? d != 0 : d % g != 0;
}

// For d != 0: can a thread's index f(v) equal another thread's f(v') + d? Not when the thread and
// block digits, in mixed radix, each exceed what the loop counters and d can make up: with S the
// span of the counter terms (sum of |c| * max), f(v) - f(v') = d forces equal thread and block
// digits if each coefficient exceeds S + |d| plus the span of the digits below it (a thread that
// reads row[j + 1] while it stores row[j], rows of 9 apart, j < 8). Two iterations of one thread
// may meet: that is program order, no race. Guards are left out (their bounds would not cover
// the counters' part), pins kept. Counters need constant coefficients, and trip counts that are
// constants or that the launch fixes (counter_max): rows `cols` apart with j < cols - 1.
constexpr bool offset_apart(const kernel_ir& ir, block_shape shape, const linear_form& f, long long d, const facts& known) {
  if (d == 0) return false;
  polynomial slack = polynomial::constant(d < 0 ? -d : d);
  linear_form threads_and_blocks;
  threads_and_blocks.rest = f.rest;
  for (const auto& t : f.terms) {
    if (known.pinned(t.var)) continue;
    if (!symbol::is_counter(t.var)) {
      threads_and_blocks.add(t.var, t.coefficient);
      continue;
    }
    const bound max = counter_max(ir, shape, t.var - symbol::counter(0));
    if (!t.coefficient.is_constant() || !max) return false;
    const long long c = t.coefficient.constant_part();
    const polynomial spanned = (c < 0 ? -c : c) * *max;
    slack = slack + spanned;
  }
  facts pins_only;
  pins_only.pins = known.pins;
  varying threads_and_blocks_vary;
  threads_and_blocks_vary.counters = false;
  return slack.valid && radix_injective_from(ir, shape, threads_and_blocks, pins_only, threads_and_blocks_vary, slack, nullptr);
}

// Do two accesses stay inside their own block's window (`b * S + f`, f spanning < S elements)?
// `own_a` and `own_c`, the facts of each access's own guards, narrow f where given.
constexpr bool blocks_separated(const kernel_ir& ir, block_shape shape, const linear_form& la, const linear_form& lc,
                                const facts* own_a = nullptr, const facts* own_c = nullptr) {
  linear_form blocks_a, blocks_c;
  for (const auto& t : la.terms)
    if (symbol::is_block(t.var)) blocks_a.add(t.var, t.coefficient);
  for (const auto& t : lc.terms)
    if (symbol::is_block(t.var)) blocks_c.add(t.var, t.coefficient);
  if (blocks_a.terms.empty() || !blocks_a.same_variables(blocks_c)) return false;
  const polynomial offset = lc.rest - la.rest;
  if (!offset.is_constant()) return false;
  const span_range ra = range_of(ir, shape, la, varying{}, own_a), rc = range_of(ir, shape, lc, varying{}, own_c);
  if (!ra.ok || !rc.ok) return false;
  const long long d = offset.constant_part();
  const long long hi = ra.hi > rc.hi + d ? ra.hi : rc.hi + d, lo = ra.lo < rc.lo + d ? ra.lo : rc.lo + d;
  return radix_injective(ir, shape, blocks_a, facts{}, varying{true, false, false}, hi - lo);
}

// Inside one block (block ids equal), do the two indices fall in disjoint ranges? Both must have
// the same block part and a constant offset, so that only their thread and counter parts differ:
// `a[b * 64 + t]` under t < 16 and `a[b * 64 + t + 16]` under t < 16 never meet in a block.
constexpr bool disjoint_in_block(const kernel_ir& ir, block_shape shape, const linear_form& la, const linear_form& lc,
                                 const facts& own_a, const facts& own_c) {
  if (!la.ok || !lc.ok) return false;
  linear_form blocks_a, blocks_c;
  for (const auto& t : la.terms)
    if (symbol::is_block(t.var)) blocks_a.add(t.var, t.coefficient);
  for (const auto& t : lc.terms)
    if (symbol::is_block(t.var)) blocks_c.add(t.var, t.coefficient);
  if (!blocks_a.same_variables(blocks_c)) return false;
  const polynomial offset = lc.rest - la.rest;
  if (!offset.is_constant()) return false;
  const span_range ra = range_of(ir, shape, la, varying{}, &own_a), rc = range_of(ir, shape, lc, varying{}, &own_c);
  if (!ra.ok || !rc.ok) return false;
  const long long d = offset.constant_part();
  return ra.hi < rc.lo + d || rc.hi + d < ra.lo;
}

// One index fixed (no variable in it: the same in every thread), the other strictly above it (or
// below it) for every value of its variables, which are all >= 0: `b[t]` and `b[x + 1 + t]` never
// meet.
constexpr bool fixed_apart(const linear_form& fixed, const linear_form& moving) {
  if (!fixed.ok || !moving.ok || !fixed.terms.empty()) return false;
  bool up = true, down = true;
  for (const auto& t : moving.terms) {
    const polynomial negated = (-1) * t.coefficient;
    up = up && provably_positive(t.coefficient);
    down = down && provably_positive(negated);
  }
  const polynomial gap = moving.rest - fixed.rest;
  const polynomial negated_gap = (-1) * gap;
  return (up && provably_positive(gap)) || (down && provably_positive(negated_gap));
}

constexpr diagnostic::code global_rule(const dsl::ir_access& a, const dsl::ir_access& c) {
  using dsl::access_kind;
  const bool atomic_a = a.kind == access_kind::atomic, atomic_c = c.kind == access_kind::atomic;
  if (atomic_a && atomic_c) return diagnostic::code::none;
  if (atomic_a != atomic_c) return diagnostic::code::W040;
  if (a.kind == access_kind::store && c.kind == access_kind::store) return diagnostic::code::W010;
  if (a.kind == access_kind::store || c.kind == access_kind::store) return diagnostic::code::W011;
  return diagnostic::code::none;
}

// The index of access i as a linear form.
constexpr linear_form index_form(const kernel_ir& ir, block_shape shape, int i) {
  const auto& a = ir.accesses[static_cast<std::size_t>(i)];
  return linearise(lower(ir, shape, scope_of(a), a.index));
}

// A condition over launch-known symbols (`>= 1`) under which the pair of accesses `first` and
// `second` was proved apart: a launch obligation (E106) once the kernel is accepted with it.
struct assumption {
  polynomial condition;
  int first = -1, second = -1;
};

// The obligation that `condition` (over launch-known symbols) is at least 1 for the launch; one
// with more terms than an obligation holds is returned invalid (obligation_list::add refuses it).
constexpr obligation positive_obligation(diagnostic::code protects, const polynomial& condition, int first, int second) {
  obligation o;
  o.kind = obligation_kind::positive;
  o.protects = protects;
  o.first = first;
  o.second = second;
  if (!condition.valid || static_cast<int>(condition.terms.size()) > obligation::max_terms) {
    o.term_count = -1;
    return o;
  }
  for (const term& t : condition.terms) {
    o.terms[o.term_count].coefficient = t.coefficient;
    for (int k = 0; k < max_degree; ++k) o.terms[o.term_count].symbols[k] = t.m.s[static_cast<std::size_t>(k)];
    ++o.term_count;
  }
  return o;
}

// How far apart two global accesses' indices stay, from the indices and guards alone.
enum class separation : unsigned char {
  never_meet,     // no two distinct threads of the grid compute one index
  across_blocks,  // threads of different blocks may meet
  within_block,   // only threads of one block may meet: barriers decide
};

constexpr separation separate(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a, const dsl::ir_access& c,
                              const linear_form& la, const linear_form& lc, const std::vector<long long>* pins_a = nullptr,
                              const std::vector<long long>* pins_c = nullptr, std::vector<assumption>* assumed = nullptr) {
  if (!la.ok || !lc.ok) return separation::across_blocks;
  const facts known = common_facts(ir, shape, a, c, pins_a, pins_c);
  const facts own_a = own_facts(ir, shape, a, pins_a), own_c = own_facts(ir, shape, c, pins_c);
  const bool same = la.same_variables(lc);
  const polynomial offset = lc.rest - la.rest;
  const bool constant_offset = same && offset.is_constant();
  const long long d = constant_offset ? offset.constant_part() : 0;
  // Same variable part, constant offset: equal indices need equal variables (d == 0), or a
  // multiple of the coefficients' gcd (d != 0).
  auto never_meet = [&](varying vary) {
    return constant_offset && (d == 0 ? radix_injective(ir, shape, la, known, vary)
                                      : gcd_excludes(la, d, known, vary) || (vary.blocks && offset_apart(ir, shape, la, d, known)));
  };
  if (never_meet(varying{true, true}) || fixed_apart(la, lc) || fixed_apart(lc, la)) return separation::never_meet;
  // Injective for the launches that satisfy a condition on their values (a stride above the row
  // it strides over): proved so, with the condition kept as an obligation.
  if (assumed != nullptr && constant_offset && d == 0) {
    std::vector<polynomial> conditions;
    if (radix_injective(ir, shape, la, known, varying{true, true}, 0, &conditions)) {
      const int first = static_cast<int>(&a - ir.accesses.data()), second = static_cast<int>(&c - ir.accesses.data());
      for (const polynomial& condition : conditions) assumed->push_back({condition, first, second});
      return separation::never_meet;
    }
  }
  if (shape.grid_dims != 0 && !blocks_separated(ir, shape, la, lc, &own_a, &own_c)) return separation::across_blocks;
  // Inside one block: the same tests with the block ids equal, and disjoint ranges.
  if (never_meet(varying{false, true}) || disjoint_in_block(ir, shape, la, lc, own_a, own_c)) return separation::never_meet;
  return separation::within_block;
}

constexpr bool same_form(const linear_form& x, const linear_form& y) {
  return x.ok == y.ok && x.same_variables(y) && x.rest == y.rest;
}

constexpr finding check_global_pair(const kernel_ir& ir, block_shape shape, int i, int j, separation apart) {
  const auto& a = ir.accesses[static_cast<std::size_t>(i)];
  const auto& c = ir.accesses[static_cast<std::size_t>(j)];
  finding conflict{global_rule(a, c), i, j};
  conflict.across_blocks = apart == separation::across_blocks;
  if (apart != separation::within_block) return apart == separation::never_meet ? finding{} : conflict;
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

// Loops of constant trips are unrolled for a pair whose indices are no polynomials as written
// (`a[b * 64 + t + (32 >> e)]`: a shift by the loop variable): at most this many pairs of
// choices of iterations, and loops of at most this many trips.
inline constexpr long long max_unrolled_pairs = 1024;
inline constexpr long long max_unrolled_trips = 64;

// A global pair with loops unrolled: every loop of constant trips around either access is fixed to
// each of its iterations in turn, independently for the two accesses (so both the same and
// different iterations are compared), and the pair is judged for each choice as written then. A
// choice is safe when the two accesses stay in their own blocks' windows and the barriers order
// them for that relation (the same iteration of every unrolled common loop, or different ones from
// the first that differs), or else when they never meet at all. Loops with run-time trips stay
// symbolic and must order the accesses across their iterations, as in the symbolic check.
// (Each side's forms and facts are computed once per iteration: the pairs then cost little, which
// keeps clang's constant-evaluation step limit away.)
constexpr finding check_global_pair_unrolled(const kernel_ir& ir, block_shape shape, int i, int j,
                                            std::vector<assumption>* assumed = nullptr) {
  const auto& a = ir.accesses[static_cast<std::size_t>(i)];
  const auto& c = ir.accesses[static_cast<std::size_t>(j)];
  finding conflict{global_rule(a, c), i, j};
  conflict.across_blocks = true;
  struct unrolled {
    int loop;
    long long trips;
  };
  std::vector<unrolled> loops_a, loops_c;
  long long choices_a = 1, choices_c = 1;
  for (int side = 0; side < 2; ++side) {
    const auto& x = side == 0 ? a : c;
    for (int p = x.loop_begin; p < x.loop_end; ++p) {
      const int l = ir.loop_pool[static_cast<std::size_t>(p)];
      const auto trips = static_trip_count(ir, shape, l);
      if (!trips) continue;
      if (*trips == 0) return {};  // the access never runs
      if (*trips > max_unrolled_trips) return conflict;
      (side == 0 ? loops_a : loops_c).push_back({l, *trips});
      (side == 0 ? choices_a : choices_c) *= *trips;
    }
  }
  if (loops_a.empty() && loops_c.empty()) return conflict;  // nothing to unroll: as the symbolic check said
  if (choices_a * choices_c > max_unrolled_pairs) return conflict;
  const context ca = context_of(a), cc = context_of(c);
  const int common = common_loops(ir, ca, cc);

  // One side's pins for choice n (an odometer over its unrolled loops).
  auto pins_for = [&](const std::vector<unrolled>& loops, long long n) {
    std::vector<long long> pins(ir.loops.size(), unpinned);
    for (const auto& u : loops) {
      pins[static_cast<std::size_t>(u.loop)] = n % u.trips;
      n /= u.trips;
    }
    return pins;
  };
  struct side_choice {
    std::vector<long long> pins;
    linear_form form;
    facts own;
  };
  auto sides = [&](const dsl::ir_access& x, const std::vector<unrolled>& loops, long long count) {
    std::vector<side_choice> out;
    for (long long n = 0; n < count; ++n) {
      side_choice ch;
      ch.pins = pins_for(loops, n);
      ch.form = linearise(lower(ir, shape, scope_of(x, &ch.pins), x.index));
      ch.own = own_facts(ir, shape, x, &ch.pins);
      out.push_back(ch);
    }
    return out;
  };
  const std::vector<side_choice> at_a = sides(a, loops_a, choices_a), at_c = sides(c, loops_c, choices_c);

  // The barrier order each relation has, computed once.
  bool symbolic_ordered = true;  // across iterations of the common loops left symbolic
  std::vector<char> ordered_after(static_cast<std::size_t>(common), 0);
  for (int d = 0; d < common; ++d) {
    const bool ordered = ordered_different_iterations(ir, ca, cc, d);
    ordered_after[static_cast<std::size_t>(d)] = ordered;
    const int l = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + d)];
    if (at_a[0].pins[static_cast<std::size_t>(l)] == unpinned && may_repeat(ir, shape, ca, d) && !ordered) {
      symbolic_ordered = false;
      conflict.loop = l;
    }
  }
  const bool same_ordered = ordered_same_iteration(ir, ca, cc);

  for (const side_choice& x : at_a) {
    if (!x.form.ok) return conflict;
    for (const side_choice& y : at_c) {
      if (!y.form.ok) return conflict;
      int first = -1;  // the first unrolled common loop the two run in different iterations of
      for (int d = 0; d < common && first < 0; ++d) {
        const auto l = static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + d)]);
        if (x.pins[l] != unpinned && x.pins[l] != y.pins[l]) first = d;
      }
      const bool ordered = symbolic_ordered && (first < 0 ? same_ordered : ordered_after[static_cast<std::size_t>(first)] != 0);
      // Ordered inside a block: enough that the blocks keep to their own windows.
      if (ordered && (shape.grid_dims == 0 || blocks_separated(ir, shape, x.form, y.form, &x.own, &y.own))) continue;
      const separation apart = separate(ir, shape, a, c, x.form, y.form, &x.pins, &y.pins, assumed);
      if (apart == separation::never_meet || (apart == separation::within_block && ordered)) continue;
      conflict.across_blocks = apart == separation::across_blocks;
      if (!conflict.across_blocks && first >= 0)
        conflict.loop = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + first)];
      return conflict;
    }
  }
  return {};
}

// What the launch knows of a global access's elements (launch/global_pairs.hpp lists them): its
// index and the bounds of the loops around it, made of thread and block ids, loop counters,
// constants and launch numbers. Guards are not needed: one the listing cannot read is taken to
// hold. A select is computed on the side it chooses; data, locals and calls are known never. A
// loop variable is known at launch when its loop's bounds read a launch number: the elements then
// move with it (`out[b * cols + j]`, j up to cols), while `x[i]` in a loop up to n does not.
constexpr launch_knowledge global_launch_known(const kernel_ir& ir, int id) {
  if (id < 0) return known_here;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (const int held = ir.held_value(e); held >= 0) return global_launch_known(ir, held);  // a local: its value here
  if (e.is_float) return known_never;
  switch (e.op) {
    case ir_op::constant: case ir_op::thread_id: case ir_op::block_id: case ir_op::global_id: case ir_op::block_dim:
    case ir_op::contents_distinct: case ir_op::contents_sorted: case ir_op::contents_non_decreasing: case ir_op::contents_within:
      return known_here;
    case ir_op::loop_var: {
      const auto& loop = ir.loops[static_cast<std::size_t>(e.value)];
      launch_knowledge k = known_here;
      for (int bound : {loop.lo, loop.hi, loop.step}) {
        const launch_knowledge b = global_launch_known(ir, bound);
        k = b > k ? b : k;
      }
      return k;
    }
    case ir_op::param_value: case ir_op::param_size: case ir_op::grid_dim: return known_at_launch;
    case ir_op::load: case ir_op::tile_load: case ir_op::local_var: case ir_op::call: return known_never;
    default: {
      if (e.op < ir_op::add) return known_never;
      const launch_knowledge a = global_launch_known(ir, e.a), b = global_launch_known(ir, e.b);
      return a > b ? a : b;
    }
  }
}

// An access: known never if its index or a loop bound around it is; known at launch if its index
// reads a launch number, itself or through a loop variable.
constexpr launch_knowledge global_launch_known(const kernel_ir& ir, const dsl::ir_access& a) {
  if (a.trusted) return known_never;
  const launch_knowledge k = global_launch_known(ir, a.index);
  for (int p = a.loop_begin; p < a.loop_end && k != known_never; ++p) {
    const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
    for (int bound : {loop.lo, loop.hi, loop.step})
      if (global_launch_known(ir, bound) == known_never) return known_never;
  }
  return k;
}

// May the pair of a W010 / W011 finding be left to the launch (dsl/obligation.hpp,
// global_at_launch)? When the launch can list both accesses, and what they reach depends on a
// launch number: then the compiler cannot know whether they meet, and the launch can. A pair
// whose elements read no launch number meets, if at all, in every launch the checker judged: it
// stays refused here.
// Also a pair that both of whose accesses a guard over the loads of an ordered buffer keeps
// (given(non_decreasing(lo), ...), `when(lo[t] <= v && v < lo[t + 1], ...)`): the compiler knows
// nothing of the data, and the launch relates the loads by the fact (presburger.hpp, relate_load).
constexpr bool reads_ordered_load(const kernel_ir& ir, int id) {
  if (id < 0) return false;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == ir_op::load && ir.stated_order(ir.accesses[static_cast<std::size_t>(e.value)].target)) return true;
  return reads_ordered_load(ir, e.a) || reads_ordered_load(ir, e.b);
}
constexpr bool guarded_by_ordered_load(const kernel_ir& ir, const dsl::ir_access& a) {
  for (int g = a.guard_begin; g < a.guard_end; ++g)
    if (reads_ordered_load(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition)) return true;
  return false;
}
constexpr bool launch_decides_global(const kernel_ir& ir, const finding& f) {
  if (f.code != diagnostic::code::W010 && f.code != diagnostic::code::W011) return false;
  if (f.first < 0 || f.second < 0) return false;
  const dsl::ir_access &first = ir.accesses[static_cast<std::size_t>(f.first)], &second = ir.accesses[static_cast<std::size_t>(f.second)];
  const launch_knowledge a = global_launch_known(ir, first);
  const launch_knowledge c = global_launch_known(ir, second);
  if (a == known_never || c == known_never) return false;
  return a == known_at_launch || c == known_at_launch || (guarded_by_ordered_load(ir, first) && guarded_by_ordered_load(ir, second));
}

// A pair of global accesses left to the launch.
struct deferred_pair {
  diagnostic::code protects = diagnostic::code::none;
  int first = -1, second = -1;
};

// `assumed`: separations may rest on conditions over the launch's values, appended there.
// `deferred`: pairs the launch can decide (launch_decides_global) are appended there instead of
// refused.
// `surest`: of the pairs it cannot separate, the first whose two indices the block fixes (block
// ids aside, which the separation reads as symbols) rather than the first: the pair a refusal
// names should be one that meets (issue 56, item 4). The search then goes on past a first
// finding, which only a refused kernel pays for.
constexpr finding check_global(const kernel_ir& ir, block_shape shape, std::vector<assumption>* assumed = nullptr,
                               std::vector<deferred_pair>* deferred = nullptr, bool surest = false) {
  finding kept{};
  // True where f is the one to name: found without `surest`, or with both indices fixed.
  auto named = [&](const finding& f) {
    if (!surest) return true;
    const bool fixed = meeting_certainty(ir, ir.accesses[static_cast<std::size_t>(f.first)], true) >= 1 &&
                       meeting_certainty(ir, ir.accesses[static_cast<std::size_t>(f.second)], true) >= 1;
    if (!fixed && !kept) kept = f;
    return fixed;
  };
  // True when the finding is kept for the launch, so the search goes on.
  auto defer = [&](const finding& f) {
    if (deferred == nullptr || !launch_decides_global(ir, f)) return false;
    deferred->push_back({f.code, f.first, f.second});
    return true;
  };
  const int n = static_cast<int>(ir.accesses.size());
  // Each access's index form, computed once and numbered by distinct form: kernels repeat the
  // same index (`out[i]` in every round), and a separation depends only on the two forms and the
  // guards both accesses are under, so it is computed once per such combination.
  std::vector<linear_form> forms;
  std::vector<int> form_of(static_cast<std::size_t>(n), -1);
  auto form = [&](int i) {
    int& id = form_of[static_cast<std::size_t>(i)];
    if (id < 0) {
      const linear_form f = index_form(ir, shape, i);
      for (int k = 0; k < static_cast<int>(forms.size()) && id < 0; ++k)
        if (same_form(forms[static_cast<std::size_t>(k)], f)) id = k;
      if (id < 0) {
        forms.push_back(f);
        id = static_cast<int>(forms.size()) - 1;
      }
    }
    return id;
  };
  // A separation depends on the guards each access is under (its own facts) and on those they
  // share: memoised by both forms and both guard lists.
  struct known_separation {
    int form_a, form_c, access_a, access_c;  // the pair it was computed for
    separation apart;
    int assumed_begin = 0, assumed_end = 0;  // the conditions it rests on, in *assumed
  };
  auto same_guards = [&](const dsl::ir_access& x, const dsl::ir_access& y) {
    const int n = x.guard_end - x.guard_begin;
    return n == y.guard_end - y.guard_begin && agreeing_guards(ir, x.guard_begin, y.guard_begin, n) == n;
  };
  std::vector<known_separation> memo;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const auto& a = ir.accesses[static_cast<std::size_t>(i)];
      const auto& c = ir.accesses[static_cast<std::size_t>(j)];
      if (is_shared(a) || is_shared(c) || a.target != c.target || (a.trusted && c.trusted)) continue;
      if (global_rule(a, c) == diagnostic::code::none) continue;
      if (a.trusted || c.trusted) {  // with a plain access, a trusted one may touch any element
        const separation apart = shape.grid_dims == 0 ? separation::within_block : separation::across_blocks;
        if (finding f = check_global_pair(ir, shape, i, j, apart); f && named(f)) return f;  // trusted: never deferred
        continue;
      }
      const int fa = form(i), fc = form(j);
      if (!forms[static_cast<std::size_t>(fa)].ok || !forms[static_cast<std::size_t>(fc)].ok) {
        finding f = check_global_pair_unrolled(ir, shape, i, j, assumed);
        // One block (the kernel names no block coordinate, so launch runs one): indices it cannot
        // follow may meet anywhere in the block's buffer, and barriers decide.
        if (f && shape.grid_dims == 0) f = check_global_pair(ir, shape, i, j, separation::within_block);
        if (f && !defer(f) && named(f)) return f;
        continue;
      }
      int hit = -1;
      for (int m = 0; m < static_cast<int>(memo.size()) && hit < 0; ++m) {
        const known_separation& k = memo[static_cast<std::size_t>(m)];
        if (k.form_a != fa || k.form_c != fc) continue;
        if (same_guards(ir.accesses[static_cast<std::size_t>(k.access_a)], a) &&
            same_guards(ir.accesses[static_cast<std::size_t>(k.access_c)], c))
          hit = m;
      }
      if (hit < 0) {
        const int before = assumed != nullptr ? static_cast<int>(assumed->size()) : 0;
        const separation apart = separate(ir, shape, a, c, forms[static_cast<std::size_t>(fa)], forms[static_cast<std::size_t>(fc)],
                                          nullptr, nullptr, assumed);
        memo.push_back({fa, fc, i, j, apart, before, assumed != nullptr ? static_cast<int>(assumed->size()) : 0});
        hit = static_cast<int>(memo.size()) - 1;
      } else if (assumed != nullptr) {
        // The same conditions hold this pair apart: each pair keeps its own obligation, so that a
        // launch that breaks them lists this pair too (a loop that runs in no thread may leave the
        // first pair apart and this one meeting).
        const known_separation k = memo[static_cast<std::size_t>(hit)];
        for (int m = k.assumed_begin; m < k.assumed_end; ++m) {
          const assumption again{(*assumed)[static_cast<std::size_t>(m)].condition, i, j};
          assumed->push_back(again);
        }
      }
      if (finding f = check_global_pair(ir, shape, i, j, memo[static_cast<std::size_t>(hit)].apart); f && !defer(f) && named(f)) return f;
    }
  return kept;
}

// ---- all rules ---------------------------------------------------------------------------------

// With `lint`, an accepted kernel's W050 count too (check/lints.hpp), from the shared rules' footprints.
constexpr finding analyse(const kernel_ir& ir, block_shape shape, shared_lint* lint = nullptr) {
  shape.grid_dims = grid_dims_of(ir);
  // Before any rule: with two scopes at one level, a variable's type names either, and every
  // rule below would reason about the wrong one.
  if (ir.reopened_level >= 0) {
    finding f{diagnostic::code::W032};
    f.element = ir.reopened_level;
    return f;
  }
  if (finding f = check_barriers(ir)) return f;
  if (finding f = check_shuffles(ir, shape)) return f;
  if (finding f = check_data_indices(ir)) return f;
  const finding shared = check_shared(ir, shape, lint);
  if (shared) {
    // A meeting on a tile that may happen in no launch (an index reading a launch number or a
    // block id the listing could not fix: meeting_certainty 0) is not the pair to name where a
    // pair of buffer accesses whose indices the block alone fixes is refused too: that one is the
    // race a run shows (issue 56, item 4). Refused either way; only the named pair changes.
    if (shared.element >= -1 && shared.second >= 0 && shared.code != diagnostic::code::W022 &&
        meeting_certainty(ir, shared, true) == 0) {
      const finding global = check_global(ir, shape, nullptr, nullptr, true);
      auto fixed_index = [&](int access) {
        return access >= 0 && meeting_certainty(ir, ir.accesses[static_cast<std::size_t>(access)], true) >= 1;
      };
      if (global && global.code != diagnostic::code::W012 && fixed_index(global.first) && fixed_index(global.second))
        return global;
    }
    return shared;
  }
  finding f = check_global(ir, shape);
  const finding first_found = f;
  if (f && f.code != diagnostic::code::W012) {
    // What the indices alone do not separate may be separated for the launches whose values meet
    // a condition (a stride above its row): judged again with such conditions allowed, each kept
    // as an obligation that launch checks (E106). Too many: refused as first found.
    // What neither separates, but the launch can list with its own numbers, is left to it.
    std::vector<assumption> assumed;
    std::vector<deferred_pair> deferred;
    const finding again = check_global(ir, shape, &assumed, &deferred);
    if (!again) {
      finding accepted = again;
      bool kept = true;
      // A condition the list cannot hold (too many, or too many terms) leaves its pair to the
      // launch's listing instead, where the launch can list it: the listing decides exactly what
      // the condition only suffices for.
      // The tiles' obligations come after these: room is kept for them, so that a kernel whose
      // buffer conditions fill the list still has its tiles decided by the launch (a flash
      // attention's tiles of Bc * d elements) rather than refused.
      const int room = dsl::obligation_list::capacity - shared.obligations.count;
      for (const assumption& a : assumed) {
        if (accepted.obligations.count < room && accepted.obligations.add(positive_obligation(f.code, a.condition, a.first, a.second)))
          continue;
        const auto& x = ir.accesses[static_cast<std::size_t>(a.first)];
        const auto& y = ir.accesses[static_cast<std::size_t>(a.second)];
        const finding pair{global_rule(x, y), a.first, a.second};
        kept = kept && launch_decides_global(ir, pair) && accepted.obligations.add_pair(pair.code, a.first, a.second);
      }
      for (const deferred_pair& p : deferred) kept = kept && accepted.obligations.add_pair(p.protects, p.first, p.second);
      if (kept) f = accepted;
    } else if (!deferred.empty()) {
      f = again;  // the pair that stops it, past those the launch could decide
    }
  }
  for (const obligation& o : shared.obligations)
    if (!f && !f.obligations.add(o)) return check_shared_listing(ir, shape, 0, nullptr);
  // Refused on the first pair no condition separates: named by the surest such pair instead.
  if (f && f.code != diagnostic::code::W012 && f.first == first_found.first && f.second == first_found.second)
    if (const finding surest = check_global(ir, shape, nullptr, nullptr, true)) return surest;
  return f;
}

}  // namespace warden::check
