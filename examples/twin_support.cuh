#pragma once
// What every hand-written CUDA twin needs around its kernel: CUDA calls checked with a message
// that names the twin, and a skip (exit code 77, CTest's SKIP_RETURN_CODE for examples) on a
// machine without a device. The twins' kernels and host code stay as a careful programmer writes
// them by hand; only this harness is shared.
#include <cuda_runtime.h>

#include <cstdio>

namespace twin {

inline constexpr int skipped = 77;

// ok(status, "cudaMalloc"): true on success, else prints the error with the twin's name.
struct checker {
  const char* twin;
  bool operator()(cudaError_t status, const char* call) const {
    if (status == cudaSuccess) return true;
    std::fprintf(stderr, "%s: %s failed: %s (%s)\n", twin, call, cudaGetErrorName(status), cudaGetErrorString(status));
    return false;
  }
};

// True when a CUDA device is present; otherwise says why the twin is skipped.
inline bool device_present(const char* twin) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status == cudaSuccess && devices > 0) return true;
  std::printf("%s: skipped, no CUDA device (%s)\n", twin, status == cudaSuccess ? "0 devices" : cudaGetErrorName(status));
  return false;
}

}  // namespace twin
