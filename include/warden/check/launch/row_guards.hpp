#pragma once
// The pieces of E106's checked fixes (issue 57, item 1; check_launch.hpp,
// checked_obligation_fixes): the guards a flattened index asks for, and the elements a store
// writes in one launch.
//
// A 2-D index flattened by hand, `out[y * width + x]`, keeps the rows apart only while x stays
// below width: a grid that overshoots the image in x lets thread (width + 5, y) store the element
// of thread (5, y + 1). The guard that fixes it is `x < width`, one coordinate below the
// coefficient of another: for each term of the index that is a global id alone, and each term
// that is another global id times a factor the launch fixes, `id < factor` is a candidate. The
// launch then checks each candidate as it checks the kernel, and its footprint: a guard that keeps
// the race away by storing fewer elements (the last column of a pitched copy, every element when
// the guard fails for this launch) is not a fix.
#include <optional>
#include <string>
#include <vector>

#include "../../dsl/ir.hpp"
#include "integer_set.hpp"
#include "presburger.hpp"

namespace warden::check::launch_impl {

// A candidate guard `below < limit` (expression ids), and with it, where `other` is set, the other
// coordinate below a value parameter of the kernel's (`y < height`: the image's rows), for a grid
// that overshoots the image in both dimensions.
struct row_guard {
  int below = -1, limit = -1;
  int other = -1;        // the other term's global id (an expression id), or -1
  int other_param = -1;  // the value parameter it stays below
};

namespace row_guard_detail {

// Whether expression `id` reads a thread's or block's coordinate (so it is not a launch-fixed factor).
inline bool reads_coordinates(const dsl::kernel_ir& ir, int id) {
  if (id < 0) return false;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  switch (e.op) {
    case dsl::ir_op::thread_id:
    case dsl::ir_op::block_id:
    case dsl::ir_op::global_id:
    case dsl::ir_op::loop_var:
    case dsl::ir_op::local_var:
    case dsl::ir_op::load:
    case dsl::ir_op::tile_load:
    case dsl::ir_op::call: return true;
    default: return reads_coordinates(ir, e.a) || reads_coordinates(ir, e.b);
  }
}

// The terms of a sum (an add chain), outermost first.
inline void terms_of(const dsl::kernel_ir& ir, int id, std::vector<int>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::add && !e.is_float) {
    terms_of(ir, e.a, out);
    terms_of(ir, e.b, out);
    return;
  }
  out.push_back(id);
}

}  // namespace row_guard_detail

// The candidate guards of index `index`: each global id alone in the sum, below the factor of
// another global id's term (`y * width`, or `width * y`).
inline std::vector<row_guard> row_guards_of(const dsl::kernel_ir& ir, int index) {
  using namespace row_guard_detail;
  std::vector<int> terms;
  terms_of(ir, index, terms);
  std::vector<row_guard> out;
  for (const int alone : terms) {
    const dsl::ir_expr& x = ir.exprs[static_cast<std::size_t>(alone)];
    if (x.op != dsl::ir_op::global_id) continue;
    for (const int scaled : terms) {
      const dsl::ir_expr& m = ir.exprs[static_cast<std::size_t>(scaled)];
      if (m.op != dsl::ir_op::mul || m.is_float) continue;
      for (const auto& [id, factor] : {std::pair{m.a, m.b}, std::pair{m.b, m.a}}) {
        const dsl::ir_expr& y = ir.exprs[static_cast<std::size_t>(id)];
        if (y.op == dsl::ir_op::global_id && y.value != x.value && !reads_coordinates(ir, factor)) out.push_back({alone, factor, id, -1});
      }
    }
  }
  return out;
}

// The elements of its buffer (0 to its size) that global access `access` reaches in this launch,
// as a set over [element]: what it reaches past either end is no element of the buffer (E101
// refuses that), so no guard drops it. Nullopt
// where the set cannot be written exactly (a guard or bound it cannot express: it would then hold
// more than the access reaches, and a comparison of footprints would prove nothing).
inline std::optional<std::string> reached_elements(const dsl::kernel_ir& ir, const launch_facts& facts, int access) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(access)];
  if (a.memory != dsl::memory_kind::global || a.column >= 0) return std::nullopt;
  presburger_question q(ir, facts);
  presburger_instance in = q.thread("a");
  const std::string element = q.variable("element");
  if (!q.enter_loops(a, in, "a")) return std::nullopt;
  if (!q.enter_guards(a.guard_begin, a.guard_end, in)) return "{ [" + element + "] : 1 = 0 }";
  const std::optional<std::string> index = q.term(a.index, in);
  if (!index) return std::nullopt;
  q.require(element + " = " + *index);
  q.require(element + " >= 0");
  if (a.target >= 0 && static_cast<std::size_t>(a.target) < facts.sizes.size())
    q.require(element + " < " + std::to_string(facts.sizes[static_cast<std::size_t>(a.target)]));
  if (q.over_approximated()) return std::nullopt;
  return q.text_keeping({element});
}

// An element store `access` reaches in `before` that it no longer reaches in `after` (a guard
// added there), or -1 where it reaches every one; nullopt where that cannot be decided.
inline std::optional<long long> element_dropped(const dsl::kernel_ir& before, const dsl::kernel_ir& after, const launch_facts& facts,
                                                int access) {
  const std::optional<std::string> was = reached_elements(before, facts, access), is = reached_elements(after, facts, access);
  if (!was || !is) return std::nullopt;
  const set_decision d = decide_set_difference(*was, {*is}, 1);
  if (d.answer == set_answer::empty) return -1;
  if (d.answer == set_answer::has_point && !d.point.empty()) return d.point[0];
  return std::nullopt;
}

}  // namespace warden::check::launch_impl
