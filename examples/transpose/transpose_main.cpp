// Runs the warden transpose on the default backend at two shapes (one a multiple of the tile,
// one not) and checks every element against the reference.
#include <cstdio>
#include <vector>

#include "transpose.hpp"

namespace {

bool run(int rows, int cols) {
  namespace w = warden;
  std::vector<float> in(static_cast<std::size_t>(rows) * cols);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 1000) - 500.f;
  w::device_buffer<float> din = w::to_device(in);
  w::device_buffer<float> dout(in.size());
  w::launch(examples::transpose, w::grid_for(cols, rows), din, dout, rows, cols);  // a thread per element
  const std::vector<float> out = w::to_host(dout);

  std::size_t wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      wrong += out[static_cast<std::size_t>(c) * rows + r] != in[static_cast<std::size_t>(r) * cols + c];
  std::printf("transpose: %d x %d on the %s backend: %zu elements differ from the reference -> %s\n", rows, cols,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  ok = run(1024, 512) && ok;
  ok = run(300, 77) && ok;
  return ok ? 0 : 1;
}
