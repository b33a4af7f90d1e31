// A 256-bin histogram privatised per block in shared memory, written by hand in CUDA: the baseline
// for examples/histogram_fast (same algorithm and launch shape).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "histogram_fast_twin.cuh"

using namespace twins::histogram_fast;

namespace {

const twin::checker ok{"histogram_fast_twin"};

bool run(int n) {
  std::vector<int> in(n), reference(bins, 0), got(bins, 0);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<int>((static_cast<long long>(i) * 7919 + i / 3) % 1000);
    ++reference[in[i] & (bins - 1)];
  }
  int* din = nullptr;
  int* dbins = nullptr;
  bool good = ok(cudaMalloc(&din, sizeof(int) * n), "cudaMalloc") && ok(cudaMalloc(&dbins, sizeof(int) * bins), "cudaMalloc") &&
              ok(cudaMemcpy(din, in.data(), sizeof(int) * n, cudaMemcpyHostToDevice), "cudaMemcpy") &&
              ok(cudaMemset(dbins, 0, sizeof(int) * bins), "cudaMemset");
  const int blocks = std::max(1, std::min((n / 4 + block_size - 1) / block_size, 132 * 8));
  if (good) {
    histogram_fast_twin<<<blocks, block_size>>>(din, n, dbins);
    good = ok(cudaGetLastError(), "histogram_fast_twin<<<>>>") &&
           ok(cudaMemcpy(got.data(), dbins, sizeof(int) * bins, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(din);
  cudaFree(dbins);
  if (!good) return false;
  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += got[b] != reference[b];
  std::printf("histogram_fast_twin: n=%d on the GPU: %d of %d bins differ from the reference -> %s\n", n, wrong, bins,
              wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("histogram_fast_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 22, 1000003, 1000, 3}) good = run(n) && good;
  return good ? 0 : 1;
}
