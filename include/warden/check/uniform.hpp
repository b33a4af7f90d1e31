#pragma once
// Uniformity: which values every thread of a block shares. A barrier may only sit under uniform
// conditions and in loops with uniform bounds (W030).

#include "affine.hpp"

namespace warden::check {

// Is the expression the same in every thread of a block (block ids, parameters, constants, and
// variables of loops whose bounds are themselves uniform)?
constexpr bool uniform(const ir_builder& ir, scope s, int id) {
  if (id < 0) return true;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  switch (e.op) {
    case ir_op::thread_id: case ir_op::global_id:
    case ir_op::load: case ir_op::tile_load: case ir_op::call: return false;
    case ir_op::local_var: {
      // A local never assigned after its declaration holds its initial value: uniform when that
      // is (every declaration at this level must be, as the variable does not name which one).
      bool any = false;
      for (const auto& local : ir.locals) {
        if (local.level != e.value) continue;
        any = true;
        if (local.assigned || !uniform(ir, scope{local.loop_begin, local.loop_end}, local.init)) return false;
      }
      return any;
    }
    case ir_op::loop_var: {
      int position = 0;
      const int l = loop_of(ir, s, static_cast<int>(e.value), &position);
      if (l < 0) return false;
      const auto& loop = ir.loops[static_cast<std::size_t>(l)];
      const scope outer{s.loop_begin, position};
      return !loop.grid_stride && uniform(ir, outer, loop.lo) && uniform(ir, outer, loop.hi) && uniform(ir, outer, loop.step);
    }
    default: return uniform(ir, s, e.a) && uniform(ir, s, e.b);
  }
}

}  // namespace warden::check
