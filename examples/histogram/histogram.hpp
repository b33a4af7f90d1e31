#pragma once
// A 256-bin histogram with atomic updates: one thread per input value, `atomic_add` on the bin
// the value selects. Many threads update one bin at once, so the bins are an atomic<int>
// parameter, whose elements only atomic updates may touch. Defining WARDEN_DEFECT builds the
// broken variant (histogram_broken.fail.cpp): the bins as inout<int>, updated with a plain
// `+= 1` at an index loaded from memory, which the checker rejects (W012).
#include <warden/warden.hpp>

namespace examples {

namespace w = warden;

inline constexpr int histogram_bins = 256;

#ifdef WARDEN_DEFECT
WARDEN_KERNEL(histogram, w::kernel<w::block<256>, w::in<int>, w::inout<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), bins[in[i] & (histogram_bins - 1)] += 1);
}).named("histogram", "in", "bins"));
#else
WARDEN_KERNEL(histogram, w::kernel<w::block<256>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & (histogram_bins - 1)], 1));
}).named("histogram", "in", "bins"));
#endif

}  // namespace examples
