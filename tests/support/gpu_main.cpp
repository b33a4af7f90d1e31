// main() for GPU tests: with no usable CUDA device the test exits with code 77, which CTest
// reports as *skipped* (SKIP_RETURN_CODE), never as passed or failed. Compiled once, by the host
// compiler (it launches nothing), and linked into every GPU test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <string_view>

int main(int argc, char* argv[]) {
  // Listing tests needs no device.
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).starts_with("--list")) return Catch::Session().run(argc, argv);

  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device (cudaGetDeviceCount: %s)\n",
                status == cudaSuccess ? "0 devices" : cudaGetErrorName(status));
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
