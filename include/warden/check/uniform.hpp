#pragma once
// Uniformity: which values every thread of a block shares. A barrier may only sit under uniform
// conditions and in loops with uniform bounds (W030).

#include "affine.hpp"

namespace warden::check {

constexpr bool uniform(const kernel_ir& ir, scope s, int id);

// Does any access of the kernel, trusted or not, store to or update global parameter `target`?
constexpr bool kernel_writes(const kernel_ir& ir, int target) {
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::global && a.target == target && a.kind != dsl::access_kind::load) return true;
  return false;
}

// Does a load read the same element, holding the same value, in every thread of the block that
// runs it? Its index must be uniform, and no thread may change the element while others read it:
//   * a buffer the kernel never writes holds its launch-time contents throughout (distinct
//     parameters never share a writable buffer: E100);
//   * a tile element read at one point by every thread was last written before the barrier that
//     began the phase, since a store in the same phase by another thread is a race (W020, which
//     the same kernel must pass); so all read the value the block saw at that barrier. This is the
//     broadcast idiom: thread 0 stores a count, sync(), every thread loops to it.
// A trusted load is not: trusted gives up the race rules that the second argument rests on.
constexpr bool uniform_load(const kernel_ir& ir, scope s, const dsl::ir_access& a) {
  if (a.trusted || !uniform(ir, s, a.index) || !uniform(ir, s, a.column)) return false;
  return a.memory == dsl::memory_kind::shared || !kernel_writes(ir, a.target);
}

// Is the expression the same in every thread of a block (block ids, parameters, constants,
// variables of loops whose bounds are themselves uniform, and loads as uniform_load says)?
constexpr bool uniform(const kernel_ir& ir, scope s, int id) {
  if (id < 0) return true;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  switch (e.op) {
    case ir_op::thread_id: case ir_op::global_id: case ir_op::call: return false;
    case ir_op::load: case ir_op::tile_load:
      return uniform_load(ir, s, ir.accesses[static_cast<std::size_t>(e.value)]);
    case ir_op::local_var: {
      // A local never assigned after its declaration holds its initial value: uniform when that is.
      if (e.value < 0 || e.value >= static_cast<long long>(ir.locals.size())) return false;
      const auto& local = ir.locals[static_cast<std::size_t>(e.value)];
      return !local.assigned && uniform(ir, scope{local.loop_begin, local.loop_end}, local.init);
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
