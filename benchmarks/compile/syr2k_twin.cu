// The hand-written twin of syr2k_warden.cu (scripts/check-once-cost, issue 58): the same syr2k
// kernel in plain CUDA, launched the same way. Compiled only by that script.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

constexpr int NI = 40, NJ = 24;
constexpr int DIM_THREAD_BLOCK_X = 32, DIM_THREAD_BLOCK_Y = 8;

__global__ void syr2k_kernel(float alpha, float beta, const float* a, const float* b, float* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NI) {
    c[i * NI + j] *= beta;
    for (int k = 0; k < NJ; ++k) c[i * NI + j] += alpha * a[i * NJ + k] * b[j * NJ + k] + alpha * b[i * NJ + k] * a[j * NJ + k];
  }
}

int main() {
  std::vector<float> a(NI * NJ, 1.f), b(NI * NJ, 2.f), c(NI * NI, 3.f);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  cudaMalloc(&da, a.size() * sizeof(float));
  cudaMalloc(&db, b.size() * sizeof(float));
  cudaMalloc(&dc, c.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  const dim3 grid((NI + block.x - 1) / block.x, (NI + block.y - 1) / block.y);
  syr2k_kernel<<<grid, block>>>(1.5f, 0.5f, da, db, dc);
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%f\n", c[0]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
