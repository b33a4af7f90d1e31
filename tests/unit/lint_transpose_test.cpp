// benchmarks/gpu/lint_transpose.hpp, run on the cpu backend: the two transposes the GPU benchmark
// times against each other (w050_transpose: what padding the tile as W050 advises buys) are both
// correct, at a size that fills the tiles and one that does not, and both are race-free in the
// recording. Without this, the kernels would only ever be compiled on a machine without a GPU.
#include "../../benchmarks/gpu/lint_transpose.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace w = warden;

namespace {

template <class K>
void check_transpose(const K& kernel, int n) {
  std::vector<float> host(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n * n; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i);
  auto in = w::to_device(host);
  w::device_buffer<float> out(host.size());
  const int blocks = (n + 31) / 32;
  w::launch(w::on_cpu, kernel, w::grid(blocks, blocks), in, out, n);
  const auto result = w::to_host(out);
  int wrong = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) wrong += result[static_cast<std::size_t>(x) * n + y] != host[static_cast<std::size_t>(y) * n + x];
  CHECK(wrong == 0);
  const w::recording r = w::record(kernel, w::grid(blocks, blocks), in, out, n);
  CHECK(r.clean());
}

}  // namespace

TEST_CASE("the padded and unpadded 32 x 32 transposes of the W050 benchmark are correct and race-free", "[lint]") {
  for (int n : {64, 70}) {
    INFO("n = " << n);
    check_transpose(lint_cases::transpose32_unpadded, n);
    check_transpose(lint_cases::transpose32_padded, n);
  }
}
