// PolyBench/GPU 1.0, doitgen (multiresolution analysis kernel: for each r, sum[r][q][p] =
// sum_s A[r][q][s] * C4[s][p], then A[r][q][p] = sum[r][q][p]): cavazos-lab/PolyBench-ACC
// (commit c983b47a), CUDA/linear-algebra/kernels/doitgen/doitgen.cu, kernels doitgen_kernel1 and
// doitgen_kernel2, ported by hand. One thread per (p, q) of the slice r: p = blockIdx.x *
// blockDim.x + threadIdx.x, q = blockIdx.y * blockDim.y + threadIdx.y, guarded by (p < np) &&
// (q < nq); kernel1 zeroes sum[r * (nq * np) + q * np + p] and accumulates over s < np, kernel2
// copies it into A. nr, nq, np and r are the kernels' int parameters (every stride is computed
// from them, not from the #defines). Launch as doitgenCuda: block(32, 8) (DIM_THREAD_BLOCK_X/Y,
// doitgen.cuh), grid(ceil(np / 32), ceil(nr / 8)) (the y extent is computed from nr, not nq: the
// two are equal in every dataset of doitgen.cuh; with nq > 8 * ceil(nr / 8) the original would
// leave rows q unprocessed), then for r = 0 .. nr - 1: kernel1, kernel2. Here (nr, nq, np) =
// (12, 12, 40) and (9, 14, 33): grids of 2 x 2 blocks, 64 threads across 40 or 33 columns and 16
// rows across 12 or 14: the grid overhangs the slice in both dimensions.
//
// Translation: direct. kernel1: sum inout<float>, A and C4 in<float>; kernel2: sum in<float>, A
// out<float>, C4 in<float> (unread).
//
// Verdict: both kernels ACCEPTED with no launch obligation (the checker separates the stores
// sum[r * (nq * np) + q * np + p] of two threads through the guard p < np, though np is a
// parameter), and both RUN AS WRITTEN: every launch of the r loop is clean, and sum and A equal the
// reference.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int DIM_THREAD_BLOCK_X = 32, DIM_THREAD_BLOCK_Y = 8;

// __global__ void doitgen_kernel1(int nr, int nq, int np, DATA_TYPE *sum, DATA_TYPE *A, DATA_TYPE *C4, int r)
constexpr auto doitgen_kernel1 = [](auto k, auto nr, auto nq, auto np, auto sum, auto A, auto C4, auto r) {
  (void)nr;
  auto p = k.block_id() * k.block_dim() + k.thread_id();
  auto q = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  return w::when((p < np) && (q < nq), sum[r * (nq * np) + q * np + p] = 0.f, w::for_range(k, 0, np, [&](auto, auto s) {
                   return sum[r * (nq * np) + q * np + p] = sum[r * (nq * np) + q * np + p] + A[r * (nq * np) + q * np + s] * C4[s * np + p];
                 }));
};

// __global__ void doitgen_kernel2(int nr, int nq, int np, DATA_TYPE *sum, DATA_TYPE *A, DATA_TYPE *C4, int r)
constexpr auto doitgen_kernel2 = [](auto k, auto nr, auto nq, auto np, auto sum, auto A, auto C4, auto r) {
  (void)nr, (void)C4;
  auto p = k.block_id() * k.block_dim() + k.thread_id();
  auto q = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  return w::when((p < np) && (q < nq), A[r * (nq * np) + q * np + p] = sum[r * (nq * np) + q * np + p]);
};

using Blk = w::block<DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y>;
using V = w::value<int>;

}  // namespace

#define DOITGEN1_PARAMS Blk, V, V, V, w::inout<float>, w::in<float>, w::in<float>, V
#define DOITGEN2_PARAMS Blk, V, V, V, w::in<float>, w::out<float>, w::in<float>, V

WARDEN_KERNEL(doitgen_k1, w::kernel<DOITGEN1_PARAMS>(doitgen_kernel1).named("doitgen_kernel1", "nr", "nq", "np", "sum", "A", "C4", "r"));
WARDEN_KERNEL(doitgen_k2, w::kernel<DOITGEN2_PARAMS>(doitgen_kernel2).named("doitgen_kernel2", "nr", "nq", "np", "sum", "A", "C4", "r"));

TEST_CASE("polybench doitgen kernels 1 and 2: accepted, every launch of the r loop clean, equal to the reference", "[corpus3][polybench]") {
  STATIC_REQUIRE(code_of<DOITGEN1_PARAMS>(doitgen_kernel1) == code::none);
  STATIC_REQUIRE(code_of<DOITGEN2_PARAMS>(doitgen_kernel2) == code::none);
  const std::string ob1 = w::obligations_of(doitgen_k1), ob2 = w::obligations_of(doitgen_k2);
  CAPTURE(ob1, ob2);
  CHECK(ob1.empty());
  CHECK(ob2.empty());

  for (auto [nr, nq, np] : {std::tuple{12, 12, 40}, std::tuple{9, 14, 33}}) {
    CAPTURE(nr, nq, np);
    // init_array
    std::vector<float> A(at(nr * nq * np)), C4(at(np * np));
    for (int i = 0; i < nr; ++i)
      for (int j = 0; j < nq; ++j)
        for (int kk = 0; kk < np; ++kk) A[at((i * nq + j) * np + kk)] = (static_cast<float>(i) * static_cast<float>(j) + static_cast<float>(kk)) / static_cast<float>(np);
    for (int i = 0; i < np; ++i)
      for (int j = 0; j < np; ++j) C4[at(i * np + j)] = (static_cast<float>(i) * static_cast<float>(j)) / static_cast<float>(np);
    // kernel_doitgenCpu
    std::vector<float> A_ref = A, sum_ref(A.size(), 0.f);
    for (int r = 0; r < nr; ++r)
      for (int q = 0; q < nq; ++q) {
        for (int p = 0; p < np; ++p) {
          float s = 0.f;
          for (int ss = 0; ss < np; ++ss) s = s + A_ref[at((r * nq + q) * np + ss)] * C4[at(ss * np + p)];
          sum_ref[at((r * nq + q) * np + p)] = s;
        }
        for (int p = 0; p < np; ++p) A_ref[at((r * nq + q) * np + p)] = sum_ref[at((r * nq + q) * np + p)];
      }
    auto dA = w::to_device(A), dC4 = w::to_device(C4);
    auto dsum = w::to_device(std::vector<float>(A.size(), 0.f));
    const auto grid = w::grid((np + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (nr + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
    bool clean = true;
    for (int r = 0; r < nr; ++r) {
      clean = clean && w::record(doitgen_k1, grid, nr, nq, np, dsum, dA, dC4, r).clean();
      clean = clean && w::record(doitgen_k2, grid, nr, nq, np, dsum, dA, dC4, r).clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(dsum), sum_ref, 1e-4);
    corpus::check_close(w::to_host(dA), A_ref, 1e-4);
  }
}
