// Runs the warden softmax on the default backend at two shapes (a full row of 256 and a partial
// row of 100 columns) and checks every element against a plain C++ softmax.
#include <cmath>
#include <cstdio>
#include <vector>

#include "softmax.hpp"

namespace {

bool run(int rows, int cols) {
  namespace w = warden;
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 23) * 0.25f - 3.f;
  w::device_buffer<float> din = w::to_device(in);
  w::device_buffer<float> dout(n);
  w::launch(examples::softmax, w::grid(rows), din, dout, cols);
  const std::vector<float> out = w::to_host(dout);

  double max_error = 0;
  for (int r = 0; r < rows; ++r) {
    const float* x = in.data() + static_cast<std::size_t>(r) * cols;
    double m = x[0], sum = 0;
    for (int c = 1; c < cols; ++c) m = std::fmax(m, x[c]);
    for (int c = 0; c < cols; ++c) sum += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c)
      max_error = std::fmax(max_error, std::fabs(out[static_cast<std::size_t>(r) * cols + c] - std::exp(x[c] - m) / sum));
  }
  const bool ok = max_error <= 1e-6;
  std::printf("softmax: %d x %d on the %s backend: max |error| vs reference = %g -> %s\n", rows, cols,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", max_error, ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = run(512, 256);
  ok = run(300, 100) && ok;
  return ok ? 0 : 1;
}
