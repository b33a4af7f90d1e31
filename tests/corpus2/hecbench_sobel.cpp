// HeCBench, sobel: zjin-lcf/HeCBench, src/sobel-cuda/kernels.cu, kernel sobel_filter (host code in
// src/sobel-cuda/main.cu), ported by hand. One thread per pixel of a width x height uchar4 image
// on a 2-D grid: inside the one-pixel border, the 3 x 3 Sobel gradients Gx and Gy of each of the
// four components, and the output component sqrt(Gx^2 + Gy^2) / 2 clamped to [0, 255] and
// truncated to an unsigned char. width and height are the kernel's `const uint` parameters, and x,
// y and the border test are unsigned as in the original (x and y here are warden's int ids; the
// values are the same); `int c = x + y * width`. A uchar4 pixel is its four bytes x, y, z, w in
// order: the images are uint8_t buffers, 4 per pixel, component ch of pixel c at 4 * c + ch; the
// float4 arithmetic, lane by lane, is a loop over the four components ch (convert_float4 is
// w::convert<float>, convert_uchar4's clamp two selects and a w::convert<std::uint8_t>), Gx and Gy
// locals. Launch as the original: block(16, 16), grid(width / 16, height / 16) (rounded down: the
// pixels past the last whole block are not computed).
//
// Verdict: ACCEPTED under one launch obligation, 4 * width - 64 * grid_dim.x >= 0 (the rows of
// the output do not run into each other: width >= 16 * grid_dim.x), which the host's grid of
// width / 16 blocks, rounded down, always meets. Clean on the original's launches and equal to the
// reference.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void sobel_filter(const uchar4*__restrict__ inputImage, uchar4*__restrict__ outputImage,
//                              const uint width, const uint height)
constexpr auto sobel_filter = [](auto k, auto inputImage, auto outputImage, auto width, auto height) {
  auto x = k.block_dim() * k.block_id() + k.thread_id();
  auto y = k.block_dim_y() * k.block_id_y() + k.thread_id_y();
  auto c = x + y * width;
  return w::when(x >= 1 && x < (width - 1) && y >= 1 && y < height - 1, w::for_range(k, 0, 4, [&](auto k, auto ch) {
                   auto i = [&](auto e) { return w::convert<float>(inputImage[4 * e + ch]); };  // convert_float4(inputImage[e]), lane ch
                   return w::local(k, i(c - 1 - width) + 2.f * i(c - 1) + i(c - 1 + width) - i(c + 1 - width) - 2.f * i(c + 1) - i(c + 1 + width),
                                   [&](auto k, auto Gx) {
                                     return w::local(k, i(c - 1 - width) - i(c - 1 + width) + 2.f * i(c - width) - 2.f * i(c + width) + i(c + 1 - width) - i(c + 1 + width),
                                                     [&](auto k, auto Gy) {
                                                       return w::local(k, w::sqrt(Gx * Gx + Gy * Gy) / 2.f, [&](auto, auto v) {
                                                         return outputImage[4 * c + ch] =
                                                                    w::convert<std::uint8_t>(w::select(v > 255.f, 255.f, w::select(v < 0.f, 0.f, v)));
                                                       });
                                                     });
                                   });
                 }));
};

using Blk = w::block<16, 16>;
using U = w::value<unsigned>;

}  // namespace

WARDEN_KERNEL(sobel_k, w::kernel<Blk, w::in<std::uint8_t>, w::out<std::uint8_t>, U, U>(sobel_filter).named("sobel_filter", "inputImage", "outputImage", "width", "height"));

TEST_CASE("hecbench sobel_filter: accepted under one obligation that every launch of the original meets, clean, equal to the reference",
          "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, w::in<std::uint8_t>, w::out<std::uint8_t>, U, U>(sobel_filter) == code::none);
  // Rows of the output must not run into each other: width >= 16 * grid_dim.x, which the host's
  // grid (width / 16 blocks, rounded down) always meets.
  const std::string ob = w::obligations_of(sobel_k);
  CAPTURE(ob);
  CHECK(ob.find("if 4 * width - 64 * grid_dim.x >= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n") != std::string::npos);
  CHECK(std::count(ob.begin(), ob.end(), '\n') == 1);

  // 64 x 48 (whole blocks); 40 x 40 and 50 x 33 (the grid rounds down: a margin is not computed).
  for (auto [width, height] : {std::pair{64u, 48u}, std::pair{40u, 40u}, std::pair{50u, 33u}}) {
    CAPTURE(width, height);
    std::vector<std::uint8_t> in(4 * width * height), ref(in.size(), 0);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 11);
    const unsigned gx = width / 16, gy = height / 16;
    for (unsigned y = 1; y + 1 < height && y < 16 * gy; ++y)
      for (unsigned x = 1; x + 1 < width && x < 16 * gx; ++x)
        for (unsigned ch = 0; ch < 4; ++ch) {
          auto p = [&](unsigned e) { return static_cast<float>(in[4 * e + ch]); };
          const unsigned c = x + y * width;
          const float Gx = p(c - 1 - width) + 2.f * p(c - 1) + p(c - 1 + width) - p(c + 1 - width) - 2.f * p(c + 1) - p(c + 1 + width);
          const float Gy = p(c - 1 - width) - p(c - 1 + width) + 2.f * p(c - width) - 2.f * p(c + width) + p(c + 1 - width) - p(c + 1 + width);
          const float v = std::sqrt(Gx * Gx + Gy * Gy) / 2.f;
          ref[4 * c + ch] = static_cast<std::uint8_t>(v > 255.f ? 255.f : (v < 0.f ? 0.f : v));
        }
    auto d_in = w::to_device(in);
    auto d_out = w::to_device(std::vector<std::uint8_t>(in.size(), 0));  // cudaMemset(outputImageBuffer, 0, ...)
    CHECK(w::record(sobel_k, w::grid(static_cast<int>(gx), static_cast<int>(gy)), d_in, d_out, width, height).clean());
    CHECK(w::to_host(d_out) == ref);
  }
}
