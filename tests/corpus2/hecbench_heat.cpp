// HeCBench, heat: zjin-lcf/HeCBench, src/heat-cuda/heat.cu, kernel solve (one explicit
// finite-difference step of the 2-D heat equation on an n x n grid, five points, zero outside the
// grid), ported by hand. One thread per cell of the flattened grid: idx = blockDim.x * blockIdx.x +
// threadIdx.x, guarded by idx < n * n, split into the column i = idx % n and the row j = idx / n,
// and the store is u_tmp[i + j * n]. n is the kernel's `const unsigned int` parameter, so
// `idx % n`, `idx / n`, `n - 1` and the indices are unsigned, as in C++ (the original assigns
// idx % n and idx / n to ints; the values are below n, so the port keeps the unsigned expressions:
// w::convert<int> would make them data to the checker). alpha, dx and dt are parameters solve
// does not read; r and r2 are doubles. Each `(cond) ? u[...] : 0.0` is a w::select, which loads
// only on the chosen side. Launch as the original: block(256), grid((n * n + 255) / 256); the host
// swaps u and u_tmp after each step (here: the two buffers change places in the launch).
//
// Verdict: ACCEPTED, the store left to the launch (global_at_launch), and RUNS AS WRITTEN. The
// store index is idx % n + (idx / n) * n, which equals idx, one element per thread; the checker
// does not know the identity of division and remainder (a % n + (a / n) * n == a), so it cannot
// separate two threads' stores for every n (before issue 32's item 1 it refused them, W010). The
// index reads n, which the launch knows: the launch lists every thread's element with its own n
// and finds each thread on its own element, over three steps with u and u_tmp swapped between
// them, and the result equals the reference.
#include "../corpus/corpus.hpp"
#include "hecbench_heat_kernel.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int block_size = 256;

constexpr auto solve = corpus2::heat_solve;

using Blk = w::block<block_size>;
using U = w::value<unsigned>;
using D = w::value<double>;

}  // namespace

WARDEN_KERNEL(solve_k, w::kernel<Blk, U, D, D, D, D, D, w::in<double>, w::out<double>>(solve)
                           .named("solve", "n", "alpha", "dx", "dt", "r", "r2", "u", "u_tmp"));

TEST_CASE("hecbench heat solve: accepted, the store left to the launch (idx % n + idx / n * n), runs as written and equals the reference",
          "[corpus2][hecbench]") {
  // Stores u_tmp[idx % n + (idx / n) * n]: one element per thread, which the launch lists with its n.
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, U, D, D, D, D, D, w::in<double>, w::out<double>>(solve));
  CHECK(w::obligations_of(solve_k).find("W010 holds for u_tmp[") == 0);

  const int nsteps = 3;
  for (unsigned n : {16u, 20u, 33u}) {
    CAPTURE(n);
    const double alpha = 0.1, length = 1000.0, dx = length / (n + 1), dt = 0.5 / nsteps;
    const double r = alpha * dt / (dx * dx), r2 = 1.0 - 4.0 * r;
    const double pi = std::acos(-1.0);
    std::vector<double> u0(n * n), zero(n * n, 0.0);
    for (unsigned j = 0; j < n; ++j)
      for (unsigned i = 0; i < n; ++i) u0[i + j * n] = std::sin(pi * dx * (i + 1) / length) * std::sin(pi * dx * (j + 1) / length);
    std::vector<double> ref = u0, ref_tmp = zero;
    for (int t = 0; t < nsteps; ++t) {
      for (unsigned j = 0; j < n; ++j)
        for (unsigned i = 0; i < n; ++i)
          ref_tmp[i + j * n] = r2 * ref[i + j * n] + r * (i < n - 1 ? ref[i + 1 + j * n] : 0.0) + r * (i > 0 ? ref[i - 1 + j * n] : 0.0) +
                               r * (j < n - 1 ? ref[i + (j + 1) * n] : 0.0) + r * (j > 0 ? ref[i + (j - 1) * n] : 0.0);
      std::swap(ref, ref_tmp);
    }
    w::device_buffer<double> bufs[2] = {w::to_device(u0), w::to_device(zero)};
    const auto grid = w::grid(static_cast<int>((n * n + block_size - 1) / block_size));
    for (int t = 0; t < nsteps; ++t)  // u is bufs[t % 2], u_tmp the other: the host's pointer swap
      CHECK(w::record(solve_k, grid, n, alpha, dx, dt, r, r2, bufs[t % 2], bufs[(t + 1) % 2]).clean());
    corpus::check_close(w::to_host(bufs[nsteps % 2]), ref, 1e-12);
  }
}
