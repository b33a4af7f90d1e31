#pragma once
// What the checker says of a kernel body, without failing the build: for tests that put a racy
// kernel and its twin side by side (soundness_test, precision_test).
#include <warden/warden.hpp>

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

// The same body with every statement under trusted(...): compiled, run, never checked.
template <class Body>
constexpr auto trusting(Body) {
  return [](auto... handles) { return trusted(Body{}(handles...)); };
}

}  // namespace warden::testing
