// The fast reduction written by hand in CUDA (float4 loads in a grid-stride loop, warp shuffles, one
// shared slot per warp; two passes): the baseline for examples/reduction_fast (same algorithm,
// passes and launch shape).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "reduction_fast_twin.cuh"

using namespace twins::reduction_fast;

namespace {

const twin::checker ok{"reduction_fast_twin"};

bool run(int n) {
  std::vector<float> in(n);
  double reference = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>(static_cast<int>((static_cast<long long>(i) * 7919 + 13) % 17) - 8) * 0.25f;
    reference += in[i];
  }
  const int blocks = std::clamp((n / 4 + block_size - 1) / block_size, 1, 132 * 4);
  float *a = nullptr, *partial = nullptr, *sum = nullptr;
  bool good = ok(cudaMalloc(&a, sizeof(float) * n), "cudaMalloc") && ok(cudaMalloc(&partial, sizeof(float) * blocks), "cudaMalloc") &&
              ok(cudaMalloc(&sum, sizeof(float)), "cudaMalloc") &&
              ok(cudaMemcpy(a, in.data(), sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
  float got = 0.f;
  if (good) {
    reduction_fast_twin<<<blocks, block_size>>>(a, partial, n);
    reduction_fast_twin<<<1, block_size>>>(partial, sum, blocks);
    good = ok(cudaGetLastError(), "reduction_fast_twin<<<>>>") && ok(cudaMemcpy(&got, sum, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(a);
  cudaFree(partial);
  cudaFree(sum);
  if (!good) return false;
  const bool good_result = std::abs(got - reference) <= 1e-4 * (1 + std::abs(reference));
  std::printf("reduction_fast_twin: n=%d in %d blocks on the GPU: sum %g, reference %g -> %s\n", n, blocks, static_cast<double>(got),
              reference, good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("reduction_fast_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 20, 1000003, 7, 1}) good = run(n) && good;
  return good ? 0 : 1;
}
