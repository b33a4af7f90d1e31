// The three-pass scan written by hand in CUDA: the baseline for examples/scan_fast (same passes,
// tiles, recursion and launch shapes).
#include <cuda_runtime.h>

#include <cstdio>
#include <numeric>
#include <vector>

#include "../twin_support.cuh"
#include "scan_fast_twin.cuh"

using namespace twins::scan_fast;

namespace {

const twin::checker ok{"scan_fast_twin"};

// out = the exclusive scan of in (n values each), the tiles' sums scanned recursively.
bool exclusive_scan(const int* in, int* out, int n) {
  const int tiles = (n + tile - 1) / tile;
  if (tiles <= 1) {
    int* zero = nullptr;
    bool good = ok(cudaMalloc(&zero, sizeof(int)), "cudaMalloc") && ok(cudaMemset(zero, 0, sizeof(int)), "cudaMemset");
    if (good) {
      scan_fast_scan_twin<<<1, block_size>>>(in, zero, out, n);
      good = ok(cudaGetLastError(), "scan_fast_scan_twin<<<>>>") && ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    cudaFree(zero);
    return good;
  }
  int *sums = nullptr, *offsets = nullptr;
  bool good = ok(cudaMalloc(&sums, sizeof(int) * tiles), "cudaMalloc") && ok(cudaMalloc(&offsets, sizeof(int) * tiles), "cudaMalloc");
  if (good) {
    scan_fast_reduce_twin<<<tiles, block_size>>>(in, sums, n);
    good = ok(cudaGetLastError(), "scan_fast_reduce_twin<<<>>>") && exclusive_scan(sums, offsets, tiles);
  }
  if (good) {
    scan_fast_scan_twin<<<tiles, block_size>>>(in, offsets, out, n);
    good = ok(cudaGetLastError(), "scan_fast_scan_twin<<<>>>") && ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  cudaFree(sums);
  cudaFree(offsets);
  return good;
}

bool run(int n) {
  std::vector<int> in(n), reference(n), got(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<int>((static_cast<long long>(i) * 7919 + 13) % 10);
  std::exclusive_scan(in.begin(), in.end(), reference.begin(), 0);
  int *din = nullptr, *dout = nullptr;
  bool good = ok(cudaMalloc(&din, sizeof(int) * n), "cudaMalloc") && ok(cudaMalloc(&dout, sizeof(int) * n), "cudaMalloc") &&
              ok(cudaMemcpy(din, in.data(), sizeof(int) * n, cudaMemcpyHostToDevice), "cudaMemcpy") && exclusive_scan(din, dout, n) &&
              ok(cudaMemcpy(got.data(), dout, sizeof(int) * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(din);
  cudaFree(dout);
  if (!good) return false;
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != reference[i];
  std::printf("scan_fast_twin: n=%d on the GPU: %d of %d values differ from std::exclusive_scan -> %s\n", n, wrong, n, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("scan_fast_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 21, 1000003, 1024, 7, 1}) good = run(n) && good;
  return good ? 0 : 1;
}
