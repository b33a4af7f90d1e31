// W020: thread 0 broadcasts its block's count through a one-element tile and every thread loops to
// it, with barriers inside the loop. Without the barrier after the store, the other threads read the
// count while thread 0 may still be writing it. The twin has the barrier: every thread then reads
// the same count, so the loop's trip count is uniform and its barriers are reached by all (W030).
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(rounds, w::kernel<w::block<64>, w::in<int>, w::inout<int>>([](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::shared<int, 1>(k, [&](auto k, auto count) {
      auto t = k.thread_id();
      auto g = k.global_id();
#ifdef WARDEN_DEFECT
      auto published = w::seq();
#else
      auto published = w::sync();
#endif
      return w::seq(w::when(t == 0, count[0] = counts[k.block_id()] % 8), published,
                    w::for_range(k, 0, count[0], [&](auto, auto) {
                      return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
                    }));
    });
  });
}));

int main() {
  warden_case::launch_case(rounds);
  return rounds.describe().accesses.empty() ? 1 : 0;
}
