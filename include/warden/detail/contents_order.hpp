#pragma once
// contents_order: which order a stated fact asks the launch to measure of a buffer (sorted(x),
// non_decreasing(x), with .rows(n) and .below(hi)), as both the launch-time checks
// (check/launch/stated_facts.hpp) and the measurement (launch/contents_steps.hpp, on the host and
// on the device) see it. A leaf header, so that check/ need not include launch/ for it.

namespace warden::detail {

struct contents_order {
  bool wanted = false;   // a stated fact asks: where the elements stop rising, and where they fall
  long long row = 0;     // compared only within rows of this many elements (0: the whole buffer is one row)
  bool bounded = false;  // strictly rising only where the earlier element is below `below`
  long long below = 0;
  friend constexpr bool operator==(const contents_order&, const contents_order&) = default;
};

}  // namespace warden::detail
