#pragma once
// The hand-written CUDA kernel of examples/saxpy: included by saxpy_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See saxpy_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::saxpy {

__global__ void saxpy_twin(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace twins::saxpy
