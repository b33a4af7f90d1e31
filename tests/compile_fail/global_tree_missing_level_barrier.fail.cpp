// W011: a tree reduction in place in global memory (sequential addressing: level e adds element
// t + (32 >> e) into element t of the block's 64) without the barrier that ends each level, so
// level e + 1 reads what level e stores in the same phase. `32 >> e` is no polynomial: the checker
// unrolls the loop of 6 levels and compares every pair of levels. The twin has the barrier.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(tree, w::kernel<w::block<64>, w::inout<int>>([](auto k, auto a) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 6, [&](auto, auto e) {
    auto half = 32 >> e;
#ifdef WARDEN_DEFECT
    return w::seq(w::when(t < half, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + half]));
#else
    return w::seq(w::when(t < half, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + half]), w::sync());
#endif
  });
}));

int main() {
  warden_case::launch_case(tree);
  return tree.describe().accesses.empty() ? 1 : 0;
}
