// W031: a warp shuffle under t < 48: in the second warp, lanes 0-15 reach it and lanes 16-31 do not.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(neighbour_sum, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  auto pair = [&](auto k) {
    return w::shuffle_down(k, in[i], 1, [&](auto, auto right) { return out[i] = in[i] + right; });
  };
#ifdef WARDEN_DEFECT
  return w::when(t < 48, pair(k));
#else
  return w::when(t < 32, pair(k));  // whole warps: the first reaches it, the second does not
#endif
}));

int main() {
  warden_case::launch_case(neighbour_sum);
  return neighbour_sum.describe().shuffles.size() == 1 ? 0 : 1;
}
