// reverse-in-block, written by hand in CUDA: the baseline for examples/reverse_block.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../twin_support.cuh"
#include "reverse_block_twin.cuh"

using namespace twins::reverse_block;

namespace {

const twin::checker ok{"reverse_block_twin"};

bool run(int n) {
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  const bool good = twin::round_trip(ok, in, out, [&](const float* din, float* dout) {
    reverse_block_twin<<<n / block_size, block_size>>>(din, dout);
  });
  if (!good) return false;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / block_size, t = i % block_size;
    wrong += out[i] != in[block * block_size + block_size - 1 - t];
  }
  std::printf("reverse_block_twin: n=%d on the GPU: %d elements differ from the reference -> %s\n", n, wrong,
              wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  if (!twin::device_present("reverse_block_twin")) return twin::skipped;
  bool good = true;
  for (int n : {1 << 20, 256 * 3}) good = run(n) && good;
  return good ? 0 : 1;
}
