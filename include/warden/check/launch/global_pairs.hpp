#pragma once
// A pair of global accesses decided exactly for one launch: do two different threads touch one
// element? The checker proved W010 / W011 for the pair under a condition on the launch's values (a
// positive obligation, dsl/obligation.hpp) that is only sufficient, or left the pair to the launch
// (global_at_launch); the launch writes the question as one integer set with its own numbers in it
// (presburger.hpp) and asks isl (integer_set.hpp) for a point of it: two threads, their trips of
// the loops around the two accesses, and the element both reach. No point: apart, whatever the
// grid's size; a point: the witness E106 names.
//
// The set: both threads within the launch, different; each at a trip of every loop around its
// access (start, positive constant step, end); the guards of each access, those that can be
// written (one that reads data is taken to hold, so the set only grows); the two indices equal.
// Undecided where an index or a loop bound reads data, a local the kernel assigns, a function, or
// multiplies two values that both vary; the caller refuses such a launch and says why.
// Barriers order the threads of one block (global memory too), so the pair is asked as the tile
// rules ask theirs (tile_questions.hpp): two threads of different blocks at any trips, or two
// threads of one block at each relation of their common loops' trips that no barrier orders
// (order.hpp): a B+tree level that stores `offset[b]` in one barrier phase of each trip and reads it
// in the next is apart, not met across trips.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../order.hpp"
#include "integer_set.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "launch_values.hpp"
#include "presburger.hpp"

namespace warden::check {

namespace launch_impl {

enum class pair_answer : unsigned char { apart, meet, undecided };

// A loop's variable at one trip, in a witness.
struct loop_trip {
  int loop = -1;  // index in ir.loops
  long long value = 0;
};

struct pair_verdict {
  pair_answer answer = pair_answer::undecided;
  long long thread1 = -1, thread2 = -1;  // linear global thread ids (meet): ((bz * gy + by) * gx + bx) * threads per block + ...
  long long element = -1;
  std::vector<loop_trip> trips1, trips2;  // meet: the trips of the loops around each access
  bool possible = false;                  // meet: a guard or a select was taken to hold, or a load to be any value, so the meeting may be one no thread has
  std::string why;                        // undecided: what the solver could not write
};

// The coordinate `name` (a variable of the question, or "0") at `point`.
inline long long coordinate_at(const presburger_question& q, const std::string& name, const std::vector<long long>& point) {
  const int d = q.dimension_of(name);
  return d < 0 ? 0 : point[static_cast<std::size_t>(d)];
}

// A thread of the question at `point`, numbered linearly (thread_name reads it back).
inline long long linear_thread(const presburger_question& q, const presburger_instance& in, const std::vector<long long>& point,
                               const launch_facts& facts) {
  long long t[3], b[3];
  for (int d = 0; d < 3; ++d) {
    t[d] = coordinate_at(q, in.thread[d], point);
    b[d] = coordinate_at(q, in.block[d], point);
  }
  const long long per_block = static_cast<long long>(facts.block.x) * facts.block.y * facts.block.z;
  return ((b[2] * facts.grid.y + b[1]) * facts.grid.x + b[0]) * per_block + (t[2] * facts.block.y + t[1]) * facts.block.x + t[0];
}

// A thread's linear id (linear_thread's numbering) as a term of the question's variables.
inline std::string linear_term(const presburger_instance& in, const launch_facts& facts) {
  const long long per_block = static_cast<long long>(facts.block.x) * facts.block.y * facts.block.z;
  const long long thread_scale[3] = {1, facts.block.x, static_cast<long long>(facts.block.x) * facts.block.y};
  const long long block_scale[3] = {per_block, per_block * facts.grid.x, per_block * facts.grid.x * facts.grid.y};
  std::string term;
  for (int d = 0; d < 3; ++d) {
    if (in.thread[d] != "0") term += (term.empty() ? "" : " + ") + std::to_string(thread_scale[d]) + " * " + in.thread[d];
    if (in.block[d] != "0") term += (term.empty() ? "" : " + ") + std::to_string(block_scale[d]) + " * " + in.block[d];
  }
  return term.empty() ? "0" : "(" + term + ")";
}

// The trips of the loops around access `a` at `point`.
inline std::vector<loop_trip> trips_at(const dsl::kernel_ir& ir, const presburger_question& q, const presburger_instance& in,
                                       const dsl::ir_access& a, const std::vector<long long>& point) {
  std::vector<loop_trip> out;
  for (int p = a.loop_begin; p < a.loop_end; ++p) {
    const int l = ir.loop_pool[static_cast<std::size_t>(p)];
    out.push_back({l, coordinate_at(q, in.loop[static_cast<std::size_t>(l)], point)});
  }
  return out;
}

// "thread (29, 0) of block (1, 0)": a linear global thread id (linear_thread's numbering) as
// the kernel's author counts threads, the dimensions the launch does not use left out.
inline std::string thread_name(long long linear, const launch_facts& facts) {
  const long long per_block = static_cast<long long>(facts.block[0]) * facts.block[1] * facts.block[2];
  long long t = linear % per_block, b = linear / per_block;
  long long thread[3], block[3];
  for (int d = 0; d < 3; ++d) {
    thread[d] = t % facts.block[d];
    t /= facts.block[d];
    block[d] = b % facts.grid[d];
    b /= facts.grid[d];
  }
  auto coordinates = [](const long long* v, bool y, bool z) {
    std::string s = y || z ? "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) : std::to_string(v[0]);
    if (z) s += ", " + std::to_string(v[2]);
    return y || z ? s + ")" : s;
  };
  const bool block_y = facts.block[1] > 1 || facts.grid[1] > 1, block_z = facts.block[2] > 1 || facts.grid[2] > 1;
  return "thread " + coordinates(thread, block_y, block_z) + " of block " + coordinates(block, block_y, block_z);
}

// "thread 3 of block 0 (k = 2) and thread 5 of block 1 (k = 0) both reach element 17": a
// meeting in the kernel's names, from the solver's point.
inline std::string meeting_text(const dsl::kernel_ir& ir, const launch_names& names, const launch_facts& facts, const pair_verdict& p) {
  const auto trips = [&](const std::vector<loop_trip>& at) {
    std::string s;
    for (const loop_trip& t : at)
      s += (s.empty() ? " (" : ", ") + names.loop(ir, ir.loops[static_cast<std::size_t>(t.loop)]) + " = " + std::to_string(t.value);
    return s.empty() ? s : s + ")";
  };
  return thread_name(p.thread1, facts) + trips(p.trips1) + " and " + thread_name(p.thread2, facts) + trips(p.trips2) +
         (p.possible ? " may both reach element " : " both reach element ") + std::to_string(p.element) +
         (p.possible ? " (a guard or select that reads data is taken to hold either way, a loaded value to be any it may hold)" : "");
}

// Whether no thread of this launch runs access `a`, asked only where its index cannot be written
// (an index of data under a guard no thread passes decides nothing).
inline bool runs_in_no_thread(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& a) {
  presburger_question q(ir, facts);
  presburger_instance one = q.thread("a");
  if (!q.enter_loops(a, one, "a")) return false;
  if (!q.enter_guards(a.guard_begin, a.guard_end, one)) return true;
  q.variable("run");  // at least one dimension
  return decide_integer_set(q.text(), q.dimensions()).answer == set_answer::empty;
}

// The element one run of access `a` reaches, for thread `in` of question `q`: the access's loops
// and guards entered, its index written. nullopt when that settles the question: `settled` is
// then apart (no thread of this launch runs the access) or undecided (q.why_not() says why).
// `guards`: false leaves the access's guards out (the set only grows).
inline std::optional<std::string> run_element(const dsl::kernel_ir& ir, const launch_facts& facts, presburger_question& q,
                                              const dsl::ir_access& a, presburger_instance& in, const std::string& tag,
                                              pair_answer& settled, int coordinate = -1, bool guards = true) {
  settled = pair_answer::undecided;
  if (!q.enter_loops(a, in, tag)) return std::nullopt;
  if (guards && !q.enter_guards(a.guard_begin, a.guard_end, in)) {
    settled = pair_answer::apart;  // a guard no thread passes for this launch
    return std::nullopt;
  }
  std::optional<std::string> i = q.term(coordinate >= 0 ? coordinate : a.index, in);
  if (!i && runs_in_no_thread(ir, facts, a)) settled = pair_answer::apart;
  return i;
}

// isl's answer as the launch's: a point is a meeting (or a run outside), no point is apart.
inline pair_answer answer_of(const set_decision& d, std::string& why) {
  if (d.answer == set_answer::unknown) why = "the integer set library passed its budget on the question";
  return d.answer == set_answer::unknown ? pair_answer::undecided : d.answer == set_answer::empty ? pair_answer::apart : pair_answer::meet;
}

// Whether expression `id` reads a local: two reads of one local render alike but may hold
// different values (dsl/local_values.hpp: `x` before and after `x <<= 1`).
inline bool reads_local(const dsl::kernel_ir& ir, int id) {
  if (id < 0) return false;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  return e.op == dsl::ir_op::local_var || reads_local(ir, e.a) || reads_local(ir, e.b);
}

// Whether accesses `a` and `c` run in the same threads and trips at the same elements: the same
// index, loops and guards (a load and the store back to it). Indices that read a local are the
// same only as one node. Their pair question is then symmetric
// in the two threads, so one order of the threads' ids suffices, and it is the very set one of
// them asks against itself (answered once, integer_set_memo).
inline bool same_runs(const dsl::kernel_ir& ir, const dsl::ir_access& a, const dsl::ir_access& c) {
  if (a.loop_end - a.loop_begin != c.loop_end - c.loop_begin || a.guard_end - a.guard_begin != c.guard_end - c.guard_begin) return false;
  for (int k = 0; k < a.loop_end - a.loop_begin; ++k)
    if (ir.loop_pool[static_cast<std::size_t>(a.loop_begin + k)] != ir.loop_pool[static_cast<std::size_t>(c.loop_begin + k)]) return false;
  for (int k = 0; k < a.guard_end - a.guard_begin; ++k) {
    const dsl::ir_guard& x = ir.guard_pool[static_cast<std::size_t>(a.guard_begin + k)];
    const dsl::ir_guard& y = ir.guard_pool[static_cast<std::size_t>(c.guard_begin + k)];
    if (x.condition != y.condition || x.negated != y.negated) return false;
  }
  return a.index == c.index ||
         (!reads_local(ir, a.index) && !reads_local(ir, c.index) && dsl::render(ir, a.index, {}) == dsl::render(ir, c.index, {}));
}

// A linear number of three coordinates (x fastest) whose extents are `extent`, as a term: the
// thread of `in` within its block (its thread coordinates, the block's extents), or its block
// within the grid (its block coordinates, the grid's extents).
inline std::string linear_coordinates(const std::string (&coordinate)[3], const detail::dims3& extent) {
  const long long scale[3] = {1, extent.x, static_cast<long long>(extent.x) * extent.y};
  std::string term;
  for (int d = 0; d < 3; ++d)
    if (coordinate[d] != "0") term += (term.empty() ? "" : " + ") + std::to_string(scale[d]) + " * " + coordinate[d];
  return term.empty() ? "0" : "(" + term + ")";
}
inline std::string block_linear_term(const presburger_instance& in, const launch_facts& facts) {
  return linear_coordinates(in.thread, facts.block);
}
inline std::string grid_linear_term(const presburger_instance& in, const launch_facts& facts) {
  return linear_coordinates(in.block, facts.grid);
}

inline void same_block(presburger_question& q, const presburger_instance& x, const presburger_instance& y) {
  for (int d = 0; d < 3; ++d)
    if (x.block[d] != "0") q.require(x.block[d] + " = " + y.block[d]);
}

// How two threads of a pair question relate: in different blocks (any trips), or in one block at
// the trips of their `common` loops that `relation` names (-1: the same in every one; d: the same
// outside common loop d, different in it), as tile_pair_meeting relates a tile's pair.
inline constexpr int different_blocks = -2;

// Do two different threads, related as `relation` says, touch one element through accesses
// `first` and `second`?
// `race_free`: the buffers the kernel writes whose loads the question may write
// (presburger_question::write_loads_of). `guards`: false asks without the accesses' guards, a
// larger set that is often empty for a reason isl sees at once (two blocks' own elements), where
// the guards' loads and their axioms would make it take apart many cases first.
inline pair_verdict global_pair_meeting_at(const dsl::kernel_ir& ir, const launch_facts& facts, int first, int second, int relation,
                                           const std::vector<char>* race_free = nullptr, bool guards = true) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  pair_verdict v;
  presburger_question q(ir, facts);
  q.write_loads_of(race_free);
  presburger_instance one = q.thread("a"), two = q.thread("b");
  // Different threads: the blocks' numbers differ, or the threads' within one block. One access
  // against itself (or two with the same runs): the pair is unordered, so the first is the lower,
  // one inequality instead of a disjunction per coordinate.
  const bool symmetric = first == second || same_runs(ir, a, c);
  const std::string x = relation == different_blocks ? grid_linear_term(one, facts) : block_linear_term(one, facts);
  const std::string y = relation == different_blocks ? grid_linear_term(two, facts) : block_linear_term(two, facts);
  if (x == "0") {  // one block in the grid, or one thread in the block
    v.answer = pair_answer::apart;
    return v;
  }
  if (relation != different_blocks) same_block(q, one, two);
  q.require(symmetric ? "(" + x + " < " + y + ")" : "(" + x + " < " + y + " or " + x + " > " + y + ")");
  const std::optional<std::string> i = run_element(ir, facts, q, a, one, "a", v.answer, -1, guards);
  if (!i) {
    v.why = q.why_not();
    return v;
  }
  const std::optional<std::string> j = run_element(ir, facts, q, c, two, "b", v.answer, -1, guards);
  if (!j) {
    v.why = q.why_not();
    return v;
  }
  if (relation != different_blocks) {
    const auto trips_of = [&](int d, const char* relate) {
      const auto l = static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(a.loop_begin + d)]);
      q.require(one.trip[l] + relate + two.trip[l]);
    };
    const int same_upto = relation < 0 ? common_loops(ir, context_of(a), context_of(c)) : relation;
    for (int d = 0; d < same_upto; ++d) trips_of(d, " = ");
    if (relation >= 0) trips_of(relation, " != ");
  }
  const std::string element = q.variable("element");
  q.require(element + " = " + *i + " and " + element + " = " + *j);
  const set_decision d = decide_integer_set(q.text(), q.dimensions());
  if ((v.answer = answer_of(d, v.why)) != pair_answer::meet) return v;
  v.thread1 = linear_thread(q, one, d.point, facts);
  v.thread2 = linear_thread(q, two, d.point, facts);
  v.element = coordinate_at(q, element, d.point);
  v.trips1 = trips_at(ir, q, one, a, d.point);
  v.trips2 = trips_at(ir, q, two, c, d.point);
  v.possible = q.over_approximated();
  return v;
}

// Whether a guard of access `a` reads a load (data).
inline bool guards_read_data(const dsl::kernel_ir& ir, const dsl::ir_access& a) {
  for (int g = a.guard_begin; g < a.guard_end; ++g)
    if (reads_op(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition, dsl::ir_op::load)) return true;
  return false;
}

// Do two different threads of this launch touch one element through accesses `first` and
// `second` (the same access for W010 on one store), where no barrier orders them? Threads of
// different blocks, then those of one block at each relation of their trips that no barrier
// orders; the first meeting, else undecided if any question was, else apart.
inline pair_verdict global_pair_meeting(const dsl::kernel_ir& ir, const launch_facts& facts, int first, int second,
                                        const std::vector<char>* race_free = nullptr) {
  const context ca = context_of(ir.accesses[static_cast<std::size_t>(first)]);
  const context cc = context_of(ir.accesses[static_cast<std::size_t>(second)]);
  const int common = common_loops(ir, ca, cc);
  pair_verdict undecided;
  bool any_undecided = false;
  for (int relation = different_blocks; relation < common; ++relation) {
    if (relation == -1 && ordered_same_iteration(ir, ca, cc)) continue;
    if (relation >= 0 && ordered_different_iterations(ir, ca, cc, relation)) continue;
    // Without the guards first, where they read data: apart there is apart with them.
    const dsl::ir_access &a = ir.accesses[static_cast<std::size_t>(first)], &c = ir.accesses[static_cast<std::size_t>(second)];
    if (guards_read_data(ir, a) || guards_read_data(ir, c))
      if (global_pair_meeting_at(ir, facts, first, second, relation, race_free, false).answer == pair_answer::apart) continue;
    pair_verdict v = global_pair_meeting_at(ir, facts, first, second, relation, race_free);
    if (v.answer == pair_answer::meet) return v;
    if (v.answer == pair_answer::undecided && !any_undecided) {
      undecided = std::move(v);
      any_undecided = true;
    }
  }
  if (any_undecided) return undecided;
  pair_verdict apart;
  apart.answer = pair_answer::apart;
  return apart;
}

// One run of global access `a` whose element lies outside [0, size), for E101 where the
// intervals cannot keep the index inside.
struct outside_verdict {
  pair_answer answer = pair_answer::undecided;  // apart: every element inside; meet: `element` is outside
  long long element = 0;
  bool possible = false;  // meet: data the index reads was taken as any value it may hold, so `element` may be one no run reaches
  std::string why;
};
// `coordinate`: the expression asked about, the access's index (the default) or, for a 2-D tile,
// its column (then `size` is the tile's columns).
inline outside_verdict element_outside(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& a, long long size,
                                       int coordinate = -1) {
  outside_verdict v;
  presburger_question q(ir, facts);
  presburger_instance one = q.thread("a");
  const std::optional<std::string> i = run_element(ir, facts, q, a, one, "a", v.answer, coordinate);
  if (!i) {
    v.why = q.why_not();
    return v;
  }
  const std::string element = q.variable("element");
  q.require(element + " = " + *i + " and (" + element + " < 0 or " + element + " >= " + std::to_string(size) + ")");
  const set_decision d = decide_integer_set(q.text(), q.dimensions());
  if ((v.answer = answer_of(d, v.why)) == pair_answer::meet) {
    v.element = coordinate_at(q, element, d.point);
    // The element farthest out on the side the point found lies: the fix's "at least N elements"
    // must cover every element reached, not the one a sample happened to give.
    const int at = q.dimension_of(element);
    if (at >= 0)
      if (const std::optional<long long> far = extreme_of_dimension(q.text(), static_cast<std::size_t>(at), v.element >= size))
        if ((*far >= size) == (v.element >= size)) v.element = *far;
  }
  v.possible = q.over_approximated();
  return v;
}

}  // namespace launch_impl

}  // namespace warden::check
