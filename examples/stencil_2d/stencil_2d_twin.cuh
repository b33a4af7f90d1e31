#pragma once
// The hand-written CUDA kernel of examples/stencil_2d: included by stencil_2d_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See stencil_2d_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::stencil_2d {

constexpr int tile_size = 16;

__global__ void stencil_2d_twin(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[tile_size + 2][tile_size + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * tile_size + ty, col = blockIdx.x * tile_size + tx;
  const bool inside = row < rows && col < cols;
  tile[ty + 1][tx + 1] = inside ? in[row * cols + col] : 0.f;
  if (tx == 0) tile[ty + 1][0] = row < rows && col >= 1 && col - 1 < cols ? in[row * cols + col - 1] : 0.f;
  if (tx == tile_size - 1) tile[ty + 1][tile_size + 1] = row < rows && col + 1 < cols ? in[row * cols + col + 1] : 0.f;
  if (ty == 0) tile[0][tx + 1] = row >= 1 && row - 1 < rows && col < cols ? in[(row - 1) * cols + col] : 0.f;
  if (ty == tile_size - 1) tile[tile_size + 1][tx + 1] = row + 1 < rows && col < cols ? in[(row + 1) * cols + col] : 0.f;
  __syncthreads();
  if (inside)
    out[row * cols + col] = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2] - 4.f * tile[ty + 1][tx + 1];
}

}  // namespace twins::stencil_2d
