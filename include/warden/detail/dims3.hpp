#pragma once
// dims3: a launch's geometry (grid or block extents), as both the checker's launch-time analyses
// (check/launch/) and the backends (backend/slots.hpp) see it. A leaf header, so that check/
// need not include backend/ for it.

namespace warden::detail {

struct dims3 {
  int x = 1, y = 1, z = 1;
  constexpr int operator[](int d) const { return d == 0 ? x : d == 1 ? y : z; }
  constexpr long long count() const { return static_cast<long long>(x) * y * z; }
};

}  // namespace warden::detail
