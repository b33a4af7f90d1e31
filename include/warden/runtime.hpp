#pragma once
// Which backend runs warden's work here: cuda when the CUDA runtime is compiled in and a device
// answers, cpu (the reference backend, memory on the host) otherwise.

#include "config.hpp"
#include "cuda_check.hpp"

namespace warden {

enum class backend_kind { cpu, cuda };

namespace detail {

inline bool cuda_device_available() {
#if WARDEN_CUDA_RUNTIME
  static const bool available = [] {
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess) cudaGetLastError();
    return status == cudaSuccess && devices > 0;
  }();
  return available;
#else
  return false;
#endif
}

}  // namespace detail

inline backend_kind default_backend() { return detail::cuda_device_available() ? backend_kind::cuda : backend_kind::cpu; }

}  // namespace warden
