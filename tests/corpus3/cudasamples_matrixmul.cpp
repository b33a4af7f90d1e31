// NVIDIA cuda-samples, matrixMul: NVIDIA/cuda-samples (commit c94ff366),
// Samples/0_Introduction/matrixMul/matrixMul.cu, kernel MatrixMulCUDA<BLOCK_SIZE = 32>, ported by
// hand. C = A * B through two BLOCK_SIZE x BLOCK_SIZE shared tiles: each block walks A's row of
// tiles (a from aBegin = wA * BLOCK_SIZE * by to aEnd = aBegin + wA - 1, step BLOCK_SIZE) and B's
// column of tiles (b from bBegin = BLOCK_SIZE * bx, step BLOCK_SIZE * wB) together, loading one
// element of each per thread, syncing, accumulating BLOCK_SIZE products into Csub, syncing again;
// then stores C[c + wB * ty + tx], c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx. wA and wB are the
// kernel's int parameters; there is no guard (the sample's sizes are whole tiles: dimsA = 320 x
// 320, dimsB = 640 x 320). Launch as MatrixMultiply: threads(block_size, block_size) with
// block_size = 32, grid(dimsB.x / threads.x, dimsA.y / threads.y).
//
// Translation: the loop `for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep)`
// keeps two induction variables. The faithful port counts a with w::for_range (hi = aEnd + 1, step
// aStep) and keeps b as a thread-private w::local that starts at bBegin and takes b += bStep at the
// end of each trip, as the comma expression does. The shared arrays declared in the loop body are
// tiles opened around the loop (one allocation either way). The inner counter k is `kk` (k is the
// kernel context here). Csub is a local float.
//
// Verdict before issue 56's fixes: ACCEPTED AT COMPILE TIME under one launch obligation (wB - 32 *
// grid_dim.x >= 0: the C rows of one block row must not run into the next; the host's grid meets
// it), but REFUSED AT LAUNCH, E101, on every launch: "load B[(local3 + (wB * thread_id.y)) +
// thread_id.x]: the index cannot be bounded". The second induction variable b is a thread-private
// variable assigned in the loop (b += bStep), which the launch did not follow. Recorded anyway, the
// faithful kernel touched nothing out of bounds, had no conflict and equalled the reference.
//
// Verdict now: RUNS AS WRITTEN. The launch reads b at the start of trip a as bBegin + ((a - aBegin)
// / aStep) * bStep (an induction variable: dsl/local_values.hpp) and bounds B's loads for its own
// wA and wB; the three shapes run clean and equal the reference. The twin launch binds a B one tile
// row short (wA - 32 rows): the last trip's loads pass its end, and that launch is refused E101 (the
// recording confirms the overrun). MatrixMulCUDA_b_of_a, b written as its value at trip a with no
// local (the change that ran before), is kept as the comparison: the same obligation, the same
// product.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_SIZE = 32;

// template <int BLOCK_SIZE> __global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB)
constexpr auto MatrixMulCUDA = [](auto k, auto C, auto A, auto B, auto wA, auto wB) {
  auto bx = k.block_id();
  auto by = k.block_id_y();
  auto tx = k.thread_id();
  auto ty = k.thread_id_y();
  auto aBegin = wA * BLOCK_SIZE * by;  // Index of the first sub-matrix of A processed by the block
  auto aEnd = aBegin + wA - 1;         // Index of the last sub-matrix of A processed by the block
  constexpr int aStep = BLOCK_SIZE;    // Step size used to iterate through the sub-matrices of A
  auto bBegin = BLOCK_SIZE * bx;       // Index of the first sub-matrix of B processed by the block
  auto bStep = BLOCK_SIZE * wB;        // Step size used to iterate through the sub-matrices of B
  return w::shared<float, BLOCK_SIZE, BLOCK_SIZE>(k, [&](auto k, auto As) {
    return w::shared<float, BLOCK_SIZE, BLOCK_SIZE>(k, [&](auto k, auto Bs) {
      return w::locals(k, 0.f, bBegin, [&](auto k, auto Csub, auto b) {
        return w::seq(w::for_range(k, aBegin, aEnd + 1, aStep,
                                   [&](auto k, auto a) {
                                     return w::seq(As(ty, tx) = A[a + wA * ty + tx], Bs(ty, tx) = B[b + wB * ty + tx], w::sync(),
                                                   w::for_range(k, 0, BLOCK_SIZE, [&](auto, auto kk) { return Csub += As(ty, kk) * Bs(kk, tx); }),
                                                   w::sync(), b += bStep);
                                   }),
                      C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub);
      });
    });
  });
};

// Scratch copy, not the original: b written as its value at trip a (no local).
constexpr auto MatrixMulCUDA_b_of_a = [](auto k, auto C, auto A, auto B, auto wA, auto wB) {
  auto bx = k.block_id();
  auto by = k.block_id_y();
  auto tx = k.thread_id();
  auto ty = k.thread_id_y();
  auto aBegin = wA * BLOCK_SIZE * by;
  auto aEnd = aBegin + wA - 1;
  constexpr int aStep = BLOCK_SIZE;
  auto bBegin = BLOCK_SIZE * bx;
  return w::shared<float, BLOCK_SIZE, BLOCK_SIZE>(k, [&](auto k, auto As) {
    return w::shared<float, BLOCK_SIZE, BLOCK_SIZE>(k, [&](auto k, auto Bs) {
      return w::local(k, 0.f, [&](auto k, auto Csub) {
        return w::seq(w::for_range(k, aBegin, aEnd + 1, aStep,
                                   [&](auto k, auto a) {
                                     auto b = bBegin + (a - aBegin) * wB;
                                     return w::seq(As(ty, tx) = A[a + wA * ty + tx], Bs(ty, tx) = B[b + wB * ty + tx], w::sync(),
                                                   w::for_range(k, 0, BLOCK_SIZE, [&](auto, auto kk) { return Csub += As(ty, kk) * Bs(kk, tx); }),
                                                   w::sync());
                                   }),
                      C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub);
      });
    });
  });
};

using Blk = w::block<BLOCK_SIZE, BLOCK_SIZE>;
using V = w::value<int>;

}  // namespace

#define MM_PARAMS Blk, w::out<float>, w::in<float>, w::in<float>, V, V

WARDEN_KERNEL(matrixMul_k, w::kernel<MM_PARAMS>(MatrixMulCUDA).named("MatrixMulCUDA", "C", "A", "B", "wA", "wB"));
WARDEN_KERNEL(matrixMul_b_of_a_k, w::kernel<MM_PARAMS>(MatrixMulCUDA_b_of_a).named("MatrixMulCUDA", "C", "A", "B", "wA", "wB"));

TEST_CASE("cuda-samples MatrixMulCUDA<32>: runs as written (b, a loop-updated local, read as bBegin + trip * bStep), clean and "
          "equal to the reference; a B one tile row short is refused E101",
          "[corpus3][cuda-samples]") {
  STATIC_REQUIRE(code_of<MM_PARAMS>(MatrixMulCUDA) == code::none);
  STATIC_REQUIRE(code_of<MM_PARAMS>(MatrixMulCUDA_b_of_a) == code::none);
  // One obligation on the C stores (rows of one block row must not run into the next), which the
  // host's grid (dimsB.x / 32 blocks across wB = dimsB.x) meets.
  const std::string ob = w::obligations_of(matrixMul_k);
  CAPTURE(ob);
  CHECK(ob.find("if wB - 32 * grid_dim.x >= 0") != std::string::npos);
  CHECK(ob.find('\n') == ob.size() - 1);
  CHECK(w::obligations_of(matrixMul_b_of_a_k) == ob);

  // dimsA = wA x hA, dimsB = wB x wA (the sample's 320 x 320 and 640 x 320, scaled down).
  for (auto [wA, hA, wB] : {std::tuple{64, 64, 96}, std::tuple{32, 96, 32}, std::tuple{96, 32, 64}}) {
    CAPTURE(wA, hA, wB);
    std::vector<float> a(at(wA * hA)), b(at(wB * wA)), ref(at(wB * hA));
    for (int i = 0; i < wA * hA; ++i) a[at(i)] = static_cast<float>((i * 7) % 11) * 0.125f;
    for (int i = 0; i < wB * wA; ++i) b[at(i)] = static_cast<float>((i * 5) % 13) * 0.25f - 1.f;
    for (int r = 0; r < hA; ++r)
      for (int c = 0; c < wB; ++c) {
        double sum = 0;
        for (int j = 0; j < wA; ++j) sum += static_cast<double>(a[at(r * wA + j)]) * b[at(j * wB + c)];
        ref[at(r * wB + c)] = static_cast<float>(sum);
      }
    auto dA = w::to_device(a), dB = w::to_device(b);
    const auto grid = w::grid(wB / BLOCK_SIZE, hA / BLOCK_SIZE);
    {
      w::device_buffer<float> dC(ref.size());
      CHECK(w::record(matrixMul_k, grid, dC, dA, dB, wA, wB).clean());
      corpus::check_close(w::to_host(dC), ref);
      w::launch(w::on_cpu, matrixMul_k, grid, dC, dA, dB, wA, wB);
      corpus::check_close(w::to_host(dC), ref);
      // B one tile row short: b's last value runs past it, and the launch sees where.
      auto short_B = w::to_device(std::vector<float>(b.begin(), b.end() - BLOCK_SIZE * wB));
      try {
        w::launch(w::on_cpu, matrixMul_k, grid, dC, dA, short_B, wA, wB);
        FAIL("a launch past B's end ran");
      } catch (const w::bounds_error& e) {
        CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] matrixMul_k: load B["));
      }
      CHECK_FALSE(w::record_anyway(matrixMul_k, grid, dC, dA, short_B, wA, wB).clean());
    }
    w::device_buffer<float> dC(ref.size());
    CHECK(w::record(matrixMul_b_of_a_k, grid, dC, dA, dB, wA, wB).clean());
    corpus::check_close(w::to_host(dC), ref);
  }
}
