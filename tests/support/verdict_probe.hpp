#pragma once
// What the checker says of a kernel body, without failing the build: for tests that put a racy
// kernel and its twin side by side (soundness_test, precision_test).
#include <warden/warden.hpp>

#include <string>

namespace warden::testing {

// The rule the checker reports for `body` as a kernel of Block and Params (code::none: accepted).
template <class Block, class... Params, class Body>
constexpr diagnostic::code code_of(Body body) {
  (void)body;  // its type names it: the analysis is made once per body (check::analysis_on_body)
  return check::analysis_on_body<Block, Body, Params...>::value.finding.code;
}

// True when the checker accepted `body` only by leaving a pair of global accesses to the launch
// (dsl/obligation.hpp, global_at_launch: obligation_list::pairs): what they reach depends on the launch's numbers, and
// launch lists them with its own (E106 where two threads meet).
template <class Block, class... Params, class Body>
constexpr bool left_to_launch(Body body) {
  (void)body;
  const check::finding& f = check::analysis_on_body<Block, Body, Params...>::value.finding;
  return !f && f.obligations.pair_count > 0;
}

// Whether the two accesses the checker names for `body` (its finding's first and second) make a
// conflicting pair in `r`, a recording of the body (or of its trusting() copy, which describes the
// same accesses in the same order): the race the message names is one the run reproduces
// (recording::meets; issue 56, item 4). False for a finding that names no pair.
template <class Block, class... Params, class Body>
bool named_pair_meets(Body body, const recording& r) {
  (void)body;
  const check::finding& f = check::analysis_on_body<Block, Body, Params...>::value.finding;
  return f.first >= 0 && f.second >= 0 && r.meets(f.first, f.second);
}

// Whether the pair an E106 message names, among the pairs the checker left to the launch
// (w::obligations_of), makes a conflicting pair in `r`, a recording of the same body on the same
// launch (its trusting() copy): the race the launch names is one the run reproduces.
template <class K>
bool launch_pair_meets(const K& kernel, const std::string& message, const recording& r) {
  const auto& definition = dsl::definition_of(kernel);
  const dsl::kernel_ir ir = definition.describe();
  const check::launch_names names = check::launch_names_from_source(definition.param_names, definition.source, ir);
  for (int p = 0; p < definition.obligations.pair_count; ++p) {
    const dsl::global_pair& o = definition.obligations.pairs[p];
    if (message.find(check::pair_text(ir, names, o.first, o.second) + ":") != std::string::npos) return r.meets(o.first, o.second);
  }
  return false;
}

// The same for a race on the tiles that an E106 message names (launch/shared_races.hpp: "...: load
// tile[i] and store tile[j] (w::obligations_of ..."): a pair of tile accesses whose text the
// message gives makes a conflicting pair in `r`, a w::record_anyway of the same launch.
template <class K>
bool launch_tile_pair_meets(const K& kernel, const std::string& message, const recording& r) {
  const auto& definition = dsl::definition_of(kernel);
  const dsl::kernel_ir ir = definition.describe();
  const check::launch_names names = check::launch_names_from_source(definition.param_names, definition.source, ir);
  bool named = false;
  for (std::size_t i = 0; i < ir.accesses.size(); ++i)
    for (std::size_t j = 0; j < ir.accesses.size(); ++j) {
      const dsl::ir_access& a = ir.accesses[i];
      const dsl::ir_access& c = ir.accesses[j];
      if (a.memory != dsl::memory_kind::shared || c.memory != dsl::memory_kind::shared) continue;
      const std::string pair = ": " + check::tile_access_text(ir, names, a) + " and " +
                               check::tile_access_text(ir, names, c) + " (w::obligations_of";
      if (message.find(pair) == std::string::npos) continue;
      named = true;
      if (r.meets(static_cast<int>(i), static_cast<int>(j))) return true;
    }
  (void)named;
  return false;
}

// The same body with every statement under trusted(...): compiled, run, never checked.
template <class Body>
constexpr auto trusting(Body) {
  return [](auto... handles) { return trusted(Body{}(handles...)); };
}

// The message of the `Error` a launch throws (a refusal), or "(launched)" where it throws none.
template <class Error = warden::error, class F>
std::string refusal_of(F launch) {
  try {
    launch();
  } catch (const Error& e) {
    return e.what();
  }
  return "(launched)";
}

}  // namespace warden::testing
