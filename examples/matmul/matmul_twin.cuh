#pragma once
// The hand-written CUDA kernel of examples/matmul: included by matmul_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See matmul_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::matmul {

constexpr int tile_size = 16;

__global__ void matmul_twin(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  __shared__ float ta[tile_size][tile_size];
  __shared__ float tb[tile_size][tile_size];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile_size + ty, col = blockIdx.x * tile_size + tx;
  float acc = 0.f;
  for (int kt = 0; kt < (n + tile_size - 1) / tile_size; ++kt) {
    ta[ty][tx] = row < n && kt * tile_size + tx < n ? a[row * n + kt * tile_size + tx] : 0.f;
    tb[ty][tx] = col < n && kt * tile_size + ty < n ? b[(kt * tile_size + ty) * n + col] : 0.f;
    __syncthreads();
    for (int j = 0; j < tile_size; ++j) acc += ta[ty][j] * tb[j][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

}  // namespace twins::matmul
