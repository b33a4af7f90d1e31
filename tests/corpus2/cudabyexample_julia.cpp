// "CUDA by Example" (Sanders, Kandrot), chapter 4, the Julia set: CodedK/CUDA-by-Example-source-
// code-for-the-book-s-examples-, chapter04/julia_gpu.cu (commit 78d24d4a), kernel kernel with the
// __device__ function julia and struct cuComplex, ported by hand. One block of ONE thread per
// pixel: x = blockIdx.x, y = blockIdx.y, offset = x + y * gridDim.x; the pixel's red byte is
// 255 * julia(x, y), the others 0, 0, 255. DIM 1000 is the book's #define (the image is DIM x DIM,
// and julia scales by DIM / 2). Launch as main: dim3 grid(DIM, DIM); kernel<<<grid, 1>>>.
// Language pieces: julia (200 iterations of a = a * a + c with an early return) is plain C++ in a
// stateless function object called with w::call, the way warden takes a __device__ function.
//
// ACCEPTED, no launch obligation: each one-thread block writes the four bytes of its own pixel
// (offset = blockIdx.x + blockIdx.y * gridDim.x is one-to-one on the grid). The book's 1000 x 1000
// launch runs clean and draws the same image as a plain escape-time loop.
#include "../corpus/corpus.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int DIM = 1000;

struct cuComplex {
  float r, i;
  WARDEN_HOST_DEVICE constexpr float magnitude2() const { return r * r + i * i; }
  WARDEN_HOST_DEVICE constexpr cuComplex operator*(const cuComplex& a) const { return {r * a.r - i * a.i, i * a.r + r * a.i}; }
  WARDEN_HOST_DEVICE constexpr cuComplex operator+(const cuComplex& a) const { return {r + a.r, i + a.i}; }
};

// __device__ int julia(int x, int y)
struct julia {
  WARDEN_HOST_DEVICE int operator()(int x, int y) const {
    const float scale = 1.5;
    float jx = scale * static_cast<float>(DIM / 2 - x) / (DIM / 2);
    float jy = scale * static_cast<float>(DIM / 2 - y) / (DIM / 2);
    cuComplex c{-0.8f, 0.156f};
    cuComplex a{jx, jy};
    for (int i = 0; i < 200; i++) {
      a = a * a + c;
      if (a.magnitude2() > 1000) return 0;
    }
    return 1;
  }
};

// __global__ void kernel(unsigned char *ptr)
constexpr auto julia_kernel = [](auto k, auto ptr) {
  auto x = k.block_id();
  auto y = k.block_id_y();
  auto offset = x + y * k.grid_dim();
  return w::local(k, w::call(julia{}, x, y), [&](auto, auto juliaValue) {
    return w::seq(ptr[offset * 4 + 0] = 255 * juliaValue, ptr[offset * 4 + 1] = 0, ptr[offset * 4 + 2] = 0, ptr[offset * 4 + 3] = 255);
  });
};

using Blk = w::block<1>;

}  // namespace

WARDEN_KERNEL(julia_k, w::kernel<Blk, w::out<std::uint8_t>>(julia_kernel).named("kernel", "ptr"));

TEST_CASE("corpus2 CUDA by Example julia: accepted, clean on the book's DIM x DIM grid, equal to the reference", "[corpus2][cuda-by-example]") {
  STATIC_REQUIRE(code_of<Blk, w::out<std::uint8_t>>(julia_kernel) == code::none);
  const std::string ob = w::obligations_of(julia_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  // Reference: the escape-time test written out on floats.
  std::vector<std::uint8_t> ref(at(DIM * DIM * 4));
  for (int y = 0; y < DIM; ++y)
    for (int x = 0; x < DIM; ++x) {
      float ar = 1.5f * static_cast<float>(DIM / 2 - x) / (DIM / 2), ai = 1.5f * static_cast<float>(DIM / 2 - y) / (DIM / 2);
      int inside = 1;
      for (int n = 0; n < 200 && inside; ++n) {
        const float r = ar * ar - ai * ai + -0.8f, im = ai * ar + ar * ai + 0.156f;
        ar = r, ai = im;
        if (ar * ar + ai * ai > 1000) inside = 0;
      }
      const int offset = x + y * DIM;
      ref[at(offset * 4 + 0)] = static_cast<std::uint8_t>(255 * inside);
      ref[at(offset * 4 + 1)] = 0;
      ref[at(offset * 4 + 2)] = 0;
      ref[at(offset * 4 + 3)] = 255;
    }
  w::device_buffer<std::uint8_t> dev_bitmap(at(DIM * DIM * 4));  // bitmap.image_size()
  CHECK(w::record(julia_k, w::grid(DIM, DIM), dev_bitmap).clean());
  const auto got = w::to_host(dev_bitmap);
  CHECK(got == ref);
  int inside = 0;
  for (int p = 0; p < DIM * DIM; ++p) inside += got[at(p * 4)] == 255;
  CHECK(inside > 0);  // the set is not empty
  CHECK(inside < DIM * DIM);
}
