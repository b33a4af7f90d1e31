// W007: non_decreasing(row_ptr) states a fact about row_ptr's contents, which launch measures before
// running. A buffer the kernel may write (inout) changes while it runs, so no measurement holds for
// the run. The twin declares row_ptr in<int>: launch measures it, and the CSR rows run.
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

#ifdef WARDEN_DEFECT
using row_ptr_param = w::inout<int>;
#else
using row_ptr_param = w::in<int>;
#endif

WARDEN_KERNEL(row_lengths, w::kernel<w::block<64>, row_ptr_param, w::out<int>>([](auto k, auto row_ptr, auto len) {
  auto r = k.global_id();
  return w::given(w::non_decreasing(row_ptr), w::when(r + 1 < row_ptr.size() && r < len.size(), len[r] = row_ptr[r + 1] - row_ptr[r]));
}));

int main() {
  auto row_ptr = w::to_device(std::vector<int>{0, 2, 2, 7});
  w::device_buffer<int> len(3);
  w::launch(w::on_cpu, row_lengths, w::grid_for(3), row_ptr, len);
  return w::to_host(len) == std::vector<int>{2, 0, 5} ? 0 : 1;
}
