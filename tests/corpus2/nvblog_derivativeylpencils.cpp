// NVIDIA developer blog, "Finite Difference Methods in CUDA C/C++, Part 1":
// NVIDIA-developer-blog/code-samples, series/cuda-cpp/finite-difference/finite-difference.cu
// (commit 3069da6b), kernel derivative_y_lPencils, ported by hand. The y derivative with a
// (my + 8) x lPencils shared tile ("launch with thread block of 32x8"): each thread stages
// my / blockDim.y points of its column in a loop for (j = threadIdx.y; j < my; j += blockDim.y),
// the threads with threadIdx.y < 4 fill the periodic halo rows, and the same loop applies the
// 9-point stencil. mx = my = mz = 64, sPencils = 4 and lPencils = 32 are the sample's const ints;
// c_ay .. c_dy are __constant__ floats (value<float> parameters, as in nvblog_derivativex.cpp).
// Launch as setDerivativeParameters: grid[1][1] = dim3(mx / lPencils, mz),
// block[1][1] = dim3(lPencils, my * sPencils / lPencils) = (32, 8). (At the older commit 180658fd
// runTest launched the lPencils kernels with the small-pencil grid and block; this commit gives
// each kernel its own.)
//
// ACCEPTED at compile time under three launch obligations on the df stores. The third,
// 32 * grid_dim.x + 4096 * grid_dim.y <= 4160, holds only for a grid one block high, though the
// blocks of different blockIdx.y write different z planes (4096 apart) and each stays inside its
// plane (rows j < my = 64 of 64 floats): the obligations are sufficient, not necessary, and where
// one fails launch lists the two stores with the launch's values (check/launch/global_pairs.hpp),
// finds no two threads at one element, and RUNS THE SAMPLE'S LAUNCH AS WRITTEN, clean and equal to
// the reference (before issue 32's item 1 for global memory it was refused, E106). The shared accesses are proved: in the staging and
// stencil loops thread (x, y) touches rows j + 4, j = y, y + 8, ..., of its own column; the halo
// rows 0 .. 3 and my + 4 .. my + 7 are stored by threads y < 4 while the rows they read
// (my - 1 .. my + 2 and 5 .. 8) are not stored in that phase. What it needed: the loops counted
// in trips, r = 0 .. 7 with j = threadIdx.y + r * blockDim.y (the same iterations and indices, no
// guard or clamp), which leaves one obligation, 32 * grid_dim.x <= 64, that the launch meets; that
// form runs clean and matches a plain periodic stencil.
#include "../corpus/corpus.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int mx = 64, my = 64, mz = 64;
constexpr int sPencils = 4, lPencils = 32;

// __global__ void derivative_y_lPencils(float *f, float *df)   (c_ay .. c_dy: __constant__ floats)
constexpr auto derivative_y_lPencils = [](auto k, auto f, auto df, auto c_ay, auto c_by, auto c_cy, auto c_dy) {
  return w::shared<float, my + 8, lPencils>(k, [&](auto k, auto s_f) {  // __shared__ float s_f[my+8][lPencils]
    auto i = k.block_id() * k.block_dim() + k.thread_id();
    auto kk = k.block_id_y();  // the original's k (a block index), renamed: k is the context here
    auto si = k.thread_id();
    auto sj = k.thread_id_y() + 4;
    return w::seq(w::for_range(k, k.thread_id_y(), my, k.block_dim_y(), [&](auto, auto j) {
                    return s_f(j + 4, si) = f[kk * mx * my + j * mx + i];
                  }),
                  w::sync(),
                  w::when(sj < 8, s_f(sj - 4, si) = s_f(sj + my - 5, si), s_f(sj + my, si) = s_f(sj + 1, si)),
                  w::sync(),
                  w::for_range(k, k.thread_id_y(), my, k.block_dim_y(), [&](auto, auto j) {
                    return df[kk * mx * my + j * mx + i] =
                               (c_ay * (s_f(j + 4 + 1, si) - s_f(j + 4 - 1, si)) + c_by * (s_f(j + 4 + 2, si) - s_f(j + 4 - 2, si)) +
                                c_cy * (s_f(j + 4 + 3, si) - s_f(j + 4 - 3, si)) + c_dy * (s_f(j + 4 + 4, si) - s_f(j + 4 - 4, si)));
                  }));
  });
};

// The loops counted in trips (r = 0 .. my / blockDim.y - 1; j = threadIdx.y + r * blockDim.y): the same
// iterations and indices.
constexpr auto derivative_y_by_trips = [](auto k, auto f, auto df, auto c_ay, auto c_by, auto c_cy, auto c_dy) {
  return w::shared<float, my + 8, lPencils>(k, [&](auto k, auto s_f) {  // __shared__ float s_f[my+8][lPencils]
    auto i = k.block_id() * k.block_dim() + k.thread_id();
    auto kk = k.block_id_y();  // the original's k (a block index), renamed: k is the context here
    auto si = k.thread_id();
    auto sj = k.thread_id_y() + 4;
    return w::seq(w::for_range(k, 0, my / (my * sPencils / lPencils), [&](auto, auto r) {
                    auto j = k.thread_id_y() + r * k.block_dim_y();
                    return s_f(j + 4, si) = f[kk * mx * my + j * mx + i];
                  }),
                  w::sync(),
                  w::when(sj < 8, s_f(sj - 4, si) = s_f(sj + my - 5, si), s_f(sj + my, si) = s_f(sj + 1, si)),
                  w::sync(),
                  w::for_range(k, 0, my / (my * sPencils / lPencils), [&](auto, auto r) {
                    auto j = k.thread_id_y() + r * k.block_dim_y();
                    return df[kk * mx * my + j * mx + i] =
                               (c_ay * (s_f(j + 4 + 1, si) - s_f(j + 4 - 1, si)) + c_by * (s_f(j + 4 + 2, si) - s_f(j + 4 - 2, si)) +
                                c_cy * (s_f(j + 4 + 3, si) - s_f(j + 4 - 3, si)) + c_dy * (s_f(j + 4 + 4, si) - s_f(j + 4 - 4, si)));
                  }));
  });
};

using Blk = w::block<lPencils, my * sPencils / lPencils>;  // block[1][1] = dim3(32, 8)
using F = w::value<float>;

}  // namespace

WARDEN_KERNEL(derivative_y_lPencils_k, w::kernel<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_y_lPencils)
                                           .named("derivative_y_lPencils", "f", "df", "c_ay", "c_by", "c_cy", "c_dy"));

namespace {

// The y derivative with the kernel's periodic images: rows y and y + (my - 1) are one point.
std::vector<float> reference(const std::vector<float>& f, const float c[4]) {
  std::vector<float> df(f.size());
  for (int z = 0; z < mz; ++z)
    for (int y = 0; y < my; ++y)
      for (int x = 0; x < mx; ++x) {
        auto g = [&](int yy) {
          if (yy < 0) yy += my - 1;
          if (yy >= my) yy -= my - 1;
          return f[at(z * mx * my + yy * mx + x)];
        };
        float sum = 0.f;
        for (int d = 1; d <= 4; ++d) sum += c[d - 1] * (g(y + d) - g(y - d));
        df[at(z * mx * my + y * mx + x)] = sum;
      }
  return df;
}

}  // namespace

WARDEN_KERNEL(derivative_y_trips_k, w::kernel<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_y_by_trips)
                                       .named("derivative_y_lPencils", "f", "df", "c_ay", "c_by", "c_cy", "c_dy"));

TEST_CASE("corpus2 nvblog derivative_y_lPencils: accepted under three obligations, the sample's launch runs clean as written, "
          "and counted in trips",
          "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_y_lPencils) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_y_by_trips) == code::none);
  const std::string ob = w::obligations_of(derivative_y_lPencils_k);
  CAPTURE(ob);
  CHECK(ob.find("if 32 * grid_dim.x <= 64 ") != std::string::npos);
  CHECK(ob.find("if 32 * grid_dim.x <= 3648 ") != std::string::npos);
  CHECK(ob.find("if 32 * grid_dim.x + 4096 * grid_dim.y <= 4160 ") != std::string::npos);
  const std::string ob_trips = w::obligations_of(derivative_y_trips_k);
  CAPTURE(ob_trips);
  CHECK(ob_trips.find("if 32 * grid_dim.x <= 64 ") != std::string::npos);
  CHECK(ob_trips.find('\n') == ob_trips.size() - 1);  // one obligation

  const float dsinv = my - 1.f;  // setDerivativeParameters, y weights
  const float c[4] = {4.f / 5.f * dsinv, -1.f / 5.f * dsinv, 4.f / 105.f * dsinv, -1.f / 280.f * dsinv};
  const float twopi = 8.f * static_cast<float>(std::atan(1.0));
  std::vector<float> f0(at(mx * my * mz)), f1(f0.size());
  for (int z = 0; z < mz; ++z)
    for (int y = 0; y < my; ++y)
      for (int x = 0; x < mx; ++x) {
        f0[at(z * mx * my + y * mx + x)] = std::cos(twopi * (static_cast<float>(y) - 1.f) / (my - 1.f));  // initInput, dim 1
        f1[at(z * mx * my + y * mx + x)] = static_cast<float>((x * 5 + y * 7 + z * 3) % 13) / 13.f;
      }
  const auto grid = w::grid(mx / lPencils, mz);  // grid[1][1]
  for (const auto* f : {&f0, &f1}) {
    auto d_f = w::to_device(*f);
    w::device_buffer<float> d_df(f->size());
    // As written: the third obligation (32 * grid_dim.x + 4096 * grid_dim.y <= 4160) fails, but
    // launch lists the stores with this grid and finds no two threads at one element.
    CHECK(w::record(derivative_y_lPencils_k, grid, d_f, d_df, c[0], c[1], c[2], c[3]).clean());
    corpus::check_close(w::to_host(d_df), reference(*f, c), 1e-4);
    // Counted in trips, the same launch runs clean and matches the reference.
    CHECK(w::record(derivative_y_trips_k, grid, d_f, d_df, c[0], c[1], c[2], c[3]).clean());
    corpus::check_close(w::to_host(d_df), reference(*f, c), 1e-4);
  }
}
