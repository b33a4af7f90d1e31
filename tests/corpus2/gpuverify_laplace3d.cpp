// GPUVerifyBenchmarks: mc-imperial/GPUVerifyBenchmarks, gpgpu-sim_ispass2009/LPS/laplace3d_kernel.cu,
// kernel GPU_laplace3d (the LPS benchmark of the GPGPU-Sim ISPASS 2009 suite, Mike Giles's 3-D
// Laplace Jacobi step; marked `//pass`, run with --blockDim=[32,4] --gridDim=[4,25] under
// __requires(NX == 100), (NY == 100), (NZ == 100), (pitch == 128)). Ported by hand. BLOCK_X (32),
// BLOCK_Y (4), IOFF, JOFF (34), KOFF (34 * 6) are #defines; NX, NY, NZ and pitch are the kernel's
// int parameters. Each thread owns one (i, j) column of the block and marches in k through the
// shared array u1 of three 34 x 6 planes (the block's 32 x 4 nodes plus a one-node halo); the first
// 76 threads also load one halo node each. Per plane: shift the two planes down and load plane k + 1
// (interior and halo), barrier, write the 7-point Jacobi average (or the Dirichlet value on the
// boundary) to d_u2, barrier.
// Launch: block (32, 4), grid (1 + (NX - 1) / 32, 1 + (NY - 1) / 4) (the benchmark's [4, 25] for
// NX = NY = 100); here (NX, NY, NZ, pitch) = (40, 10, 6, 64) and (33, 7, 5, 48), small enough to
// record. The __requires pin the verification to one size and are not ported (they are no guard).
// Spelling: the locals the original reassigns are written as the values they hold: the halo's i and
// j (a branch on threadIdx.y < 2) are w::select of the two branches, `halo` is the first test and
// the bounds test together, and the index bumps indg = INDEX(indg, NY, pitch) (and indg_h) are
// folded into the loop variable: in iteration k, indg0 = i + j * pitch + k * NY * pitch and the plane
// loaded is k + 1. __mul24 is a plain multiply (the operands are far below 2^24). The loop variable
// is `kk` (the original's `k`, which the halo set-up also uses for the linear thread index, `k0`).
//
// RACE-FREE (the suite's //pass): in the first phase of a plane every thread moves only its own
// interior node (ind) or its own halo node (ind_h); the halo nodes (row or column -1 or 32/4 of the
// 34 x 6 plane) are disjoint from the interior ones and from each other. d_u2[indg0] is one node per
// thread and plane. Every load of a neighbour is in the phase after the barrier.
// NOTE: at kk = 0 each thread moves its middle-plane node down (u1[ind - KOFF] = u1[ind]) before
// anything stored it: a load of uninitialised shared memory (the value is never used: plane 0 is
// all Dirichlet nodes, and the next plane overwrites it). The recording reports those loads.
// VERDICT: ACCEPTED at compile time, and RUNS AS WRITTEN on both launches, race-free and equal to
// the reference (the recording's only reports are the uninitialised loads noted above). The halo
// node's index is a select of two formulas with % and / on threadIdx.y < 2; the footprints' tape
// now computes a select as the kernel does, the arm its condition chooses in each thread, so the
// listing separates the interior nodes from the halo nodes exactly. Before (issue 32), the tape took
// any select as unknown and the kernel was refused, W020 [shared-race]: "store tile0[ind + KOFF] vs
// store tile0[select(thread_id.y < 2, ...) ...]: threads 0 and 1 meet at element 443 in one phase"
// (a witness that was not a real meeting: thread 1's halo node is element 410); and before issue
// 32's item 3 its trusting() copy was refused at launch, E101 (the row k0 / 2 - BLOCK_X - 1
// unbounded by the guard k0 < 76). The copy with the halo's j clamped to [-1, BLOCK_Y] (a no-op for
// every thread with a halo node) runs as well, as a cross-check.
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_X = 32, BLOCK_Y = 4;
constexpr int IOFF = 1, JOFF = BLOCK_X + 2, KOFF = (BLOCK_X + 2) * (BLOCK_Y + 2);

// __global__ void GPU_laplace3d(int NX, int NY, int NZ, int pitch, float* d_u1, float* d_u2)
constexpr auto laplace3d = [](auto k, auto NX, auto NY, auto NZ, auto pitch, auto d_u1, auto d_u2) {
  return w::shared<float, 3 * KOFF>(k, [&](auto k, auto u1) {
    const float sixth = 1.0f / 6.0f;
    auto NXM1 = NX - 1;
    auto NYM1 = NY - 1;
    auto NZM1 = NZ - 1;
    // halo set-up: k0 = threadIdx.x + threadIdx.y * BLOCK_X; halo = k0 < 2 * (BLOCK_X + BLOCK_Y + 2)
    auto k0 = k.thread_id() + k.thread_id_y() * BLOCK_X;
    auto hi = w::select(k.thread_id_y() < 2, k.thread_id(), (k0 % 2) * (BLOCK_X + 1) - 1);                 // i (local)
    auto hj = w::select(k.thread_id_y() < 2, k.thread_id_y() * (BLOCK_Y + 1) - 1, k0 / 2 - BLOCK_X - 1);  // j (local)
    auto ind_h = (hi + 1) + (hj + 1) * JOFF + KOFF;
    auto gi_h = hi + k.block_id() * BLOCK_X;  // i = INDEX(i, blockIdx.x, BLOCK_X)
    auto gj_h = hj + k.block_id_y() * BLOCK_Y;
    auto indg_h = gi_h + gj_h * pitch;
    auto halo = k0 < 2 * (BLOCK_X + BLOCK_Y + 2) && gi_h >= 0 && gi_h < NX && gj_h >= 0 && gj_h < NY;
    // main block
    auto ind = (k.thread_id() + 1) + (k.thread_id_y() + 1) * JOFF + KOFF;
    auto i = k.thread_id() + k.block_id() * BLOCK_X;
    auto j = k.thread_id_y() + k.block_id_y() * BLOCK_Y;
    auto indg = i + j * pitch;
    auto active = i < NX && j < NY;
    return w::seq(
        w::when(active, u1[ind + KOFF] = d_u1[indg]), w::when(halo, u1[ind_h + KOFF] = d_u1[indg_h]),
        w::for_range(k, 0, NZ, [&](auto k, auto kk) {
          auto indg0 = indg + kk * NY * pitch;         // indg before the bump
          auto indg_next = indg + (kk + 1) * NY * pitch;  // indg = INDEX(indg, NY, pitch)
          auto indg_h_next = indg_h + (kk + 1) * NY * pitch;
          return w::seq(
              w::when(active, u1[ind - KOFF] = u1[ind], u1[ind] = u1[ind + KOFF], w::when(kk < NZM1, u1[ind + KOFF] = d_u1[indg_next])),
              w::when(halo, u1[ind_h - KOFF] = u1[ind_h], u1[ind_h] = u1[ind_h + KOFF],
                      w::when(kk < NZM1, u1[ind_h + KOFF] = d_u1[indg_h_next])),
              w::sync(),
              w::when(active, w::local(k, 0.f, [&](auto, auto u2) {
                        return w::seq(w::when(i == 0 || i == NXM1 || j == 0 || j == NYM1 || kk == 0 || kk == NZM1, u2 = u1[ind])
                                          .otherwise(u2 = (u1[ind - IOFF] + u1[ind + IOFF] + u1[ind - JOFF] + u1[ind + JOFF] +
                                                           u1[ind - KOFF] + u1[ind + KOFF]) *
                                                          sixth),
                                      d_u2[indg0] = u2);
                      })),
              w::sync());
        }));
  });
};

// The variant that launches: the halo's j clamped to [-1, BLOCK_Y], which it never leaves for a
// thread with a halo node (k0 < 76), so that launch's bounds check can bound ind_h.
constexpr auto laplace3d_clamped_halo = [](auto k, auto NX, auto NY, auto NZ, auto pitch, auto d_u1, auto d_u2) {
  return w::shared<float, 3 * KOFF>(k, [&](auto k, auto u1) {
    const float sixth = 1.0f / 6.0f;
    auto NXM1 = NX - 1;
    auto NYM1 = NY - 1;
    auto NZM1 = NZ - 1;
    // halo set-up: k0 = threadIdx.x + threadIdx.y * BLOCK_X; halo = k0 < 2 * (BLOCK_X + BLOCK_Y + 2)
    auto k0 = k.thread_id() + k.thread_id_y() * BLOCK_X;
    auto hi = w::select(k.thread_id_y() < 2, k.thread_id(), (k0 % 2) * (BLOCK_X + 1) - 1);                 // i (local)
    auto hj = w::max(w::min(w::select(k.thread_id_y() < 2, k.thread_id_y() * (BLOCK_Y + 1) - 1, k0 / 2 - BLOCK_X - 1), BLOCK_Y), -1);
    auto ind_h = (hi + 1) + (hj + 1) * JOFF + KOFF;
    auto gi_h = hi + k.block_id() * BLOCK_X;  // i = INDEX(i, blockIdx.x, BLOCK_X)
    auto gj_h = hj + k.block_id_y() * BLOCK_Y;
    auto indg_h = gi_h + gj_h * pitch;
    auto halo = k0 < 2 * (BLOCK_X + BLOCK_Y + 2) && gi_h >= 0 && gi_h < NX && gj_h >= 0 && gj_h < NY;
    // main block
    auto ind = (k.thread_id() + 1) + (k.thread_id_y() + 1) * JOFF + KOFF;
    auto i = k.thread_id() + k.block_id() * BLOCK_X;
    auto j = k.thread_id_y() + k.block_id_y() * BLOCK_Y;
    auto indg = i + j * pitch;
    auto active = i < NX && j < NY;
    return w::seq(
        w::when(active, u1[ind + KOFF] = d_u1[indg]), w::when(halo, u1[ind_h + KOFF] = d_u1[indg_h]),
        w::for_range(k, 0, NZ, [&](auto k, auto kk) {
          auto indg0 = indg + kk * NY * pitch;         // indg before the bump
          auto indg_next = indg + (kk + 1) * NY * pitch;  // indg = INDEX(indg, NY, pitch)
          auto indg_h_next = indg_h + (kk + 1) * NY * pitch;
          return w::seq(
              w::when(active, u1[ind - KOFF] = u1[ind], u1[ind] = u1[ind + KOFF], w::when(kk < NZM1, u1[ind + KOFF] = d_u1[indg_next])),
              w::when(halo, u1[ind_h - KOFF] = u1[ind_h], u1[ind_h] = u1[ind_h + KOFF],
                      w::when(kk < NZM1, u1[ind_h + KOFF] = d_u1[indg_h_next])),
              w::sync(),
              w::when(active, w::local(k, 0.f, [&](auto, auto u2) {
                        return w::seq(w::when(i == 0 || i == NXM1 || j == 0 || j == NYM1 || kk == 0 || kk == NZM1, u2 = u1[ind])
                                          .otherwise(u2 = (u1[ind - IOFF] + u1[ind + IOFF] + u1[ind - JOFF] + u1[ind + JOFF] +
                                                           u1[ind - KOFF] + u1[ind + KOFF]) *
                                                          sixth),
                                      d_u2[indg0] = u2);
                      })),
              w::sync());
        }));
  });
};

using Blk = w::block<BLOCK_X, BLOCK_Y>;
using V = w::value<int>;

// One Jacobi step on the host: Dirichlet nodes copied, the rest the average of six neighbours.
std::vector<float> reference(const std::vector<float>& u1, int NX, int NY, int NZ, int pitch) {
  std::vector<float> u2(u1.size(), -7.f);
  auto at3 = [&](int i, int j, int k) { return at(i + j * pitch + k * NY * pitch); };
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i)
        if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1) u2[at3(i, j, k)] = u1[at3(i, j, k)];
        else
          u2[at3(i, j, k)] = (u1[at3(i - 1, j, k)] + u1[at3(i + 1, j, k)] + u1[at3(i, j - 1, k)] + u1[at3(i, j + 1, k)] +
                              u1[at3(i, j, k - 1)] + u1[at3(i, j, k + 1)]) * (1.0f / 6.0f);
  return u2;
}

}  // namespace

WARDEN_KERNEL(laplace3d_k, w::kernel<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d)
                                       .named("GPU_laplace3d", "NX", "NY", "NZ", "pitch", "d_u1", "d_u2"));
WARDEN_KERNEL(laplace3d_clamped_k,
              w::kernel<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d_clamped_halo)
                  .named("GPU_laplace3d", "NX", "NY", "NZ", "pitch", "d_u1", "d_u2"));

TEST_CASE("corpus2 gpuverify LPS GPU_laplace3d: race-free, accepted (interior and halo nodes listed apart), runs as written",
          "[corpus2][gpuverify]") {
  // The interior node ind and another thread's halo node ind_h (a select on threadIdx.y < 2 of
  // two formulas with % and /) are both stored in the first phase of a plane, never at one node.
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d) == code::none);
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, w::in<float>, w::out<float>>(laplace3d_clamped_halo) == code::none);
  struct size { int NX, NY, NZ, pitch; };
  for (auto [NX, NY, NZ, pitch] : {size{40, 10, 6, 64}, size{33, 7, 5, 48}}) {
    CAPTURE(NX, NY, NZ, pitch);
    std::vector<float> u1(at(pitch * NY * NZ), 0.f);
    for (std::size_t n = 0; n < u1.size(); ++n) u1[n] = std::sin(0.37f * static_cast<float>(n)) + 0.01f * static_cast<float>(n % 13);
    const std::vector<float> want = reference(u1, NX, NY, NZ, pitch);
    auto du1 = w::to_device(u1);
    const auto grid = w::grid(1 + (NX - 1) / BLOCK_X, 1 + (NY - 1) / BLOCK_Y);
    // As written: checked at launch (its bounds, any pair left to it) and run.
    for (bool clamped : {false, true}) {
      CAPTURE(clamped);
      auto out = w::to_device(std::vector<float>(u1.size(), -7.f));
      const auto r = clamped ? w::record(laplace3d_clamped_k, grid, NX, NY, NZ, pitch, du1, out)
                             : w::record(laplace3d_k, grid, NX, NY, NZ, pitch, du1, out);
      // No race; the only reports are the loads of the middle plane at kk = 0, before any store.
      std::size_t uninitialised = 0, other = 0;
      for (const auto& c : r.conflicts()) (c.kind == w::conflict_kind::uninitialised_shared_load ? uninitialised : other) += 1;
      CAPTURE(r.report(3));
      CHECK(other == 0);
      CHECK(uninitialised > 0);
      corpus::check_close(w::to_host(out), want);
    }
  }
}
