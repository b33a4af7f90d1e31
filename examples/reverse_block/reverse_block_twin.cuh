#pragma once
// The hand-written CUDA kernel of examples/reverse_block: included by reverse_block_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See reverse_block_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::reverse_block {

constexpr int block_size = 256;

__global__ void reverse_block_twin(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[block_size];
  const int t = threadIdx.x;
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  tile[t] = in[g];
  __syncthreads();
  out[g] = tile[block_size - 1 - t];
}

}  // namespace twins::reverse_block
