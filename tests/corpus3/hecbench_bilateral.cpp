// HeCBench, bilateral: zjin-lcf/HeCBench (commit 129d8c14), src/bilateral-cuda/main.cu, kernel
// bilateralFilter<R> (a bilateral filter over a (2R + 1) x (2R + 1) window, mirrored at the image's
// edges), ported by hand for R = 3 and R = 9 (the host launches R = 3, 6 and 9). One thread per
// pixel: idx, idy from a 2-D grid, `if (idx >= w || idy >= h) return;`, then for i, j in [-R, R]
// the neighbour idk = idx + i, idl = idy + j is mirrored by four ifs (`if (idk < 0) idk = -idk;`
// ... `if (idk > w - 1) idk = w - 1 - i;`), loaded as in[idl * w + idk] and weighted. w and h are
// the kernel's int parameters; a_square, variance_I, variance_spatial are floats. Launch as the
// original: threads(16, 16), blocks((w + 15) / 16, (h + 15) / 16) (the grid overhangs the image
// when w or h is not a multiple of 16).
//
// Translation: the early return is a guard around the rest of the body. I, res and normalization
// are locals; idk and idl are locals assigned by the four mirror ifs (w::when), as written; id_w,
// I_w, range, spatial and weight are expressions (each used once or twice; I_w is a local, as it is
// loaded once in the original). expf is w::exp. The spatial term keeps C++'s types: the int sum of
// squares is negated, then divided by a float.
//
// Verdict before issue 56's fixes: ACCEPTED AT COMPILE TIME with no obligation (one store out[id]
// per thread; everything else a load), but REFUSED AT LAUNCH, E101, on every launch: the load
// in[id_w], id_w = idl * w + idk, reads the locals idk and idl that the mirror ifs assign, and the
// launch could not bound a thread-private variable that the kernel assigns. Recorded anyway, the
// faithful kernel read nothing out of bounds, had no conflict and equalled the reference.
//
// Verdict now: RUNS AS WRITTEN. The launch reads idk after the four ifs as the value it holds there
// (dsl/local_values.hpp): select(idk1 > w - 1, w - 1 - i, idk1), idk1 = select(idx + i < 0,
// -(idx + i), idx + i), and bounds in[idl * w + idk] for the launch's w and h. R = 3 and 9 run clean
// on 40 x 24, 16 x 16 and 33 x 50 and equal the reference. The mirror is right only for images
// wider and taller than R: on a 6 x 40 image R = 9 reflects idx + i = -9 to 9, then to
// w - 1 - i = 14, past the row, and that launch is refused E101 (the recording confirms the overrun).
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// template<int R> __global__ void bilateralFilter(const float *__restrict__ in, float *__restrict__ out,
//     int w, int h, float a_square, float variance_I, float variance_spatial)
template <int R>
constexpr auto bilateralFilter = [](auto k, auto in, auto out, auto w, auto h, auto a_square, auto variance_I, auto variance_spatial) {
  auto idx = k.block_id() * k.block_dim() + k.thread_id();
  auto idy = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  auto id = idy * w + idx;
  return w::when(!(idx >= w || idy >= h), w::locals(k, in[id], 0.f, 0.f, [&](auto k, auto I, auto res, auto normalization) {
                   return w::seq(
                       // window centered at the coordinate (idx, idy)
                       w::for_range(k, -R, R + 1, [&](auto k, auto i) {
                         return w::for_range(k, -R, R + 1, [&](auto k, auto j) {
                           return w::locals(k, idx + i, idy + j, [&](auto k, auto idk, auto idl) {
                             return w::seq(
                                 // mirror edges
                                 w::when(idk < 0, idk = -idk), w::when(idl < 0, idl = -idl), w::when(idk > w - 1, idk = w - 1 - i),
                                 w::when(idl > h - 1, idl = h - 1 - j),
                                 w::local(k, in[idl * w + idk], [&](auto, auto I_w) {
                                   // range kernel, spatial kernel, weight = a_square * expf(spatial + range)
                                   auto range = -(I - I_w) * (I - I_w) / (2.f * variance_I);
                                   auto spatial = -((idk - idx) * (idk - idx) + (idl - idy) * (idl - idy)) / (2.f * variance_spatial);
                                   return w::seq(normalization += a_square * w::exp(spatial + range),
                                                 res += (I_w * (a_square * w::exp(spatial + range))));
                                 }));
                           });
                         });
                       }),
                       out[id] = res / normalization);
                 }));
};

using Blk = w::block<16, 16>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

#define BF_PARAMS Blk, w::in<float>, w::out<float>, V, V, F, F, F

WARDEN_KERNEL(bilateral3_k, w::kernel<BF_PARAMS>(bilateralFilter<3>)
                                .named("bilateralFilter<3>", "in", "out", "w", "h", "a_square", "variance_I", "variance_spatial"));
WARDEN_KERNEL(bilateral9_k, w::kernel<BF_PARAMS>(bilateralFilter<9>)
                                .named("bilateralFilter<9>", "in", "out", "w", "h", "a_square", "variance_I", "variance_spatial"));

namespace {

// reference.h's reference<R>, in float as the kernel computes.
std::vector<float> reference(int R, const std::vector<float>& in, int w, int h, float a_square, float variance_I, float variance_spatial) {
  std::vector<float> out(in.size());
  for (int idy = 0; idy < h; ++idy)
    for (int idx = 0; idx < w; ++idx) {
      const float I = in[at(idy * w + idx)];
      float res = 0, normalization = 0;
      for (int i = -R; i <= R; i++)
        for (int j = -R; j <= R; j++) {
          int idk = idx + i, idl = idy + j;
          if (idk < 0) idk = -idk;
          if (idl < 0) idl = -idl;
          if (idk > w - 1) idk = w - 1 - i;
          if (idl > h - 1) idl = h - 1 - j;
          const float I_w = in[at(idl * w + idk)];
          const float range = -(I - I_w) * (I - I_w) / (2.f * variance_I);
          const float spatial = static_cast<float>(-((idk - idx) * (idk - idx) + (idl - idy) * (idl - idy))) / (2.f * variance_spatial);
          const float weight = a_square * std::exp(spatial + range);
          normalization += weight;
          res += I_w * weight;
        }
      out[at(idy * w + idx)] = res / normalization;
    }
  return out;
}

template <class Kernel>
void run(const Kernel& kernel, int R, int w, int h) {
  CAPTURE(R, w, h);
  const float variance_I = 10.f, variance_spatial = 12.f, a_square = 0.5f / (variance_I * 3.14159265f);
  std::vector<float> src(at(w * h));
  for (int i = 0; i < w * h; ++i) src[at(i)] = static_cast<float>((i * 2654435761u >> 7) % 256);
  auto d_src = w::to_device(src);
  w::device_buffer<float> d_dst(src.size());
  const auto grid = w::grid((w + 15) / 16, (h + 15) / 16);
  if (w > R && h > R) {
    const auto ref = reference(R, src, w, h, a_square, variance_I, variance_spatial);
    CHECK(w::record(kernel, grid, d_src, d_dst, w, h, a_square, variance_I, variance_spatial).clean());
    corpus::check_close(w::to_host(d_dst), ref, 1e-4);
    w::launch(w::on_cpu, kernel, grid, d_src, d_dst, w, h, a_square, variance_I, variance_spatial);
    corpus::check_close(w::to_host(d_dst), ref, 1e-4);
    return;
  }
  // An image no wider than R: the mirror reflects past the row, and the launch says so.
  try {
    w::launch(w::on_cpu, kernel, grid, d_src, d_dst, w, h, a_square, variance_I, variance_spatial);
    FAIL("a launch that overruns in[] ran");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] bilateral9_k: load in["));
  }
  const auto r = w::record_anyway(kernel, grid, d_src, d_dst, w, h, a_square, variance_I, variance_spatial);
  CHECK_THAT(r.refusal(), Catch::Matchers::StartsWith("E101"));
  CHECK_FALSE(r.clean());  // the overrun the launch refused is real
}

}  // namespace

TEST_CASE("hecbench bilateralFilter<3>, <9>: runs as written (the mirrored neighbour, a local assigned in branches, is "
          "bounded at launch), clean and equal to the reference; an image narrower than R is refused E101",
          "[corpus3][hecbench]") {
  STATIC_REQUIRE(code_of<BF_PARAMS>(bilateralFilter<3>) == code::none);
  STATIC_REQUIRE(code_of<BF_PARAMS>(bilateralFilter<9>) == code::none);
  CHECK(w::obligations_of(bilateral3_k).empty());
  CHECK(w::obligations_of(bilateral9_k).empty());
  for (auto [w, h] : {std::pair{40, 24}, std::pair{16, 16}, std::pair{33, 50}}) {
    run(bilateral3_k, 3, w, h);
    run(bilateral9_k, 9, w, h);
  }
  run(bilateral9_k, 9, 6, 40);  // R = 9 reflects past a 6-pixel row: refused, and it does overrun
}
