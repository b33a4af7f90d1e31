#pragma once
// The table of diagnostics (diagnostic/table.hpp) as values: an enumerator per code and its row,
// for run-time messages, tests and tools.

#include <cstddef>
#include <string_view>

#include "table.hpp"

namespace warden::diagnostic {

#define WARDEN_DETAIL_DIAGNOSTIC_ENUMERATOR(code) code,
enum class code : unsigned char { WARDEN_DIAGNOSTIC_CODES(WARDEN_DETAIL_DIAGNOSTIC_ENUMERATOR) };
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

constexpr const entry& row(code c) { return table[static_cast<std::size_t>(c)]; }

// The row whose name is `name` ("E101"), or nullptr.
constexpr const entry* find(std::string_view name) {
  for (const entry& e : table)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace warden::diagnostic
