// W006: dsl::build_kernel builds a kernel without the checker (for tests that want the verdict of
// a rejected program); launching one does not compile. warden::kernel checks it first.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

constexpr auto every_block_writes_0 = [](auto, auto out) { return out[0] = 1; };
constexpr auto each_writes_its_own = [](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = 1);
};

int main() {
  w::device_buffer<int> out(256);
#ifdef WARDEN_DEFECT
  constexpr auto racy = w::dsl::build_kernel<w::block<64>, w::out<int>>(every_block_writes_0);
  w::launch(racy, w::grid(4), out);
#else
  constexpr auto checked = w::kernel<w::block<64>, w::out<int>>(each_writes_its_own);
  w::launch(checked, w::grid(4), out);
  (void)every_block_writes_0;
  return w::to_host(out) == std::vector<int>(256, 1) ? 0 : 1;
#endif
}
