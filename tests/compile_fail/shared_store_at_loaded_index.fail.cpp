// W012: a shared tile store at an index computed from loaded data.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(bucket, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
#ifdef WARDEN_DEFECT
    return w::seq(tile[t] = 0, w::sync(), tile[in[i] & 63] = 1, w::sync(), out[i] = tile[t]);
#else
    return w::seq(tile[t] = 0, w::sync(), tile[t] = in[i] & 63, w::sync(), out[i] = tile[t]);
#endif
  });
}));

int main() {
  warden_case::launch_case(bucket);
  return bucket.describe().accesses.empty() ? 1 : 0;
}
