// W011: block b reads the first element of block b + 1's slice of an inout buffer; sync() does not order blocks.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(rotate, w::kernel<w::block<64>, w::inout<float>>([](auto k, auto a) {
  auto i = k.global_id();
  auto t = k.thread_id();
  auto base = k.block_id() * 64;
  return w::local(k, 0.f, [&](auto k, auto v) {
#ifdef WARDEN_DEFECT
    return w::seq(w::when(i + 1 < a.size(), v = a[base + t + 1]), w::sync(), w::when(i < a.size(), a[i] = v));
#else
    // Reverse inside the block's own slice: 63 - t stays below 64.
    return w::seq(w::when(i < a.size(), v = a[base + (63 - t)]), w::sync(), w::when(i < a.size(), a[i] = v));
#endif
  });
}));

int main() {
  warden_case::launch_case(rotate);
  return rotate.describe().accesses.empty() ? 1 : 0;
}
