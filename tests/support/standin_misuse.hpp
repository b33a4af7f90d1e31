#pragma once
// Whether the CUDA runtime stand-in saw no misuse since its last reset (a double free, a use of a
// destroyed stream or event, ...: cuda_standin.hpp, misuses()); each one seen is reported with the
// failing check.
#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

namespace warden::testing {

inline bool no_misuse() {
  const auto seen = cuda_standin::misuses();
  for (const auto& m : seen) UNSCOPED_INFO("stand-in misuse: " << m);
  return seen.empty();
}

}  // namespace warden::testing
