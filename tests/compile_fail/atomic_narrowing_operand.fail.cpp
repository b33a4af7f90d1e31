// W008: a floating-point operand of an atomic update of integral elements would be truncated.
// The message names the parameter and the statement; the twin is its fix, followed literally:
// w::atomic_add(total[0], w::convert<int>(w::round(value))), which rounds each 2.5 to 3.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(scaled_sum, w::kernel<w::block<64>, w::in<float>, w::atomic<int>>([](auto k, auto x, auto total) {
                auto i = k.global_id();
#ifdef WARDEN_DEFECT
                return w::when(i < x.size(), w::atomic_add(total[0], x[i] * 10.f));
#else
                return w::when(i < x.size(), w::atomic_add(total[0], w::convert<int>(w::round(x[i] * 10.f))));
#endif
              }).named("scaled_sum", "x", "total"));

int main() {
  auto x = w::to_device(std::vector<float>(64, 0.25f));
  auto total = w::to_device(std::vector<int>(1, 0));
  w::launch(w::on_cpu, scaled_sum, w::grid(1), x, total);
  return w::to_host(total)[0] == 64 * 3 ? 0 : 1;
}
