// W010, from a tuned kernel whose every candidate the checker rejects (issue 57, item 2): one
// error, the first candidate's diagnostic in the body's names, opened by the kernel and the
// candidate; no error from Boost.Hana or the launch after it, and no pointer to warnings that only
// g++ prints. The twin gives each thread its own element.
#include <warden/tuned.hpp>

#include <vector>

namespace w = warden;

WARDEN_TUNED(scale_tuned, w::tuned<w::in<float>, w::out<float>, w::value<float>>(
    [](auto k, auto x, auto y, auto a) {
      auto i = k.global_id();
#ifdef WARDEN_DEFECT
      return w::when(i < x.size(), y[i / 2] = a * x[i]);
#else
      return w::when(i < x.size(), y[i] = a * x[i]);
#endif
    },
    w::candidates<w::block<128>, w::block<256>>));

int main() {
  w::device_buffer<float> x = w::to_device(std::vector<float>(1024, 1.f)), y(1024);
  w::launch(w::on_cpu, scale_tuned, w::grid_for(1024), x, y, 2.f);
  return w::to_host(y)[0] == 2.f ? 0 : 1;
}
