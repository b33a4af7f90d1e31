// W010: each block reverses the order of its four 32-element chunks in a 100-element segment, but
// the guard bounds the forward order (t + 32 * i < 100) while the store goes to chunk 3 - i: block 0
// stores at 96..127, inside block 1's segment. A guard must bound the very expression it guards.
// (With a segment length that is a parameter, the same guard is proved for lengths of 128 or more
// and accepted with that launch obligation, which launch checks: tests/unit/soundness_test.cpp.)
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(reverse_chunks, w::kernel<w::block<32>, w::out<int>>([](auto k, auto out) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 4, [&](auto, auto i) {
#ifdef WARDEN_DEFECT
    return w::when(t + 32 * i < 100, out[b * 100 + (3 - i) * 32 + t] = 1);
#else
    return w::when(t + 32 * (3 - i) < 100, out[b * 100 + (3 - i) * 32 + t] = 1);  // the chunk it stores
#endif
  });
}));

int main() {
  warden_case::launch_case(reverse_chunks);
  return reverse_chunks.describe().accesses.empty() ? 1 : 0;
}
