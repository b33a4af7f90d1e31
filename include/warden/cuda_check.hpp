#pragma once
// Checking CUDA runtime calls: WARDEN_CUDA_CHECK(call) throws warden::cuda_error naming the call,
// the error's name and its description; cuda_check_noexcept reports instead (for destructors).

#include "config.hpp"
#include "error.hpp"

#if WARDEN_CUDA_RUNTIME
#include <cuda_runtime_api.h>

#include <cstdio>

namespace warden::detail {

inline void cuda_check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls do not inherit it
  throw cuda_error(call, static_cast<int>(status), cudaGetErrorName(status), cudaGetErrorString(status));
}

// For destructors: a failure there cannot be thrown, so it is reported on stderr.
inline void cuda_check_noexcept(cudaError_t status, const char* call) noexcept {
  if (status == cudaSuccess) return;
  cudaGetLastError();
  std::fprintf(stderr, "warden: %s failed in a destructor: %s (%s)\n", call, cudaGetErrorName(status),
               cudaGetErrorString(status));
}

}  // namespace warden::detail

#define WARDEN_CUDA_CHECK(call) ::warden::detail::cuda_check((call), #call)
#endif
