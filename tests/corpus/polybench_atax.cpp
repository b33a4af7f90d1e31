// PolyBench/GPU 1.0, atax (y = A^T (A x)): cavazos-lab/PolyBench-ACC,
// CUDA/linear-algebra/kernels/atax/atax.cu, kernels atax_kernel1 and atax_kernel2, ported by hand.
// NY is a #define in the original (atax.cuh; a dataset size), so it stays a compile-time stride;
// nx and ny are the kernels' int parameters (_PB_NX / _PB_NY with POLYBENCH_USE_SCALAR_LB).
//
// The original launches both kernels with dim3 block(32, 8) (DIM_THREAD_BLOCK_X/Y in atax.cuh)
// while the kernels index by threadIdx.x alone: the eight threads of a column of the block compute
// the same i and all run tmp[i] = 0; tmp[i] += ... unsynchronised, a real race. The checker refuses
// that launch shape (W010 below) and the recording reports it; the port launches block<32>, the
// shape the kernel's indexing is written for (one thread per row).
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int NX = 64;  // #define NX / NY (atax.cuh), scaled to the cpu backend
constexpr int NY = 64;

// __global__ void atax_kernel1(int nx, int ny, DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
constexpr auto atax_kernel1 = [](auto k, auto nx, auto ny, auto A, auto x, auto tmp) {
  auto i = k.global_id();  // blockIdx.x * blockDim.x + threadIdx.x
  return w::when(i < nx, tmp[i] = 0.f, w::for_range(k, 0, ny, [&](auto, auto j) { return tmp[i] += A[i * NY + j] * x[j]; }));
};
// __global__ void atax_kernel2(int nx, int ny, DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
constexpr auto atax_kernel2 = [](auto k, auto nx, auto ny, auto A, auto y, auto tmp) {
  auto j = k.global_id();
  return w::when(j < ny, y[j] = 0.f, w::for_range(k, 0, nx, [&](auto, auto i) { return y[j] += A[i * NY + j] * tmp[i]; }));
};

using B = w::block<32>;
using B8 = w::block<32, 8>;  // the original's dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y)

}  // namespace

WARDEN_KERNEL(atax_k1, w::kernel<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(atax_kernel1).named("atax_kernel1", "nx", "ny", "A", "x", "tmp"));
WARDEN_KERNEL(atax_k2, w::kernel<B, w::value<int>, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(atax_kernel2).named("atax_kernel2", "nx", "ny", "A", "y", "tmp"));
// The original launch shape, run unchecked to show the race the checker refuses.
WARDEN_KERNEL(atax_k1_block_32x8, w::kernel<B8, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(
                                      w::testing::trusting(atax_kernel1)));

TEST_CASE("corpus polybench atax: both kernels accepted, clean, equal to the reference", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(atax_kernel1) == code::none);
  STATIC_REQUIRE(code_of<B, w::value<int>, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(atax_kernel2) == code::none);
  CHECK(w::obligations_of(atax_k1).empty());
  CHECK(w::obligations_of(atax_k2).empty());

  std::vector<float> A(NX * NY), x(NY);
  for (int i = 0; i < NX; ++i) {
    x[at(i)] = static_cast<float>(i) * 3.14159f / 16.f;
    for (int j = 0; j < NY; ++j) A[at(i * NY + j)] = static_cast<float>(i * j % 13) / NX;
  }
  // (nx, ny): an exact fit; grids that overhang nx and ny (50 rows and 40 columns on 64 threads).
  // The grids are the original's: ceil(n / block.x) blocks.
  for (auto [nx, ny] : {std::pair{64, 64}, std::pair{50, 40}, std::pair{17, 64}}) {
    CAPTURE(nx, ny);
    std::vector<float> tmp_ref(NX, -1.f), y_ref(NY, -1.f);
    for (int i = 0; i < nx; ++i) {
      tmp_ref[at(i)] = 0.f;
      for (int j = 0; j < ny; ++j) tmp_ref[at(i)] += A[at(i * NY + j)] * x[at(j)];
    }
    for (int j = 0; j < ny; ++j) {
      y_ref[at(j)] = 0.f;
      for (int i = 0; i < nx; ++i) y_ref[at(j)] += A[at(i * NY + j)] * tmp_ref[at(i)];
    }
    auto dA = w::to_device(A);
    auto dx = w::to_device(x);
    auto dtmp = w::to_device(std::vector<float>(NX, -1.f));
    auto dy = w::to_device(std::vector<float>(NY, -1.f));
    CHECK(w::record(atax_k1, w::grid((nx + 31) / 32), nx, ny, dA, dx, dtmp).clean());
    CHECK(w::record(atax_k2, w::grid((ny + 31) / 32), nx, ny, dA, dy, dtmp).clean());
    corpus::check_close(w::to_host(dtmp), tmp_ref);
    corpus::check_close(w::to_host(dy), y_ref);
  }
}

TEST_CASE("corpus polybench atax: the original's block(32, 8) launch races, and is refused", "[corpus][polybench]") {
  STATIC_REQUIRE(code_of<B8, w::value<int>, w::value<int>, w::in<float>, w::in<float>, w::inout<float>>(atax_kernel1) == code::W010);
  STATIC_REQUIRE(code_of<B8, w::value<int>, w::value<int>, w::in<float>, w::inout<float>, w::in<float>>(atax_kernel2) == code::W010);
  auto dA = w::to_device(std::vector<float>(NX * NY, 1.f));
  auto dx = w::to_device(std::vector<float>(NY, 1.f));
  w::device_buffer<float> dtmp(NX);
  CHECK_FALSE(w::record(atax_k1_block_32x8, w::grid(2), NX, NY, dA, dx, dtmp).clean());
}
