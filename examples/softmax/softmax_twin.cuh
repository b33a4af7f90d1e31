#pragma once
// The hand-written CUDA kernel of examples/softmax: included by softmax_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See softmax_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::softmax {

constexpr int block_size = 256;

__global__ void softmax_twin(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ float tile[block_size];
  const int t = threadIdx.x, at = blockIdx.x * cols + t;
  const float x = t < cols ? in[at] : -INFINITY;
  tile[t] = x;
  __syncthreads();
  for (int half = block_size / 2; half > 0; half >>= 1) {
    if (t < half) tile[t] = fmaxf(tile[t], tile[t + half]);
    __syncthreads();
  }
  const float row_max = tile[0];
  __syncthreads();
  const float e = t < cols ? expf(x - row_max) : 0.f;
  tile[t] = e;
  __syncthreads();
  for (int half = block_size / 2; half > 0; half >>= 1) {
    if (t < half) tile[t] = tile[t] + tile[t + half];
    __syncthreads();
  }
  if (t < cols) out[at] = e / tile[0];
}

}  // namespace twins::softmax
