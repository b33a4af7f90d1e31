// W032: a loop opened inside another with the outer loop's context `k` (the inner lambda left its
// own context unnamed). Both loops bind one level, so `r` names the inner loop's variable too, and
// a guard on the outer loop would bound the inner one. The twin opens it with `k_row`.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(copy_rows, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::for_range(k, 0, 4, [&](auto k_row, auto r) {
#ifdef WARDEN_DEFECT
    (void)k_row;
    return w::for_range(k, 0, 8, [&](auto, auto c) { return out[(i * 4 + r) * 8 + c] = in[(i * 4 + r) * 8 + c]; });
#else
    return w::for_range(k_row, 0, 8, [&](auto, auto c) { return out[(i * 4 + r) * 8 + c] = in[(i * 4 + r) * 8 + c]; });
#endif
  });
}));

int main() {
  warden_case::launch_case(copy_rows, w::grid(1), 64 * 32);
  return copy_rows.describe().accesses.empty() ? 1 : 0;
}
