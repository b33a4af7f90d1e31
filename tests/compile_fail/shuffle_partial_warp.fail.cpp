// W031: a warp shuffle in a block of 48 threads: the second warp has 16 lanes, and the shuffle
// waits for 32.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using shape = w::block<48>;
#else
using shape = w::block<64>;
#endif

WARDEN_KERNEL(rotate, w::kernel<shape, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::shuffle_xor(k, in[i], 1, [&](auto, auto partner) { return out[i] = partner; });
}));

int main() {
  warden_case::launch_case(rotate);
  return rotate.describe().shuffles.size() == 1 ? 0 : 1;
}
