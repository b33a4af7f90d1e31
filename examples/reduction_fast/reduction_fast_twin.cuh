#pragma once
// The hand-written CUDA kernel of examples/reduction_fast: included by reduction_fast_twin.cu (its
// program) and by benchmarks/gpu (timed against the warden kernel). Same algorithm and launch
// shape: float4 loads in a grid-stride loop, warp shuffles, one shared slot per warp.
#include <cuda_runtime.h>

namespace twins::reduction_fast {

constexpr int block_size = 256;
constexpr int warps = block_size / 32;

__global__ void reduction_fast_twin(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[warps];
  const int t = threadIdx.x, global = blockIdx.x * block_size + t;
  float sum = 0.f;
  const float4* in4 = reinterpret_cast<const float4*>(in);
#pragma unroll 4
  for (int i = global; i < n / 4; i += gridDim.x * block_size) {
    const float4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  const int tail = n / 4 * 4 + global;
  if (tail < n) sum += in[tail];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (t % 32 == 0) warp_sums[t / 32] = sum;
  __syncthreads();
  if (t < 32) {
    float s = 0.f;
    if (t < warps) s = warp_sums[t];
    for (int offset = 4; offset > 0; offset >>= 1) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (t == 0) out[blockIdx.x] = s;
  }
}

}  // namespace twins::reduction_fast
