// HeCBench, laplace3d: zjin-lcf/HeCBench, src/laplace3d-cuda/kernel.h, kernel laplace3d (host
// code in src/laplace3d-cuda/main.cu), ported by hand. A Jacobi step of the 3-D Laplace equation:
// a 2-D block of BLOCK_X x BLOCK_Y (32 x 8) threads owns a 32 x 8 column of the NX x NY x NZ grid
// and marches up it in k, keeping three planes of (BLOCK_X + 2) x (BLOCK_Y + 2) in a shared array
// u1[3 * KOFF] (KOFF = 34 * 10) with a one-node halo: the first 2 * (BLOCK_X + BLOCK_Y + 2) = 84
// threads (in linear order k = tx + 32 ty) also carry one halo node each, the y-halos
// (threadIdx.y < 2: rows -1 and BLOCK_Y, columns 0..31) or the x-halos and corners (the others:
// columns -1 and BLOCK_X, from k % 2, rows k / 2 - BLOCK_X - 1). Each step shifts the three planes
// down in shared memory, reads the next plane from global memory, syncs, writes the boundary value
// or the six-point average to d_u2, and syncs. NX, NY, NZ and pitch are the kernel's int
// parameters (run-time widths of a 3-D array), BLOCK_X, BLOCK_Y, IOFF, JOFF, KOFF #defines.
// Launch as the original: dimBlock(BLOCK_X, BLOCK_Y), dimGrid(1 + (NX - 1) / BLOCK_X,
// 1 + (NY - 1) / BLOCK_Y), pitch = NX, NX a multiple of 32 (the host refuses others), d_u1 and
// d_u2 NX * NY * NZ floats swapped between repeats.
//
// How it is written here: the original keeps its indices in variables it updates: `indg = INDEX(
// indg, NY, pitch)` moves one plane up each trip, so at trip kz indg0 is i + j * pitch +
// kz * NY * pitch and the plane read is the next one ((kz + 1) * NY * pitch): these bumps are folded
// into the indices. The halo's i and j are assigned in an if/else on threadIdx.y < 2 and then
// used by code common to both: here that common code is written once per branch, under the
// branch's condition (a select between the two formulas would make the index data to the checker).
// `halo` and `active` are the guards their assignments compute; __mul24(a, b) is a * b; `u2` is a
// local set by if/else.
//
// Verdict: ACCEPTED at compile time (the shared planes, the halo ring and the interior, with the
// halo's k % 2 and k / 2, are all proved apart), under three launch obligations, all on the
// stores d_u2[i + j * pitch + kz * NY * pitch] of different threads and trips: pitch - NX >= 0,
// NY * pitch - NX - 7 * pitch >= 0 and NY * pitch + pitch - NX - NY * NZ * pitch >= 0. With the
// original's pitch = NX the third is NX * NY * (1 - NZ) >= 0, false for every NZ >= 2, and the
// second is false for NY < 8. The stores are in fact disjoint (active guards i < NX <= pitch and
// j < NY, so each plane's stores stay within NY * pitch), and the obligations are only sufficient:
// where one fails, launch lists the two stores with the launch's values, thread by thread and trip
// by trip (check/launch/global_pairs.hpp), finds no two threads at one element, and RUNS THE
// ORIGINAL AS WRITTEN (before issue 32's item 1 for global memory, every launch with NZ >= 2 was
// refused, E106). A pitch below NX, where rows really overlap, is refused (E106, naming the two
// threads and the element). A degenerate launch with NZ = 1 meets the obligations outright.
//
// Also found (not a race): the original loads shared memory nothing stored. At trip 0 each thread
// shifts u1[ind] (the middle plane, never loaded yet) down into u1[ind - KOFF]; that garbage is
// overwritten at trip 1 before anything reads it for a result, so the output is right, but the
// recording reports it ("load of unwritten shared memory", one per interior and in-grid halo
// node). The checker accepts it, as docs/soundness.md says it will: W022 is a may-analysis that
// rejects loads no path initialises, and here the store of a previous trip may precede the load.
// The original's launches record no race, only those loads, and the result equals the reference
// over two swapped repeats.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <tuple>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_X = 32, BLOCK_Y = 8, IOFF = 1, JOFF = BLOCK_X + 2, KOFF = (BLOCK_X + 2) * (BLOCK_Y + 2);

// __global__ void laplace3d(int NX, int NY, int NZ, int pitch, const float *__restrict__ d_u1, float *__restrict__ d_u2)
constexpr auto laplace3d = [](auto k, auto NX, auto NY, auto NZ, auto pitch, auto d_u1, auto d_u2) {
  return w::shared<float, 3 * KOFF>(k, [&](auto k, auto u1) {  // __shared__ float u1[3 * KOFF]
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    auto bx = k.block_id();
    auto by = k.block_id_y();
    auto NXM1 = NX - 1;
    auto NYM1 = NY - 1;
    auto NZM1 = NZ - 1;
    float sixth = 1.0f / 6.0f;
    auto kk = tx + ty * BLOCK_X;  // the original's k before the loop
    auto halo_thread = kk < 2 * (BLOCK_X + BLOCK_Y + 2);
    // y-halos (threadIdx.y < 2): i = threadIdx.x, j = threadIdx.y * (BLOCK_Y + 1) - 1
    auto yi = tx;
    auto yj = ty * (BLOCK_Y + 1) - 1;
    auto y_ind_h = (yi + 1) + (yj + 1) * JOFF + KOFF;
    auto y_gi = yi + bx * BLOCK_X;
    auto y_gj = yj + by * BLOCK_Y;
    auto y_halo = halo_thread && ty < 2 && (y_gi >= 0) && (y_gi < NX) && (y_gj >= 0) && (y_gj < NY);
    // x-halos (the others): i = (k % 2) * (BLOCK_X + 1) - 1, j = k / 2 - BLOCK_X - 1
    auto xi = (kk % 2) * (BLOCK_X + 1) - 1;
    auto xj = kk / 2 - BLOCK_X - 1;
    auto x_ind_h = (xi + 1) + (xj + 1) * JOFF + KOFF;
    auto x_gi = xi + bx * BLOCK_X;
    auto x_gj = xj + by * BLOCK_Y;
    auto x_halo = halo_thread && !(ty < 2) && (x_gi >= 0) && (x_gi < NX) && (x_gj >= 0) && (x_gj < NY);
    // main block
    auto ind = (tx + 1) + (ty + 1) * JOFF + KOFF;
    auto i = tx + bx * BLOCK_X;
    auto j = ty + by * BLOCK_Y;
    auto active = (i < NX) && (j < NY);
    // the halo's statements, once per branch: ind_h, its global index (i, j) and the guard
    auto halo_init = [&](auto ind_h, auto gi, auto gj, auto halo) { return w::when(halo, u1[ind_h + KOFF] = d_u1[gi + gj * pitch]); };
    auto halo_step = [&](auto kz, auto ind_h, auto gi, auto gj, auto halo) {
      return w::when(halo, u1[ind_h - KOFF] = u1[ind_h], u1[ind_h] = u1[ind_h + KOFF],
                     w::when(kz < NZM1, u1[ind_h + KOFF] = d_u1[gi + gj * pitch + (kz + 1) * NY * pitch]));
    };
    return w::seq(
        w::when(active, u1[ind + KOFF] = d_u1[i + j * pitch]), halo_init(y_ind_h, y_gi, y_gj, y_halo), halo_init(x_ind_h, x_gi, x_gj, x_halo),
        w::for_range(k, 0, NZ, [&](auto k, auto kz) {
          return w::seq(w::when(active, u1[ind - KOFF] = u1[ind], u1[ind] = u1[ind + KOFF],
                                w::when(kz < NZM1, u1[ind + KOFF] = d_u1[i + j * pitch + (kz + 1) * NY * pitch])),
                        halo_step(kz, y_ind_h, y_gi, y_gj, y_halo), halo_step(kz, x_ind_h, x_gi, x_gj, x_halo), w::sync(),
                        w::when(active, w::local(k, 0.f, [&](auto, auto u2) {
                                  return w::seq(w::when(i == 0 || i == NXM1 || j == 0 || j == NYM1 || kz == 0 || kz == NZM1, u2 = u1[ind])
                                                    .otherwise(u2 = (u1[ind - IOFF] + u1[ind + IOFF] + u1[ind - JOFF] + u1[ind + JOFF] +
                                                                     u1[ind - KOFF] + u1[ind + KOFF]) *
                                                                    sixth),
                                                d_u2[i + j * pitch + kz * NY * pitch] = u2);
                                })),
                        w::sync());
        }));
  });
};

using Blk = w::block<BLOCK_X, BLOCK_Y>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(laplace3d_k, w::kernel<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d).named("laplace3d", "NX", "NY", "NZ", "pitch", "d_u1", "d_u2"));

namespace {

// The recording has no race: every conflict is a load of unwritten shared memory.
bool only_unwritten_shared_loads(const w::recording& r) {
  for (const auto& c : r.conflicts())
    if (c.kind != w::conflict_kind::uninitialised_shared_load) return false;
  return true;
}

std::vector<float> reference(int NX, int NY, int NZ, const std::vector<float>& u1) {
  std::vector<float> u2(u1.size());
  const float sixth = 1.0f / 6.0f;
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i) {
        const int ind = i + j * NX + k * NX * NY;
        if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1)
          u2[at(ind)] = u1[at(ind)];
        else
          u2[at(ind)] = (u1[at(ind - 1)] + u1[at(ind + 1)] + u1[at(ind - NX)] + u1[at(ind + NX)] + u1[at(ind - NX * NY)] + u1[at(ind + NX * NY)]) * sixth;
      }
  return u2;
}

}  // namespace

TEST_CASE("hecbench laplace3d: accepted under three obligations, runs as written (launch lists the stores), no race, equals the reference",
          "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d) == code::none);
  const std::string ob = w::obligations_of(laplace3d_k);
  CAPTURE(ob);
  CHECK(ob.find("if pitch - NX >= 0 (") != std::string::npos);
  CHECK(ob.find("if NY * pitch - NX - 7 * pitch >= 0 (") != std::string::npos);
  CHECK(ob.find("if NY * pitch + pitch - NX - NY * NZ * pitch >= 0 (") != std::string::npos);
  CHECK(std::count(ob.begin(), ob.end(), '\n') == 3);

  const int REPEAT = 2;
  // NX a multiple of 32 (the host's rule); NY a multiple of 8, not one, and below 8.
  for (auto [NX, NY, NZ] : {std::tuple{32, 8, 4}, std::tuple{64, 12, 5}, std::tuple{32, 4, 3}}) {
    CAPTURE(NX, NY, NZ);
    std::vector<float> h_u1(at(NX * NY * NZ));
    for (int k = 0; k < NZ; ++k)
      for (int j = 0; j < NY; ++j)
        for (int i = 0; i < NX; ++i) {
          const int ind = i + j * NX + k * NX * NY;
          h_u1[at(ind)] = (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1) ? 1.0f : 0.1f * static_cast<float>((i * j + k) % 7);
        }
    const auto grid = w::grid(1 + (NX - 1) / BLOCK_X, 1 + (NY - 1) / BLOCK_Y);
    const int pitch = NX;
    auto d_u1 = w::to_device(h_u1);
    w::device_buffer<float> d_u2(h_u1.size());
    // As written: the obligations fail for NZ >= 2 (and NY < 8), but launch lists the two stores
    // with these values and finds no two threads at one element. Runs, no race, equal to the reference.
    std::vector<float> ref = h_u1;
    for (int r = 0; r < REPEAT; ++r) {
      auto rec = w::record(laplace3d_k, grid, NX, NY, NZ, pitch, d_u1, d_u2);
      CHECK(!rec.clean());  // the trip-0 shift of the unloaded middle plane
      CHECK(only_unwritten_shared_loads(rec));
      std::swap(d_u1, d_u2);
      ref = reference(NX, NY, NZ, ref);
    }
    corpus::check_close(w::to_host(d_u1), ref);
  }
  // A pitch below NX: rows overlap, two threads store to one element: refused before running.
  {
    auto u1 = w::to_device(std::vector<float>(64 * 8 * 2, 1.f));
    w::device_buffer<float> u2(64 * 8 * 2);
    const std::string e = corpus::e106_of([&] { w::launch(w::on_cpu, laplace3d_k, w::grid(2, 1), 64, 8, 2, 48, u1, u2); });
    CAPTURE(e);
    CHECK(e.find("E106") == 0);
    CHECK(e.find("both reach element") != std::string::npos);
  }
  // NZ = 1 meets the obligations and runs as written: no race, but the unwritten loads (which
  // W022, a may-analysis, does not reject: a previous trip's store may precede them).
  std::vector<float> h(32 * 16, 1.f);
  auto d1 = w::to_device(h);
  w::device_buffer<float> d2(h.size());
  auto rec = w::record(laplace3d_k, w::grid(1, 2), 32, 16, 1, 32, d1, d2);
  CHECK(rec.conflicts().size() == 2 * (256 + 32));  // per block: 256 interior nodes and the one y-halo row inside the grid
  CHECK(only_unwritten_shared_loads(rec));
  CHECK(w::to_host(d2) == h);
}
