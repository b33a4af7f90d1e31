#pragma once
// HeCBench heat's kernel solve as tests/corpus2/hecbench_heat.cpp ports it (the port's notes are
// there); shared with benchmarks/launch_decision_bench.cpp, which times its launch checks.
#include <warden/warden.hpp>

namespace corpus2 {
namespace w = warden;

// __global__ void solve(const unsigned int n, const double alpha, const double dx, const double dt,
//                       const double r, const double r2, double * __restrict__ u, double * __restrict__ u_tmp)
constexpr auto heat_solve = [](auto k, auto n, auto /*alpha*/, auto /*dx*/, auto /*dt*/, auto r, auto r2, auto u, auto u_tmp) {
  auto idx = k.block_dim() * k.block_id() + k.thread_id();
  auto i = idx % n;
  auto j = idx / n;
  return w::when(idx < n * n, u_tmp[i + j * n] = r2 * u[i + j * n] + r * w::select(i < n - 1, u[i + 1 + j * n], 0.0) +
                                                 r * w::select(i > 0, u[i - 1 + j * n], 0.0) + r * w::select(j < n - 1, u[i + (j + 1) * n], 0.0) +
                                                 r * w::select(j > 0, u[i + (j - 1) * n], 0.0));
};

}  // namespace corpus2
