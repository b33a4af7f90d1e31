// Runs the fast reduction on the default backend (two passes: the partial sums of a filling grid,
// then their sum by one block) at sizes that are and are not multiples of 4 and of the grid's
// threads, and checks the sum against a plain C++ sum in double precision.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "reduction_fast.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  std::vector<float> host(n);
  double reference = 0;
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = static_cast<float>(static_cast<int>((i * 7919 + 13) % 17) - 8) * 0.25f;
    reference += host[i];
  }
  const std::size_t blocks = std::clamp<std::size_t>((n / 4 + examples::reduction_fast_block - 1) / examples::reduction_fast_block,
                                                     1, examples::reduction_fast_max_blocks);
  w::device_buffer<float> in = w::to_device(host), partial(blocks), sum(1);
  w::launch(examples::reduction_fast, w::grid(static_cast<int>(blocks)), in, partial);
  w::launch(examples::reduction_fast, w::grid(1), partial, sum);
  const float got = w::to_host(sum)[0];
  const bool ok = std::abs(got - reference) <= 1e-4 * (1 + std::abs(reference));
  std::printf("reduction_fast: n=%zu in %zu blocks on the %s backend: %g, reference %g -> %s\n", n, blocks,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", static_cast<double>(got), reference, ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000003}, std::size_t{7}, std::size_t{1}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
