// Instantiates the warden saxpy kernel's CUDA entry, for benchmarks/zero_cost.sh to compare with
// examples/saxpy/saxpy_twin.cu.
#include "../../examples/saxpy/saxpy.hpp"

void launch_saxpy(warden::device_buffer<float>& x, warden::device_buffer<float>& y, float a) {
  warden::launch(examples::saxpy, warden::grid_for(x.size()), x, y, a);
}
