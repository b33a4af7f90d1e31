#pragma once
// lint_off<W050, W051...>(statements...): runs the statements as written; the performance lints
// named (W050 [bank-conflict], W051 [uncoalesced]: check/lints.hpp) skip their accesses. For a
// conflict or a strided access that is intended; the race rules still check everything.
//
//   return w::lint_off<w::W050>(w::seq(tile[t * 2] = x, ...));
#include <type_traits>

#include "../diagnostic/codes.hpp"
#include "stmt.hpp"

namespace warden {

inline constexpr diagnostic::code W050 = diagnostic::code::W050;
inline constexpr diagnostic::code W051 = diagnostic::code::W051;

namespace dsl {

// The lints a lint_off turns off, as bits (ir_access::lint_off).
constexpr unsigned char lint_bit(diagnostic::code c) {
  return c == diagnostic::code::W050 ? 1 : c == diagnostic::code::W051 ? 2 : 0;
}

template <unsigned char Mask, class Body>
struct lint_off_s : stmt_node {
  Body body;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    body.run(c);
  }
  constexpr void describe(kernel_ir& b) const {
    const unsigned char outer = b.lint_off;
    b.lint_off = static_cast<unsigned char>(outer | Mask);
    body.describe(b);
    b.lint_off = outer;
  }
};

}  // namespace dsl

template <diagnostic::code... Codes, dsl::statement... S>
constexpr auto lint_off(S... s) {
  static_assert(sizeof...(Codes) > 0 && ((dsl::lint_bit(Codes) != 0) && ...),
                "warden::lint_off: name the lints to turn off, W050 or W051 (w::lint_off<w::W050>(...)); "
                "the race rules cannot be turned off (trusted(...) is their escape hatch)");
  constexpr unsigned char mask = (dsl::lint_bit(Codes) | ...);
  return dsl::lint_off_s<mask, dsl::seq_s<S...>>{{}, dsl::seq_s<S...>{{}, detail::make_pack(s...)}};
}

}  // namespace warden
