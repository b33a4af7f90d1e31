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

// Where the compiler takes a computed static_assert message (C++26, P2741: clang++ 17+ and g++ 14+
// in C++26 mode), the message is the rule and, on a line of its own, the explanation as text:
// "W020 [shared-race] ...: add sync() ...\nwhy:   tile: store tile[t] ...". Elsewhere it is the
// row's literal text and the explanation travels in What, as above.
#if defined(__cpp_static_assert) && __cpp_static_assert >= 202306L
template <class What>
struct what_text;
#if WARDEN_DETAIL_CHARS_AS_PACK
template <char... C>
struct what_text<what<C...>> {
  static constexpr char text[] = {C..., '\0'};
};
#else
template <fixed_text Text>
struct what_text<what<Text>> {
  static constexpr const char* text = Text.text;
};
#endif
template <std::size_t N>
struct computed_message {
  char text[N] = {};
  std::size_t length = 0;
  constexpr computed_message(const char* rule, const char* why) {
    for (const char* p : {rule, "\nwhy:   ", why})
      for (; *p != '\0' && length + 1 < N; ++p) text[length++] = *p;
  }
  constexpr const char* data() const { return text; }
  constexpr std::size_t size() const { return length; }
};
// Room for the rule's text, the "why" line and the explanation (text_buffer's capacity).
#define WARDEN_DETAIL_RULE_MESSAGE(code, What)                                                                   \
  ::warden::diagnostic::computed_message<sizeof(WARDEN_DIAGNOSTIC_RULE_TEXT(code)) + 16 + ::warden::detail::text_buffer::capacity>( \
      WARDEN_DIAGNOSTIC_RULE_TEXT(code), ::warden::diagnostic::what_text<What>::text)
#else
#define WARDEN_DETAIL_RULE_MESSAGE(code, What) WARDEN_DIAGNOSTIC_RULE_TEXT(code) WARDEN_DETAIL_READ_IT
#endif

// One class per race rule, named <code>_<identifier> after its row; instantiating one fails its
// static_assert, whose message is the row's head, rule and fix (the fix of each is also in
// docs/diagnostics.md). The assertion tests `Found`, not What: clang++ prints the condition before
// the message, and a condition that spelled What out put the code past column 700 of its first
// error line; the explanation comes in the instantiation note right after. Written out rather than made by a macro so that the compilers point at
// these lines without notes about macro expansions; check/diagnostic.hpp names each class from its
// row, so a row without its class does not compile.
// The kernel parameters' mode rules, which the checker reports the same way (check/modes.hpp).
template <class What, bool Found = true> struct W003_store_to_read_only { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W003, What)); };
template <class What, bool Found = true> struct W004_load_from_write_only { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W004, What)); };
template <class What, bool Found = true> struct W008_narrowing_store { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W008, What)); };
template <class What, bool Found = true> struct W010_global_write_write_race { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W010, What)); };
template <class What, bool Found = true> struct W011_global_read_write_race { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W011, What)); };
template <class What, bool Found = true> struct W012_data_dependent_store { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W012, What)); };
template <class What, bool Found = true> struct W020_shared_race { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W020, What)); };
template <class What, bool Found = true> struct W021_loop_carried_shared_race { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W021, What)); };
template <class What, bool Found = true> struct W022_uninitialised_shared_load { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W022, What)); };
template <class What, bool Found = true> struct W030_barrier_divergence { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W030, What)); };
template <class What, bool Found = true> struct W031_shuffle_divergence { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W031, What)); };
template <class What, bool Found = true> struct W032_outer_context { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W032, What)); };
template <class What, bool Found = true> struct W040_atomic_plain_mix { static_assert(!Found, WARDEN_DETAIL_RULE_MESSAGE(W040, What)); };

}  // namespace warden::diagnostic
