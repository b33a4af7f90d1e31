// NVIDIA developer blog, "Finite Difference Methods in CUDA C/C++, Part 1":
// NVIDIA-developer-blog/code-samples, series/cuda-cpp/finite-difference/finite-difference.cu
// (commit 180658fd), kernel derivative_x (the small-pencil version), ported by hand. An
// eighth-order periodic x derivative of an mx * my * mz grid: each block stages sPencils rows of
// mx values in a shared tile s_f[sPencils][mx + 8] with a 4-wide halo on each side, fills the
// halo with the periodic images (threads i < 4), and applies the 9-point stencil.
// mx = my = mz = 64 and sPencils = 4 are the sample's const ints (C++ constants here). The stencil
// weights c_ax .. c_dx are __constant__ floats the host sets with cudaMemcpyToSymbol: uniform
// scalars, so w::value<float> parameters. Launch as setDerivativeParameters computes it:
// grid_sp[0] = dim3(my / sPencils, mz), block_sp[0] = dim3(mx, sPencils).
//
// ACCEPTED under one launch obligation, 256 * grid_dim.x <= 4096 (the blocks of one z plane stay
// in that plane's my = 64 rows), which the sample's grid meets exactly. Each thread stores its own s_f[sj][si]; after a barrier the
// threads i < 4 store the halo columns 0 .. 3 and mx + 4 .. mx + 7 while reading columns
// mx - 1 .. mx + 2 and 5 .. 8, which no thread stores in that phase; after a second barrier every
// thread reads its nine columns. Blocks write disjoint rows of df. The sample's launch runs clean
// and matches a plain periodic stencil. (At this commit runTest launches the lPencils kernels
// with grid_sp / block_sp too; a later commit, 3069da6b, gives each kernel its own configuration,
// with the same one for derivative_x. derivative_y_lPencils is nvblog_derivativeylpencils.cpp.)
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
constexpr int sPencils = 4;

// __global__ void derivative_x(float *f, float *df)   (c_ax .. c_dx: __constant__ floats)
constexpr auto derivative_x = [](auto k, auto f, auto df, auto c_ax, auto c_bx, auto c_cx, auto c_dx) {
  return w::shared<float, sPencils, mx + 8>(k, [&](auto k, auto s_f) {  // __shared__ float s_f[sPencils][mx+8]
    auto i = k.thread_id();
    auto j = k.block_id() * k.block_dim_y() + k.thread_id_y();
    auto kk = k.block_id_y();  // the original's k (a block index), renamed: k is the context here
    auto si = i + 4;
    auto sj = k.thread_id_y();
    auto globalIdx = kk * mx * my + j * mx + i;
    return w::seq(s_f(sj, si) = f[globalIdx], w::sync(),
                  w::when(i < 4, s_f(sj, si - 4) = s_f(sj, si + mx - 5), s_f(sj, si + mx) = s_f(sj, si + 1)), w::sync(),
                  df[globalIdx] = (c_ax * (s_f(sj, si + 1) - s_f(sj, si - 1)) + c_bx * (s_f(sj, si + 2) - s_f(sj, si - 2)) +
                                   c_cx * (s_f(sj, si + 3) - s_f(sj, si - 3)) + c_dx * (s_f(sj, si + 4) - s_f(sj, si - 4))));
  });
};

using Blk = w::block<mx, sPencils>;  // block_sp[0] = dim3(mx, sPencils, 1)
using F = w::value<float>;

}  // namespace

WARDEN_KERNEL(derivative_x_k, w::kernel<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_x)
                                  .named("derivative_x", "f", "df", "c_ax", "c_bx", "c_cx", "c_dx"));

namespace {

// The x derivative with the periodic images the kernel builds: points x and x + (mx - 1) are one
// point of the periodic domain (the halo x = -4 .. -1 takes x + mx - 1, x = mx .. mx + 3 takes
// x - (mx - 1)).
std::vector<float> reference(const std::vector<float>& f, const float c[4]) {
  std::vector<float> df(f.size());
  for (int z = 0; z < mz; ++z)
    for (int y = 0; y < my; ++y)
      for (int x = 0; x < mx; ++x) {
        auto g = [&](int xx) {
          if (xx < 0) xx += mx - 1;
          if (xx >= mx) xx -= mx - 1;
          return f[at(z * mx * my + y * mx + xx)];
        };
        float sum = 0.f;
        for (int d = 1; d <= 4; ++d) sum += c[d - 1] * (g(x + d) - g(x - d));
        df[at(z * mx * my + y * mx + x)] = sum;
      }
  return df;
}

}  // namespace

TEST_CASE("corpus2 nvblog derivative_x: accepted, clean on the sample's launch, equal to the reference", "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, F, F, F, F>(derivative_x) == code::none);
  // One obligation: the block rows of one z plane (grid_dim.x * 4 of them, 64 wide) must not run
  // into the next plane, whose rows other blocks store.
  const std::string ob = w::obligations_of(derivative_x_k);
  CAPTURE(ob);
  CHECK(ob.find("W010 holds for df[") == 0);
  CHECK(ob.find("if 256 * grid_dim.x <= 4096") != std::string::npos);
  CHECK(ob.find('\n') == ob.size() - 1);

  // The weights setDerivativeParameters computes for x (dsinv = mx - 1).
  const float dsinv = mx - 1.f;
  const float c[4] = {4.f / 5.f * dsinv, -1.f / 5.f * dsinv, 4.f / 105.f * dsinv, -1.f / 280.f * dsinv};
  // The sample's input (initInput, dim 0: cos(2 pi (i - 1) / (mx - 1))), and a field that varies
  // along all three axes.
  const float twopi = 8.f * static_cast<float>(std::atan(1.0));
  std::vector<float> f0(at(mx * my * mz)), f1(f0.size());
  for (int z = 0; z < mz; ++z)
    for (int y = 0; y < my; ++y)
      for (int x = 0; x < mx; ++x) {
        f0[at(z * mx * my + y * mx + x)] = std::cos(twopi * (static_cast<float>(x) - 1.f) / (mx - 1.f));
        f1[at(z * mx * my + y * mx + x)] = static_cast<float>((x * 7 + y * 3 + z * 5) % 11) / 11.f;
      }
  for (const auto* f : {&f0, &f1}) {
    auto d_f = w::to_device(*f);
    w::device_buffer<float> d_df(f->size());
    // grid_sp[0] = dim3(my / sPencils, mz, 1), block_sp[0] = dim3(mx, sPencils, 1)
    CHECK(w::record(derivative_x_k, w::grid(my / sPencils, mz), d_f, d_df, c[0], c[1], c[2], c[3]).clean());
    corpus::check_close(w::to_host(d_df), reference(*f, c), 1e-4);
  }
  // 17 block rows per plane: block (16, 0) would store rows 64 .. 67 of plane 0, which are rows
  // 0 .. 3 of plane 1, stored by block (0, 1): refused before running (E106).
  auto d_f = w::to_device(f0);
  w::device_buffer<float> d_df(f0.size());
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, derivative_x_k, w::grid(17, 2), d_f, d_df, c[0], c[1], c[2], c[3]); }).find("E106") == 0);
}
