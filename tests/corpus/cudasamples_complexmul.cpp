// NVIDIA cuda-samples, simpleCUFFT: NVIDIA/cuda-samples (commit c94ff366),
// Samples/4_CUDA_Libraries/simpleCUFFT/simpleCUFFT.cu, kernel ComplexPointwiseMulAndScale with
// ComplexMul and ComplexScale (typedef float2 Complex), ported by hand: a[i] = (a[i] * b[i]) * scale
// over the size complex values, in a grid-stride loop. Launch as the sample:
// ComplexPointwiseMulAndScale<<<32, 256>>>(d_signal, d_filter_kernel, new_size, 1.0f / new_size),
// new_size = 50 + 6 = 56. Language pieces: a Complex* is a float buffer seen as vectors of two,
// w::vectors<2>(a)[i]; the members `a[i].x`, `a[i].y` of a load are w::get<0>, w::get<1> of the
// vector load itself, as the original writes them (no local first); the new value is one vector
// store of w::make_vec(re, im); the loop `for (i = threadID; i < size; i += numThreads)` is
// w::grid_stride over [0, size).
//
// ACCEPTED, no launch obligation: each i is one thread's, a's vectors are loaded and stored by
// that thread only, b is read-only. Runs clean and equals the complex products on the host.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// static __global__ void ComplexPointwiseMulAndScale(Complex *a, const Complex *b, int size, float scale)
constexpr auto ComplexPointwiseMulAndScale = [](auto k, auto a, auto b, auto size, auto scale) {
  return w::grid_stride(k, size, [&](auto, auto i) {
    // a[i] = ComplexScale(ComplexMul(a[i], b[i]), scale);
    //   ComplexMul: c.x = a.x * b.x - a.y * b.y; c.y = a.x * b.y + a.y * b.x
    //   ComplexScale: c.x = s * a.x; c.y = s * a.y
    return w::vectors<2>(a)[i] = w::make_vec(
               scale * (w::get<0>(w::vectors<2>(a)[i]) * w::get<0>(w::vectors<2>(b)[i]) -
                        w::get<1>(w::vectors<2>(a)[i]) * w::get<1>(w::vectors<2>(b)[i])),
               scale * (w::get<0>(w::vectors<2>(a)[i]) * w::get<1>(w::vectors<2>(b)[i]) +
                        w::get<1>(w::vectors<2>(a)[i]) * w::get<0>(w::vectors<2>(b)[i])));
  });
};

using Blk = w::block<256>;
using A = w::inout<float>;
using B = w::in<float>;
using Int = w::value<int>;
using Float = w::value<float>;

}  // namespace

WARDEN_KERNEL(complex_mul_k, w::kernel<Blk, A, B, Int, Float>(ComplexPointwiseMulAndScale)
                                 .named("ComplexPointwiseMulAndScale", "a", "b", "size", "scale"));

TEST_CASE("corpus cuda-samples ComplexPointwiseMulAndScale: components of vector loads, accepted, clean", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, A, B, Int, Float>(ComplexPointwiseMulAndScale) == code::none);
  CHECK(w::obligations_of(complex_mul_k).empty());
  // The sample's size (56) and one past a whole grid of 32 x 256 threads, so that threads loop.
  for (int size : {56, 32 * 256 + 77}) {
    CAPTURE(size);
    std::vector<float> a(at(2 * size)), b(at(2 * size));
    for (int i = 0; i < 2 * size; ++i) {
      a[at(i)] = static_cast<float>((i * 37) % 11) - 5.f;
      b[at(i)] = static_cast<float>((i * 53) % 7) - 3.f;
    }
    const float scale = 1.0f / static_cast<float>(size);
    auto da = w::to_device(a);
    auto db = w::to_device(b);
    CHECK(w::record(complex_mul_k, w::grid(32), da, db, size, scale).clean());
    std::vector<float> want(at(2 * size));
    for (int i = 0; i < size; ++i) {
      const float ax = a[at(2 * i)], ay = a[at(2 * i + 1)], bx = b[at(2 * i)], by = b[at(2 * i + 1)];
      want[at(2 * i)] = scale * (ax * bx - ay * by);
      want[at(2 * i + 1)] = scale * (ax * by + ay * bx);
    }
    corpus::check_close(w::to_host(da), want);
  }
}
