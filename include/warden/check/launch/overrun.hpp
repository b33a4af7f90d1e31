#pragma once
// E101: accesses that may leave their buffer or tile, and shuffle lanes outside the warp, for this
// launch: the index intervals (interval_evaluator.hpp; a load of a read-only buffer whose contents
// the launch measured ranges over them, launch/contents.hpp), and for a tile index the intervals cannot
// follow, the checker's exact per-thread footprint with the launch's numbers; for a global index
// they cannot keep inside, the runs outside the buffer as an integer set, decided exactly.

#include <string>
#include <string_view>
#include <vector>

#include "../../config.hpp"
#include "../../dsl/ir.hpp"
#include "../footprint.hpp"
#include "global_pairs.hpp"
#include "interval_evaluator.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "launch_values.hpp"

namespace warden::check {

namespace launch_impl {
// The parameters whose measured contents expression `id` reads, directly or through the bounds
// of a loop whose variable it reads (`m_data[e]` with e from row_ptr[r] to row_ptr[r + 1]).
inline void contents_under(const dsl::kernel_ir& ir, const launch_facts& facts, int id, std::vector<char>& loops,
                           std::vector<char>& params) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::load || e.op == dsl::ir_op::tile_load) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(e.value)];
    const auto p = static_cast<std::size_t>(a.target);
    if (e.op == dsl::ir_op::load && p < facts.contents.size() && facts.contents[p]) params[p] = 1;
    contents_under(ir, facts, a.index, loops, params);
    contents_under(ir, facts, a.column, loops, params);
    return;
  }
  if (e.op == dsl::ir_op::loop_var) {
    const auto l = static_cast<std::size_t>(e.value);
    if (l >= loops.size() || loops[l]) return;
    loops[l] = 1;
    const dsl::ir_loop& loop = ir.loops[l];
    contents_under(ir, facts, loop.lo, loops, params);
    contents_under(ir, facts, loop.hi, loops, params);
    contents_under(ir, facts, loop.step, loops, params);
    return;
  }
  contents_under(ir, facts, e.a, loops, params);
  contents_under(ir, facts, e.b, loops, params);
}

// "m_col_index holds 0 to 700 (0 at element 534, 700 at element 12)": a measured range, for E101.
// A buffer the kernel writes: "cur holds 0 to 0 before the launch (...) and may hold 0 to 48 once
// the kernel stores into it" (written_ranges.hpp).
inline std::string contents_text(const std::string& name, const contents_range& c) {
  const long long lo = c.widened ? c.measured_lo : c.lo, hi = c.widened ? c.measured_hi : c.hi;
  std::string text = name + " holds " + std::to_string(lo) + " to " + std::to_string(hi) + (c.widened ? " before the launch" : "") +
                     " (" + std::to_string(lo) + " at element " + std::to_string(c.lo_at) + ", " + std::to_string(hi) + " at element " +
                     std::to_string(c.hi_at) + ")";
  if (c.widened)
    text += " and may hold " + std::to_string(c.lo) + " to " + std::to_string(c.hi) + " once the kernel stores into it";
  return text;
}

// For an E101 message on index `id`: what the launch measured of the contents it reads, and where
// the extremes are, so that the element to mend is named ("; m_col_index holds 0 to 700 (700 at
// element 12)"); empty where the index reads no measured contents.
inline std::string contents_note(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names,
                                 int id) {
  std::vector<char> loops(ir.loops.size(), 0), params(facts.contents.size(), 0);
  contents_under(ir, facts, id, loops, params);
  std::string note;
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (!params[p]) continue;
    note += "; " + contents_text(names[p], *facts.contents[p]);
  }
  return note;
}
// What to change for an index that leaves its buffer or tile: a guard on the index as written, or
// room for the element it reaches ("; guard it, w::when(i + 1 < x.size(), ...), or bind x to at
// least 1025 elements"). `unit`: "elements" for a buffer, "rows" or "columns" for a tile.
// The guard is written as code only where the index reads as the source writes it
// (launch_names.hpp, spelled_as_written); more room is offered only where the index and its guards
// do not read the buffer's own size (`x[x.size() - i]` moves with it): `resizable`.
inline std::string overrun_fix(const std::string& index, long long reached, const std::string& target, std::string_view unit,
                               long long extent, bool resizable = true) {
  const bool buffer = unit == "elements";
  const std::string limit = buffer ? target + ".size()" : std::to_string(extent);
  const std::string guard = !spelled_as_written(index) ? std::string("guard the index against ") + (reached < 0 ? "0" : limit)
                            : reached < 0              ? "guard it, w::when(" + index + " >= 0, ...)"
                                                       : "guard it, w::when(" + index + " < " + limit + ", ...)";
  if (reached < 0 || (buffer && !resizable)) return "; " + guard;
  return "; " + guard + ", or " + (buffer ? "bind " + target + " to" : "give " + target) + " at least " +
         std::to_string(reached + 1) + " " + std::string(unit);
}

// "store tile(r, c): the column reaches 17, outside [0, 17); guard ...": a 2-D tile's column
// outside its row, for E101. `verb`: "reaches" where a thread does, "may reach" where the
// intervals only allow it; `note` follows the range.
inline std::string column_overrun(const char* kind, const std::string& target, const std::string& row, const std::string& column,
                                  std::string_view verb, long long reached, long long cols, std::string_view note = {}) {
  return std::string(kind) + " " + target + "(" + row + ", " + column + "): the column " + std::string(verb) + " " +
         std::to_string(reached) + ", outside [0, " + std::to_string(cols) + ")" + std::string(note) +
         overrun_fix(column, reached, target, "columns", cols);
}

// Whether a larger buffer would move access `a`'s reach with it: its index or a guard reads the
// buffer's size.
inline bool moves_with_size(const dsl::kernel_ir& ir, const dsl::ir_access& a) {
  if (reads_op(ir, a.index, dsl::ir_op::param_size, a.target)) return true;
  for (int g = a.guard_begin; g < a.guard_end; ++g)
    if (reads_op(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition, dsl::ir_op::param_size, a.target)) return true;
  return false;
}
}  // namespace launch_impl

// The first access that may leave its buffer or tile, described for an E101 message; empty if none.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_overrun(const dsl::kernel_ir& ir, const launch_facts& facts,
                                 const launch_names& names, const std::vector<std::string>& kinds, overrun_site* site) {
  overrun_site ignored;
  overrun_site& at = site != nullptr ? *site : ignored;
  interval_evaluator evaluator(ir, facts);
  const launch_numbers numbers = launch_impl::numbers_of(facts);
  const char* verbs[] = {"load", "store", "atomic update"};
  for (const dsl::ir_access& a : ir.accesses) {
    at = {static_cast<int>(&a - ir.accesses.data()), false, 0};
    // Guards that no thread passes for this launch (they narrow some value to nothing): the
    // access never runs, and its index intervals, computed from empty ones, mean nothing.
    if (!evaluator.may_run(a.guard_begin, a.guard_end)) continue;
    bool in_empty_loop = false;
    for (int p = a.loop_begin; p < a.loop_end && !in_empty_loop; ++p)
      in_empty_loop = evaluator.never_runs(ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])]);
    if (in_empty_loop) continue;
    // An access through a buffer stated distinct (`y[p[e]]`, recorded at e) reaches what p holds;
    // p[e] itself is a load of its own, bounded as every other.
    if (a.permuted_by >= 0) {
      const auto p = static_cast<std::size_t>(a.permuted_by), t = static_cast<std::size_t>(a.target);
      const std::string text = names[t] + "[" + names[p] + "[" + render(ir, a.index, names) + "]]";
      if (p >= facts.contents.size() || !facts.contents[p])
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + ": " + names[p] +
               " was not measured, so its elements cannot bound the index (empty, being captured into a graph, or "
               "elements long long cannot hold)";
      const contents_range& c = *facts.contents[p];
      if (c.lo < 0 || c.hi >= facts.sizes[t])
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " may reach index " +
               std::to_string(c.lo < 0 ? c.lo : c.hi) + ", but " + names[t] + " (parameter " + std::to_string(a.target) + ", " +
               kinds[t] + ") has " + std::to_string(facts.sizes[t]) + " elements; " + launch_impl::contents_text(names[p], c);
      continue;
    }
    const interval index = evaluator.index_interval(a.index, a.guard_begin, a.guard_end);
    long long size = 0;
    std::string target;
    if (a.memory == dsl::memory_kind::global) {
      size = facts.sizes[static_cast<std::size_t>(a.target)];
      target = names[static_cast<std::size_t>(a.target)];
    } else {
      if (const dsl::ir_tile* t = tile_of(ir, a.target)) size = t->rows;
      target = names.tile(a.target);
    }
    const std::string text = target + "[" + render(ir, a.index, names) + "]";
    // A tile index the intervals cannot follow (`t ^ j`, `(1 << d) * (2 * t + 2) - 1`) usually
    // depends only on the thread and static loops: then the checker's per-thread footprint gives
    // its exact range. Only computed when the intervals fail, so other launches do not pay for it.
    if (a.memory == dsl::memory_kind::shared && (!index.bounded() || index.lo < 0 || index.hi >= size)) {
      block_shape shape{facts.block.x, facts.block.y, facts.block.z};
      shape.numbers = &numbers;  // the launch's values written in (`t & (stride - 1)` with stride known)
      const footprint exact = footprint_of(ir, shape, a);
      if (exact.all_known) {
        const long long cols = tile_of(ir, a.target) != nullptr ? tile_of(ir, a.target)->cols : 0;
        const bool never = exact.row_lo > exact.row_hi;  // no thread runs it
        if (!never && (exact.row_lo < 0 || exact.row_hi >= size))
          return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " reaches index " +
                 std::to_string(exact.row_lo < 0 ? exact.row_lo : exact.row_hi) + ", but " + target + " has " +
                 std::to_string(size) + " rows" +
                 launch_impl::overrun_fix(render(ir, a.index, names), at.reached = exact.row_lo < 0 ? exact.row_lo : exact.row_hi, target, "rows", size);
        if (!never && a.column >= 0 && (exact.col_lo < 0 || exact.col_hi >= cols))
          return launch_impl::column_overrun(verbs[static_cast<int>(a.kind)], target, render(ir, a.index, names), render(ir, a.column, names),
                                             "reaches", (at.column = true, at.reached = exact.col_lo < 0 ? exact.col_lo : exact.col_hi), cols);
        continue;
      }
    }
    // A tile row the footprint cannot follow either (it reads data, a block id, a loop of unknown
    // trips): decided as an integer set, as a global index is below.
    bool rows_inside = false;
    if (a.memory == dsl::memory_kind::shared && (!index.bounded() || index.lo < 0 || index.hi >= size)) {
      const launch_impl::outside_verdict v = launch_impl::element_outside(ir, facts, a, size);
      if (v.answer == launch_impl::pair_answer::apart) {
        if (a.column < 0) continue;
        rows_inside = true;
      } else if (v.answer == launch_impl::pair_answer::meet && !(v.possible && index.bounded())) {
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + (v.possible ? " may reach index " : " reaches index ") +
               std::to_string(v.element) + ", but " + target + " has " + std::to_string(size) + " rows" +
               (v.possible ? " (data it reads taken as any value its type or measured contents allow)" : "") +
               launch_impl::overrun_fix(render(ir, a.index, names), at.reached = v.element, target, "rows", size);
      }
    }
    // A global index the intervals cannot keep inside (`(last - offset) * n + first`, two terms
    // that move together) is decided exactly with the launch's numbers (launch/global_pairs.hpp:
    // an integer set of the runs whose element is outside): refused only where one reaches
    // outside, at an element it reaches.
    if (a.memory == dsl::memory_kind::global && (!index.bounded() || index.lo < 0 || index.hi >= size)) {
      const launch_impl::outside_verdict v = launch_impl::element_outside(ir, facts, a, size);
      if (v.answer == launch_impl::pair_answer::apart) continue;
      // A meeting that rests on data taken as any value: the intervals' message where they bound
      // the index (it names what the launch measured), else the solver's element.
      if (v.answer == launch_impl::pair_answer::meet && !(v.possible && index.bounded()))
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + (v.possible ? " may reach index " : " reaches index ") +
               std::to_string(v.element) + ", but " + target + " (parameter " + std::to_string(a.target) + ", " +
               kinds[static_cast<std::size_t>(a.target)] + ") has " + std::to_string(size) + " elements" +
               (v.possible ? " (data it reads taken as any value its type or measured contents allow)" : "") +
               launch_impl::overrun_fix(render(ir, a.index, names), at.reached = v.element, target, "elements", size,
                                        !launch_impl::moves_with_size(ir, a));
    }
    if (!rows_inside && !index.bounded() && ir.exprs[static_cast<std::size_t>(a.index)].is_float)
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text +
             ": the index is computed in floating point, which launch does not bound (its guards compare "
             "reals, its conversion truncates); compute the index in integers";
    if (const auto wide = evaluator.unsigned_range(a.index); !rows_inside && !index.bounded() && wide) {  // past LLONG_MAX on the way
      if (a.column < 0 && wide->second < static_cast<unsigned long long>(size)) continue;  // `a[p - q]`, both above 2^63
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " may reach index " + std::to_string(wide->second) +
             " (" + launch_impl::values_read(ir, a.index, facts, names) + "), but " + target + " (parameter " +
             std::to_string(a.target) + ", " + kinds[static_cast<std::size_t>(a.target)] + ") has " + std::to_string(size) +
             " elements";
    }
    if (!rows_inside && !index.bounded())
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text +
             ": the index cannot be bounded (it depends on loaded data, a thread-private variable or a "
             "function); clamp it (min, %, &) or guard it with when(index < " + target + ".size(), ...)";
    if (!rows_inside && (index.lo < 0 || index.hi >= size)) {
      std::string where = a.memory == dsl::memory_kind::global
                              ? ", but " + target + " (parameter " + std::to_string(a.target) + ", " +
                                    kinds[static_cast<std::size_t>(a.target)] + ") has " + std::to_string(size) + " elements"
                              : ", but " + target + " has " + std::to_string(size) + " rows";
      const long long reached = at.reached = index.lo < 0 ? index.lo : index.hi;
      return std::string(verbs[static_cast<int>(a.kind)]) + " " + text + " may reach index " + std::to_string(reached) + where +
             launch_impl::contents_note(ir, facts, names, a.index) +
             launch_impl::overrun_fix(render(ir, a.index, names), reached, target,
                                      a.memory == dsl::memory_kind::global ? "elements" : "rows", size,
                                      a.memory != dsl::memory_kind::global || !launch_impl::moves_with_size(ir, a));
    }
    if (a.column >= 0) {  // 2-D tile: the column stays inside a row
      const interval column = evaluator.index_interval(a.column, a.guard_begin, a.guard_end);
      const long long cols = tile_of(ir, a.target) != nullptr ? tile_of(ir, a.target)->cols : 0;
      // A column the intervals cannot keep inside, because a guard ties it to a loop
      // (`tx + 16 - m` under `tx <= m`, a wavefront), decided as the row is: the exact
      // per-thread footprint, then the integer set of the runs whose column is outside.
      if (!column.bounded() || column.lo < 0 || column.hi >= cols) {
        block_shape shape{facts.block.x, facts.block.y, facts.block.z};
        shape.numbers = &numbers;
        const footprint exact = footprint_of(ir, shape, a);
        const std::string row = render(ir, a.index, names), col = render(ir, a.column, names);
        if (exact.all_known) {
          if (exact.row_lo > exact.row_hi || (exact.col_lo >= 0 && exact.col_hi < cols)) continue;
          return launch_impl::column_overrun(verbs[static_cast<int>(a.kind)], target, row, col, "reaches",
                                             (at.column = true, at.reached = exact.col_lo < 0 ? exact.col_lo : exact.col_hi), cols);
        }
        const launch_impl::outside_verdict v = launch_impl::element_outside(ir, facts, a, cols, a.column);
        if (v.answer == launch_impl::pair_answer::apart) continue;
        if (v.answer == launch_impl::pair_answer::meet && !(v.possible && column.bounded()))
          return launch_impl::column_overrun(verbs[static_cast<int>(a.kind)], target, row, col, v.possible ? "may reach" : "reaches",
                                             (at.column = true, at.reached = v.element), cols,
                                             v.possible ? " (data it reads taken as any value its type or measured contents allow)" : "");
      }
      if (column.bounded() && (column.lo < 0 || column.hi >= cols))
        return launch_impl::column_overrun(verbs[static_cast<int>(a.kind)], target, render(ir, a.index, names), render(ir, a.column, names),
                                           "may reach", (at.column = true, at.reached = column.lo < 0 ? column.lo : column.hi), cols);
      if (!column.bounded())
        return std::string(verbs[static_cast<int>(a.kind)]) + " " + target + "(" + render(ir, a.index, names) + ", " +
               render(ir, a.column, names) + "): the column may leave [0, " + std::to_string(cols) + ")";
    }
  }
  at = {};
  // A shuffle's lane operand (delta, mask or lane) must name a lane of the warp.
  for (const dsl::ir_shuffle& s : ir.shuffles) {
    const interval lane = evaluator.index_interval(s.lane, s.guard_begin, s.guard_end);
    if (!lane.bounded() || lane.lo < 0 || lane.hi >= dsl::warp_lanes)
      return std::string(dsl::name_of(s.kind)) + " lane operand " + render(ir, s.lane, names) +
             (lane.bounded() ? " may reach " + std::to_string(lane.lo < 0 ? lane.lo : lane.hi) : std::string(" cannot be bounded")) +
             ", outside the warp's lanes [0, 32)";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
