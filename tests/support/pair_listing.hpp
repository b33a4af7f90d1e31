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
// function, or the listing would pass its budget. Barriers are not taken into account: two threads
// of one block that meet in different barrier phases count as meeting, so the answer "apart" is
// exact, and "meet" may be one the obligation would have refused anyway.

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
// `second` (the same access for W010 on one store)?
inline pair_verdict global_pair_meeting(const dsl::kernel_ir& ir, const launch_facts& facts, int first, int second,
                                        long long budget = max_listed_instances) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  // Each element a reaches, with the first thread there and a second one if any.
  struct owners {
    long long one = -1, two = -1;
  };
  std::unordered_map<long long, owners> touched;
  pair_verdict v;
  v.answer = pair_answer::apart;
  // One access (W010 on one store): the first meeting in the listing's order, threads in order.
  if (!list_global_access(ir, facts, a, budget, [&](long long thread, long long element) {
        owners& o = touched[element];
        if (o.one < 0) o.one = thread;
        else if (o.one != thread && o.two < 0) o.two = thread;
        if (first == second && o.two >= 0) {
          v = {pair_answer::meet, o.one, o.two, element};
          return false;
        }
        return true;
      }))
    return {};
  if (first == second) return v;
  auto meets = [&](long long thread, long long element) {  // false: found, stop listing
    const auto it = touched.find(element);
    if (it == touched.end()) return true;
    const long long other = it->second.one != thread ? it->second.one : it->second.two;
    if (other < 0) return true;
    v = {pair_answer::meet, other, thread, element};
    return false;
  };
  if (!list_global_access(ir, facts, c, budget, meets)) return {};
  return v;
}

}  // namespace listing

}  // namespace warden::testing
