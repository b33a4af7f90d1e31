// The block-local stage of a bitonic sort, written by hand in CUDA: the baseline for
// examples/bitonic_sort (same tile, stages, partner exchange, padding and launch shape).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "bitonic_sort_twin.cuh"

using namespace twins::bitonic_sort;

namespace {

const twin::checker ok{"bitonic_sort_twin"};

bool run(int n) {
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<int>((static_cast<long long>(i) * 7919 + 13) % 100003) - 50000;
  const bool good = twin::round_trip(ok, in, out, [&](const int* din, int* dout) {
    bitonic_sort_twin<<<(n + block_size - 1) / block_size, block_size>>>(din, dout, n);
  });
  if (!good) return false;
  std::vector<int> reference = in;
  for (int s = 0; s < n; s += block_size) std::sort(reference.begin() + s, reference.begin() + std::min(n, s + block_size));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != reference[i];
  std::printf("bitonic_sort_twin: n=%d on the GPU: %d elements differ from the reference -> %s\n", n, wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("bitonic_sort_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 16, 1000}) good = run(n) && good;
  return good ? 0 : 1;
}
