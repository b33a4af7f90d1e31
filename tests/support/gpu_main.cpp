// For GPU tests: with no usable CUDA device the test exits with code 77, which CTest reports as
// *skipped* (SKIP_RETURN_CODE), never as passed or failed. Catch2's runner (tests/support/
// catch_main.cpp) asks this before running; listing the tests needs no device.

#include <cuda_runtime.h>

#include <cstdio>
#include <string_view>

int warden_test_skip_code(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).starts_with("--list")) return 0;
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device (cudaGetDeviceCount: %s)\n",
                status == cudaSuccess ? "0 devices" : cudaGetErrorName(status));
    return 77;
  }
  return 0;
}
