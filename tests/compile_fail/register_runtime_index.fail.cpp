// W009: a register array indexed at run time (a loaded value), in a program that launches the
// kernel: nvcc could not keep such an array in registers. The twin indexes it with w::unroll's
// counter.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(pick, w::kernel<w::block<32>, w::in<int>, w::out<int>>([](auto k, auto which, auto out) {
  auto t = k.global_id();
  return w::when(t < which.size(), w::registers<int, 4>(k, [&](auto k, auto r) {
                   return w::seq(w::unroll<4>(k, [&](auto, auto j) { return r[j] = j * 10; }),
#ifdef WARDEN_DEFECT
                                 out[t] = r[which[t] & 3]
#else
                                 w::unroll<4>(k, [&](auto, auto j) { return w::when((which[t] & 3) == j, out[t] = r[j]); })
#endif
                   );
                 }));
}));

int main() {
  auto which = w::to_device(std::vector<int>(32, 2));
  w::device_buffer<int> out(32);
  w::launch(w::on_cpu, pick, w::grid_for(32), which, out);
#ifdef __CUDACC__
  w::launch(pick, w::grid_for(32), which, out);  // under nvcc: the cuda backend's kernel is instantiated too
#endif
  return w::to_host(out)[31] == 20 ? 0 : 1;
}
