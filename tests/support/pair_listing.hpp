#pragma once
// The test oracle of the launch's solver (check/launch/global_pairs.hpp): the same questions,
// answered by listing. Until issue 54 this was the launch path itself; it lists both accesses'
// elements with the launch's own numbers, thread by thread and trip by trip, as the kernel
// computes them (launch_impl::exact_value), so its cost grows with the grid and it serves only
// small launches in tests, where it must agree with the solver.
//
// What it lists: every thread of the grid, every trip of the loops around the access, the guards
// as the kernel evaluates them (one that reads data is taken to hold, so the listing may only grow).
// It gives up, and the obligation stands, where an index or a loop bound reads data, a local or a
// function, or the listing would pass its budget. Two threads of one block meet only at trips that
// no barrier orders (check/order.hpp), as the solver asks: the relation of their common loops' trips
// (the same in all: -1; the first that differs: its depth) decides, run by run.

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <warden/check/launch/global_pairs.hpp>
#include <warden/check/launch/stated_facts.hpp>
#include <warden/dsl/ir.hpp>

namespace warden::testing {

namespace listing {
using namespace warden::check;
using namespace warden::check::launch_impl;
using check::launch_impl::exact_value;
using check::launch_impl::thread_point;

// The most instances (thread x trip) of each access that a launch lists.
inline constexpr long long max_listed_instances = 1LL << 22;

struct pair_verdict {
  pair_answer answer = pair_answer::undecided;
  long long thread1 = -1, thread2 = -1;  // linear global thread ids (meet)
  long long element = -1;
};

// What a visit of one run says to the listing: go on, stop (done), or give up (it cannot list).
enum class run_visit { go_on, stop, give_up };

// Calls visit(block, thread, point, trips) for every run of access `a` in this launch whose guards
// do not fail (one that reads data is taken to hold): its linear block and thread in the block,
// the point (thread and block ids, loop values) and the trip of each loop around it (by loop id,
// -1 elsewhere), in block, thread and trip order, until visit stops or gives up. False when it
// cannot list them: a loop bound it cannot compute, or a visit that gave up.
template <class Visit>
bool each_run(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& a, Visit&& visit) {
  thread_point at;
  at.loop_value.assign(ir.loops.size(), 0);
  at.loop_set.assign(ir.loops.size(), 0);
  std::vector<long long> trip(ir.loops.size(), -1);
  const int depth = a.loop_end - a.loop_begin;
  bool ok = true, more = true;
  long long block = 0, thread = 0;
  auto runs = [&] {
    for (int g = a.guard_begin; g < a.guard_end; ++g) {
      const dsl::ir_guard& guard = ir.guard_pool[static_cast<std::size_t>(g)];
      const std::optional<long long> v = exact_value(ir, guard.condition, facts, &at);
      if (v && (*v != 0) == guard.negated) return false;  // decided against; data: may hold
    }
    return true;
  };
  // Loop level by loop level; `level == depth`: the access itself.
  auto enumerate = [&](auto&& self, int level) -> void {
    if (!ok || !more) return;
    if (level == depth) {
      if (!runs()) return;
      const run_visit v = visit(block, thread, static_cast<const thread_point&>(at), static_cast<const std::vector<long long>&>(trip));
      ok = v != run_visit::give_up;
      more = v == run_visit::go_on;
      return;
    }
    const int l = ir.loop_pool[static_cast<std::size_t>(a.loop_begin + level)];
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(l)];
    const std::optional<long long> lo = exact_value(ir, loop.lo, facts, &at), hi = exact_value(ir, loop.hi, facts, &at),
                                   step = exact_value(ir, loop.step, facts, &at);
    if (!lo || !hi || !step || *step < 1) {
      ok = false;
      return;
    }
    at.loop_set[static_cast<std::size_t>(l)] = 1;
    long long k = 0;
    for (long long i = *lo; i < *hi && ok && more; i += *step, ++k) {
      at.loop_value[static_cast<std::size_t>(l)] = i;
      trip[static_cast<std::size_t>(l)] = k;
      self(self, level + 1);
    }
    at.loop_set[static_cast<std::size_t>(l)] = 0;
    trip[static_cast<std::size_t>(l)] = -1;
  };
  for (long long bz = 0; bz < facts.grid[2] && ok && more; ++bz)
    for (long long by = 0; by < facts.grid[1] && ok && more; ++by)
      for (long long bx = 0; bx < facts.grid[0] && ok && more; ++bx)
        for (long long tz = 0; tz < facts.block[2] && ok && more; ++tz)
          for (long long ty = 0; ty < facts.block[1] && ok && more; ++ty)
            for (long long tx = 0; tx < facts.block[0] && ok && more; ++tx) {
              at.block[0] = bx, at.block[1] = by, at.block[2] = bz;
              at.thread[0] = tx, at.thread[1] = ty, at.thread[2] = tz;
              block = (bz * facts.grid[1] + by) * facts.grid[0] + bx;
              thread = (tz * facts.block[1] + ty) * facts.block[0] + tx;
              enumerate(enumerate, 0);
            }
  return ok;
}

// Calls visit(thread, element) for every instance of access `a` in this launch, until visit
// returns false; false when it cannot list them (data in an index or a loop bound, or past
// `budget` instances). `thread` is the linear global id: ((bz * gy + by) * gx + bx) * threads per
// block + the thread's linear id in its block.
template <class Visit>
bool list_global_access(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& a, long long budget, Visit&& visit) {
  const long long threads_per_block = static_cast<long long>(facts.block[0]) * facts.block[1] * facts.block[2];
  long long listed = 0;
  return each_run(ir, facts, a, [&](long long block, long long thread, const thread_point& at, const std::vector<long long>&) {
    const std::optional<long long> element = exact_value(ir, a.index, facts, &at);
    if (!element || ++listed > budget) return run_visit::give_up;
    return visit(block * threads_per_block + thread, *element) ? run_visit::go_on : run_visit::stop;
  });
}

// Do two different threads of this launch touch one element through accesses `first` and
// `second` (the same access for W010 on one store), where no barrier orders them?
inline pair_verdict global_pair_meeting(const dsl::kernel_ir& ir, const launch_facts& facts, int first, int second,
                                        long long budget = max_listed_instances) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  const context ca = context_of(a), cc = context_of(c);
  const int common = common_loops(ir, ca, cc);
  const long long threads_per_block = static_cast<long long>(facts.block[0]) * facts.block[1] * facts.block[2];
  struct run {
    long long thread;              // linear global id
    std::vector<long long> trips;  // of the common loops, outermost first
  };
  const auto trips_of = [&](const std::vector<long long>& trip) {
    std::vector<long long> out;
    for (int d = 0; d < common; ++d) out.push_back(trip[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(a.loop_begin + d)])]);
    return out;
  };
  // Whether runs x and y, of different threads, meet: different blocks, or one block at a
  // relation of their trips that no barrier orders.
  const auto unordered = [&](const run& x, const run& y) {
    if (x.thread / threads_per_block != y.thread / threads_per_block) return true;
    for (int d = 0; d < common; ++d)
      if (x.trips[static_cast<std::size_t>(d)] != y.trips[static_cast<std::size_t>(d)]) return !ordered_different_iterations(ir, ca, cc, d);
    return !ordered_same_iteration(ir, ca, cc);
  };
  std::unordered_map<long long, std::vector<run>> touched;
  pair_verdict v;
  v.answer = pair_answer::apart;
  long long listed = 0;
  // The runs of a, by element; one access against itself meets at the first unordered pair.
  const bool listed_a = each_run(ir, facts, a, [&](long long block, long long thread, const thread_point& at, const std::vector<long long>& trip) {
    const std::optional<long long> element = exact_value(ir, a.index, facts, &at);
    if (!element || ++listed > budget) return run_visit::give_up;
    const run here{block * threads_per_block + thread, trips_of(trip)};
    std::vector<run>& there = touched[*element];
    if (first == second)
      for (const run& other : there)
        if (other.thread != here.thread && unordered(other, here)) {
          v = {pair_answer::meet, other.thread, here.thread, *element};
          return run_visit::stop;
        }
    there.push_back(here);
    return run_visit::go_on;
  });
  if (!listed_a) return {};
  if (first == second) return v;
  const bool listed_c = each_run(ir, facts, c, [&](long long block, long long thread, const thread_point& at, const std::vector<long long>& trip) {
    const std::optional<long long> element = exact_value(ir, c.index, facts, &at);
    if (!element || ++listed > 2 * budget) return run_visit::give_up;
    const auto it = touched.find(*element);
    if (it == touched.end()) return run_visit::go_on;
    const run here{block * threads_per_block + thread, trips_of(trip)};
    for (const run& other : it->second)
      if (other.thread != here.thread && unordered(other, here)) {
        v = {pair_answer::meet, other.thread, here.thread, *element};
        return run_visit::stop;
      }
    return run_visit::go_on;
  });
  if (!listed_c) return {};
  return v;
}

}  // namespace listing

}  // namespace warden::testing
