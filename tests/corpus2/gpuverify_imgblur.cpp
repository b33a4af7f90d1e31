// GPUVerifyBenchmarks: mc-imperial/GPUVerifyBenchmarks,
// C++AMP/3000.imgblur_grid_6662C876/imgblur_Beta/kernel.cu, kernel boxblur (a C++ AMP blog sample,
// "use the grid offset to blur the inner image box", translated to CUDA by the GPUVerify authors;
// marked `//pass`, run with --blockDim=[17,17] --gridDim=[1,1]). Ported by hand. width and height
// (17) are #defines; originX and originY are the kernel's int parameters (the AMP grid's offset).
// Each thread averages the 3 x 3 neighbourhood of its pixel (idxX + originX, idxY + originY) into
// blurimage, counting the samples in an int (`samples++`, a w::local).
// Launches: the sample's own (per its comments, the compute domain is the image less its border,
// at offset (1, 1)): one 15 x 15 block, origin (1, 1); and the suite's 17 x 17 block. The kernel has
// no bound: with 17 x 17 threads the neighbourhoods of the edge threads leave the 17 x 17 image
// whatever the origin, so that launch reads outside img on a GPU.
//
// RACE-FREE (the suite's //pass): each thread stores its own pixel; img is only read.
// VERDICT: on the sample's launch (block 15 x 15, origin (1, 1)) ACCEPTED under one launch
// obligation, 15 * grid_dim.x <= 17 (a second block column would store the next row's pixels),
// and it records clean, equal to the reference. With the suite's 17 x 17 block the checker forms no
// such obligation (17 * grid_dim.x <= 17); before issue 32's item 1 it refused the body at compile
// time, W010 [write-write-race] ("threads of different blocks may meet"). The store's index reads
// the origins, launch numbers: the pair is now left to the launch, which lists the suite's one
// block and finds every thread on its own pixel. That launch is still refused, E101: it reads
// outside img, as the original does on a GPU.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int width = 17, height = 17;

// __global__ void boxblur(float* blurimage, float* img, int originX, int originY)
constexpr auto boxblur = [](auto k, auto blurimage, auto img, auto originX, auto originY) {
  auto idxX = k.block_id() * k.block_dim() + k.thread_id() + originX;  // idxX += originX
  auto idxY = k.block_id_y() * k.block_dim_y() + k.thread_id_y() + originY;
  return w::local(k, 0.0f, [&](auto k, auto r) {
    return w::local(k, 0, [&](auto k, auto samples) {
      return w::seq(w::for_range(k, -1, 2, [&](auto k, auto dy) {
                      return w::for_range(k, -1, 2, [&](auto, auto dx) {
                        return w::seq(r += img[(idxY + dy) * width + idxX + dx], samples += 1);
                      });
                    }),
                    blurimage[idxY * width + idxX] = r / samples);
    });
  });
};

using V = w::value<int>;
using Blk15 = w::block<width - 2, height - 2>;
using Blk17 = w::block<width, height>;

// The blur on the host, for the pixels the launch covers.
std::vector<float> reference(const std::vector<float>& img, int nx, int ny, int originX, int originY) {
  std::vector<float> out(img.size(), -1.f);
  for (int y = originY; y < originY + ny; ++y)
    for (int x = originX; x < originX + nx; ++x) {
      float r = 0.f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) r += img[at((y + dy) * width + x + dx)];
      out[at(y * width + x)] = r / 9;
    }
  return out;
}

}  // namespace

WARDEN_KERNEL(boxblur15_k, w::kernel<Blk15, w::out<float>, w::in<float>, V, V>(boxblur).named("boxblur", "blurimage", "img", "originX", "originY"));
WARDEN_KERNEL(boxblur17_k, w::kernel<Blk17, w::out<float>, w::in<float>, V, V>(boxblur)
                                        .named("boxblur", "blurimage", "img", "originX", "originY"));

TEST_CASE("corpus2 gpuverify C++AMP imgblur boxblur: accepted on the sample's 15 x 15 launch (one obligation), the suite's 17 x 17 block left to the launch, refused E101",
          "[corpus2][gpuverify]") {
  STATIC_REQUIRE(code_of<Blk15, w::out<float>, w::in<float>, V, V>(boxblur) == code::none);
  // With a 17-wide block a second block column would store the next row's pixels; for 15 the
  // checker makes that a launch obligation, for 17 (the suite's block) the launch lists the stores.
  STATIC_REQUIRE(w::testing::left_to_launch<Blk17, w::out<float>, w::in<float>, V, V>(boxblur));
  const std::string ob = w::obligations_of(boxblur15_k);
  CAPTURE(ob);
  CHECK(ob.find("if 15 * grid_dim.x <= 17") != std::string::npos);
  CHECK(ob.find('\n') == ob.size() - 1);  // one obligation

  std::vector<float> img(width * height);
  for (int i = 0; i < width * height; ++i) img[at(i)] = static_cast<float>((i * 37) % 101) * 0.25f;
  auto dimg = w::to_device(img);
  auto dout = w::to_device(std::vector<float>(img.size(), -1.f));
  CHECK(w::record(boxblur15_k, w::grid(1, 1), dout, dimg, 1, 1).clean());
  corpus::check_close(w::to_host(dout), reference(img, width - 2, height - 2, 1, 1));

  // No guard: an origin that puts a neighbourhood outside the image is refused at launch (E101),
  // and so is every origin with the suite's 17 x 17 block, once its stores are listed apart.
  auto refused_e101 = [&](auto kernel, int ox, int oy) {
    try {
      (void)w::record(kernel, w::grid(1, 1), dout, dimg, ox, oy);
    } catch (const w::bounds_error& e) {
      return std::string(e.what()).rfind("E101", 0) == 0;
    }
    return false;
  };
  CHECK(refused_e101(boxblur15_k, 0, 0));
  CHECK(refused_e101(boxblur17_k, 0, 0));
  CHECK(refused_e101(boxblur17_k, 1, 1));
}
