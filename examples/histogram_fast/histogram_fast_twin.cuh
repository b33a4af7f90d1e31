#pragma once
// The hand-written CUDA kernel of examples/histogram_fast: included by histogram_fast_twin.cu (its
// program) and by benchmarks/gpu (timed against the warden kernel).
#include <cuda_runtime.h>

namespace twins::histogram_fast {

constexpr int bins = 256;
constexpr int block_size = 256;

__global__ void histogram_fast_twin(const int* __restrict__ in, int n, int* bins_out) {
  __shared__ int counts[bins];
  const int t = threadIdx.x;
  counts[t] = 0;
  __syncthreads();
  const int4* in4 = reinterpret_cast<const int4*>(in);
  for (int i = blockIdx.x * blockDim.x + t; i < n / 4; i += gridDim.x * blockDim.x) {
    const int4 v = in4[i];
    atomicAdd(&counts[v.x & (bins - 1)], 1);
    atomicAdd(&counts[v.y & (bins - 1)], 1);
    atomicAdd(&counts[v.z & (bins - 1)], 1);
    atomicAdd(&counts[v.w & (bins - 1)], 1);
  }
  const int tail = n / 4 * 4 + blockIdx.x * blockDim.x + t;
  if (tail < n) atomicAdd(&counts[in[tail] & (bins - 1)], 1);
  __syncthreads();
  if (counts[t] != 0) atomicAdd(&bins_out[t], counts[t]);
}

}  // namespace twins::histogram_fast
