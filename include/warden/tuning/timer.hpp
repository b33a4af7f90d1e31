#pragma once
// How long one run of a candidate takes: on the GPU, between two events recorded on the launch's
// stream around it (so the time is the device's, whatever the host did meanwhile); on the cpu
// backend, which runs a launch before it returns, the host's steady clock around it.

#include <chrono>
#include <utility>

#include "../config.hpp"
#include "../cuda_check.hpp"
#include "../stream.hpp"

namespace warden::detail {

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
};

}  // namespace warden::detail
