#pragma once
// The hand-written CUDA kernel of examples/bitonic_sort: included by bitonic_sort_twin.cu (its program) and
// by benchmarks/gpu (timed against the warden kernel). See bitonic_sort_twin.cu for what it does.
#include <cuda_runtime.h>

namespace twins::bitonic_sort {

constexpr int block_size = 256;
constexpr int stages = 8;

__global__ void bitonic_sort_twin(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int tile[block_size];
  const int t = threadIdx.x, i = blockIdx.x * block_size + t;
  tile[t] = i < n ? in[i] : INT_MAX;
  __syncthreads();
  for (int s = 1; s <= stages; ++s)
    for (int r = 0; r < s; ++r) {
      const int p = t ^ (1 << (s - 1 - r));
      const bool ascending = (t & (1 << s)) == 0;
      if (p > t) {
        const int a = tile[t], b = tile[p];
        if ((a > b) == ascending) {
          tile[t] = b;
          tile[p] = a;
        }
      }
      __syncthreads();
    }
  if (i < n) out[i] = tile[t];
}

}  // namespace twins::bitonic_sort
