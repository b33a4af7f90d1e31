#pragma once
// How long one run of a candidate takes: on the GPU, between two events recorded on the launch's
// stream around it; on the cpu backend, which runs a launch before it returns, the host's steady
// clock around it.
//
// On the GPU the events alone would time the host too: while the host binds and checks the
// launch (microseconds), the GPU idles between the start event and the kernel, which for a small
// kernel is most of the time measured, and the same for every candidate. So under nvcc a short
// kernel that spins for hold_us holds the stream first, the host enqueues the start event, the run
// and the stop event meanwhile, and the events bracket the device's work alone (the blocking-
// kernel method of NVIDIA's nvbench). The first GPU run, without it, chose within 2% of the best
// candidate in 8 of 11 cases, all three misses on kernels of 2-3 µs (docs/benchmarks.md).

#include <chrono>
#include <utility>

#include "../config.hpp"
#include "../cuda_check.hpp"
#include "../stream.hpp"

namespace warden::detail {

#if defined(__CUDACC__)
template <int = 0>
__global__ void tuning_hold(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
#endif

// The timer differs under nvcc (the hold kernel): an inline namespace per mode keeps a program
// that tunes in both .cu and .cpp files from linking one mode's timer into the other's files.
#if defined(__CUDACC__)
#define WARDEN_TUNING_TIMER_ABI timer_nvcc
#else
#define WARDEN_TUNING_TIMER_ABI timer_host
#endif
inline namespace WARDEN_TUNING_TIMER_ABI {

class tuning_timer {
 public:
  tuning_timer(bool on_gpu, stream_ref s) : on_gpu_(on_gpu), stream_(s) {
#if WARDEN_CUDA_RUNTIME
    if (on_gpu_) {
      WARDEN_CUDA_CHECK(cudaEventCreate(&start_));
      if (const cudaError_t status = cudaEventCreate(&stop_); status != cudaSuccess) {
        cudaEventDestroy(start_);
        WARDEN_CUDA_CHECK(status);
      }
#if defined(__CUDACC__)
      int device = 0, khz = 0;
      if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess)
        hold_cycles_ = static_cast<long long>(khz) * hold_us / 1000;
      else
        cudaGetLastError();
#endif
    }
#endif
  }
  tuning_timer(const tuning_timer&) = delete;
  tuning_timer& operator=(const tuning_timer&) = delete;
  ~tuning_timer() {
#if WARDEN_CUDA_RUNTIME
    if (on_gpu_) {
      cudaEventDestroy(start_);
      cudaEventDestroy(stop_);
    }
#endif
  }

  // Milliseconds that `run` took.
  template <class Run>
  double time_ms(Run&& run) {
#if WARDEN_CUDA_RUNTIME
    if (on_gpu_) {
#if defined(__CUDACC__)
      // The device pass emits the kernel where launch(tuned_kernel, ...) names it (tuned.hpp).
      if (hold_cycles_ > 0) {
        tuning_hold<><<<1, 1, 0, stream_.native()>>>(hold_cycles_);
        if (cudaGetLastError() != cudaSuccess) hold_cycles_ = 0;  // time without it rather than fail
      }
#endif
      WARDEN_CUDA_CHECK(cudaEventRecord(start_, stream_.native()));
      std::forward<Run>(run)();
      WARDEN_CUDA_CHECK(cudaEventRecord(stop_, stream_.native()));
      WARDEN_CUDA_CHECK(cudaEventSynchronize(stop_));
      float ms = 0;
      WARDEN_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
      return ms;
    }
#endif
    const auto begin = std::chrono::steady_clock::now();
    std::forward<Run>(run)();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  }

 private:
  bool on_gpu_;
  stream_ref stream_;
#if WARDEN_CUDA_RUNTIME
  cudaEvent_t start_{}, stop_{};
#endif
  static constexpr long long hold_us = 50;  // longer than the host takes to enqueue one run
  long long hold_cycles_ = 0;
};

}  // inline namespace WARDEN_TUNING_TIMER_ABI

}  // namespace warden::detail
