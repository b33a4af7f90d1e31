// Runs the warden 2-D stencil on the default backend at two shapes (one a multiple of the tile,
// one not) and checks every point against a plain C++ loop.
#include <cmath>
#include <cstdio>
#include <vector>

#include "stencil_2d.hpp"

namespace {

bool run(int rows, int cols) {
  namespace w = warden;
  std::vector<float> in(static_cast<std::size_t>(rows) * cols);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 37) % 11) - 5.f;
  w::device_buffer<float> din = w::to_device(in);
  w::device_buffer<float> dout(in.size());
  w::launch(examples::stencil_2d, w::grid_for(cols, rows), din, dout, rows, cols);  // a thread per element
  const std::vector<float> out = w::to_host(dout);

  auto at = [&](int i, int j) { return i < 0 || j < 0 || i >= rows || j >= cols ? 0.f : in[static_cast<std::size_t>(i) * cols + j]; };
  float max_error = 0.f;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const float expect = at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.f * at(i, j);
      max_error = std::fmax(max_error, std::fabs(out[static_cast<std::size_t>(i) * cols + j] - expect));
    }
  const bool ok = max_error <= 1e-4f;  // small integers: exact on the cpu; a GPU may contract to fma
  std::printf("stencil_2d: %d x %d on the %s backend: max |error| vs reference = %g -> %s\n", rows, cols,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", static_cast<double>(max_error), ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = run(1024, 1024);
  ok = run(100, 75) && ok;
  return ok ? 0 : 1;
}
