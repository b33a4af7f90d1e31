#pragma once
// saxpy in warden: y[i] = a * x[i] + y[i], one thread per element, guarded by the size of x.
// Both backends use this header; saxpy_twin.cu is the same kernel written by hand.
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

WARDEN_KERNEL(saxpy, w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(
    [](auto k, auto x, auto y, auto a) {
      auto i = k.global_id();
      return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
    }).named("saxpy", "x", "y", "a"));

}  // namespace examples
