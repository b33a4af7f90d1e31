// Runs the three-pass scan on the default backend at sizes that are and are not multiples of 4 and of
// the 1024-value tile, one needing two levels of tile sums, and checks every value against
// std::exclusive_scan.
#include <cstdio>
#include <numeric>
#include <vector>

#include "scan_fast.hpp"

namespace {

namespace w = warden;

// out = the exclusive scan of in (both of n values): the passes of scan_fast.hpp, the tiles' sums
// scanned by the same function until one tile holds them all.
void exclusive_scan(const w::device_buffer<int>& in, w::device_buffer<int>& out) {
  const std::size_t tiles = (in.size() + examples::scan_fast_tile - 1) / examples::scan_fast_tile;
  const auto grid = w::grid(static_cast<int>(tiles));
  if (tiles <= 1) {
    const auto zero = w::to_device(std::vector<int>{0});
    w::launch(examples::scan_fast_scan, grid, in, zero, out);
    return;
  }
  w::device_buffer<int> sums(tiles), offsets(tiles);
  w::launch(examples::scan_fast_reduce, grid, in, sums);
  exclusive_scan(sums, offsets);
  w::launch(examples::scan_fast_scan, grid, in, offsets, out);
}

bool run(std::size_t n) {
  std::vector<int> host(n), reference(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>((i * 7919 + 13) % 10);
  std::exclusive_scan(host.begin(), host.end(), reference.begin(), 0);
  const w::device_buffer<int> in = w::to_device(host);
  w::device_buffer<int> out(n);
  exclusive_scan(in, out);
  const std::vector<int> got = w::to_host(out);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += got[i] != reference[i];
  std::printf("scan_fast: n=%zu on the %s backend: %zu of %zu values differ from std::exclusive_scan -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, n, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 21, std::size_t{1000003}, std::size_t{1024}, std::size_t{7}, std::size_t{1}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
