#pragma once
// The classes that carry the race and divergence rules (W010-W040), and the kernel parameters' mode
// rules (W003, W004), into the compiler's output, one per code, made from the table
// (diagnostic/table.hpp).
//
// A static_assert message must be a literal, so the computed part (which buffer, which accesses)
// travels in a type the compiler prints while instantiating the class: with g++ a class-type
// template argument, which it prints as a string; clang++ and nvcc print such arguments as
// numbers, so for them the text is a pack of characters, which they print as 'o', 'u', 't', ...
// The class's name is the code and the rule, so the instantiation line names them as well.

#include <cstddef>

#include "../detail/text_buffer.hpp"
#include "table.hpp"

namespace warden::diagnostic {

template <std::size_t N>
struct fixed_text {
  char text[N] = {};
  constexpr fixed_text(const detail::text_buffer& b) {
    for (std::size_t i = 0; i + 1 < N; ++i) text[i] = b.data[i];
  }
};

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__NVCOMPILER)
template <fixed_text Text>
struct what {};
#define WARDEN_DETAIL_CHARS_AS_PACK 0
#define WARDEN_DETAIL_READ_IT ""
#else
template <char... Text>
struct what {};
#define WARDEN_DETAIL_CHARS_AS_PACK 1
// Where a compiler prints the explanation as characters, the message says where to read it whole.
#define WARDEN_DETAIL_READ_IT " (the explanation below is printed as characters; w::explain(kernel) prints it as text: warden/explain.hpp)"
#endif

// One class per race rule, named <code>_<identifier> after its row; instantiating one fails its
// static_assert, whose message is the row's head, rule and fix (the fix of each is also in
// docs/diagnostics.md). The assertion tests `Found`, not What: clang++ prints the condition before
// the message, and a condition that spelled What out put the code past column 700 of its first
// error line; the explanation comes in the instantiation note right after. Written out rather than made by a macro so that the compilers point at
// these lines without notes about macro expansions; check/diagnostic.hpp names each class from its
// row, so a row without its class does not compile.
// The kernel parameters' mode rules, which the checker reports the same way (check/modes.hpp).
template <class What, bool Found = true> struct W003_store_to_read_only { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W003) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W004_load_from_write_only { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W004) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W008_narrowing_store { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W008) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W010_global_write_write_race { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W010) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W011_global_read_write_race { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W011) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W012_data_dependent_store { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W012) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W020_shared_race { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W020) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W021_loop_carried_shared_race { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W021) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W022_uninitialised_shared_load { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W022) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W030_barrier_divergence { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W030) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W031_shuffle_divergence { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W031) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W032_outer_context { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W032) WARDEN_DETAIL_READ_IT); };
template <class What, bool Found = true> struct W040_atomic_plain_mix { static_assert(!Found, WARDEN_DIAGNOSTIC_RULE_TEXT(W040) WARDEN_DETAIL_READ_IT); };

}  // namespace warden::diagnostic
