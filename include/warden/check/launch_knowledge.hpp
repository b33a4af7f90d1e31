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

// `block_ids_fixed`: block and global ids count as known here (a listing of block 0 alone).
constexpr launch_knowledge launch_known(const kernel_ir& ir, int id, bool block_ids_fixed = false) {
  if (id < 0) return known_here;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  if (const int held = ir.held_value(e); held >= 0) return launch_known(ir, held, block_ids_fixed);  // a local: its value here
  if (block_ids_fixed && (e.op == ir_op::block_id || e.op == ir_op::global_id)) return known_here;
  if (e.is_float) return known_never;
  switch (e.op) {
    case ir_op::constant: case ir_op::thread_id: case ir_op::block_dim: case ir_op::loop_var:
    case ir_op::contents_distinct:  // a stated fact: true in every launch that runs (E107)
    case ir_op::contents_sorted: case ir_op::contents_non_decreasing: case ir_op::contents_within:
      return known_here;
    case ir_op::param_value: case ir_op::param_size: case ir_op::grid_dim: return known_at_launch;
    case ir_op::block_id: case ir_op::global_id: case ir_op::load: case ir_op::tile_load: case ir_op::local_var:
    case ir_op::call: case ir_op::select: case ir_op::choice: return known_never;
    default: {
      if (e.op < ir_op::add) return known_never;
      const launch_knowledge a = launch_known(ir, e.a, block_ids_fixed), b = launch_known(ir, e.b, block_ids_fixed);
      return a > b ? a : b;
    }
  }
}


// The same for everything an access's footprint reads: index, column, guards, and the bounds of
// the loops around it. A guard that data decides (a compare-and-swap's `a > b`) leaves the listing
// exact enough: it takes the access to run, as a guard it cannot read always is.
constexpr launch_knowledge launch_known(const kernel_ir& ir, const dsl::ir_access& a, bool block_ids_fixed = false) {
  if (a.trusted) return known_never;
  launch_knowledge k = a.column >= 0 ? launch_known(ir, a.column, block_ids_fixed) : known_here;
  auto take = [&](launch_knowledge x) { k = x > k ? x : k; };
  take(launch_known(ir, a.index, block_ids_fixed));
  for (int g = a.guard_begin; g < a.guard_end; ++g) {
    const launch_knowledge guard = launch_known(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition, block_ids_fixed);
    if (guard != known_never) take(guard);
  }
  for (int p = a.loop_begin; p < a.loop_end; ++p) {
    const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
    if (loop.grid_stride) return known_never;
    take(launch_known(ir, loop.lo, block_ids_fixed));
    take(launch_known(ir, loop.hi, block_ids_fixed));
    take(launch_known(ir, loop.step, block_ids_fixed));
  }
  return k;
}

}  // namespace warden::check
