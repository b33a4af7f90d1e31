// Runs the warden sum reduction on the default backend at two sizes (one not a multiple of the
// block size), reducing partial sums until one is left, and checks it against a plain C++ sum.
#include <cmath>
#include <cstdio>
#include <vector>

#include "reduction.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  constexpr std::size_t b = examples::reduction_block;
  std::vector<float> in(n);
  double reference = 0;
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<float>(i % 7) * 0.5f;
    reference += in[i];
  }
  w::device_buffer<float> current = w::to_device(in);
  std::size_t size = n;
  while (size > 1) {  // each pass leaves one partial sum per block
    const std::size_t blocks = (size + b - 1) / b;
    w::device_buffer<float> partial(blocks);
    w::launch(examples::reduction, w::grid_for(size), current, partial);
    current = std::move(partial);
    size = blocks;
  }
  const float got = w::to_host(current)[0];
  const bool ok = got == reference;  // halves: every partial sum is exact in float at these sizes
  std::printf("reduction: n=%zu on the %s backend: sum %g, reference %g -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", static_cast<double>(got), reference, ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
