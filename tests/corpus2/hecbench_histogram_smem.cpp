// HeCBench, histogram: zjin-lcf/HeCBench, src/histogram-cuda/histogram_smem_atomics.h, kernel
// histogram_smem_atomics<NUM_PARTS = 1024, ACTIVE_CHANNELS = 3, NUM_BINS = 256, uchar4> (from CUB's
// histogram example; DecodePixel for uchar4 in src/histogram-cuda/histogram_compare.cu), ported by
// hand. Each block zeroes a privatised histogram of ACTIVE_CHANNELS * NUM_BINS + 3 counters in
// shared memory (a block-stride loop), walks the image with a 2-D grid-stride loop (col from x by
// blockDim.x * gridDim.x, row from y by blockDim.y * gridDim.y), adds 1 per channel with a shared
// atomicAdd at the pixel's byte value (a data-dependent index), then copies its counters to its own
// slice out[g * NUM_PARTS ...] (`out += g * NUM_PARTS`, folded into the index). width and height
// are the kernel's int parameters. A uchar4 pixel is its four bytes x, y, z, w in order: the image
// is a buffer of uint8_t, 4 per pixel, and samples[CHANNEL] is byte 4 * pixel + CHANNEL. The
// CHANNEL loops are plain for loops, as written. Launch as run_smem_atomics: block(32, 4),
// grid(16, 16), out total_blocks * NUM_PARTS unsigned ints (the second pass, histogram_smem_accum,
// sums the slices; here the test sums them).
//
// Verdict: ACCEPTED with no launch obligation: the shared atomics at a data-dependent bin
// (bounded by the uint8_t pixel), the block-stride zeroing and copy-out, and the 2-D grid-stride
// loops. Clean on the original's launch and equal to the reference on two images.
#include "../corpus/corpus.hpp"

#include <cstdint>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NUM_PARTS = 1024, ACTIVE_CHANNELS = 3, NUM_BINS = 256;

// template <int NUM_PARTS, int ACTIVE_CHANNELS, int NUM_BINS, typename PixelType>
// __global__ void histogram_smem_atomics(const PixelType *in, int width, int height, unsigned int *out)
constexpr auto histogram_smem_atomics = [](auto k, auto in, auto width, auto height, auto out) {
  auto x = k.block_id() * k.block_dim() + k.thread_id();
  auto y = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  auto nx = k.block_dim() * k.grid_dim();
  auto ny = k.block_dim_y() * k.grid_dim_y();
  auto t = k.thread_id() + k.thread_id_y() * k.block_dim();  // thread index in workgroup
  auto nt = k.block_dim() * k.block_dim_y();                 // total threads in workgroup
  auto g = k.block_id() + k.block_id_y() * k.grid_dim();     // group index
  return w::shared<unsigned, ACTIVE_CHANNELS * NUM_BINS + 3>(k, [&](auto k, auto smem) {
    return w::seq(
        w::for_range(k, t, ACTIVE_CHANNELS * NUM_BINS + 3, nt, [&](auto, auto i) { return smem[i] = 0u; }), w::sync(),
        w::for_range(k, x, width, nx, [&](auto k, auto col) {
          return w::for_range(k, y, height, ny, [&](auto k, auto row) {
            return w::for_range(k, 0, ACTIVE_CHANNELS, [&](auto, auto CHANNEL) {
              return w::atomic_add(smem[(NUM_BINS * CHANNEL) + in[4 * (row * width + col) + CHANNEL] + CHANNEL], 1u);
            });
          });
        }),
        w::sync(),
        w::for_range(k, t, NUM_BINS, nt, [&](auto k, auto i) {
          return w::for_range(k, 0, ACTIVE_CHANNELS, [&](auto, auto CHANNEL) {
            return out[g * NUM_PARTS + i + NUM_BINS * CHANNEL] = smem[i + NUM_BINS * CHANNEL + CHANNEL];
          });
        }));
  });
};

using Blk = w::block<32, 4>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(histogram_k, w::kernel<Blk, w::in<std::uint8_t>, V, V, w::out<unsigned>>(histogram_smem_atomics)
                               .named("histogram_smem_atomics", "in", "width", "height", "out"));

TEST_CASE("hecbench histogram_smem_atomics: accepted with no obligation, clean on the original's launch, equal to the reference",
          "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, w::in<std::uint8_t>, V, V, w::out<unsigned>>(histogram_smem_atomics) == code::none);
  CHECK(w::obligations_of(histogram_k).empty());

  const int total_blocks = 16 * 16;
  // 64 x 48 (fewer pixels than threads); 600 x 70 (threads loop in both directions: the grid
  // covers 512 x 64).
  for (auto [width, height] : {std::pair{64, 48}, std::pair{600, 70}}) {
    CAPTURE(width, height);
    std::vector<std::uint8_t> pixels(at(4 * width * height));
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
    std::vector<unsigned> gold(ACTIVE_CHANNELS * NUM_BINS, 0);
    for (int p = 0; p < width * height; ++p)
      for (int c = 0; c < ACTIVE_CHANNELS; ++c) ++gold[at(NUM_BINS * c + pixels[at(4 * p + c)])];
    auto d_pixels = w::to_device(pixels);
    w::device_buffer<unsigned> d_part_hist(at(total_blocks * NUM_PARTS));
    CHECK(w::record(histogram_k, w::grid(16, 16), d_pixels, width, height, d_part_hist).clean());
    const auto part = w::to_host(d_part_hist);
    std::vector<unsigned> hist(ACTIVE_CHANNELS * NUM_BINS, 0);  // histogram_smem_accum's sum over the slices
    for (int i = 0; i < ACTIVE_CHANNELS * NUM_BINS; ++i)
      for (int j = 0; j < total_blocks; ++j) hist[at(i)] += part[at(i + NUM_PARTS * j)];
    CHECK(hist == gold);
  }
}
