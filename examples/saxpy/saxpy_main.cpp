// Runs the warden saxpy on the default backend (CUDA where this is compiled by nvcc and a GPU is
// present, else the cpu reference backend) at two sizes, one not a multiple of the block size,
// and checks the result against a plain C++ loop.
#include <cmath>
#include <cstdio>
#include <vector>

#include "saxpy.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  std::vector<float> x(n), y(n), reference(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.5f;
    y[i] = static_cast<float>(i % 13);
    reference[i] = 2.f * x[i] + y[i];
  }
  w::device_buffer<float> dx = w::to_device(x);
  w::device_buffer<float> dy = w::to_device(y);
  w::launch(examples::saxpy, w::grid_for(n), dx, dy, 2.f);
  const std::vector<float> result = w::to_host(dy);

  float max_error = 0.f;
  for (std::size_t i = 0; i < n; ++i) max_error = std::fmax(max_error, std::fabs(result[i] - reference[i]));
  const bool ok = max_error <= 1e-5f * 64.f;  // a fused multiply-add on the GPU may round differently
  std::printf("saxpy: n=%zu on the %s backend: max |error| vs reference = %g -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", static_cast<double>(max_error),
              ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
