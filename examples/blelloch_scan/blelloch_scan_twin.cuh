#pragma once
// The hand-written CUDA kernel of examples/blelloch_scan: included by blelloch_scan_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See blelloch_scan_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::blelloch_scan {

constexpr int threads = 128;
constexpr int elements = 2 * threads;
constexpr int levels = 8;

__global__ void blelloch_scan_twin(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int tile[elements];
  const int t = threadIdx.x, base = blockIdx.x * elements;
  tile[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  tile[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  __syncthreads();
  for (int d = 0; d < levels; ++d) {
    const int offset = 1 << d;
    if (t < (threads >> d)) tile[offset * (2 * t + 2) - 1] += tile[offset * (2 * t + 1) - 1];
    __syncthreads();
  }
  if (t == 0) tile[elements - 1] = 0;
  __syncthreads();
  for (int e = 0; e < levels; ++e) {
    const int offset = threads >> e;
    if (t < (1 << e)) {
      const int left = tile[offset * (2 * t + 1) - 1];
      tile[offset * (2 * t + 1) - 1] = tile[offset * (2 * t + 2) - 1];
      tile[offset * (2 * t + 2) - 1] += left;
    }
    __syncthreads();
  }
  if (base + 2 * t < n) out[base + 2 * t] = tile[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = tile[2 * t + 1];
}

}  // namespace twins::blelloch_scan
