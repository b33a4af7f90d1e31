// Matrix transpose through a padded shared tile, written by hand in CUDA: the baseline for
// examples/transpose (same tile, padding, guards and launch shape).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "transpose_twin.cuh"

using namespace twins::transpose;

namespace {

const twin::checker ok{"transpose_twin"};

bool run(int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  std::vector<float> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i % 1000) - 500.f;
  const bool good = twin::round_trip(ok, in, out, [&](const float* din, float* dout) {
    const dim3 grid((cols + tile_size - 1) / tile_size, (rows + tile_size - 1) / tile_size), block(tile_size, tile_size);
    transpose_twin<<<grid, block>>>(din, dout, rows, cols);
  });
  if (!good) return false;
  size_t wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) wrong += out[static_cast<size_t>(c) * rows + r] != in[static_cast<size_t>(r) * cols + c];
  std::printf("transpose_twin: %d x %d on the GPU: %zu elements differ from the reference -> %s\n", rows, cols, wrong,
              wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("transpose_twin")) return twin::skipped;
  bool good = run(1024, 512);
  good = run(300, 77) && good;
  return good ? 0 : 1;
}
