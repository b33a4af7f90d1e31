// "Programming Massively Parallel Processors", 4th edition, chapter 8, the 3-D seven-point stencil
// with thread coarsening in z (three 2-D shared planes, inPrev_s / inCurr_s / inNext_s, rotated
// each step), as published in tugot17/pmpp, chapter-8/code/stencil.cu (commit 0a729e21) and
// stencil.h (commit 82a82cbf), kernel stencil_kernel_thread_coarsening, ported by hand. N is the
// kernel's unsigned int parameter and c0 .. c6 its int parameters; OUT_TILE_DIM_BIG 30 and
// IN_TILE_DIM_BIG 32 are stencil.h's #defines. The index arithmetic keeps the original's types:
// i, j, k are int, N unsigned, so i * N * N + j * N + k and the guards' comparisons with N are
// unsigned, as in C++. Launch as stencil_3d_parallel_thread_coarsening:
// dimBlock(IN_TILE_DIM_BIG, IN_TILE_DIM_BIG, 1), dimGrid(cdiv(N, 30), cdiv(N, 30), cdiv(N, 30)).
//
// ACCEPTED at compile time, but EVERY LAUNCH REFUSED, E106, a false positive: of the three launch
// obligations on the out store, 2 * N + 29 * N * N <= 2 holds for no N >= 1, though the blocks'
// output boxes (i, j, k in [30 b, 30 b + 30) per dimension, under the guards) are disjoint and the
// shared planes are each thread's own element except the neighbour reads between the barriers.
// (Counting the z loop in trips, i = iStart + r, gets the same three obligations.) Without the
// race rules the original runs clean on N = 32 and 40 and matches the reference; the unsigned
// index arithmetic passes launch's wrap check (E104) under the guards.
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int OUT_TILE_DIM_BIG = 30;
constexpr int IN_TILE_DIM_BIG = OUT_TILE_DIM_BIG + 2;

// __global__ void stencil_kernel_thread_coarsening(float* in, float* out, unsigned int N,
//                                                  int c0, int c1, int c2, int c3, int c4, int c5, int c6)
constexpr auto stencil_kernel_thread_coarsening = [](auto k0, auto in, auto out, auto N, auto c0, auto c1, auto c2, auto c3, auto c4,
                                                     auto c5, auto c6) {
  return w::shared<float, IN_TILE_DIM_BIG, IN_TILE_DIM_BIG>(k0, [&](auto k1, auto inPrev_s) {
    return w::shared<float, IN_TILE_DIM_BIG, IN_TILE_DIM_BIG>(k1, [&](auto k2, auto inCurr_s) {
      return w::shared<float, IN_TILE_DIM_BIG, IN_TILE_DIM_BIG>(k2, [&](auto ctx, auto inNext_s) {
        auto tx = ctx.thread_id();
        auto ty = ctx.thread_id_y();
        auto iStart = ctx.block_id_z() * OUT_TILE_DIM_BIG;
        auto j = ctx.block_id_y() * OUT_TILE_DIM_BIG + ty - 1;
        auto k = ctx.block_id() * OUT_TILE_DIM_BIG + tx - 1;
        return w::seq(
            inPrev_s(ty, tx) = 0.0f, inCurr_s(ty, tx) = 0.0f, inNext_s(ty, tx) = 0.0f,
            w::when(iStart - 1 >= 0 && iStart - 1 < N && j >= 0 && j < N && k >= 0 && k < N,
                    inPrev_s(ty, tx) = in[(iStart - 1) * N * N + j * N + k]),
            w::when(iStart >= 0 && iStart < N && j >= 0 && j < N && k >= 0 && k < N, inCurr_s(ty, tx) = in[iStart * N * N + j * N + k]),
            w::for_range(ctx, iStart, iStart + OUT_TILE_DIM_BIG, [&](auto, auto i) {
              return w::seq(
                  inNext_s(ty, tx) = 0.0f,
                  w::when(i + 1 >= 0 && i + 1 < N && j >= 0 && j < N && k >= 0 && k < N, inNext_s(ty, tx) = in[(i + 1) * N * N + j * N + k]),
                  w::sync(),
                  w::when(i >= 1 && i < N - 1 && j >= 1 && j < N - 1 && k >= 1 && k < N - 1,
                          w::when(ty >= 1 && ty < IN_TILE_DIM_BIG - 1 && tx >= 1 && tx < IN_TILE_DIM_BIG - 1,
                                  out[i * N * N + j * N + k] = c0 * inCurr_s(ty, tx) + c1 * inCurr_s(ty, tx - 1) + c2 * inCurr_s(ty, tx + 1) +
                                                               c3 * inCurr_s(ty - 1, tx) + c4 * inCurr_s(ty + 1, tx) + c5 * inPrev_s(ty, tx) +
                                                               c6 * inNext_s(ty, tx))),
                  w::sync(),
                  inPrev_s(ty, tx) = inCurr_s(ty, tx),
                  inCurr_s(ty, tx) = inNext_s(ty, tx));
            }));
      });
    });
  });
};

using Blk = w::block<IN_TILE_DIM_BIG, IN_TILE_DIM_BIG, 1>;
using I = w::value<int>;
#define STENCIL_PARAMS Blk, w::in<float>, w::out<float>, w::value<unsigned>, I, I, I, I, I, I, I

}  // namespace

WARDEN_KERNEL(stencil_k, w::kernel<STENCIL_PARAMS>(stencil_kernel_thread_coarsening)
                             .named("stencil_kernel_thread_coarsening", "in", "out", "N", "c0", "c1", "c2", "c3", "c4", "c5", "c6"));
// The original as written, without the race rules, to run it.
WARDEN_KERNEL(stencil_unchecked, w::kernel<STENCIL_PARAMS>(w::testing::trusting(stencil_kernel_thread_coarsening))
                                     .named("stencil_kernel_thread_coarsening", "in", "out", "N", "c0", "c1", "c2", "c3", "c4", "c5", "c6"));

TEST_CASE("corpus2 pmpp stencil_kernel_thread_coarsening: accepted, every launch refused E106; unchecked it runs clean",
          "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<STENCIL_PARAMS>(stencil_kernel_thread_coarsening) == code::none);
  const std::string ob = w::obligations_of(stencil_k);
  CAPTURE(ob);
  // Three obligations on the out store; the second cannot hold for any N >= 1.
  CHECK(ob.find("if N * N - 32 * N >= -2 ") != std::string::npos);
  CHECK(ob.find("if 2 * N + 29 * N * N <= 2 ") != std::string::npos);
  CHECK(ob.find("if N * N - 30 * grid_dim.y * N - 2 * N >= -2 ") != std::string::npos);

  const int c[7] = {-6, 1, 1, 1, 1, 1, 1};  // a Laplacian; the file's globals are c0 = 0, c1 .. c6 = 1
  for (unsigned N : {32u, 40u}) {
    CAPTURE(N);
    const int n = static_cast<int>(N);
    std::vector<float> in(at(n * n * n)), ref(in.size(), 0.f);
    for (int q = 0; q < n * n * n; ++q) in[at(q)] = static_cast<float>((q * 7) % 19) * 0.5f;
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        for (int k = 1; k < n - 1; ++k) {
          auto at3 = [&](int a, int b, int d) { return in[at(a * n * n + b * n + d)]; };
          ref[at(i * n * n + j * n + k)] = c[0] * at3(i, j, k) + c[1] * at3(i, j, k - 1) + c[2] * at3(i, j, k + 1) + c[3] * at3(i, j - 1, k) +
                                          c[4] * at3(i, j + 1, k) + c[5] * at3(i - 1, j, k) + c[6] * at3(i + 1, j, k);
        }
    auto d_in = w::to_device(in);
    w::device_buffer<float> d_out(in.size());
    const int g = static_cast<int>((N + OUT_TILE_DIM_BIG - 1) / OUT_TILE_DIM_BIG);  // cdiv(N, OUT_TILE_DIM_BIG)
    // As written: refused before running, on the obligation 2 * N + 29 * N * N <= 2.
    const std::string e106 = corpus::e106_of(
        [&] { w::launch(w::on_cpu, stencil_k, w::grid(g, g, g), d_in, d_out, N, c[0], c[1], c[2], c[3], c[4], c[5], c[6]); });
    CHECK(e106.find("E106") == 0);
    CHECK(e106.find("2 * N + 29 * N * N <= 2") != std::string::npos);
    // Unchecked, the same launch is clean and equals the reference (the boundary stays as the
    // device buffer starts: zero).
    auto d_out2 = w::to_device(std::vector<float>(in.size(), 0.f));
    CHECK(w::record(stencil_unchecked, w::grid(g, g, g), d_in, d_out2, N, c[0], c[1], c[2], c[3], c[4], c[5], c[6]).clean());
    CHECK(w::to_host(d_out2) == ref);
  }
}
