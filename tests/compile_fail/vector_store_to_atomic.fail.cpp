// W040: a vector store to an atomic<T> parameter, whose elements take atomic updates only. The
// message names the parameter and quotes the store as written. The twin declares it out<int>.
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using flags_t = w::atomic<int>;
#else
using flags_t = w::out<int>;
#endif
WARDEN_KERNEL(clear_flags, w::kernel<w::block<64>, flags_t>([](auto k, auto flags) {
  auto i = k.global_id();
  return w::when(i < flags.size() / 4, w::vectors<4>(flags)[i] = w::make_vec(0, 0, 0, 0));
}));

int main() {
  warden_case::launch_case(clear_flags);
  return clear_flags.describe().accesses.size() == 4 ? 0 : 1;
}
