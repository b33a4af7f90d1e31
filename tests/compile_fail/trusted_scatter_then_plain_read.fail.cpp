// W011: trusted(...) gives up only the pairs of trusted accesses. A trusted permutation scatter
// into y followed by a plain read-back of y in the same kernel: another block's scatter may be
// storing the element this thread reads. The twin reads the input x back instead.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(scatter, w::kernel<w::block<64>, w::in<unsigned>, w::in<int>, w::inout<int>, w::out<int>>([](auto k, auto perm, auto x, auto y, auto z) {
      auto i = k.global_id();
#ifdef WARDEN_DEFECT
      return w::when(i < x.size(), w::seq(w::trusted(y[perm[i] % y.size()] = x[i]), z[i] = 2 * y[i]));
#else
      return w::when(i < x.size(), w::seq(w::trusted(y[perm[i] % y.size()] = x[i]), z[i] = 2 * x[i]));
#endif
    }));

int main() {
  warden_case::launch_case(scatter);
  return scatter.describe().accesses.empty() ? 1 : 0;
}
