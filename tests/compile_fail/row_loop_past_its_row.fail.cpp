// W010: a block-stride loop over one row of `cols` per block that runs one element too far
// (j < cols + 1): the last j of block b is block b + 1's first element. The twin stops at cols; its
// loop bound `j < cols` is what keeps every row inside its own window.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

WARDEN_KERNEL(scale_rows, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::value<int>>(
    [](auto k, auto in, auto out, auto cols) {
      auto t = k.thread_id();
      auto b = k.block_id();
#ifdef WARDEN_DEFECT
      auto end = cols + 1;
#else
      auto end = cols;
#endif
      return w::for_range(k, t, end, 64, [&](auto, auto j) { return out[b * cols + j] = in[b * cols + j] * 2.f; });
    }));

int main() {
  warden_case::launch_case(scale_rows);
  return scale_rows.describe().accesses.empty() ? 1 : 0;
}
