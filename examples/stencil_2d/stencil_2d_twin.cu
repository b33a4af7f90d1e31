// A 2-D five-point stencil through an 18 x 18 shared tile with halos, written by hand in CUDA:
// the baseline for examples/stencil_2d (same tile, halo loads, guards and launch shape).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "stencil_2d_twin.cuh"

using namespace twins::stencil_2d;

namespace {

const twin::checker ok{"stencil_2d_twin"};

bool run(int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  std::vector<float> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 11) - 5.f;
  const bool good = twin::round_trip(ok, in, out, [&](const float* din, float* dout) {
    const dim3 grid((cols + tile_size - 1) / tile_size, (rows + tile_size - 1) / tile_size), block(tile_size, tile_size);
    stencil_2d_twin<<<grid, block>>>(din, dout, rows, cols);
  });
  if (!good) return false;
  auto at = [&](int i, int j) { return i < 0 || j < 0 || i >= rows || j >= cols ? 0.f : in[static_cast<size_t>(i) * cols + j]; };
  float max_error = 0.f;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const float expect = at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.f * at(i, j);
      max_error = std::fmax(max_error, std::fabs(out[static_cast<size_t>(i) * cols + j] - expect));
    }
  const bool good_result = max_error <= 1e-4f;
  std::printf("stencil_2d_twin: %d x %d on the GPU: max |error| vs reference = %g -> %s\n", rows, cols,
              static_cast<double>(max_error), good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("stencil_2d_twin")) return twin::skipped;
  bool good = run(1024, 1024);
  good = run(100, 75) && good;
  return good ? 0 : 1;
}
