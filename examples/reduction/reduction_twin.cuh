#pragma once
// The hand-written CUDA kernel of examples/reduction: included by reduction_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See reduction_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::reduction {

constexpr int block_size = 256;

__global__ void reduction_twin(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[block_size];
  const int t = threadIdx.x, i = blockIdx.x * block_size + t;
  tile[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (int half = block_size / 2; half >= 64; half >>= 1) {
    if (t < half) tile[t] = tile[t] + tile[t + half];
    __syncthreads();
  }
  if (t < 32) {
    float sum = tile[t] + tile[t + 32];
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (t == 0) out[blockIdx.x] = sum;
  }
}

}  // namespace twins::reduction
