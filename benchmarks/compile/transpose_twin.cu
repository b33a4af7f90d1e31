// The hand-written twin of transpose_warden.cu (scripts/check-once-cost, issue 58): the same
// padded-tile transpose in plain CUDA, launched the same way. Compiled only by that script.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

constexpr int TILE_DIM = 32, BLOCK_ROWS = 16;

__global__ void transpose_no_bank_conflicts(float* odata, const float* idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  const int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * width + x];
  __syncthreads();
  const int tx = blockIdx.y * TILE_DIM + threadIdx.x, ty = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[(ty + i) * height + tx] = tile[threadIdx.x][threadIdx.y + i];
}

int main() {
  constexpr int size = 1024;
  std::vector<float> host(size * size);
  for (int i = 0; i < size * size; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, host.size() * sizeof(float));
  cudaMalloc(&out, host.size() * sizeof(float));
  cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  transpose_no_bank_conflicts<<<dim3(size / TILE_DIM, size / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(out, in, size, size);
  cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%f\n", host[1]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
