// The comparison file of scripts/check-once-cost (issue 58): saxpy as a CUDA user writes it with
// Thrust: device vectors and thrust::transform. Compiled only by that script (nvcc -c).
#include <thrust/device_vector.h>
#include <thrust/transform.h>

#include <cstdio>

struct saxpy_op {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

int main() {
  constexpr int n = 1 << 20;
  thrust::device_vector<float> x(n, 1.f), y(n, 2.f);
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_op{2.f});
  std::printf("%f\n", static_cast<float>(y[0]));
  return 0;
}
