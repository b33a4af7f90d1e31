#pragma once
// saxpy in warden: y[i] = a * x[i] + y[i], one thread per element, guarded by the size of x.
// Both backends use this header; saxpy_twin.cu is the same kernel written by hand. Defining
// WARDEN_DEFECT builds the broken variant (saxpy_broken.fail.cpp): `y[i / 2] = a * x[i]`, where
// every two threads store to one element of y, which the checker rejects (W010).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

WARDEN_KERNEL(saxpy, w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(
    [](auto k, auto x, auto y, auto a) {
      auto i = k.global_id();
#ifdef WARDEN_DEFECT
      return w::when(i < x.size(), y[i / 2] = a * x[i]);
#else
      return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
#endif
    }).named("saxpy", "x", "y", "a"));

}  // namespace examples
