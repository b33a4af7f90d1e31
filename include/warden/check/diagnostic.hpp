#pragma once
// Turning a finding into a compiler error that reads as a safety diagnostic: the verdict's text
// becomes a type (diagnostic::what), and the finding's code picks the class of its rule
// (diagnostic/race_rules.hpp), whose instantiation fails with the rule's message.

#include <cstddef>
#include <utility>

#include "../detail/text_buffer.hpp"
#include "../diagnostic/codes.hpp"
#include "../diagnostic/race_rules.hpp"
#include "rules.hpp"

namespace warden {

namespace check {

// A performance lint's message (W050, W051: check/lints.hpp), for a kernel the checker accepts.
struct lint_message {
  diagnostic::code code = diagnostic::code::W050;
  bool found = false;
  detail::text_buffer text;
};

// What the checker says of a kernel: the first finding and its explanation; for an accepted
// kernel, its lints (W050, W051: warnings).
struct verdict {
  check::finding finding;
  detail::text_buffer text;
  lint_message lints[2] = {{diagnostic::code::W050, false, {}}, {diagnostic::code::W051, false, {}}};
};

// The explanation as a type the compilers print legibly.
template <class Source, class Indices>
struct text_of;
template <class Source, std::size_t... I>
struct text_of<Source, std::index_sequence<I...>> {
#if WARDEN_DETAIL_CHARS_AS_PACK
  using type = diagnostic::what<Source::value.text.data[I]...>;
#else
  using type = diagnostic::what<diagnostic::fixed_text<sizeof...(I) + 1>(Source::value.text)>;
#endif
};

// The class of each race rule, named from its row of the table.
template <diagnostic::code C, class What>
struct diagnostic_for { using type = int; };
#define WARDEN_DETAIL_DIAGNOSTIC_FOR_OF(c, kind, id, name, rule_text, fix, by)                              \
  WARDEN_DETAIL_DIAGNOSTIC_IF_##kind(template <class What> struct diagnostic_for<diagnostic::code::c, What> { \
    using type = diagnostic::c##_##id<What>;                                                                \
  };)
#define WARDEN_DETAIL_DIAGNOSTIC_FOR(code) WARDEN_DETAIL_DIAGNOSTIC_ROW(WARDEN_DETAIL_DIAGNOSTIC_FOR_OF, code)
WARDEN_DIAGNOSTIC_CODES(WARDEN_DETAIL_DIAGNOSTIC_FOR)
#undef WARDEN_DETAIL_DIAGNOSTIC_FOR
#undef WARDEN_DETAIL_DIAGNOSTIC_FOR_OF
// The mode rules of kernel parameters are type rules the checker reports (check/modes.hpp).
template <class What>
struct diagnostic_for<diagnostic::code::W003, What> { using type = diagnostic::W003_store_to_read_only<What>; };
template <class What>
struct diagnostic_for<diagnostic::code::W004, What> { using type = diagnostic::W004_load_from_write_only<What>; };
template <class What>
struct diagnostic_for<diagnostic::code::W008, What> { using type = diagnostic::W008_narrowing_store<What>; };

// `Source::value` is a constexpr verdict. With a finding, `report<Source>` names the code's class,
// whose instantiation (at the use) fails its static_assert: one error, no cascade.
template <class Source, bool Found = Source::value.finding.code != diagnostic::code::none>
struct report {
  using type = int;
};
template <class Source>
struct report<Source, true> {
  using type = typename diagnostic_for<
      Source::value.finding.code,
      typename text_of<Source, std::make_index_sequence<static_cast<std::size_t>(Source::value.text.size)>>::type>::type;
};

// w::kernel raises Source's diagnostic by naming `decltype(typename report<Source, found>::type{})`
// in its body, which instantiates the code's class: one error on g++, clang++ (14 and 19) and
// nvcc, the function still a constant expression (kernel.hpp). (Found is passed explicitly there:
// a default argument would add a note of its own to clang's output.)

}  // namespace check
}  // namespace warden
