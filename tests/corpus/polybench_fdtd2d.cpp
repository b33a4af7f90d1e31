// PolyBench/GPU 1.0, fdtd-2d: cavazos-lab/PolyBench-ACC, CUDA/stencils/fdtd-2d/fdtd2d.cu, kernels
// fdtd_step1_kernel, fdtd_step2_kernel and fdtd_step3_kernel, ported by hand. NY is a #define
// (fdtd2d.cuh), a compile-time stride; nx, ny, t are the kernels' int parameters. The host runs
// the three kernels once per time step. Launch as the original: block(32, 8),
// grid(ceil(NY / 32), ceil(NX / 8)).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TMAX = 6, NX = 20, NY = 40;  // #defines (fdtd2d.cuh), scaled to the cpu backend

// __global__ void fdtd_step1_kernel(int nx, int ny, DATA_TYPE* _fict_, DATA_TYPE *ex, DATA_TYPE *ey,
//                                   DATA_TYPE *hz, int t)
constexpr auto fdtd_step1_kernel = [](auto k, auto nx, auto ny, auto fict, auto ex, auto ey, auto hz, auto t) {
  (void)ex;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < nx) && (j < ny), w::when(i == 0, ey[i * NY + j] = fict[t])
                                           .otherwise(ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j])));
};
// The same with a guard the original does not need: i > 0 in the else branch. Earlier builds
// narrowed `i` by <, <=, >, >= and ==, not by the negation of ==, and refused the faithful port at
// launch (E101, hz[((global_id.y - 1) * 40) + global_id.x] may reach -40). The otherwise branch of
// `i == 0` now narrows i to i >= 1: both forms launch clean.
constexpr auto fdtd_step1_guarded = [](auto k, auto nx, auto ny, auto fict, auto ex, auto ey, auto hz, auto t) {
  (void)ex;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < nx) && (j < ny),
                 w::when(i == 0, ey[i * NY + j] = fict[t])
                     .otherwise(w::when(i > 0, ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]))));
};
// __global__ void fdtd_step2_kernel(int nx, int ny, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
constexpr auto fdtd_step2_kernel = [](auto k, auto nx, auto ny, auto ex, auto ey, auto hz, auto t) {
  (void)ey, (void)t;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < nx) && (j < ny) && (j > 0), ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]));
};
// __global__ void fdtd_step3_kernel(int nx, int ny, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
constexpr auto fdtd_step3_kernel = [](auto k, auto nx, auto ny, auto ex, auto ey, auto hz, auto t) {
  (void)t;
  auto j = k.global_id();
  auto i = k.global_id_y();
  return w::when((i < (nx - 1)) && (j < (ny - 1)),
                 hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]));
};

using Blk = w::block<32, 8>;
using V = w::value<int>;
using In = w::in<float>;
using Io = w::inout<float>;

}  // namespace

WARDEN_KERNEL(fdtd_k1, w::kernel<Blk, V, V, In, In, Io, In, V>(fdtd_step1_kernel).named("fdtd_step1_kernel", "nx", "ny", "_fict_", "ex", "ey", "hz", "t"));
WARDEN_KERNEL(fdtd_k1_guarded, w::kernel<Blk, V, V, In, In, Io, In, V>(fdtd_step1_guarded).named("fdtd_step1_kernel", "nx", "ny", "_fict_", "ex", "ey", "hz", "t"));
WARDEN_KERNEL(fdtd_k2, w::kernel<Blk, V, V, Io, In, In, V>(fdtd_step2_kernel).named("fdtd_step2_kernel", "nx", "ny", "ex", "ey", "hz", "t"));
WARDEN_KERNEL(fdtd_k3, w::kernel<Blk, V, V, In, In, Io, V>(fdtd_step3_kernel).named("fdtd_step3_kernel", "nx", "ny", "ex", "ey", "hz", "t"));

TEST_CASE("corpus polybench fdtd-2d: three kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, In, In, Io, In, V>(fdtd_step1_kernel) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, V, In, In, Io, In, V>(fdtd_step1_guarded) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, V, Io, In, In, V>(fdtd_step2_kernel) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, V, In, In, Io, V>(fdtd_step3_kernel) == code::none);
  const std::string ob1 = w::obligations_of(fdtd_k1), ob2 = w::obligations_of(fdtd_k2), ob3 = w::obligations_of(fdtd_k3);
  CAPTURE(ob1, ob2, ob3);
  // Columns j < ny in rows NY apart (both branches of step 1 list it, one line for both); 0 < j <
  // ny and j < ny - 1 span ny - 1 columns: apart while ny <= NY + 1 (exact).
  CHECK(ob1 == "W011 holds for ey[(global_id.y * 40) + global_id.x] and ey[(global_id.y * 40) + global_id.x] if ny <= 40 (or one of "
               "them runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  CHECK(w::obligations_of(fdtd_k1_guarded) == ob1);
  CHECK(ob2 == "W011 holds for ex[(global_id.y * 40) + global_id.x] and ex[(global_id.y * 40) + global_id.x] if ny <= 41 (or one of "
               "them runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  CHECK(ob3 == "W011 holds for hz[(global_id.y * 40) + global_id.x] and hz[(global_id.y * 40) + global_id.x] if ny <= 41 (or one of "
               "them runs in no thread, or launch lists both with its own values and no two threads meet)\n");

  std::vector<float> fict(TMAX), ex(NX * NY), ey(NX * NY), hz(NX * NY);
  for (int i = 0; i < TMAX; ++i) fict[at(i)] = static_cast<float>(i);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j) {
      ex[at(i * NY + j)] = (static_cast<float>(i) * (j + 1) + 1) / NX;
      ey[at(i * NY + j)] = (static_cast<float>(i - 1) * (j + 2) + 2) / NX;
      hz[at(i * NY + j)] = (static_cast<float>(i - 9) * (j + 4) + 3) / NX;
    }
  // The full sizes on the original grid (2 x 3 blocks: 64 x 24 threads for 40 x 20, overhanging
  // both ways); smaller sizes on the same grid.
  for (auto [nx, ny] : {std::pair{NX, NY}, std::pair{11, 25}}) {
    CAPTURE(nx, ny);
    std::vector<float> ex_r = ex, ey_r = ey, hz_r = hz;
    auto dfict = w::to_device(fict), dex = w::to_device(ex), dey = w::to_device(ey), dhz = w::to_device(hz);
    const auto grid = w::grid((NY + 31) / 32, (NX + 7) / 8);
    for (int t = 0; t < TMAX; ++t) {
      for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j)
          ey_r[at(i * NY + j)] = i == 0 ? fict[at(t)] : ey_r[at(i * NY + j)] - 0.5f * (hz_r[at(i * NY + j)] - hz_r[at((i - 1) * NY + j)]);
      for (int i = 0; i < nx; ++i)
        for (int j = 1; j < ny; ++j) ex_r[at(i * NY + j)] = ex_r[at(i * NY + j)] - 0.5f * (hz_r[at(i * NY + j)] - hz_r[at(i * NY + (j - 1))]);
      for (int i = 0; i < nx - 1; ++i)
        for (int j = 0; j < ny - 1; ++j)
          hz_r[at(i * NY + j)] = hz_r[at(i * NY + j)] - 0.7f * (ex_r[at(i * NY + (j + 1))] - ex_r[at(i * NY + j)] + ey_r[at((i + 1) * NY + j)] -
                                                               ey_r[at(i * NY + j)]);
      CHECK(w::record(fdtd_k1_guarded, grid, nx, ny, dfict, dex, dey, dhz, t).clean());
      CHECK(w::record(fdtd_k2, grid, nx, ny, dex, dey, dhz, t).clean());
      CHECK(w::record(fdtd_k3, grid, nx, ny, dex, dey, dhz, t).clean());
    }
    corpus::check_close(w::to_host(dey), ey_r, 1e-4);
    corpus::check_close(w::to_host(dex), ex_r, 1e-4);
    corpus::check_close(w::to_host(dhz), hz_r, 1e-4);
  }
  // The faithful step 1 launches too: E101 now narrows the otherwise branch of i == 0 to i >= 1
  // (it was refused with "may reach index -40" before; fdtd_step1_guarded kept that workaround).
  {
    auto dfict = w::to_device(fict), dex = w::to_device(ex), dey = w::to_device(ey), dhz = w::to_device(hz);
    CHECK(w::record(fdtd_k1, w::grid(2, 3), NX, NY, dfict, dex, dey, dhz, 0).clean());
  }
  // ny = NY + 2 in step 2: row i's column NY + 1 is row i + 1's column 1. Refused before running.
  auto big = w::to_device(std::vector<float>(NX * NY + 1, 0.f));
  auto big2 = w::to_device(std::vector<float>(NX * NY + 1, 0.f));
  auto big3 = w::to_device(std::vector<float>(NX * NY + 1, 0.f));
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, fdtd_k2, w::grid(2, 3), NX - 1, NY + 2, big, big2, big3, 0); }).find("E106") == 0);
}
