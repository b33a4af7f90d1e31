# Finds nvcc and enables the CUDA language when WARDEN_ENABLE_CUDA is on.
# Result: WARDEN_HAS_CUDA (ON/OFF). CUDA targets build for sm_90 (SASS) plus compute_90 (PTX),
# so the binaries run on Hopper and JIT-compile on anything newer.

set(WARDEN_HAS_CUDA OFF)
if(NOT WARDEN_ENABLE_CUDA)
  if(WARDEN_REQUIRE_CUDA)
    message(FATAL_ERROR "warden: WARDEN_REQUIRE_CUDA=ON contradicts WARDEN_ENABLE_CUDA=OFF")
  endif()
  return()
endif()

include(CheckLanguage)
check_language(CUDA)      # looks at CUDACXX, PATH and /usr/local/cuda/bin
if(NOT CMAKE_CUDA_COMPILER)
  if(WARDEN_REQUIRE_CUDA)
    message(FATAL_ERROR "warden: nvcc was not found; set CUDACXX or add /usr/local/cuda/bin to PATH")
  endif()
  message(STATUS "warden: nvcc not found, CUDA targets are skipped")
  return()
endif()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  # "90" means -gencode arch=compute_90,code=[compute_90,sm_90]: SASS for sm_90 and PTX for later GPUs.
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
set(WARDEN_HAS_CUDA ON)
