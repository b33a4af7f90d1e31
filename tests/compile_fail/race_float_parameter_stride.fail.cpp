// W010: a window per block of width p, with p a float: for p = 2.5, t < p lets t = 2 run, and block
// 0's element 0 * 2.5 + 2 is block 1's 1 * 2.5 + 0 once converted to an index. A floating-point
// value is no integer symbol to the checker; as an int, the same kernel is proved.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using width = w::value<float>;
#else
using width = w::value<int>;
#endif

WARDEN_KERNEL(windows, w::kernel<w::block<4>, w::out<int>, width>([](auto k, auto out, auto p) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::when(t < p && b * p + t < out.size(), out[b * p + t] = 1);
}));

int main() {
  warden_case::launch_case(windows);
  return windows.describe().accesses.empty() ? 1 : 0;
}
