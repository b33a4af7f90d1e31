#pragma once
// E106 for a kernel whose tiles the checker left to the launch (dsl/obligation.hpp,
// shared_at_launch): the tile rules decided with this launch's numbers (shared_tiles.hpp), in
// the kernel's names.

#include <string>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../affine.hpp"
#include "../tile_listing.hpp"
#include "global_pairs.hpp"
#include "shared_tiles.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "launch_values.hpp"

namespace warden::check {

// "store tile0[t + r]": a tile access as the kernel writes it (E106 messages, and tests that hold
// the pair a message names to the run: tests/support/verdict_probe.hpp).
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string tile_access_text(const dsl::kernel_ir& ir, const launch_names& names, const dsl::ir_access& x) {
  const char* verbs[] = {"load", "store", "atomic update"};
  const std::string at = x.column >= 0 ? "(" + render(ir, x.index, names) + ", " + render(ir, x.column, names) + ")"
                                        : "[" + render(ir, x.index, names) + "]";
  return std::string(verbs[static_cast<int>(x.kind)]) + " " + names.tile(x.target) + at;
}
}  // inline namespace WARDEN_RUNTIME_ABI

namespace launch_impl {
// "stride = 3, n = 64": the values the two accesses' footprints read.
inline std::string values_of_pair(const dsl::kernel_ir& ir, const dsl::ir_access& a, const dsl::ir_access& c,
                                  const launch_facts& facts, const launch_names& names) {
  std::vector<std::size_t> params;
  auto read = [&](int id) { parameters_read(ir, id, dsl::ir_op::param_value, params); };
  for (const dsl::ir_access* x : {&a, &c}) {
    read(x->index);
    read(x->column);
    for (int g = x->guard_begin; g < x->guard_end; ++g) read(ir.guard_pool[static_cast<std::size_t>(g)].condition);
    for (int p = x->loop_begin; p < x->loop_end; ++p) {
      const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
      read(loop.lo);
      read(loop.hi);
      read(loop.step);
    }
  }
  std::string out;
  for (std::size_t p : params) out += (out.empty() ? "" : ", ") + names[p] + " = " + value_text(facts, p);
  return out;
}
using check::tile_access_text;
}  // namespace launch_impl

// "thread 3 of block 0 (k = 2)": a thread of a tile witness, with its trips.
inline std::string tile_thread_text(const dsl::kernel_ir& ir, const launch_names& names, const launch_facts& facts, long long thread,
                                    const std::vector<launch_impl::loop_trip>& trips) {
  std::string s = launch_impl::thread_name(thread, facts);
  std::string at;
  for (const launch_impl::loop_trip& t : trips)
    at += (at.empty() ? " (" : ", ") + names.loop(ir, ir.loops[static_cast<std::size_t>(t.loop)]) + " = " + std::to_string(t.value);
  return s + (at.empty() ? at : at + ")");
}

// The tile rules by the block's listing (tile_listing.hpp) with the launch's numbers written in:
// the fallback for what the solver cannot decide.
inline std::string listed_shared_race(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names, block_shape shape) {
  const finding f = check_shared_listing(ir, shape, 0, nullptr);
  if (!f) return {};
  auto text = [&](const dsl::ir_access& x) { return launch_impl::tile_access_text(ir, names, x); };
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(f.first)];
  if (f.code == diagnostic::code::W022) {
    const std::string values = launch_impl::values_of_pair(ir, a, a, facts, names);
    return "the checker left the tiles to the launch (their indices read the launch's numbers), and for this launch" +
           (values.empty() ? std::string() : " (" + values + ")") + " W022: " + text(a) + " reads element " +
           std::to_string(f.element) + " in thread " + std::to_string(f.thread1) +
           ", which no store can precede: store the element before the barrier that precedes the load";
  }
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(f.second)];
  const std::string values = launch_impl::values_of_pair(ir, a, c, facts, names);
  const std::string where = f.element >= 0 ? " at element " + std::to_string(f.element) : std::string(" at an element the listing cannot name");
  const std::string when = f.code == diagnostic::code::W021 ? " in consecutive iterations of a loop with barriers" : " in one barrier phase";
  return "the checker left " + std::string(diagnostic::to_string(f.code)) + " on the tiles to the launch (their indices read the launch's numbers), and for this launch" +
         (values.empty() ? std::string() : " (" + values + ")") + " threads " + std::to_string(f.thread1) + " and " +
         std::to_string(f.thread2) + " of a block meet" + where + when + ": " + text(a) + " and " + text(c) +
         " (w::obligations_of lists this condition): launch with other values, or order the two accesses with sync()";
}

// Two threads of a block that meet on a tile in one barrier phase for this launch, or a load of
// a tile element no store precedes (W022), described for an E106 message; empty if none. Every
// tile rule is judged (W020, W021, W040 and W022): the checker hands the tiles over when a store's
// index reads a launch number, and its listing then counts such a store as covering every
// element, so W022 was judged at compile time only against what it could not place. Decided as
// integer sets (shared_tiles.hpp), not by listing.
inline std::string first_shared_race(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names) {
  const launch_numbers numbers = launch_impl::numbers_of(facts);
  block_shape shape{facts.block.x, facts.block.y, facts.block.z};
  shape.grid_dims = grid_dims_of(ir);
  shape.numbers = &numbers;
  std::string why;
  const launch_impl::tile_finding f = launch_impl::first_tile_finding(ir, facts, shape, why);
  if (!f) return {};
  // What the solver cannot decide (isl's budget, an index it cannot write), the block's listing
  // does, as it did before issue 54: its cost grows with the block and the loops' trips, never
  // with the grid, and it evaluates what the solver cannot write (a mask by a loop's power of two).
  if (f.code == diagnostic::code::E106 || f.unplaced) return listed_shared_race(ir, facts, names, shape);
  auto text = [&](const dsl::ir_access& x) { return launch_impl::tile_access_text(ir, names, x); };
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(f.first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(f.second >= 0 ? f.second : f.first)];
  const std::string values = launch_impl::values_of_pair(ir, a, c, facts, names);
  const std::string with = values.empty() ? std::string() : " (" + values + ")";
  const std::string possibly = f.possible ? " (a guard, bound or index that reads data is taken to reach it)" : "";
  if (f.code == diagnostic::code::W022)
    return "the checker left the tiles to the launch (their indices read the launch's numbers), and for this launch" + with +
           " W022: " + text(a) + " reads element " + std::to_string(f.element) + " in " +
           tile_thread_text(ir, names, facts, f.thread1, f.trips1) + possibly +
           ", which no store can precede: store the element before the barrier that precedes the load";
  const std::string where = f.element >= 0 ? " at element " + std::to_string(f.element) : std::string(" at an element the launch cannot name (an index reads data)");
  const std::string when = f.code == diagnostic::code::W021
                               ? " in consecutive iterations of the loop over " + names.loop(ir, ir.loops[static_cast<std::size_t>(f.loop)])
                               : std::string(" in one barrier phase");
  return "the checker left " + std::string(diagnostic::to_string(f.code)) +
         " on the tiles to the launch (their indices read the launch's numbers), and for this launch" + with + " " +
         tile_thread_text(ir, names, facts, f.thread1, f.trips1) + " and " + tile_thread_text(ir, names, facts, f.thread2, f.trips2) +
         " meet" + where + when + possibly + ": " + text(a) + " and " + text(c) +
         " (w::obligations_of lists this condition): launch with other values, or order the two accesses with sync()";
}

}  // namespace warden::check
