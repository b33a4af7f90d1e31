// A 2-D five-point stencil through an 18 x 18 shared tile with halos, written by hand in CUDA:
// the baseline for examples/stencil_2d (same tile, halo loads, guards and launch shape).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"

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

namespace {

const twin::checker ok{"stencil_2d_twin"};

bool run(int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols, bytes = n * sizeof(float);
  std::vector<float> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 11) - 5.f;
  float* din = nullptr;
  float* dout = nullptr;
  bool good = ok(cudaMalloc(&din, bytes), "cudaMalloc") && ok(cudaMalloc(&dout, bytes), "cudaMalloc") &&
              ok(cudaMemcpy(din, in.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  if (good) {
    const dim3 grid((cols + tile_size - 1) / tile_size, (rows + tile_size - 1) / tile_size), block(tile_size, tile_size);
    stencil_2d_twin<<<grid, block>>>(din, dout, rows, cols);
    good = ok(cudaGetLastError(), "stencil_2d_twin<<<>>>") && ok(cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(din);
  cudaFree(dout);
  if (!good) return false;
  auto at = [&](int i, int j) { return i < 0 || j < 0 || i >= rows || j >= cols ? 0.f : in[static_cast<size_t>(i) * cols + j]; };
  float max_error = 0.f;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const float expect = at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.f * at(i, j);
      max_error = std::fmax(max_error, std::fabs(out[static_cast<size_t>(i) * cols + j] - expect));
    }
  const bool good_result = max_error <= 1e-4f;
  std::printf("stencil_2d_twin: %d x %d on the GPU: max |error| vs reference = %g -> %s\n", rows, cols,
              static_cast<double>(max_error), good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("stencil_2d_twin")) return twin::skipped;
  bool good = run(1024, 1024);
  good = run(100, 75) && good;
  return good ? 0 : 1;
}
