// W020: the only barriers between a shared store and another thread's load are inside a loop that
// may run no iteration (a run-time trip count: n == 0 runs none). The twin's loop has a constant
// trip count of 4, so its barriers run and order the store before the loop against the load after.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(staged, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<int>>(
    [](auto k, auto in, auto out, [[maybe_unused]] auto n) {
      return w::shared<float, 64>(k, [&](auto k, auto stage) {
        auto t = k.thread_id();
        auto g = k.global_id();
#ifdef WARDEN_DEFECT
        auto trips = n;
#else
        auto trips = 4;
#endif
        return w::seq(stage[t] = in[g], w::for_range(k, 0, trips, [&](auto, auto) { return w::seq(w::sync(), out[g] = out[g] + 1.f); }),
                      out[g] = out[g] + stage[63 - t]);
      });
    }));

int main() {
  warden_case::launch_case(staged);
  return staged.describe().accesses.empty() ? 1 : 0;
}
