// Softmax over rows (cols <= 256), one block per row and one element per thread, written by hand
// in CUDA: the baseline for examples/softmax (same trees, barriers and launch shape).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "softmax_twin.cuh"

using namespace twins::softmax;

namespace {

const twin::checker ok{"softmax_twin"};

bool run(int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  std::vector<float> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 23) * 0.25f - 3.f;
  const bool good = twin::round_trip(ok, in, out, [&](const float* din, float* dout) {
    softmax_twin<<<rows, block_size>>>(din, dout, cols);
  });
  if (!good) return false;
  double max_error = 0;
  for (int r = 0; r < rows; ++r) {
    const float* x = in.data() + static_cast<size_t>(r) * cols;
    double m = x[0], sum = 0;
    for (int c = 1; c < cols; ++c) m = std::fmax(m, x[c]);
    for (int c = 0; c < cols; ++c) sum += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c) max_error = std::fmax(max_error, std::fabs(out[static_cast<size_t>(r) * cols + c] - std::exp(x[c] - m) / sum));
  }
  const bool good_result = max_error <= 1e-6;
  std::printf("softmax_twin: %d x %d on the GPU: max |error| vs reference = %g -> %s\n", rows, cols, max_error, good_result ? "OK" : "MISMATCH");
  return good_result;
}

}  // namespace

int main() {
  if (!twin::device_present("softmax_twin")) return twin::skipped;
  bool good = run(512, 256);
  good = run(300, 100) && good;
  return good ? 0 : 1;
}
