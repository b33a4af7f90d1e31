#pragma once
// The value-level description of a kernel body, built at run time without the static check: for
// tests that call the checker's analyses directly (tests/unit/check/).
#include <warden/warden.hpp>

namespace warden::testing {

template <class Block, class... Params, class F>
dsl::kernel_ir ir_of(F body) {
  return dsl::definition_of(dsl::build_kernel<Block, Params...>(body)).describe();
}

}  // namespace warden::testing
