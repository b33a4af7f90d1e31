// W020: a scan whose offset doubles (`for (offset = 1; offset < n; offset <<= 1)`, w::for_doubling)
// adds the partner's element in the phase where the partner stores it. The twin reads the partner
// into a local and stores after a barrier.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(block_scan, w::kernel<w::block<128>, w::in<int>, w::out<int>, w::value<int>>([](auto k, auto in, auto out, auto n) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_doubling(k, 1, n, [&](auto k, auto offset) {
#ifdef WARDEN_DEFECT
                    (void)k;
                    return w::seq(w::when(t >= offset, tile[t] += tile[t - offset]), w::sync());
#else
                    return w::local(k, 0, [&](auto, auto partner) {
                      return w::seq(w::when(t >= offset, partner = tile[t - offset]), w::sync(), tile[t] += partner, w::sync());
                    });
#endif
                  }),
                  w::when(i < out.size(), out[i] = tile[t]));
  });
}));

int main() {
  warden_case::launch_case(block_scan);
  return block_scan.describe().accesses.empty() ? 1 : 0;
}
