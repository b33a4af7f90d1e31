#pragma once
// Which buffers' contents a launch measures: the read-only buffers of integers whose scalar loads
// feed an index, a tile column, a loop bound or step, or a shuffle lane (`x[col[e]]`, `for e in
// [row_ptr[r], row_ptr[r + 1])`), or that a stated fact is about (given(distinct(p), ...), sorted,
// non_decreasing, within, permutation). Only those decide bounds and facts, so only those are read
// at launch (launch/contents.hpp); the interval analysis gives each of their loads the range the
// launch found (interval_evaluator.hpp), and the stated facts read whether two elements are equal,
// where the elements stop rising, and the least and greatest (stated_facts.hpp).

#include <cstddef>
#include <vector>

#include "../../dsl/ir.hpp"

namespace warden::check {

// What a launch measures of a parameter's contents (bits of contents_read_by_indices' entries).
enum contents_wanted : char {
  contents_range_wanted = 1,     // the least and greatest element: an index reads its loads
  contents_distinct_wanted = 2,  // whether two elements are equal: a stated fact, distinct(x)
  contents_order_wanted = 4,     // where the elements stop rising: sorted(x), non_decreasing(x) (rows
                                 // and bound: check::stated_orders, for each launch)
};

namespace launch_impl {
inline void mark_loads_under(const dsl::kernel_ir& ir, int id, std::vector<char>& marked, int local_depth = 0) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::load) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(e.value)];
    if (a.memory == dsl::memory_kind::global && a.vector_bytes == 0 && !e.is_float &&
        static_cast<std::size_t>(a.target) < marked.size())
      marked[static_cast<std::size_t>(a.target)] |= contents_range_wanted;
    mark_loads_under(ir, a.index, marked, local_depth);  // x[col[row_ptr[r]]]: row_ptr too
    return;
  }
  if (e.op == dsl::ir_op::tile_load) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(e.value)];
    mark_loads_under(ir, a.index, marked, local_depth);
    mark_loads_under(ir, a.column, marked, local_depth);
    return;
  }
  // A local that holds its init's value (never assigned, of the init's type): the intervals read
  // the init through it (interval_evaluator.hpp), so its loads are measured as if written there,
  // as deep as the intervals read (past that the local is unknown there, and nothing is needed).
  if (e.op == dsl::ir_op::local_var) {
    if (const int init = ir.held_value(e); init >= 0 && local_depth < dsl::max_local_read_depth)
      mark_loads_under(ir, init, marked, local_depth + 1);
    return;
  }
  mark_loads_under(ir, e.a, marked, local_depth);
  mark_loads_under(ir, e.b, marked, local_depth);
}
}  // namespace launch_impl

namespace launch_impl {
inline void mark_stated_facts(const dsl::kernel_ir& ir, int id, std::vector<char>& marked) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  const auto p = static_cast<std::size_t>(e.value);
  if (e.op == dsl::ir_op::contents_distinct) {
    if (p < marked.size()) marked[p] |= contents_distinct_wanted;
    return;
  }
  if (e.op == dsl::ir_op::contents_sorted || e.op == dsl::ir_op::contents_non_decreasing) {
    if (p < marked.size()) marked[p] |= contents_order_wanted;
    return;
  }
  if (e.op == dsl::ir_op::contents_within && p < marked.size()) marked[p] |= contents_range_wanted;
  mark_stated_facts(ir, e.a, marked);
  mark_stated_facts(ir, e.b, marked);
}
}  // namespace launch_impl

// By parameter position (arity entries): contents_range_wanted where an index, column, loop bound
// or step, or shuffle lane reads a scalar integral load of that parameter, or an access goes
// through it (dsl::ir_access::permuted_by), or a stated fact reads within(it, lo, hi);
// contents_order_wanted where one reads sorted(it) or non_decreasing(it); contents_distinct_wanted where a stated fact reads
// distinct(it); and contents_range_wanted for the loads in what the kernel stores into a buffer
// marked so. A writable buffer is measured as it is before the kernel runs, and the checks widen
// its range by the kernel's stores (written_ranges.hpp).
inline std::vector<char> contents_read_by_indices(const dsl::kernel_ir& ir, std::size_t arity) {
  std::vector<char> marked(arity, 0);
  for (const dsl::ir_access& a : ir.accesses) {
    launch_impl::mark_loads_under(ir, a.index, marked);
    launch_impl::mark_loads_under(ir, a.column, marked);
    if (a.permuted_by >= 0 && static_cast<std::size_t>(a.permuted_by) < arity)
      marked[static_cast<std::size_t>(a.permuted_by)] |= contents_range_wanted;
  }
  for (int fact : ir.stated) launch_impl::mark_stated_facts(ir, fact, marked);
  for (const dsl::ir_loop& l : ir.loops) {
    launch_impl::mark_loads_under(ir, l.lo, marked);
    launch_impl::mark_loads_under(ir, l.hi, marked);
    launch_impl::mark_loads_under(ir, l.step, marked);
  }
  for (const dsl::ir_shuffle& s : ir.shuffles) launch_impl::mark_loads_under(ir, s.lane, marked);
  // A buffer the kernel writes whose loads an index reads is bounded by what it holds and what is
  // stored into it (written_ranges.hpp): the loads those stored values read are measured too,
  // as far as such stores chain.
  for (bool more = true; more;) {
    more = false;
    for (const dsl::ir_access& a : ir.accesses) {
      const auto p = static_cast<std::size_t>(a.target);
      if (a.memory != dsl::memory_kind::global || a.kind != dsl::access_kind::store || a.value < 0 || p >= arity ||
          (marked[p] & contents_range_wanted) == 0)
        continue;
      const std::vector<char> before = marked;
      launch_impl::mark_loads_under(ir, a.value, marked);
      more = more || marked != before;
    }
  }
  return marked;
}

}  // namespace warden::check
