#pragma once
// The hand-written CUDA kernel of examples/matmul_fast: included by matmul_fast_twin.cu (its program)
// and by benchmarks/gpu (timed against the warden kernel). Same tiles, thread mapping, barriers and
// launch shape: 16 x 16 threads, a 128 x 128 tile of C per block, 8 x 8 per thread in registers.
#include <cuda_runtime.h>

namespace twins::matmul_fast {

constexpr int tile = 128, step = 8, per_thread = 8;

__global__ void __launch_bounds__(256) matmul_fast_twin(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  __shared__ float ta[tile][step];
  __shared__ float tb[step][tile];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  const int row0 = blockIdx.y * tile, col0 = blockIdx.x * tile;
  float acc[per_thread][per_thread] = {};
  for (int kt = 0; kt < (n + step - 1) / step; ++kt) {
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      const int r = t / 8 + 32 * p, col = kt * step + t % 8;
      ta[r][t % 8] = row0 + r < n && col < n ? a[(row0 + r) * n + col] : 0.f;
    }
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      const int r = kt * step + t / 128 + 2 * p;
      tb[t / 128 + 2 * p][t % 128] = r < n && col0 + t % 128 < n ? b[r * n + (col0 + t % 128)] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < step; ++kk)
#pragma unroll
      for (int i = 0; i < per_thread; ++i)
#pragma unroll
        for (int j = 0; j < per_thread; ++j) acc[i][j] += ta[ty + 16 * i][kk] * tb[kk][tx + 16 * j];
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < per_thread; ++i)
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      const int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
      if (row < n && col < n) c[row * n + col] = acc[i][j];
    }
}

}  // namespace twins::matmul_fast
