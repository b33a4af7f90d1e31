#pragma once
// Launch obligations (DESIGN §5, "values the compiler cannot see"): a condition on the launch
// under which the checker proved a rule. The kernel carries its obligations; launch evaluates each
// one with the launch's values before anything runs, and refuses the launch with E106 when one
// fails or cannot be decided. Nothing is assumed without being checked.
//
// Kinds so far:
//   * trip_limit: a loop whose trip count only the launch knows runs at most `most_trips`
//     iterations in every thread. The checker listed that many iterations of it (footprint.hpp,
//     `assumed_trip_limit`) where the loop's variable decides what the accesses touch, as in a
//     halving tree `for level < levels: s = 128 >> level`, whose levels a parameter gives.

namespace warden::check {

enum class rule : unsigned char;

enum class obligation_kind : unsigned char { trip_limit };

struct obligation {
  obligation_kind kind = obligation_kind::trip_limit;
  rule protects = static_cast<rule>(0);  // the rule proved under it
  int loop = -1;          // trip_limit: the loop (index in ir.loops)
  long long most_trips = 0;
};

// A kernel's obligations: few, and literal, so that a kernel definition holds them.
struct obligation_list {
  static constexpr int capacity = 8;
  obligation items[capacity];
  int count = 0;

  // False when full: the caller must then refuse what needed the obligation.
  constexpr bool add(const obligation& o) {
    for (int i = 0; i < count; ++i)
      if (items[i].kind == o.kind && items[i].loop == o.loop) return true;
    if (count == capacity) return false;
    items[count++] = o;
    return true;
  }
  constexpr bool empty() const { return count == 0; }
  constexpr const obligation* begin() const { return items; }
  constexpr const obligation* end() const { return items + count; }
};

}  // namespace warden::check
