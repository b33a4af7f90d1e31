#pragma once
// w::obligations_of(kernel): the conditions on the launch under which the checker accepted a
// kernel, as text.
#include <string>

#include "check/launch/launch_checks.hpp"
#include "check/rules.hpp"
#include "dsl/program.hpp"

namespace warden {

// The conditions on the launch under which the checker accepted `kernel` (its launch obligations,
// docs/soundness.md), one per line, or "" when it needs none. Launch checks each one before the
// kernel runs and throws obligation_error (E106) when one fails.
template <class K>
std::string obligations_of(const K& kernel) {
  const auto& definition = definition_of(kernel);
  const dsl::kernel_ir ir = definition.describe();
  const check::launch_names names = check::launch_names_from_source(definition.param_names, definition.source, ir);
  std::string out;
  for (int fact : ir.stated) out += "given " + check::render(ir, fact, names) + " (stated; launch checks it, E107)\n";
  for (const check::obligation& o : definition.obligations) {
    if (o.kind == check::obligation_kind::shared_at_launch) {
      out += std::string(diagnostic::to_string(o.protects)) +
             " holds on the tiles if no two threads meet in one barrier phase, listed by launch with its own values\n";
      continue;
    }
    if (o.kind == check::obligation_kind::positive) {
      const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
      const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
      // Pairs of one rendering under one condition (a load and a store of one element, a pair
      // in a loop and one after it) read as one line.
      const std::string line = std::string(diagnostic::to_string(o.protects)) + " holds for " + names[static_cast<std::size_t>(a.target)] +
                               "[" + check::render(ir, a.index, names) + "] and " + names[static_cast<std::size_t>(c.target)] + "[" +
                               check::render(ir, c.index, names) + "] if " + check::render_condition(o, names) +
                               " (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n";
      if (out.find(line) == std::string::npos) out += line;
      continue;
    }
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(o.loop)];
    out += std::string(diagnostic::to_string(o.protects)) + " holds if the loop over " + names.loop(ir, loop) + " from " +
           check::render(ir, loop.lo, names) + " to " + check::render(ir, loop.hi, names) + " runs at most " +
           std::to_string(o.most_trips) + " trips\n";
  }
  for (int p = 0; p < definition.obligations.pair_count; ++p) {
    const dsl::global_pair& pair = definition.obligations.pairs[p];
    const std::string line = std::string(diagnostic::to_string(pair.protects)) + " holds for " +
                             check::pair_text(ir, names, pair.first, pair.second) +
                             " if launch lists both with its own values and no two threads reach one element\n";
    if (out.find(line) == std::string::npos) out += line;
  }
  return out;
}

}  // namespace warden
