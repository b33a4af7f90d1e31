// Runs the privatised histogram on the default backend at sizes that are and are not multiples of
// 4, larger than the grid's vectors (so that the grid-stride loop goes round) and smaller than one
// vector, and checks every bin against a plain C++ count.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "histogram_fast.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  constexpr int bins = examples::histogram_fast_bins;
  std::vector<int> in(n), reference(bins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<int>((i * 7919 + i / 3) % 1000);
    ++reference[static_cast<std::size_t>(in[i] & (bins - 1))];
  }
  w::device_buffer<int> din = w::to_device(in);
  w::device_buffer<int> dbins = w::to_device(std::vector<int>(bins, 0));
  const auto blocks = std::clamp<std::size_t>((n / 4 + examples::histogram_fast_block - 1) / examples::histogram_fast_block, 1,
                                              examples::histogram_fast_max_blocks);
  w::launch(examples::histogram_fast, w::grid(static_cast<int>(blocks)), din, dbins);
  const std::vector<int> got = w::to_host(dbins);

  int wrong = 0;
  for (int b = 0; b < bins; ++b) wrong += got[static_cast<std::size_t>(b)] != reference[static_cast<std::size_t>(b)];
  std::printf("histogram_fast: n=%zu in %zu blocks on the %s backend: %d of %d bins differ from the reference -> %s\n", n,
              blocks, w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, bins, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 22, std::size_t{1000003}, std::size_t{1000}, std::size_t{3}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
