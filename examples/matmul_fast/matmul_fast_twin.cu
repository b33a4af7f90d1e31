// Register-tiled matrix multiply (128 x 128 per block, 8 x 8 per thread), written by hand in CUDA: the
// baseline for examples/matmul_fast (same tiles, guards, barriers and launch shape).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "matmul_fast_twin.cuh"

using namespace twins::matmul_fast;

namespace {

const twin::checker ok{"matmul_fast_twin"};

bool run(int n) {
  const size_t size = static_cast<size_t>(n) * n, bytes = size * sizeof(float);
  std::vector<float> a(size), b(size), c(size);
  for (size_t i = 0; i < size; ++i) {
    a[i] = static_cast<float>((i * 37) % 11) - 5.f;
    b[i] = static_cast<float>((i * 17) % 7) - 3.f;
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  bool good = ok(cudaMalloc(&da, bytes), "cudaMalloc") && ok(cudaMalloc(&db, bytes), "cudaMalloc") && ok(cudaMalloc(&dc, bytes), "cudaMalloc") &&
              ok(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy") &&
              ok(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  if (good) {
    const dim3 grid((n + tile - 1) / tile, (n + tile - 1) / tile), block(16, 16);
    matmul_fast_twin<<<grid, block>>>(da, db, dc, n);
    good = ok(cudaGetLastError(), "matmul_fast_twin<<<>>>") && ok(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  if (!good) return false;
  double max_error = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double expect = 0;
      for (int q = 0; q < n; ++q) expect += static_cast<double>(a[static_cast<size_t>(i) * n + q]) * b[static_cast<size_t>(q) * n + j];
      max_error = std::fmax(max_error, std::fabs(c[static_cast<size_t>(i) * n + j] - expect));
    }
  const bool good_result = max_error <= 1e-3;
  std::printf("matmul_fast_twin: n=%d on the GPU: max |error| vs reference = %g -> %s\n", n, max_error, good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("matmul_fast_twin")) return twin::skipped;
  bool good = run(256);
  good = run(300) && good;
  good = run(77) && good;
  return good ? 0 : 1;
}
