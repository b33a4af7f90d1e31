#pragma once
// Check once per file (proposals/0008, "Check once per file"): the host precheck
// (cmake/warden_host_precheck.cmake) runs the checker over a .cu file and writes a table of what it
// accepted, one row per kernel: its fingerprint (dsl/fingerprint.hpp) and its launch obligations,
// as integers. nvcc's three phases then compile the file with that table included first
// (WARDEN_CHECKED_TABLE): w::kernel builds the program and its fingerprint without the checker,
// and takes the obligations from the row with that fingerprint. A kernel whose fingerprint is in
// no row was not checked (W006): a body that differs under __CUDA_ARCH__, or a table older than
// the file.
//
// A row, as the precheck prints it and the table holds it: fingerprint, the obligations' length L,
// then L integers: the item count; per item its kind, the rule it protects, loop, most_trips,
// term_count, first, second and four integers per term (three symbols, the coefficient); then the
// pair count and three integers per pair (the rule, first, second).
#include <array>
#include <cstddef>

#include "obligation.hpp"

namespace warden::dsl {

// The precheck's rows are read from its output between these two values (cmake/warden_precheck.cmake).
inline constexpr long long checked_row_begin = 271828182845904LL;
inline constexpr long long checked_row_end = 314159265358979LL;

constexpr int encoded_size(const obligation_list& list) {
  int size = 1 + 1 + 3 * list.pair_count;
  for (const obligation& o : list) size += 7 + 4 * o.term_count;
  return size;
}

// The row of a kernel: its fingerprint, then its obligations.
template <int N>
constexpr std::array<long long, N + 2> encode_row(long long fingerprint, const obligation_list& list) {
  std::array<long long, N + 2> row{};
  int at = 0;
  auto put = [&](long long v) { row[static_cast<std::size_t>(at++)] = v; };
  put(fingerprint);
  put(N);
  put(list.count);
  for (const obligation& o : list) {
    put(static_cast<long long>(o.kind)), put(static_cast<long long>(o.protects)), put(o.loop), put(o.most_trips);
    put(o.term_count), put(o.first), put(o.second);
    for (int t = 0; t < o.term_count; ++t) {
      for (int s : o.terms[t].symbols) put(s);
      put(o.terms[t].coefficient);
    }
  }
  put(list.pair_count);
  for (int p = 0; p < list.pair_count; ++p)
    put(static_cast<long long>(list.pairs[p].protects)), put(list.pairs[p].first), put(list.pairs[p].second);
  return row;
}

// The obligations a row holds (`values`: its L integers).
constexpr obligation_list decode_obligations(const long long* values) {
  obligation_list list;
  int at = 0;
  auto get = [&] { return values[at++]; };
  list.count = static_cast<int>(get());
  for (int i = 0; i < list.count; ++i) {
    obligation& o = list.items[i];
    o.kind = static_cast<obligation_kind>(get());
    o.protects = static_cast<diagnostic::code>(get());
    o.loop = static_cast<int>(get());
    o.most_trips = get();
    o.term_count = static_cast<int>(get());
    o.first = static_cast<int>(get());
    o.second = static_cast<int>(get());
    for (int t = 0; t < o.term_count; ++t) {
      for (int& s : o.terms[t].symbols) s = static_cast<int>(get());
      o.terms[t].coefficient = get();
    }
  }
  list.pair_count = static_cast<int>(get());
  for (int p = 0; p < list.pair_count; ++p) {
    list.pairs[p].protects = static_cast<diagnostic::code>(get());
    list.pairs[p].first = static_cast<short>(get());
    list.pairs[p].second = static_cast<short>(get());
  }
  return list;
}

// Where the row of `fingerprint` starts in `rows` (rows[0..size)), or -1.
constexpr int find_checked_row(const long long* rows, int size, long long fingerprint) {
  for (int at = 0; at + 1 < size; at += 2 + static_cast<int>(rows[at + 1]))
    if (rows[at] == fingerprint) return at;
  return -1;
}

// The precheck prints a row by naming this function (a deprecation warning it turns into the
// table and never shows): its template arguments are checked_row_begin, the row, checked_row_end.
template <long long... Row>
[[deprecated("not a warning: a row of warden's check-once table (cmake/warden_precheck.cmake reads it)")]]
constexpr int warden_checked_table_row() {
  return 0;
}

}  // namespace warden::dsl
