// Blelloch's exclusive scan of each block's 256-element slice, written by hand in CUDA: the
// baseline for examples/blelloch_scan (same tree, tile, guards and launch shape).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "blelloch_scan_twin.cuh"

using namespace twins::blelloch_scan;

namespace {

const twin::checker ok{"blelloch_scan_twin"};

bool run(int n) {
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 13) % 7 - 3;
  const bool good = twin::round_trip(ok, in, out, [&](const int* din, int* dout) {
    blelloch_scan_twin<<<(n + elements - 1) / elements, threads>>>(din, dout, n);
  });
  if (!good) return false;
  int wrong = 0, sum = 0;
  for (int i = 0; i < n; ++i) {
    if (i % elements == 0) sum = 0;
    wrong += out[i] != sum;
    sum += in[i];
  }
  std::printf("blelloch_scan_twin: n=%d on the GPU: %d elements differ from the reference -> %s\n", n, wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("blelloch_scan_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 18, 1000}) good = run(n) && good;
  return good ? 0 : 1;
}
