// W004: an atomic update of an out<T> parameter (it reads the element it updates). The message
// asks for atomic<T>, the mode threads that update together need, not inout<T>; the program
// launches the kernel, and the diagnostic stays the only error.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
using bins_param = w::out<int>;
#else
using bins_param = w::atomic<int>;
#endif

WARDEN_KERNEL(count, w::kernel<w::block<64>, w::in<int>, bins_param>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & 15], 1));
}));

int main() {
  auto in = w::to_device(std::vector<int>(64, 3));
  auto bins = w::to_device(std::vector<int>(16, 0));
  w::launch(w::on_cpu, count, w::grid_for(64), in, bins);
#ifdef __CUDACC__
  w::launch(count, w::grid_for(64), in, bins);  // under nvcc: the cuda backend's kernel is instantiated too
#endif
  return count.describe().accesses.size() == 2 ? 0 : 1;
}
