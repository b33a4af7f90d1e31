#pragma once
// The table of diagnostics (diagnostic/table.hpp) as values: an enumerator per code and its row,
// for run-time messages, tests and tools.

#include <cstddef>
#include <string_view>

#include "table.hpp"

namespace warden::diagnostic {

// Every code of the table, in its order, then `none`: no diagnostic, the checker's verdict on a
// kernel it accepts (check::finding's code) and what a field that names no code holds. `none` is
// the last value, not a row: the rows keep their places (table[static_cast<std::size_t>(c)] is
// row(c)), code_count counts rows only, and `none` can be compared and switched on like any code
// without an std::optional around every finding that a constant expression has to unwrap.
#define WARDEN_DETAIL_DIAGNOSTIC_ENUMERATOR(code) code,
enum class code : unsigned char { WARDEN_DIAGNOSTIC_CODES(WARDEN_DETAIL_DIAGNOSTIC_ENUMERATOR) none };
#undef WARDEN_DETAIL_DIAGNOSTIC_ENUMERATOR

enum class kind : unsigned char { type, race, launch, run, lint };

// One row of the table.
struct entry {
  diagnostic::code code;
  diagnostic::kind kind;
  std::string_view name;        // "W003"
  std::string_view short_name;  // "store-to-read-only"
  std::string_view rule;        // what the code means
  std::string_view fix;         // what to write instead
  std::string_view raised_by;   // where it comes from (markdown)
};

#define WARDEN_DETAIL_DIAGNOSTIC_ENTRY_OF(c, k, id, short_name, rule, fix, by) \
  entry{code::c, kind::k, #c, short_name, rule, fix, by},
#define WARDEN_DETAIL_DIAGNOSTIC_ENTRY(c) WARDEN_DETAIL_DIAGNOSTIC_ROW(WARDEN_DETAIL_DIAGNOSTIC_ENTRY_OF, c)
inline constexpr entry table[] = {WARDEN_DIAGNOSTIC_CODES(WARDEN_DETAIL_DIAGNOSTIC_ENTRY)};
#undef WARDEN_DETAIL_DIAGNOSTIC_ENTRY
#undef WARDEN_DETAIL_DIAGNOSTIC_ENTRY_OF

inline constexpr std::size_t code_count = sizeof(table) / sizeof(table[0]);

static_assert(static_cast<std::size_t>(code::none) == code_count, "none follows the rows");

// The row of code `c`; `c` is not none (which has no row).
constexpr const entry& row(code c) { return table[static_cast<std::size_t>(c)]; }

// "W010", or "none" (a name is a whole string literal, so its data() ends with '\0').
constexpr const char* to_string(code c) { return c == code::none ? "none" : row(c).name.data(); }

// The row whose name is `name` ("E101"), or nullptr.
constexpr const entry* find(std::string_view name) {
  for (const entry& e : table)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace warden::diagnostic
