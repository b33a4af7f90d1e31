#pragma once
// The GPU benchmarks' timer (examples_gpu_bench.cu, tuned_gpu_bench.cu): one stream, two events,
// and a spin kernel that holds the GPU for spin_us before the start event while the host enqueues
// the work, so that the events bracket the GPU's work and not the host's launch path (the
// blocking-kernel method of NVIDIA's nvbench).
#include <warden/warden.hpp>

#include <cuda_runtime.h>

#include <functional>

namespace gpu_bench {

inline void check(cudaError_t status, const char* call) { warden::detail::cuda_check(status, call); }

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

class gpu_timer {
 public:
  gpu_timer() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
    int khz = 0;
    check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0), "cudaDeviceGetAttribute");
    spin_cycles_ = static_cast<long long>(khz) * spin_us / 1000;
  }
  ~gpu_timer() {
    warden::detail::cuda_check_noexcept(cudaEventDestroy(start_), "cudaEventDestroy");
    warden::detail::cuda_check_noexcept(cudaEventDestroy(stop_), "cudaEventDestroy");
  }
  cudaStream_t native() const { return stream_.ref().native(); }
  warden::stream_ref ref() const { return stream_.ref(); }

  // Seconds the GPU spends on `work` (which enqueues on this stream).
  double seconds(const std::function<void()>& work) {
    spin<<<1, 1, 0, native()>>>(spin_cycles_);
    check(cudaEventRecord(start_, native()), "cudaEventRecord");
    work();
    check(cudaEventRecord(stop_, native()), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0.f;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

  static constexpr long long spin_us = 2000;

 private:
  warden::stream stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  long long spin_cycles_ = 0;
};

// One timer per program, made at its first use (after the device is known to answer).
inline gpu_timer& timer() {
  static gpu_timer t;
  return t;
}

}  // namespace gpu_bench
