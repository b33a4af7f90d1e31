// Runs the warden block-local bitonic sort on the default backend at two sizes (one not a
// multiple of the block) and checks every slice against std::sort.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "bitonic_sort.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  constexpr std::size_t b = examples::bitonic_block;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>((i * 7919 + 13) % 100003) - 50000;
  w::device_buffer<int> din = w::to_device(in);
  w::device_buffer<int> dout(n);
  w::launch(examples::bitonic_sort, w::grid_for(n), din, dout);
  const std::vector<int> out = w::to_host(dout);

  std::vector<int> reference = in;
  for (std::size_t s = 0; s < n; s += b) std::sort(reference.begin() + static_cast<long>(s), reference.begin() + static_cast<long>(std::min(n, s + b)));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != reference[i];
  std::printf("bitonic_sort: n=%zu on the %s backend: %zu elements differ from the reference -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1000}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
