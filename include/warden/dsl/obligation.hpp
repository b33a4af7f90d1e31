#pragma once
// Launch obligations (proposals/0005-launch-obligations.md): a condition on the launch under
// which the checker proved a rule. The checker (check/rules.hpp) produces them; they live here,
// beside the program description they refer to (accesses and loops of dsl/ir.hpp), so that a
// kernel's definition (dsl/program.hpp) can hold them without including the checker. The kernel carries its obligations; launch evaluates each
// one with the launch's values before anything runs, and refuses the launch with E106 when one
// fails or cannot be decided. Nothing is assumed without being checked.
//
// Kinds so far:
//   * trip_limit: a loop whose trip count only the launch knows runs at most `most_trips`
//     iterations in every thread. The checker listed that many iterations of it (footprint.hpp,
//     `assumed_trip_limit`) where the loop's variable decides what the accesses touch, as in a
//     halving tree `for level < levels: s = 128 >> level`, whose levels a parameter gives.
//   * positive: a polynomial over the launch's values (parameters, buffer sizes, grid extents) is
//     at least 1, unless one of the accesses `first`, `second` cannot run for this launch (its
//     guards exclude every thread). The checker proved the two apart under it: a row stride
//     above the row it strides over (`dst[pitch * y + x]` under `x < width`: pitch - width + 1 >= 1),
//     a stride that is not 0 (`m[size * (x + 1) + t]`: size >= 1).
//   * shared_at_launch: no two threads of a block meet on a tile in one barrier phase, decided by
//     launch with its own numbers. The tile accesses' indices, guards and loop bounds are made of
//     thread ids, loop counters, constants and launch numbers (value parameters, sizes, grid
//     extents), so launch lists every thread's footprint exactly, as the checker would have with
//     those numbers written in; the checker could not decide it for every value (or the listing
//     was past its compile-time budget). `first`, `second`: the pair the checker saw meet; -1 when
//     it listed nothing (the budget), and launch then judges W022 too.
//   * global_at_launch (held apart, in obligation_list::pairs: a kernel may leave dozens): the two
//     global accesses `first` and `second` (W010 / W011) never reach one element from two
//     different threads of the launch, decided by launch with its own numbers.
//     Their indices and the bounds of the loops around them are made of thread and block ids,
//     loop counters, constants and launch numbers, and read at least one launch number: the
//     checker could neither separate them for every value nor show a meeting that every launch
//     has, so it keeps the question instead of a condition that is only sufficient. Launch lists
//     both accesses' elements (check/launch/global_pairs.hpp) and refuses a launch in which two
//     threads meet, or that it cannot list (E106).

#include "../diagnostic/codes.hpp"

namespace warden::dsl {

enum class obligation_kind : unsigned char { trip_limit, positive, shared_at_launch };

// A term of a polynomial: coefficient times up to three symbols (check/polynomial.hpp's ids).
struct obligation_term {
  int symbols[3] = {-1, -1, -1};
  long long coefficient = 0;
};

struct obligation {
  static constexpr int max_terms = 6;
  obligation_kind kind = obligation_kind::trip_limit;
  diagnostic::code protects = diagnostic::code::none;  // the rule proved under it
  int loop = -1;          // trip_limit: the loop (index in ir.loops)
  long long most_trips = 0;
  obligation_term terms[max_terms];  // positive: sum of terms >= 1 (-1 terms: too many to hold)
  int term_count = 0;
  int first = -1, second = -1;       // positive: the accesses it separates
};

// A pair of global accesses left to the launch (global_at_launch above).
struct global_pair {
  diagnostic::code protects = diagnostic::code::none;  // W010 or W011
  short first = -1, second = -1;                       // accesses (index in ir.accesses)
};

// A kernel's obligations: few, and literal, so that a kernel definition holds them.
struct obligation_list {
  static constexpr int capacity = 8;
  obligation items[capacity];
  int count = 0;
  // The global pairs left to the launch: each pair of accesses a kernel's stores and loads make.
  static constexpr int pair_capacity = 64;
  global_pair pairs[pair_capacity]{};
  int pair_count = 0;

  // False when full (or an access past a short): the caller must then refuse the pair.
  constexpr bool add_pair(diagnostic::code protects, int first, int second) {
    if (first < 0 || second < 0 || first > 32767 || second > 32767) return false;
    for (int i = 0; i < pair_count; ++i)
      if (pairs[i].first == first && pairs[i].second == second) return true;
    if (pair_count == pair_capacity) return false;
    pairs[pair_count++] = {protects, static_cast<short>(first), static_cast<short>(second)};
    return true;
  }

  // False when full: the caller must then refuse what needed the obligation.
  constexpr bool add(const obligation& o) {
    if (o.term_count < 0) return false;
    for (int i = 0; i < count; ++i)
      if (same(items[i], o)) return true;
    if (count == capacity) return false;
    items[count++] = o;
    return true;
  }
  constexpr bool empty() const { return count == 0 && pair_count == 0; }
  static constexpr bool same(const obligation& x, const obligation& y) {
    if (x.kind != y.kind) return false;
    if (x.kind == obligation_kind::trip_limit) return x.loop == y.loop;
    if (x.kind == obligation_kind::shared_at_launch) return true;  // one listing answers them all
    if (x.term_count != y.term_count || x.first != y.first || x.second != y.second) return false;
    for (int t = 0; t < x.term_count; ++t) {
      if (x.terms[t].coefficient != y.terms[t].coefficient) return false;
      for (int k = 0; k < 3; ++k)
        if (x.terms[t].symbols[k] != y.terms[t].symbols[k]) return false;
    }
    return true;
  }
  constexpr const obligation* begin() const { return items; }
  constexpr const obligation* end() const { return items + count; }
};

}  // namespace warden::dsl

namespace warden::check {
using dsl::obligation;
using dsl::obligation_kind;
using dsl::obligation_list;
using dsl::obligation_term;
}  // namespace warden::check
