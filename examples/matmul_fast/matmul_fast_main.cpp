// Runs the register-tiled matrix multiply on the default backend at three sizes (one a multiple of
// the 128 x 128 tile, two not) and checks every element against a plain triple loop.
#include <cmath>
#include <cstdio>
#include <vector>

#include "matmul_fast.hpp"

namespace {

bool run(int n) {
  namespace w = warden;
  const std::size_t size = static_cast<std::size_t>(n) * n;
  std::vector<float> a(size), b(size);
  for (std::size_t i = 0; i < size; ++i) {
    a[i] = static_cast<float>((i * 37) % 11) - 5.f;
    b[i] = static_cast<float>((i * 17) % 7) - 3.f;
  }
  w::device_buffer<float> da = w::to_device(a), db = w::to_device(b);
  w::device_buffer<float> dc(size);
  const int blocks = (n + examples::matmul_fast_tile - 1) / examples::matmul_fast_tile;
  w::launch(examples::matmul_fast, w::grid(blocks, blocks), da, db, dc, n);  // a 128 x 128 tile of C per block
  const std::vector<float> c = w::to_host(dc);

  double max_error = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double expect = 0;
      for (int q = 0; q < n; ++q) expect += static_cast<double>(a[static_cast<std::size_t>(i) * n + q]) * b[static_cast<std::size_t>(q) * n + j];
      max_error = std::fmax(max_error, std::fabs(c[static_cast<std::size_t>(i) * n + j] - expect));
    }
  const bool ok = max_error <= 1e-3;  // small integers: sums exact in float up to n = 300
  std::printf("matmul_fast: n=%d on the %s backend: max |error| vs reference = %g -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", max_error, ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = run(256);
  ok = run(300) && ok;
  ok = run(77) && ok;
  return ok ? 0 : 1;
}
