#pragma once
// The hand-written CUDA kernel of examples/histogram: included by histogram_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See histogram_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::histogram {

constexpr int bins = 256;
constexpr int block_size = 256;

__global__ void histogram_twin(const int* __restrict__ in, int n, int* bins_out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins_out[in[i] & (bins - 1)], 1);
}

}  // namespace twins::histogram
