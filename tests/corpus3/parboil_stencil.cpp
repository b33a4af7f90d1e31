// Parboil, stencil (7-point Jacobi stencil on a 3-D grid): jovan-djukic/parboil (commit 5d2d7c0f, a
// mirror of Parboil 2.5), benchmarks/stencil/src/cuda/kernels.cu, kernel block2D_hybrid_coarsen_x
// (host code in benchmarks/stencil/src/cuda/main.cu; Index3D(nx, ny, i, j, k) = i + nx * (j + ny *
// k), common.h), ported by hand. A block of tx x ty = 32 x 4 threads sweeps a 64 x 4 column of the
// grid along z, each thread two points of a row, i and i2 = i + blockDim.x (thread coarsening along
// x). The current plane is kept in the dynamic shared array sh_A0 of 2 * blockDim.x * blockDim.y
// floats (sh_id and sh_id2 are the thread's two cells), the planes below and above in registers
// (bottom, top, bottom2, top2). Each thread zeroes its two cells, barrier, loads planes 0 and 1 of
// its points where (i < nx) && (j < ny) (resp. i2), barrier; then for k = 1 .. nz - 2: loads top
// from plane k + 1, and inside w_region (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) stores
// Anext[Index3D(nx, ny, i, j, k)] from its neighbours, each read from shared memory or, on the
// block's edge (y_h_bound, y_l_bound, x_l_bound), from global memory (a ?: between the two); the
// same for i2 (w_region2 has no i2 > 0 test, x_h_bound on the right edge); barrier; then bottom =
// sh_A0[sh_id], sh_A0[sh_id] = top (and for sh_id2), barrier. Launch as main(): block(32, 4, 1),
// grid((nx + 63) / 64, (ny + 3) / 4, 1), sh_size = 2 * 32 * 4 floats, `iteration` launches with A0
// and Anext swapped after each (Anext starts as a copy of A0, so the boundary stays). Here (nx, ny,
// nz) = (100, 10, 6) (a 2 x 3 grid: 128 columns of threads for 100 points, 12 rows for 10) and
// (64, 8, 5) (whole blocks), two iterations each.
//
// Translation: `extern __shared__ float sh_A0[]` with the host's size is a w::shared<float, 256>;
// blockDim.x / blockDim.y are k.block_dim() / k.block_dim_y(); the const bools are C++ lambdas that
// rebuild the condition where it is used; bottom, bottom2, top, top2 are w::locals; each `cond ? a
// : b` is a w::select, which loads only the chosen side; a_up, a_down, a_left_right are inlined in
// the sum in the original's order. A0 is in<float>, Anext out<float> (only stored).
//
// Verdict: ACCEPTED at compile time, the shared plane, its two barriers per trip and the selects
// between shared and global loads included, under three W010 obligations on the stores
// Anext[Index3D(nx, ny, i, j, k)] and Anext[Index3D(nx, ny, i2, j, k)]: the i stores of two threads
// apart if nx * ny - 4 * grid_dim.y * nx >= -2, the i2 stores if ... >= -33, and the i against the
// i2 stores left to the launch to list. On the host's grids the first two fail whenever ny is not a
// multiple of 4 (the grid overhangs in y: 100 x 10 on 3 rows of blocks gives 1000 - 1200), and the
// launch then lists the stores with its own nx, ny, nz and finds no two threads on one element.
// RUNS AS WRITTEN: both sizes, two swapped iterations each, clean and equal to the reference.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TX = 32, TY = 4;  // main(): int tx = 32, ty = 4

// __global__ void block2D_hybrid_coarsen_x(float c0, float c1, float *A0, float *Anext, int nx, int ny, int nz)
constexpr auto block2D_hybrid_coarsen_x = [](auto k, auto c0, auto c1, auto A0, auto Anext, auto nx, auto ny, auto nz) {
  auto i = k.block_id() * k.block_dim() * 2 + k.thread_id();
  auto i2 = k.block_id() * k.block_dim() * 2 + k.thread_id() + k.block_dim();
  auto j = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  auto sh_id = k.thread_id() + k.thread_id_y() * k.block_dim() * 2;
  auto sh_id2 = k.thread_id() + k.block_dim() + k.thread_id_y() * k.block_dim() * 2;
  auto Index3D = [](auto nx_, auto ny_, auto i_, auto j_, auto k_) { return i_ + nx_ * (j_ + ny_ * k_); };
  auto w_region = [&] { return i > 0 && j > 0 && (i < (nx - 1)) && (j < (ny - 1)); };
  auto w_region2 = [&] { return j > 0 && (i2 < nx - 1) && (j < ny - 1); };
  auto x_l_bound = [&] { return k.thread_id() == 0; };
  auto x_h_bound = [&] { return (k.thread_id() + k.block_dim()) == (k.block_dim() * 2 - 1); };
  auto y_l_bound = [&] { return k.thread_id_y() == 0; };
  auto y_h_bound = [&] { return k.thread_id_y() == (k.block_dim_y() - 1); };
  return w::shared<float, 2 * TX * TY>(k, [&](auto k, auto sh_A0) {
    return w::locals(k, 0.f, 0.f, 0.f, 0.f, [&](auto k, auto bottom, auto bottom2, auto top, auto top2) {
      return w::seq(
          sh_A0[sh_id] = 0.0f, sh_A0[sh_id2] = 0.0f, w::sync(),
          w::when((i < nx) && (j < ny), bottom = A0[Index3D(nx, ny, i, j, 0)], sh_A0[sh_id] = A0[Index3D(nx, ny, i, j, 1)]),
          w::when((i2 < nx) && (j < ny), bottom2 = A0[Index3D(nx, ny, i2, j, 0)], sh_A0[sh_id2] = A0[Index3D(nx, ny, i2, j, 1)]),
          w::sync(),
          w::for_range(k, 1, nz - 1, [&](auto, auto kk) {
            return w::seq(
                w::when((i < nx) && (j < ny), top = A0[Index3D(nx, ny, i, j, kk + 1)]),
                w::when(w_region(),
                        Anext[Index3D(nx, ny, i, j, kk)] =
                            (top + bottom + w::select(y_h_bound(), A0[Index3D(nx, ny, i, j + 1, kk)], sh_A0[sh_id + 2 * k.block_dim()]) +
                             w::select(y_l_bound(), A0[Index3D(nx, ny, i, j - 1, kk)], sh_A0[sh_id - 2 * k.block_dim()]) + sh_A0[sh_id + 1] +
                             w::select(x_l_bound(), A0[Index3D(nx, ny, i - 1, j, kk)], sh_A0[sh_id - 1])) *
                                c1 -
                            sh_A0[sh_id] * c0),
                w::when((i2 < nx) && (j < ny), top2 = A0[Index3D(nx, ny, i2, j, kk + 1)]),
                w::when(w_region2(),
                        Anext[Index3D(nx, ny, i2, j, kk)] =
                            (top2 + bottom2 + w::select(y_h_bound(), A0[Index3D(nx, ny, i2, j + 1, kk)], sh_A0[sh_id2 + 2 * k.block_dim()]) +
                             w::select(y_l_bound(), A0[Index3D(nx, ny, i2, j - 1, kk)], sh_A0[sh_id2 - 2 * k.block_dim()]) +
                             w::select(x_h_bound(), A0[Index3D(nx, ny, i2 + 1, j, kk)], sh_A0[sh_id2 + 1]) + sh_A0[sh_id2 - 1]) *
                                c1 -
                            sh_A0[sh_id2] * c0),
                w::sync(), bottom = sh_A0[sh_id], sh_A0[sh_id] = top, bottom2 = sh_A0[sh_id2], sh_A0[sh_id2] = top2, w::sync());
          }));
    });
  });
};

using Blk = w::block<TX, TY>;
using V = w::value<int>;
using F = w::value<float>;

}  // namespace

#define STENCIL_PARAMS Blk, F, F, w::in<float>, w::out<float>, V, V, V

WARDEN_KERNEL(stencil_k, w::kernel<STENCIL_PARAMS>(block2D_hybrid_coarsen_x)
                             .named("block2D_hybrid_coarsen_x", "c0", "c1", "A0", "Anext", "nx", "ny", "nz"));

TEST_CASE("parboil stencil block2D_hybrid_coarsen_x: accepted, clean over swapped iterations, equal to the reference", "[corpus3][parboil]") {
  STATIC_REQUIRE(code_of<STENCIL_PARAMS>(block2D_hybrid_coarsen_x) == code::none);
  const std::string ob = w::obligations_of(stencil_k);
  CAPTURE(ob);
  // Planes ny rows of nx apart hold the grid's rows: the first two need ny >= 4 * gridDim.y (almost:
  // the guard's margins), which an overhanging grid (ny not a multiple of 4) does not meet; the
  // launch then lists the stores with its own numbers and finds no two threads on one element.
  CHECK(std::count(ob.begin(), ob.end(), '\n') == 3);
  CHECK(ob.find("if nx * ny - 4 * grid_dim.y * nx >= -2 (or one of them runs in no thread, or launch lists both") != std::string::npos);
  CHECK(ob.find("if nx * ny - 4 * grid_dim.y * nx >= -33 (or one of them runs in no thread, or launch lists both") != std::string::npos);
  CHECK(ob.find("if launch lists both with its own values and no two threads reach one element\n") != std::string::npos);

  const float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
  const int iteration = 2;
  for (auto [nx, ny, nz] : {std::tuple{100, 10, 6}, std::tuple{64, 8, 5}}) {
    CAPTURE(nx, ny, nz);
    const int size = nx * ny * nz;
    std::vector<float> h_A0(at(size));
    for (int e = 0; e < size; ++e) h_A0[at(e)] = static_cast<float>((e * 7919) % 1000) / 100.f;
    auto idx = [&](int x, int y, int z) { return at(x + nx * (y + ny * z)); };
    std::vector<float> a = h_A0, b = h_A0;  // Anext starts as a copy of A0
    for (int t = 0; t < iteration; ++t) {
      for (int z = 1; z < nz - 1; ++z)
        for (int y = 1; y < ny - 1; ++y)
          for (int x = 1; x < nx - 1; ++x)
            b[idx(x, y, z)] = (a[idx(x, y, z + 1)] + a[idx(x, y, z - 1)] + a[idx(x, y + 1, z)] + a[idx(x, y - 1, z)] + a[idx(x + 1, y, z)] +
                               a[idx(x - 1, y, z)]) *
                                  c1 -
                              a[idx(x, y, z)] * c0;
      std::swap(a, b);
    }
    w::device_buffer<float> bufs[2] = {w::to_device(h_A0), w::to_device(h_A0)};
    const auto grid = w::grid((nx + TX * 2 - 1) / (TX * 2), (ny + TY - 1) / TY, 1);
    bool clean = true;
    for (int t = 0; t < iteration; ++t)  // d_A0 is bufs[t % 2], d_Anext the other: the host's swap
      clean = clean && w::record(stencil_k, grid, c0, c1, bufs[t % 2], bufs[(t + 1) % 2], nx, ny, nz).clean();
    CHECK(clean);
    corpus::check_close(w::to_host(bufs[iteration % 2]), a, 1e-5);
  }
}
