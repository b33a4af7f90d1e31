// W004: a kernel reads an out<T> parameter (here through a compound assignment).
#include <warden/warden.hpp>

#include "support/launch_case.hpp"

namespace w = warden;

#ifdef WARDEN_DEFECT
using result_param = w::out<int>;
#else
using result_param = w::inout<int>;
#endif

WARDEN_KERNEL(bump, w::kernel<w::block<64>, result_param>([](auto k, auto result) {
  auto i = k.global_id();
  return w::when(i < result.size(), result[i] += 1);
}));

int main() {
  warden_case::launch_case(bump);
  return bump.describe().accesses.size() == 2 ? 0 : 1;
}
