// Sum reduction through a shared-memory tree and a warp-shuffle stage, one partial sum per block,
// reduced again until one is left, written by hand in CUDA: the baseline for examples/reduction
// (same tree, barriers, shuffles, passes and launch shape).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "reduction_twin.cuh"

using namespace twins::reduction;

namespace {

const twin::checker ok{"reduction_twin"};

bool run(int n) {
  std::vector<float> in(n);
  double reference = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>(i % 7) * 0.5f;
    reference += in[i];
  }
  float *a = nullptr, *b = nullptr;
  const int first = (n + block_size - 1) / block_size;
  bool good = ok(cudaMalloc(&a, sizeof(float) * n), "cudaMalloc") && ok(cudaMalloc(&b, sizeof(float) * first), "cudaMalloc") &&
              ok(cudaMemcpy(a, in.data(), sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
  float got = 0.f;
  for (int size = n; good && size > 1;) {  // each pass leaves one partial sum per block
    const int blocks = (size + block_size - 1) / block_size;
    reduction_twin<<<blocks, block_size>>>(a, b, size);
    good = ok(cudaGetLastError(), "reduction_twin<<<>>>");
    float* swap = a;
    a = b;
    b = swap;
    size = blocks;
  }
  good = good && ok(cudaMemcpy(&got, a, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(a);
  cudaFree(b);
  if (!good) return false;
  const bool good_result = got == reference;
  std::printf("reduction_twin: n=%d on the GPU: sum %g, reference %g -> %s\n", n, static_cast<double>(got), reference,
              good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("reduction_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 20, 1000}) good = run(n) && good;
  return good ? 0 : 1;
}
