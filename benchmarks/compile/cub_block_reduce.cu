// The comparison file of scripts/check-once-cost (issue 58): a program a CUDA user writes with one
// cub::BlockReduce kernel instead of warden's reduction: allocate, copy in, launch, copy out.
// Compiled only by that script (nvcc -c), never built or run by the test suite.
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

template <int Threads>
__global__ void block_sums(const float* in, float* out, int n) {
  using reduce = cub::BlockReduce<float, Threads>;
  __shared__ typename reduce::TempStorage scratch;
  const int i = blockIdx.x * Threads + threadIdx.x;
  const float sum = reduce(scratch).Sum(i < n ? in[i] : 0.f);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int main() {
  constexpr int n = 1 << 20, threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> host(n, 1.f), sums(blocks);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  block_sums<threads><<<blocks, threads>>>(in, out, n);
  cudaMemcpy(sums.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%f\n", sums[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
