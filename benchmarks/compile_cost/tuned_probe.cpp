// What tuning adds to the compile time of a file (docs/benchmarks.md, "Tuned kernels"): one body on
// three block shapes, launched on the cpu backend, as a tuned kernel (PROBE_TUNED=1: warden/tuned.hpp,
// Boost.Hana's tuple_t, filter and for_each) and as three WARDEN_KERNELs launched one after the
// other (PROBE_TUNED=0: the same three checked kernels, no tuner; PROBE_TUNED=2: those, with the
// tuner's headers but tuned.hpp, which brings Hana). scripts/tuned-cost times them.
#include <warden/warden.hpp>
#if PROBE_TUNED == 1
#include <warden/tuned.hpp>
#elif PROBE_TUNED == 2
#include <warden/tuning/cache_file.hpp>
#include <warden/tuning/candidate.hpp>
#include <warden/tuning/settings.hpp>
#include <warden/tuning/snapshot.hpp>
#include <warden/tuning/timer.hpp>
#endif

#include <vector>

namespace w = warden;

#define PROBE_BODY                                     \
  [](auto k, auto x, auto y, auto a) {                 \
    auto i = k.global_id();                            \
    return w::when(i < x.size(), y[i] = a * x[i] + y[i]); \
  }

#if PROBE_TUNED == 1
WARDEN_TUNED(probe, w::tuned<w::in<float>, w::inout<float>, w::value<float>>(
                        PROBE_BODY, w::candidates<w::block<128>, w::block<256>, w::block<512>>));
#else
WARDEN_KERNEL(probe128, w::kernel<w::block<128>, w::in<float>, w::inout<float>, w::value<float>>(PROBE_BODY));
WARDEN_KERNEL(probe256, w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(PROBE_BODY));
WARDEN_KERNEL(probe512, w::kernel<w::block<512>, w::in<float>, w::inout<float>, w::value<float>>(PROBE_BODY));
#endif

int main() {
  auto x = w::to_device(std::vector<float>(1000, 1.f));
  auto y = w::to_device(std::vector<float>(1000, 2.f));
#if PROBE_TUNED == 1
  w::launch(w::on_cpu, probe, w::grid_for(1000), x, y, 2.f);
#else
  w::launch(w::on_cpu, probe128, w::grid_for(1000), x, y, 2.f);
  w::launch(w::on_cpu, probe256, w::grid_for(1000), x, y, 2.f);
  w::launch(w::on_cpu, probe512, w::grid_for(1000), x, y, 2.f);
#endif
  return 0;
}
