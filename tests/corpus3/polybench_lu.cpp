// PolyBench/GPU 1.0, lu (LU decomposition without pivoting, in place): cavazos-lab/PolyBench-ACC
// (commit c983b47a), CUDA/linear-algebra/solvers/lu/lu.cu, kernels lu_kernel1 and lu_kernel2,
// ported by hand. For each pivot k the host launches lu_kernel1, one thread per column j
// (blockIdx.x * blockDim.x + threadIdx.x) guarded by (j > k) && (j < _PB_N), dividing row k by the
// pivot, A[k*N + j] = A[k*N + j] / A[k*N + k]; then lu_kernel2, one thread per (j, i) on a 2-D grid
// guarded by (i > k) && (j > k) && (i < _PB_N) && (j < _PB_N), A[i*N + j] = A[i*N + j] - A[i*N + k]
// * A[k*N + j]. kernel2 reads column k and row k while it writes the trailing block i, j > k:
// race-free. N is a #define (lu.cuh), the row stride; _PB_N is the kernels' int parameter n (with
// POLYBENCH_USE_SCALAR_LB, as the other PolyBench ports here read _PB_ bounds); k is an int
// parameter. Launch as luCuda: block1(256, 1), block2(32, 8) (DIM_THREAD_BLOCK_KERNEL_1/2),
// grid1.x = ceil((N - (k + 1)) / 256), grid2 = (ceil((N - (k + 1)) / 32), ceil((N - (k + 1)) / 8)),
// for k = 0 .. N - 1. Here N = n = 40.
//
// The original's grids are sized by the number of columns left, N - k - 1, but its threads count
// j and i from 0, not from k + 1: once N - k - 1 < k + 1 (here from k = 8 for kernel2: 1 x 4 blocks
// cover j < 32, i < 32), the trailing rows and columns past the grid are never updated, and the
// result is not the LU factorisation (the benchmark's compareResults counts such mismatches). The
// port keeps this, and the test's reference runs the same launches in plain C++ (every thread of
// each grid, under the same guards). For k = N - 1 the grids are empty (0 blocks): CUDA refuses
// such a launch (invalid configuration, unchecked by the host), nothing runs, and the test skips
// it. init_array's A[i][j] = (i * j + 1) / N is singular (rank 2: a zero pivot at k = 2, then
// NaNs); the test adds 4 on the diagonal so that the values stay finite.
//
// Translation: direct; the kernels' parameter k is named k as in the original, so the kernel
// context is kc.
//
// Verdict: both kernels ACCEPTED at compile time under launch obligations (W011), none of which
// fails on the host's launches: kernel2's stores A[i * N + j] stay apart if n <= N; the loads of the
// pivot A[k * N + k] (kernel1), of column k A[i * N + k] and of row k A[k * N + j] (kernel2) against
// the stores are left to the launch to list with its own k ("if launch lists both with its own
// values and no two threads reach one element"): the checker does not use the guards j > k, i > k
// to separate them. Both RUN AS WRITTEN: every launch is clean and A equals the reference.
#include "../corpus/corpus.hpp"

#include <algorithm>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N = 40;  // #define N (lu.cuh), scaled to the cpu backend
constexpr int DIM_THREAD_BLOCK_KERNEL_1_X = 256, DIM_THREAD_BLOCK_KERNEL_1_Y = 1;
constexpr int DIM_THREAD_BLOCK_KERNEL_2_X = 32, DIM_THREAD_BLOCK_KERNEL_2_Y = 8;

// __global__ void lu_kernel1(int n, DATA_TYPE *A, int k)
constexpr auto lu_kernel1 = [](auto kc, auto n, auto A, auto k) {
  auto j = kc.block_id() * kc.block_dim() + kc.thread_id();
  return w::when((j > k) && (j < n), A[k * N + j] = A[k * N + j] / A[k * N + k]);
};

// __global__ void lu_kernel2(int n, DATA_TYPE *A, int k)
constexpr auto lu_kernel2 = [](auto kc, auto n, auto A, auto k) {
  auto j = kc.block_id() * kc.block_dim() + kc.thread_id();
  auto i = kc.block_id_y() * kc.block_dim_y() + kc.thread_id_y();
  return w::when((i > k) && (j > k) && (i < n) && (j < n), A[i * N + j] = A[i * N + j] - A[i * N + k] * A[k * N + j]);
};

using Blk1 = w::block<DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y>;
using Blk2 = w::block<DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y>;
using V = w::value<int>;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

#define LU1_PARAMS Blk1, V, w::inout<float>, V
#define LU2_PARAMS Blk2, V, w::inout<float>, V

WARDEN_KERNEL(lu_k1, w::kernel<LU1_PARAMS>(lu_kernel1).named("lu_kernel1", "n", "A", "k"));
WARDEN_KERNEL(lu_k2, w::kernel<LU2_PARAMS>(lu_kernel2).named("lu_kernel2", "n", "A", "k"));

TEST_CASE("polybench lu kernels 1 and 2: accepted, every launch of the k loop clean, equal to the launches' reference", "[corpus3][polybench]") {
  STATIC_REQUIRE(code_of<LU1_PARAMS>(lu_kernel1) == code::none);
  STATIC_REQUIRE(code_of<LU2_PARAMS>(lu_kernel2) == code::none);
  const std::string ob1 = w::obligations_of(lu_k1), ob2 = w::obligations_of(lu_k2);
  CAPTURE(ob1, ob2);
  // kernel1: the pivot load A[k * N + k] against the stores A[k * N + j], j > k, is left to the launch.
  CHECK(ob1 == "W011 holds for A[(k * 40) + k] and A[(k * 40) + ((block_id.x * block_dim.x) + thread_id.x)] if launch lists both with "
               "its own values and no two threads reach one element\n");
  // kernel2: the stores apart while n <= N; the loads of column k and row k against the stores
  // (i, j > k) left to the launch.
  CHECK(std::count(ob2.begin(), ob2.end(), '\n') == 3);
  CHECK(ob2.find("((block_id.x * block_dim.x) + thread_id.x)] if n <= 40 (or one of them runs in no thread") != std::string::npos);
  CHECK(ob2.find("W011 holds for A[(((block_id.y * block_dim.y) + thread_id.y) * 40) + k] and") != std::string::npos);
  CHECK(ob2.find("W011 holds for A[(k * 40) + ((block_id.x * block_dim.x) + thread_id.x)] and") != std::string::npos);

  const int n = N;
  std::vector<float> A(N * N);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) A[at(i * N + j)] = (static_cast<float>(i) * static_cast<float>(j) + 1.f) / N + (i == j ? 4.f : 0.f);
  // The launches of luCuda, thread by thread, in plain C++.
  std::vector<float> ref = A;
  for (int k = 0; k < N; ++k) {
    const int g1 = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_1_X);
    for (int j = 0; j < g1 * DIM_THREAD_BLOCK_KERNEL_1_X; ++j)
      if (j > k && j < n) ref[at(k * N + j)] = ref[at(k * N + j)] / ref[at(k * N + k)];
    const int g2x = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_2_X), g2y = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_2_Y);
    for (int i = 0; i < g2y * DIM_THREAD_BLOCK_KERNEL_2_Y; ++i)
      for (int j = 0; j < g2x * DIM_THREAD_BLOCK_KERNEL_2_X; ++j)
        if (i > k && j > k && i < n && j < n) ref[at(i * N + j)] = ref[at(i * N + j)] - ref[at(i * N + k)] * ref[at(k * N + j)];
  }
  auto dA = w::to_device(A);
  bool clean = true;
  for (int k = 0; k < N; ++k) {
    const int g1 = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_1_X);
    if (g1 > 0) clean = clean && w::record(lu_k1, w::grid(g1), n, dA, k).clean();
    const int g2x = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_2_X), g2y = ceil_div(N - (k + 1), DIM_THREAD_BLOCK_KERNEL_2_Y);
    if (g2x > 0 && g2y > 0) clean = clean && w::record(lu_k2, w::grid(g2x, g2y), n, dA, k).clean();
  }
  CHECK(clean);
  corpus::check_close(w::to_host(dA), ref, 1e-5);
}
