#pragma once
// E103: run-time loops whose step may be below 1 for this launch.

#include <string>
#include <vector>

#include "../../config.hpp"
#include "../../dsl/ir.hpp"
#include "interval_evaluator.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"

namespace warden::check {

// The first run-time loop whose step may not be positive (it would never end), described for an
// E103 message; empty if none. Grid-stride loops step by the grid's size, always positive.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_bad_step(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names) {
  interval_evaluator evaluator(ir, facts);
  for (const dsl::ir_loop& loop : ir.loops) {
    if (loop.grid_stride) continue;
    const interval step = evaluator.index_interval(loop.step, loop.guard_begin, loop.guard_end);
    if (step.bounded() && step.lo >= 1) continue;
    return "the loop over " + names.loop(ir, loop) + " from " + render(ir, loop.lo, names) + " to " +
           render(ir, loop.hi, names) + " steps by " + render(ir, loop.step, names) +
           (step.bounded() ? ", which may be " + std::to_string(step.lo) : std::string(", which cannot be bounded")) +
           ": a step below 1 never ends the loop. " +
           (step.bounded() ? "Is a step of " + std::to_string(step.lo) + " meant?" : std::string("May the step be below 1?")) +
           " If it means no work, guard the loop, w::when(" + render(ir, loop.step, names) +
           " > 0, ...); if not, pass a step of 1 or more";
  }
  return {};
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
