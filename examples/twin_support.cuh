#pragma once
// What every hand-written CUDA twin needs around its kernel: CUDA calls checked with a message
// that names the twin, the round trip of a one-input, one-output kernel, and a skip (exit code 77, CTest's SKIP_RETURN_CODE for examples) on a
// machine without a device. The twins' kernels and host code stay as a careful programmer writes
// them by hand; only this harness is shared.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

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

// For a kernel with one input and one output buffer: copies `in` to the device, runs
// launch(din, dout) (which launches the twin's kernel), checks the launch and copies the result
// into `out` (sized by the caller). Frees what it allocated either way.
template <class T, class Launch>
bool round_trip(const checker& ok, const std::vector<T>& in, std::vector<T>& out, Launch launch) {
  const size_t in_bytes = sizeof(T) * in.size(), out_bytes = sizeof(T) * out.size();
  T* din = nullptr;
  T* dout = nullptr;
  bool good = ok(cudaMalloc(&din, in_bytes), "cudaMalloc") && ok(cudaMalloc(&dout, out_bytes), "cudaMalloc") &&
              ok(cudaMemcpy(din, in.data(), in_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  if (good) {
    launch(static_cast<const T*>(din), dout);
    good = ok(cudaGetLastError(), "the kernel launch") &&
           ok(cudaMemcpy(out.data(), dout, out_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(din);
  cudaFree(dout);
  return good;
}

}  // namespace twin
