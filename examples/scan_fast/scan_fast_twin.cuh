#pragma once
// The hand-written CUDA kernels of examples/scan_fast: included by scan_fast_twin.cu (its program)
// and by benchmarks/gpu (timed against the warden kernels). Same passes, tiles (1024 values, 4 per
// thread as one int4), shuffles, barriers and launch shapes.
#include <cuda_runtime.h>

namespace twins::scan_fast {

constexpr int block_size = 256, tile = 4 * block_size, warps = block_size / 32;

__global__ void scan_fast_reduce_twin(const int* __restrict__ in, int* __restrict__ sums, int n) {
  __shared__ int warp_sums[warps];
  const int t = threadIdx.x, i = blockIdx.x * block_size + t;
  int total = 0;
  if (i < n / 4) {
    const int4 v = reinterpret_cast<const int4*>(in)[i];
    total = (v.x + v.y) + (v.z + v.w);
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      if (4 * i + c < n) total += in[4 * i + c];
  }
  for (int offset = 16; offset > 0; offset >>= 1) total += __shfl_down_sync(0xffffffffu, total, offset);
  if (t % 32 == 0) warp_sums[t / 32] = total;
  __syncthreads();
  if (t < 32) {
    int sum = t < warps ? warp_sums[t] : 0;
    for (int offset = 4; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (t == 0) sums[blockIdx.x] = sum;
  }
}

__global__ void scan_fast_scan_twin(const int* __restrict__ in, const int* __restrict__ offsets, int* __restrict__ out, int n) {
  __shared__ int warp_totals[warps];
  const int t = threadIdx.x, lane = t % 32, i = blockIdx.x * block_size + t;
  int x[4] = {0, 0, 0, 0};
  if (i < n / 4) {
    const int4 v = reinterpret_cast<const int4*>(in)[i];
    x[0] = v.x;
    x[1] = v.y;
    x[2] = v.z;
    x[3] = v.w;
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c)
      if (4 * i + c < n) x[c] = in[4 * i + c];
  }
  x[1] += x[0];
  x[2] += x[1];
  x[3] += x[2];
  int running = x[3];
  for (int step = 0; step < 5; ++step) {
    const int other = __shfl_up_sync(0xffffffffu, running, 1 << step);
    if (lane >= (1 << step)) running += other;
  }
  if (lane == 31) warp_totals[t / 32] = running;
  __syncthreads();
  int before = offsets[blockIdx.x] + (running - x[3]);
  for (int warp = 0; warp < t / 32; ++warp) before += warp_totals[warp];
  if (i < n / 4) {
    reinterpret_cast<int4*>(out)[i] = make_int4(before, before + x[0], before + x[1], before + x[2]);
  } else {
    if (4 * i < n) out[4 * i] = before;
    if (4 * i + 1 < n) out[4 * i + 1] = before + x[0];
    if (4 * i + 2 < n) out[4 * i + 2] = before + x[1];
  }
}

}  // namespace twins::scan_fast
