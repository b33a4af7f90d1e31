// Instantiates the warden reverse-in-block kernel's CUDA entry, for benchmarks/zero_cost.sh to
// compare with examples/reverse_block/reverse_block_twin.cu.
#include "../../examples/reverse_block/reverse_block.hpp"

void launch_reverse(warden::device_buffer<float>& in, warden::device_buffer<float>& out) {
  warden::launch(examples::reverse_block, warden::grid_for(in.size()), in, out);
}
