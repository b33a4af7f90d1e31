// W012: a store at an index computed by a fast-math intrinsic from loaded data (a bucket from
// __fdividef): the checker takes an intrinsic's result as data, so two threads may compute the same
// bucket. The twin adds to the bucket atomically.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using buckets = w::out<int>;
#else
using buckets = w::atomic<int>;
#endif
WARDEN_KERNEL(bucket_of, w::kernel<w::block<128>, w::in<float>, buckets>([](auto k, auto x, auto bins) {
  auto i = k.global_id();
#ifdef WARDEN_DEFECT
  return w::when(i < x.size(), bins[w::convert<int>(w::fast::divide(x[i], 0.25f))] = 1);
#else
  return w::when(i < x.size(), w::atomic_add(bins[w::convert<int>(w::fast::divide(x[i], 0.25f))], 1));
#endif
}));

int main() {
  warden_case::launch_case(bucket_of);
  return bucket_of.describe().accesses.empty() ? 1 : 0;
}
