#pragma once
// The tile rules decided exactly for one launch (W020, W021, W040 and W022 on shared memory),
// where the checker left the tiles to the launch because an index read a launch number
// (dsl/obligation.hpp, shared_at_launch). Each question is an integer set with the launch's
// numbers written in (presburger.hpp), asked of isl (integer_set.hpp); nothing is listed, so the
// answer costs the same whatever the loops' lengths, and a block id in an index is a variable, not
// an unknown.
//
// The questions are the ones the compile-time listing asks (tile_listing.hpp), over the same
// pairs, in the same order, with the same reading of what neither can write:
//   * W020 / W021 / W040: two different threads of one block, at trips of the loops around the
//     two accesses that are the same in every common loop (W020, W040) or the same outside common
//     loop d and different in it (W021), whose elements are equal and inside the tile. The pairs
//     a barrier orders (order.hpp) are not asked. An index the solver cannot write (data, a
//     trusted access's) meets every element; a guard it cannot write is taken to hold.
//   * W022: an element of the tile that some thread of a block loads (or updates atomically) and
//     that no thread of that block stores, by a store earlier in the kernel or one later inside a
//     loop around both: the loads' (block, element) set minus the stores'. A store whose index
//     cannot be written covers every element; a load whose index cannot be written is not asked.

#include <optional>
#include <string>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../footprint.hpp"
#include "../order.hpp"
#include "../tile_questions.hpp"
#include "global_pairs.hpp"
#include "integer_set.hpp"
#include "launch_request.hpp"
#include "presburger.hpp"

namespace warden::check::launch_impl {

// The most disjuncts (presburger_question::case_product) a tile question hands isl; past it the
// question is undecided at once rather than after isl's budget (about a second each).
inline constexpr double max_tile_cases = 4096;

// A tile rule broken for this launch: the code, the accesses, and the solver's witness.
struct tile_finding {
  diagnostic::code code = diagnostic::code::none;
  int first = -1, second = -1;  // accesses (W022: the load alone)
  int loop = -1;                // W021: the loop whose consecutive iterations meet
  long long thread1 = -1, thread2 = -1;  // linear global ids (thread_name reads them)
  std::vector<loop_trip> trips1, trips2;
  long long element = -1;  // -1: an index the solver cannot write meets it anywhere
  bool possible = false;   // a guard, bound or index was taken to reach it, so the witness may be one no thread has
  bool unplaced = false;  // pairs: met only through an index the solver cannot write (it meets any element)
  bool stores_widened = false;  // W022: a store's guard or bound was taken to hold, so its elements may be fewer
  explicit operator bool() const { return code != diagnostic::code::none; }
};

// The element one run of tile access `a` reaches in thread `in` (a row-major element of a 2-D
// tile), inside the tile; "" where its index cannot be written (then `element` ranges over the
// tile). False where no thread of this launch runs it.
inline bool enter_tile_access(const dsl::kernel_ir& ir, presburger_question& q, const dsl::ir_access& a, presburger_instance& in,
                              const std::string& tag, const std::string& element, bool forget_index = false) {
  const dsl::ir_tile* tile = tile_of(ir, a.target);
  q.enter_loops(a, in, tag, /*loose=*/true);
  if (!q.enter_guards(a.guard_begin, a.guard_end, in)) return false;
  const long long elements = tile_elements(*tile);
  q.require("0 <= " + element + " < " + std::to_string(elements));
  if (forget_index) return true;
  const std::optional<std::string> row = q.quiet_term(a.index, in);
  if (a.column < 0) {
    if (row) q.require(element + " = " + *row);
    return true;
  }
  const std::optional<std::string> column = q.quiet_term(a.column, in);
  if (!row || !column) return true;
  q.require("0 <= " + *row + " < " + std::to_string(tile->rows) + " and 0 <= " + *column + " < " + std::to_string(tile->cols) +
            " and " + element + " = " + std::to_string(tile->cols + tile->pad) + " * " + *row + " + " + *column);
  return true;
}

// Whether tile access `a`'s index can be written for this launch (so it places its element).
inline bool tile_index_written(const dsl::kernel_ir& ir, const launch_facts& facts, const dsl::ir_access& a) {
  presburger_question q(ir, facts);
  presburger_instance one = q.thread("a");
  q.enter_loops(a, one, "a", true);
  return q.quiet_term(a.index, one) && (a.column < 0 || q.quiet_term(a.column, one));
}

// Two different threads of one block at accesses `first` and `second` of one tile, at trips
// related as `relation` says (-1: the same in every one of the `common` loops; d: the same outside
// common loop d, different in it), at one element. Apart, meet (with the witness) or undecided
// (isl passed its budget).
inline pair_answer tile_pair_meeting(const dsl::kernel_ir& ir, const launch_facts& facts, int first, int second, int common,
                                     int relation, tile_finding& out) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  presburger_question q(ir, facts);
  presburger_instance one = q.thread("a"), two = q.thread("b");
  const std::string x = block_linear_term(one, facts), y = block_linear_term(two, facts);
  if (x == "0") return pair_answer::apart;  // one thread per block
  same_block(q, one, two);
  q.require(first == second ? "(" + x + " < " + y + ")" : "(" + x + " < " + y + " or " + x + " > " + y + ")");
  const std::string element = q.variable("element");
  if (!enter_tile_access(ir, q, a, one, "a", element, a.trusted) || !enter_tile_access(ir, q, c, two, "b", element, c.trusted))
    return pair_answer::apart;
  const context ca = context_of(a);
  const int same_upto = relation < 0 ? common : relation;
  for (int d = 0; d <= same_upto && d < common; ++d) {
    const int l = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + d)];
    const std::string& ta = one.trip[static_cast<std::size_t>(l)];
    const std::string& tc = two.trip[static_cast<std::size_t>(l)];
    q.require(ta + (d < same_upto ? " = " : " != ") + tc);
  }
  // An index that only cases make writable (a mask by a loop's power of two, as a bitonic
  // network's) can give isl more disjuncts than it takes apart in its budget: the caller lists.
  if (q.case_product() > max_tile_cases) return pair_answer::undecided;
  std::string why;
  const set_decision decision = decide_integer_set(q.text(), q.dimensions());
  const pair_answer answer = answer_of(decision, why);
  if (answer != pair_answer::meet) return answer;
  out.thread1 = linear_thread(q, one, decision.point, facts);
  out.thread2 = linear_thread(q, two, decision.point, facts);
  out.trips1 = trips_at(ir, q, one, a, decision.point);
  out.trips2 = trips_at(ir, q, two, c, decision.point);
  out.element = coordinate_at(q, element, decision.point);
  out.possible = q.over_approximated();
  const bool placed_a = !a.trusted && tile_index_written(ir, facts, a), placed_c = !c.trusted && tile_index_written(ir, facts, c);
  if (!placed_a && !placed_c) out.element = -1;  // neither index places it
  out.unplaced = (!a.trusted && !placed_a) || (!c.trusted && !placed_c);
  out.possible = out.possible || out.unplaced;
  return answer;
}

// The names of the variables a W022 question keeps: the block's coordinates and the element.
inline std::vector<std::string> kept_of(const presburger_instance& in, const std::string& element) {
  std::vector<std::string> kept;
  for (int d = 0; d < 3; ++d)
    if (in.block[d] != "0") kept.push_back(in.block[d]);
  kept.push_back(element);
  return kept;
}

// W022 for load `l`: a (block, element) that a thread loads and no store in `stores` reaches in
// that block. Apart: every loaded element is stored; meet: `out` names the load's thread.
inline pair_answer load_not_stored(const dsl::kernel_ir& ir, const launch_facts& facts, int l, const std::vector<int>& stores,
                                   tile_finding& out) {
  const dsl::ir_access& load = ir.accesses[static_cast<std::size_t>(l)];
  presburger_question loads(ir, facts);
  presburger_instance reader = loads.thread("a");
  const std::string element = loads.variable("element");
  if (!enter_tile_access(ir, loads, load, reader, "a", element)) return pair_answer::apart;
  const std::vector<std::string> kept = kept_of(reader, element);
  if (loads.case_product() > max_tile_cases) return pair_answer::undecided;
  std::vector<std::string> stored;
  for (const int s : stores) {
    presburger_question q(ir, facts);
    presburger_instance writer = q.thread("a");  // named as the load's, so that the kept variables line up
    const std::string e = q.variable("element");
    if (!enter_tile_access(ir, q, ir.accesses[static_cast<std::size_t>(s)], writer, "a", e)) continue;
    out.stores_widened = out.stores_widened || q.over_approximated();
    if (q.case_product() > max_tile_cases) return pair_answer::undecided;
    stored.push_back(q.text_keeping(kept));
  }
  std::string why;
  const set_decision uncovered = decide_set_difference(loads.text_keeping(kept), stored, kept.size());
  const pair_answer answer = answer_of(uncovered, why);
  if (answer != pair_answer::meet) return answer;
  // The loading thread and its trips: the load's own set at that block and element.
  for (std::size_t k = 0; k < kept.size(); ++k) loads.require(kept[k] + " = " + std::to_string(uncovered.point[k]));
  const set_decision at = decide_integer_set(loads.text(), loads.dimensions());
  if (at.answer != set_answer::has_point) return pair_answer::undecided;
  out.thread1 = linear_thread(loads, reader, at.point, facts);
  out.trips1 = trips_at(ir, loads, reader, load, at.point);
  out.element = uncovered.point.back();
  out.possible = loads.over_approximated();
  return answer;
}

// The stores that can precede `load` (tile_questions.hpp), or nullopt where one of them has an
// index the solver cannot write (it then covers every element, as the listing reads it).
inline std::optional<std::vector<int>> placed_stores_before(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                            const dsl::ir_access& load) {
  std::vector<int> stores;
  for (int s = 0; s < static_cast<int>(ir.accesses.size()); ++s) {
    const dsl::ir_access& store = ir.accesses[static_cast<std::size_t>(s)];
    if (!store_may_precede(ir, load, store)) continue;
    if (!tile_index_written(ir, facts, store)) return std::nullopt;
    stores.push_back(s);
  }
  return stores;
}

// The first tile rule this launch breaks, in the compile-time listing's order (W022 first, then
// the pairs); undecided, with `why`, where isl passed its budget.
inline tile_finding first_tile_finding(const dsl::kernel_ir& ir, const launch_facts& facts, const block_shape& shape, std::string& why) {
  const int n = static_cast<int>(ir.accesses.size());
  auto undecided = [&](int first, int second) {
    why = "the integer set library passed its budget on the question";
    tile_finding f;
    f.code = diagnostic::code::E106;
    f.first = first;
    f.second = second;
    return f;
  };
  // W022: per tile, each load against the stores that can precede it.
  for (int l = 0; l < n; ++l) {
    const dsl::ir_access& load = ir.accesses[static_cast<std::size_t>(l)];
    if (!tile_load_asked(ir, load) || !tile_index_written(ir, facts, load)) continue;
    const std::optional<std::vector<int>> stores = placed_stores_before(ir, facts, load);
    if (!stores) continue;  // one at an index the solver cannot write: it covers every element
    tile_finding f;
    const pair_answer answer = load_not_stored(ir, facts, l, *stores, f);
    if (answer == pair_answer::undecided) return undecided(l, -1);
    if (answer == pair_answer::apart) continue;
    f.code = diagnostic::code::W022;
    f.first = l;
    return f;
  }
  // W020, W021, W040: the pairs of one tile that no barrier orders.
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
      const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(j)];
      if (!tile_pair_asked(ir, a, c)) continue;
      const context ca = context_of(a), cc = context_of(c);
      const int common = common_loops(ir, ca, cc);
      for (int relation = -1; relation < common; ++relation) {
        if (!tile_relation_asked(ir, shape, ca, cc, relation)) continue;
        tile_finding f;
        const pair_answer answer = tile_pair_meeting(ir, facts, i, j, common, relation, f);
        if (answer == pair_answer::undecided) return undecided(i, j);
        if (answer == pair_answer::apart) continue;
        f.code = tile_pair_code(a, c, relation);
        f.first = i;
        f.second = j;
        if (relation >= 0) f.loop = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + relation)];
        return f;
      }
    }
  return {};
}

}  // namespace warden::check::launch_impl
