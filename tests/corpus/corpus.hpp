#pragma once
// Shared by the corpus tests (tests/corpus/*.cpp): the launch-refusal probe and float comparison.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace corpus {

namespace w = warden;

// The text of the obligation_error (E106) a launch throws, or "" when it throws none.
template <class F>
std::string e106_of(F launch) {
  try {
    launch();
  } catch (const w::obligation_error& e) {
    return e.what();
  }
  return {};
}

// Element-wise comparison against the plain C++ reference, with a relative tolerance for float
// sums whose order differs from the reference's.
template <class T>
void check_close(const std::vector<T>& got, const std::vector<T>& want, double eps = 1e-5) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == Approx(want[i]).epsilon(eps).margin(eps))) {
      if (++bad <= 5) {
        CAPTURE(i, got[i], want[i]);
        CHECK(got[i] == Approx(want[i]).epsilon(eps).margin(eps));
      }
    }
  CHECK(bad == 0);
}

inline std::size_t at(int i) { return static_cast<std::size_t>(i); }

}  // namespace corpus
