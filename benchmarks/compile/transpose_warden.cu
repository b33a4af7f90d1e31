// A corpus kernel as a user's launching file, for scripts/check-once-cost (issue 58): cuda-samples'
// transposeNoBankConflicts as tests/corpus/cudasamples_transpose.cpp ports it (a padded 32 x 33
// shared tile, block 32 x 16, each thread moving two elements), launched on a 1024 x 1024 matrix.
// Compiled only by that script (the precheck, then nvcc -c), never built or run by the test suite.
#include <warden/warden.hpp>

#include <cstdio>
#include <vector>

namespace w = warden;

constexpr int TILE_DIM = 32, BLOCK_ROWS = 16;

WARDEN_KERNEL(transpose_k, w::kernel<w::block<TILE_DIM, BLOCK_ROWS>, w::out<float>, w::in<float>, w::value<int>, w::value<int>>(
                               [](auto k, auto odata, auto idata, auto width, auto height) {
                                 return w::shared<float, TILE_DIM, TILE_DIM, 1>(k, [&](auto k, auto tile) {
                                   auto tx = k.thread_id();
                                   auto ty = k.thread_id_y();
                                   auto index_in = (k.block_id() * TILE_DIM + tx) + (k.block_id_y() * TILE_DIM + ty) * width;
                                   auto index_out = (k.block_id_y() * TILE_DIM + tx) + (k.block_id() * TILE_DIM + ty) * height;
                                   return w::seq(w::for_range(k, 0, TILE_DIM, BLOCK_ROWS,
                                                              [&](auto, auto i) { return tile(ty + i, tx) = idata[index_in + i * width]; }),
                                                 w::sync(),
                                                 w::for_range(k, 0, TILE_DIM, BLOCK_ROWS,
                                                              [&](auto, auto i) { return odata[index_out + i * height] = tile(tx, ty + i); }));
                                 });
                               }));

int main() {
  constexpr int size = 1024;
  std::vector<float> host(size * size);
  for (int i = 0; i < size * size; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i);
  auto in = w::to_device(host);
  w::device_buffer<float> out(host.size());
  w::launch(transpose_k, w::grid(size / TILE_DIM, size / TILE_DIM), out, in, size, size);
  std::printf("%f\n", w::to_host(out)[1]);
  return 0;
}
