// saxpy, written by hand in CUDA: y[i] = a * x[i] + y[i], one thread per element, guarded.
// This is the twin a warden kernel must match instruction for instruction.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "saxpy_twin.cuh"

using namespace twins::saxpy;

namespace {

const twin::checker ok{"saxpy_twin"};

bool run(int n) {
  std::vector<float> x(n), y(n), reference(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.5f;
    y[i] = static_cast<float>(i % 13);
    reference[i] = 2.f * x[i] + y[i];
  }
  const size_t bytes = sizeof(float) * static_cast<size_t>(n);
  float* dx = nullptr;
  float* dy = nullptr;
  bool good = ok(cudaMalloc(&dx, bytes), "cudaMalloc") && ok(cudaMalloc(&dy, bytes), "cudaMalloc") &&
              ok(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy") &&
              ok(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  if (good) {
    saxpy_twin<<<(n + 255) / 256, 256>>>(n, 2.f, dx, dy);
    good = ok(cudaGetLastError(), "saxpy_twin<<<>>>") &&
           ok(cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(dx);
  cudaFree(dy);
  if (!good) return false;

  float max_error = 0.f;
  for (int i = 0; i < n; ++i) max_error = std::fmax(max_error, std::fabs(y[i] - reference[i]));
  std::printf("saxpy_twin: n=%d on the GPU: max |error| vs reference = %g -> %s\n", n,
              static_cast<double>(max_error), max_error == 0.f ? "OK" : "MISMATCH");
  return max_error == 0.f;
}

}  // namespace

int main() {
  if (!twin::device_present("saxpy_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 20, 1000}) good = run(n) && good;
  return good ? 0 : 1;
}
