// Runs the warden reverse-in-block on the default backend at two sizes (multiples of the block
// size: see reverse_block.hpp) and checks every element against the reference.
#include <cstdio>
#include <vector>

#include "reverse_block.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  constexpr std::size_t b = examples::reverse_block_size;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  w::device_buffer<float> din = w::to_device(in);
  w::device_buffer<float> dout(n);
  w::launch(examples::reverse_block, w::grid_for(n), din, dout);
  const std::vector<float> out = w::to_host(dout);

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != in[i / b * b + (b - 1 - i % b)];
  std::printf("reverse_block: n=%zu on the %s backend: %zu elements differ from the reference -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{3} * 256}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
