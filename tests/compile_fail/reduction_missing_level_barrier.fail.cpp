// W021: a tree reduction without a barrier per level: level k + 1 reads what level k still writes.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(total, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 128>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t] = in[k.global_id()], w::sync(),
                  w::for_range(k, 0, 7, [&](auto, auto level) {
                    auto s = 64 >> level;
#ifdef WARDEN_DEFECT
                    return w::when(t < s, tile[t] = tile[t] + tile[t + s]);
#else
                    return w::seq(w::when(t < s, tile[t] = tile[t] + tile[t + s]), w::sync());
#endif
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
}));

int main() {
  warden_case::launch_case(total);
  return total.describe().accesses.empty() ? 1 : 0;
}
