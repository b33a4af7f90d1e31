// element_ref is __host__ __device__: the same typed access path works inside a kernel.
#include <warden/memory/element_ref.hpp>

#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <vector>

namespace {

__global__ void scale(const float* in, float* out, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const warden::element_ref<const float, warden::access::read> x(in + i);
  const warden::element_ref<float, warden::access::write> y(out + i);
  y = factor * x;
}

void check(cudaError_t status) { REQUIRE(status == cudaSuccess); }

}  // namespace

TEST_CASE("element_ref loads and stores inside a kernel", "[gpu][element_ref]") {
  constexpr int n = 1000;  // not a multiple of the block size
  std::vector<float> host_in(n);
  for (int i = 0; i < n; ++i) host_in[i] = static_cast<float>(i);

  float* in = nullptr;
  float* out = nullptr;
  check(cudaMalloc(&in, n * sizeof(float)));
  check(cudaMalloc(&out, n * sizeof(float)));
  check(cudaMemcpy(in, host_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(n + 255) / 256, 256>>>(in, out, n, 3.f);
  check(cudaGetLastError());
  std::vector<float> host_out(n);
  check(cudaMemcpy(host_out.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  check(cudaFree(in));
  check(cudaFree(out));

  for (int i = 0; i < n; ++i) REQUIRE(host_out[i] == 3.f * static_cast<float>(i));
}
