#pragma once
// What the launch knows of an expression: fixed by the block alone (known_here), by the launch's
// numbers (known_at_launch), or by neither. The static rules hand a question to the launch by it
// (rules.hpp), and the shared listing names, of the pairs that meet, one whose meeting no launch
// number decides (tile_listing.hpp).

#include "../dsl/ir.hpp"

namespace warden::check {

using dsl::ir_op;
using dsl::kernel_ir;

// What the launch knows of a tile access: everything the listing reads is fixed by the block
// (known_here), some of it only by the launch's numbers (known_at_launch), or some of it by
// neither (block ids, data, locals, selects, a trusted access standing for any element).
enum launch_knowledge : int { known_here = 0, known_at_launch = 1, known_never = 2 };

constexpr launch_knowledge launch_known(const kernel_ir& ir, int id) {
  if (id < 0) return known_here;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (const int held = ir.held_value(e); held >= 0) return launch_known(ir, held);  // a local: its value here
  if (e.is_float) return known_never;
  switch (e.op) {
    case ir_op::constant: case ir_op::thread_id: case ir_op::block_dim: case ir_op::loop_var:
    case ir_op::contents_distinct:  // a stated fact: true in every launch that runs (E107)
      return known_here;
    case ir_op::param_value: case ir_op::param_size: case ir_op::grid_dim: return known_at_launch;
    case ir_op::block_id: case ir_op::global_id: case ir_op::load: case ir_op::tile_load: case ir_op::local_var:
    case ir_op::call: case ir_op::select: case ir_op::choice: return known_never;
    default: {
      if (e.op < ir_op::add) return known_never;
      const launch_knowledge a = launch_known(ir, e.a), b = launch_known(ir, e.b);
      return a > b ? a : b;
    }
  }
}

}  // namespace warden::check
