#pragma once
// The hand-written CUDA kernel of examples/transpose: included by transpose_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See transpose_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::transpose {

constexpr int tile_size = 16;

__global__ void transpose_twin(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[tile_size][tile_size + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * tile_size + tx, y = blockIdx.y * tile_size + ty;
  if (y < rows && x < cols) tile[ty][tx] = in[y * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * tile_size + tx, oy = blockIdx.x * tile_size + ty;
  if (oy < cols && ox < rows) out[oy * rows + ox] = tile[tx][ty];
}

}  // namespace twins::transpose
