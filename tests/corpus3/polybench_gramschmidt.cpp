// PolyBench/GPU 1.0, gramschmidt (QR decomposition by modified Gram-Schmidt): cavazos-lab/
// PolyBench-ACC (commit c983b47a), CUDA/linear-algebra/solvers/gramschmidt/gramschmidt.cu, kernels
// gramschmidt_kernel1, gramschmidt_kernel2 and gramschmidt_kernel3, ported by hand. For each column
// k the host launches: kernel1, whose thread tid == 0 alone sums a[i * NJ + k]^2 over i < _PB_NI and
// stores r[k * NJ + k] = sqrt(nrm); kernel2, one thread per row i < _PB_NI, q[i * NJ + k] = a[i * NJ
// + k] / r[k * NJ + k]; kernel3, one thread per column j, guarded by (j > k) && (j < _PB_NJ), which
// stores r[k * NJ + j] = 0, accumulates q[i * NJ + k] * a[i * NJ + j] into it over i, then
// subtracts q[i * NJ + k] * r[k * NJ + j] from a[i * NJ + j] over i. Each thread of kernel3 owns
// column j of a and element j of row k of r, and reads column k of q: race-free. NI and NJ are
// #defines (gramschmidt.cuh), the row strides; _PB_NI, _PB_NJ are the kernels' int parameters ni,
// nj (POLYBENCH_USE_SCALAR_LB, as the other PolyBench ports here); k is an int parameter. Launch as
// gramschmidtCuda: block(256, 1) (DIM_THREAD_BLOCK_X/Y) for all three, gridKernel1(1, 1),
// gridKernel2 and gridKernel3 (ceil(NJ / 256), 1), for k = 0 .. _PB_NJ - 1. Here NI = 48, NJ = 40:
// one block of 256 threads for 48 rows or 40 columns, the grid overhangs. init_array's A[i][j] = i
// * j / ni has a zero column 0 (a zero norm, then NaNs in the original too); the test adds 1 on the
// diagonal.
//
// Translation: direct; `if (tid == 0)` is a w::when; nrm (DATA_TYPE, float) is a w::local, sqrt of
// a float w::sqrt; the kernels' parameter k keeps its name, so the kernel context is kc.
// kernel1: a in<float>, r out<float>, q in<float> (unread); kernel2: a, r in<float>, q out<float>;
// kernel3: a, r inout<float>, q in<float>.
//
// Verdict: all three kernels ACCEPTED at compile time: kernels 1 and 2 with no launch obligation,
// kernel3 under two W011 obligations on a[i * NJ + j] (apart if nj <= NJ, and a pair left to the
// launch to list), which the host's launches meet. All RUN AS WRITTEN: every launch of the k loop
// is clean, and a, q equal the reference.
// The checker also raises its W051 [uncoalesced] lint (a warning, not a refusal) on kernel2: "load
// in#2[(block_id.x * block_dim.x + thread_id.x) * 40 + value#5]: the 32 lanes of a warp touch 32
// sectors of 32 bytes, where 4 hold their 128 bytes". It is right: a[i * NJ + k] steps NJ floats per
// lane. The file sets WARDEN_LINTS 0 (docs/diagnostics.md, "Silencing") to build warning-free
// without touching the kernel.
#define WARDEN_LINTS 0
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NI = 48, NJ = 40;  // #define NI / NJ (gramschmidt.cuh), scaled to the cpu backend
constexpr int DIM_THREAD_BLOCK_X = 256, DIM_THREAD_BLOCK_Y = 1;

// __global__ void gramschmidt_kernel1(int ni, int nj, DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
constexpr auto gramschmidt_kernel1 = [](auto kc, auto ni, auto nj, auto a, auto r, auto q, auto k) {
  (void)nj, (void)q;
  auto tid = kc.block_id() * kc.block_dim() + kc.thread_id();
  return w::when(tid == 0, w::local(kc, 0.f, [&](auto kc, auto nrm) {
                   return w::seq(w::for_range(kc, 0, ni, [&](auto, auto i) { return nrm += a[i * NJ + k] * a[i * NJ + k]; }),
                                 r[k * NJ + k] = w::sqrt(nrm));
                 }));
};

// __global__ void gramschmidt_kernel2(int ni, int nj, DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
constexpr auto gramschmidt_kernel2 = [](auto kc, auto ni, auto nj, auto a, auto r, auto q, auto k) {
  (void)nj;
  auto i = kc.block_id() * kc.block_dim() + kc.thread_id();
  return w::when(i < ni, q[i * NJ + k] = a[i * NJ + k] / r[k * NJ + k]);
};

// __global__ void gramschmidt_kernel3(int ni, int nj, DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
constexpr auto gramschmidt_kernel3 = [](auto kc, auto ni, auto nj, auto a, auto r, auto q, auto k) {
  auto j = kc.block_id() * kc.block_dim() + kc.thread_id();
  return w::when((j > k) && (j < nj), r[k * NJ + j] = 0.f,
                 w::for_range(kc, 0, ni, [&](auto, auto i) { return r[k * NJ + j] += q[i * NJ + k] * a[i * NJ + j]; }),
                 w::for_range(kc, 0, ni, [&](auto, auto i) { return a[i * NJ + j] -= q[i * NJ + k] * r[k * NJ + j]; }));
};

using Blk = w::block<DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y>;
using V = w::value<int>;

}  // namespace

#define GS1_PARAMS Blk, V, V, w::in<float>, w::out<float>, w::in<float>, V
#define GS2_PARAMS Blk, V, V, w::in<float>, w::in<float>, w::out<float>, V
#define GS3_PARAMS Blk, V, V, w::inout<float>, w::inout<float>, w::in<float>, V

WARDEN_KERNEL(gs_k1, w::kernel<GS1_PARAMS>(gramschmidt_kernel1).named("gramschmidt_kernel1", "ni", "nj", "a", "r", "q", "k"));
WARDEN_KERNEL(gs_k2, w::kernel<GS2_PARAMS>(gramschmidt_kernel2).named("gramschmidt_kernel2", "ni", "nj", "a", "r", "q", "k"));
WARDEN_KERNEL(gs_k3, w::kernel<GS3_PARAMS>(gramschmidt_kernel3).named("gramschmidt_kernel3", "ni", "nj", "a", "r", "q", "k"));

TEST_CASE("polybench gramschmidt kernels 1-3: accepted, every launch of the k loop clean, equal to the reference", "[corpus3][polybench]") {
  STATIC_REQUIRE(code_of<GS1_PARAMS>(gramschmidt_kernel1) == code::none);
  STATIC_REQUIRE(code_of<GS2_PARAMS>(gramschmidt_kernel2) == code::none);
  STATIC_REQUIRE(code_of<GS3_PARAMS>(gramschmidt_kernel3) == code::none);
  const std::string ob1 = w::obligations_of(gs_k1), ob2 = w::obligations_of(gs_k2), ob3 = w::obligations_of(gs_k3);
  CAPTURE(ob1, ob2, ob3);
  CHECK(ob1.empty());
  CHECK(ob2.empty());
  // kernel3: the columns j < nj of rows NJ apart stay apart if nj <= NJ; a second pair of accesses
  // to a (the two loops' a[i * NJ + j]) is left to the launch to list.
  CHECK(ob3 == "W011 holds for a[(i0 * 40) + ((block_id.x * block_dim.x) + thread_id.x)] and a[(i0 * 40) + ((block_id.x * block_dim.x) + "
               "thread_id.x)] if nj <= 40 (or one of them runs in no thread, or launch lists both with its own values and no two threads "
               "meet)\nW011 holds for a[(i0 * 40) + ((block_id.x * block_dim.x) + thread_id.x)] and a[(i0 * 40) + ((block_id.x * "
               "block_dim.x) + thread_id.x)] if launch lists both with its own values and no two threads reach one element\n");

  for (auto [ni, nj] : {std::pair{NI, NJ}, std::pair{30, 25}}) {
    CAPTURE(ni, nj);
    std::vector<float> A(NI * NJ, 0.f);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) A[at(i * NJ + j)] = (static_cast<float>(i) * static_cast<float>(j)) / static_cast<float>(ni) + (i == j ? 1.f : 0.f);
    // gramschmidt (the CPU version), on the same layout
    std::vector<float> a_ref = A, r_ref(NJ * NJ, 0.f), q_ref(NI * NJ, 0.f);
    for (int k = 0; k < nj; ++k) {
      float nrm = 0.f;
      for (int i = 0; i < ni; ++i) nrm += a_ref[at(i * NJ + k)] * a_ref[at(i * NJ + k)];
      r_ref[at(k * NJ + k)] = std::sqrt(nrm);
      for (int i = 0; i < ni; ++i) q_ref[at(i * NJ + k)] = a_ref[at(i * NJ + k)] / r_ref[at(k * NJ + k)];
      for (int j = k + 1; j < nj; ++j) {
        r_ref[at(k * NJ + j)] = 0.f;
        for (int i = 0; i < ni; ++i) r_ref[at(k * NJ + j)] += q_ref[at(i * NJ + k)] * a_ref[at(i * NJ + j)];
        for (int i = 0; i < ni; ++i) a_ref[at(i * NJ + j)] = a_ref[at(i * NJ + j)] - q_ref[at(i * NJ + k)] * r_ref[at(k * NJ + j)];
      }
    }
    auto da = w::to_device(A);
    auto dr = w::to_device(std::vector<float>(NJ * NJ, 0.f));
    auto dq = w::to_device(std::vector<float>(NI * NJ, 0.f));
    const auto grid23 = w::grid((NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, 1);
    bool clean = true;
    for (int k = 0; k < nj; ++k) {
      clean = clean && w::record(gs_k1, w::grid(1, 1), ni, nj, da, dr, dq, k).clean();
      clean = clean && w::record(gs_k2, grid23, ni, nj, da, dr, dq, k).clean();
      clean = clean && w::record(gs_k3, grid23, ni, nj, da, dr, dq, k).clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(da), a_ref, 1e-4);
    corpus::check_close(w::to_host(dq), q_ref, 1e-4);
  }
}
