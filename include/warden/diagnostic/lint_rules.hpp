#pragma once
// The classes that carry the performance lints (W050, W051) into the compiler's output, one per
// code, made from the table (diagnostic/table.hpp). A lint is a warning, not an error: a
// static_assert cannot warn, so each class has a [[deprecated]] static member whose message is the
// row's head, rule and fix, and check::raise_lint<Class>() calls it. g++ 12, clang++ 14 and nvcc
// (its host compiler) print `warning: ... is deprecated: W050 [bank-conflict] ...` there, with
// the class's template argument, the explanation (what: race_rules.hpp), in the same line (g++,
// nvcc) or in the instantiation note after it (clang++).
//
// Silencing: w::lint_off<w::W050>(statements...) where a conflict is intended (dsl/lint_off.hpp);
// -DWARDEN_LINTS=0 (warden::kernel raises none), or -Wno-deprecated-declarations (every
// deprecation warning); a #pragma around the kernel does not reach the warning, which is issued in
// check/lints.hpp. -Werror=deprecated-declarations makes them errors.

#include "race_rules.hpp"
#include "table.hpp"

namespace warden::diagnostic {

// One class per lint, named <code>_<identifier> after its row; `raise` is the member whose call
// warns. Written out, as the race rules' classes are, so that the compilers point at these lines.
template <class What> struct W050_bank_conflict { [[deprecated(WARDEN_DIAGNOSTIC_RULE_TEXT(W050))]] static constexpr int raise() { return 0; } };
template <class What> struct W051_uncoalesced { [[deprecated(WARDEN_DIAGNOSTIC_RULE_TEXT(W051))]] static constexpr int raise() { return 0; } };

}  // namespace warden::diagnostic
