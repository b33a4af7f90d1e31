// NVIDIA cuda-samples, scalarProd: NVIDIA/cuda-samples,
// Samples/2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh, kernel scalarProdGPU (dot
// products of vectorN pairs of elementN-vectors; blocks stride over the vectors, ACCUM_N
// accumulators per block, then a tree), ported by hand. ACCUM_N (1024) is a #define; vectorN and
// elementN are the kernel's int parameters. Launch as the sample: scalarProdGPU<<<128, 256>>>
// (scaled here to fewer blocks than vectors, so blocks take several vectors).
//
// Language pieces: IMUL(a, b) is __mul24(a, b), a 24-bit multiply, written as a plain multiply
// (equal for the sample's operands, below 2^24); `for (stride = ACCUM_N / 2; stride > 0; stride >>= 1)`
// is w::for_halving; the steps blockDim.x and gridDim.x are k.block_dim() and k.grid_dim().
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int ACCUM_N = 1024;

// __global__ void scalarProdGPU(float *d_C, float *d_A, float *d_B, int vectorN, int elementN)
constexpr auto scalarProdGPU = [](auto k, auto d_C, auto d_A, auto d_B, auto vectorN, auto elementN) {
  return w::shared<float, ACCUM_N>(k, [&](auto k, auto accumResult) {
    auto t = k.thread_id();
    return w::for_range(k, k.block_id(), vectorN, k.grid_dim(), [&](auto k, auto vec) {
      auto vectorBase = elementN * vec;  // IMUL(elementN, vec)
      auto vectorEnd = vectorBase + elementN;
      return w::seq(
          w::for_range(k, t, ACCUM_N, k.block_dim(), [&](auto k, auto iAccum) {
            return w::local(k, 0.f, [&](auto k, auto sum) {
              return w::seq(w::for_range(k, vectorBase + iAccum, vectorEnd, ACCUM_N, [&](auto, auto pos) { return sum += d_A[pos] * d_B[pos]; }),
                            accumResult[iAccum] = sum);
            });
          }),
          w::for_halving(k, ACCUM_N / 2, [&](auto k, auto stride) {
            return w::seq(w::sync(), w::for_range(k, t, stride, k.block_dim(), [&](auto, auto iAccum) {
                            return accumResult[iAccum] += accumResult[stride + iAccum];
                          }));
          }),
          w::sync(), w::when(t == 0, d_C[vec] = accumResult[0]));
    });
  });
};

using Blk = w::block<256>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(scalarProd_k, w::kernel<Blk, w::out<float>, w::in<float>, w::in<float>, V, V>(scalarProdGPU)
                                .named("scalarProdGPU", "d_C", "d_A", "d_B", "vectorN", "elementN"));

TEST_CASE("corpus cuda-samples scalarProdGPU: accepted, clean, equal to the reference", "[corpus][cuda-samples]") {
  constexpr auto verdict = code_of<Blk, w::out<float>, w::in<float>, w::in<float>, V, V>(scalarProdGPU);
  STATIC_REQUIRE(verdict == code::none);
  const std::string ob = w::obligations_of(scalarProd_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  // (vectorN, elementN, blocks): 5 vectors of 1500 on 2 blocks (blocks take 3 and 2 vectors; the
  // last block's loop runs past nothing); 3 vectors of 700 (fewer elements than accumulators) on 4
  // blocks (one block has no vector).
  for (auto [vectorN, elementN, blocks] : {std::tuple{5, 1500, 2}, std::tuple{3, 700, 4}}) {
    CAPTURE(vectorN, elementN, blocks);
    std::vector<float> A(at(vectorN * elementN)), B(A.size()), ref(at(vectorN), 0.f);
    for (std::size_t i = 0; i < A.size(); ++i) {
      A[i] = static_cast<float>(i % 13) / 13.f;
      B[i] = static_cast<float>(i % 7) / 7.f - 0.5f;
    }
    for (int v = 0; v < vectorN; ++v)
      for (int e = 0; e < elementN; ++e) ref[at(v)] += A[at(v * elementN + e)] * B[at(v * elementN + e)];
    auto dA = w::to_device(A), dB = w::to_device(B);
    w::device_buffer<float> dC(at(vectorN));
    CHECK(w::record(scalarProd_k, w::grid(blocks), dC, dA, dB, vectorN, elementN).clean());
    corpus::check_close(w::to_host(dC), ref, 1e-4);
  }
}
