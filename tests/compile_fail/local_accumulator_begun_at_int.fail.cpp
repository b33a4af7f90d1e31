// W008 on a local: an accumulator begun at 0 is an int, and `sum += x[j] * 0.5f` would truncate
// every step. The message names the type first (issue 57: converting the value, the other fix it
// names, keeps the integer sum). The twin is that fix, followed literally: w::local(k, 0.f, ...).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(half_sums, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto sums) {
                auto i = k.global_id();
#ifdef WARDEN_DEFECT
                return w::when(i < sums.size(), w::local(k, 0, [&](auto k, auto sum) {
#else
                return w::when(i < sums.size(), w::local(k, 0.f, [&](auto k, auto sum) {
#endif
                                 return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) { return sum += x[j * 64 + i] * 0.5f; }),
                                               sums[i] = sum);
                               }));
              }).named("half_sums", "x", "sums"));

int main() {
  auto x = w::to_device(std::vector<float>(256, 1.f));
  w::device_buffer<float> sums(64);
  w::launch(w::on_cpu, half_sums, w::grid_for(64), x, sums);
  return w::to_host(sums)[0] == 2.f ? 0 : 1;
}
