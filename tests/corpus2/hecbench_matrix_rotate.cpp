// HeCBench, matrix-rotate: zjin-lcf/HeCBench, src/matrix-rotate-cuda/main.cu, kernel
// rotate_matrix_parallel, ported by hand. An in-place quarter turn of an n x n matrix, one thread
// per concentric ring (layer < n / 2): for each i in [first, last) the thread moves four elements of
// its ring round (top saved in a register, left to top, bottom to left, right to bottom, the saved
// top to right). Rings are disjoint, so threads never share an element, but each loop trip loads
// and stores the same buffer at four places. n is the kernel's const int parameter; `float top` is
// a local. Launch as the original: <<<(n / 2 + 255) / 256, 256>>>, matrix n * n floats.
//
// Verdict: REFUSED AT COMPILE TIME, W011 [read-write-race] on the top row: load
// matrix[layer * n + i] vs store matrix[layer * n + i], "threads of different blocks may meet".
// Two rings' top rows cannot meet (first <= i < last = n - 1 - layer keeps |i - i'| < n, so
// layer * n + i = layer' * n + i' forces layer = layer'); the checker does not prove it (the
// loop's bounds move with the thread). Under trusted(...) the original is still REFUSED AT LAUNCH
// (E101): the bounds analysis takes (last - offset) * n + first, whose value is (n - 1 - i) * n +
// layer >= 0, below 0 (-7, -96, -462 for n = 7, 16, 33: it bounds last and offset apart, though
// both move with the thread). So the original cannot run in warden as written. The one change that lets it run: last - offset
// written n - 1 - i (the same value); that body is W011 too, and under trusted(...) runs clean on
// the original's launch (two turns, odd and even n) and equals the reference.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void rotate_matrix_parallel(float *matrix, const int n)
constexpr auto rotate_matrix_parallel = [](auto k, auto matrix, auto n) {
  auto layer = k.block_id() * k.block_dim() + k.thread_id();
  auto first = layer;
  auto last = n - 1 - layer;
  return w::when(layer < n / 2, w::for_range(k, first, last, [&](auto k, auto i) {
                   auto offset = i - first;
                   return w::local(k, matrix[first * n + i], [&](auto, auto top) {  // save top
                     return w::seq(matrix[first * n + i] = matrix[(last - offset) * n + first],            // left -> top
                                   matrix[(last - offset) * n + first] = matrix[last * n + (last - offset)],  // bottom -> left
                                   matrix[last * n + (last - offset)] = matrix[i * n + last],              // right -> bottom
                                   matrix[i * n + last] = top);                                           // top -> right
                   });
                 }));
};

// Not the original: last - offset written as n - 1 - i (the same value: last - (i - first) =
// n - 1 - layer - i + layer), the only change.
constexpr auto rotate_simplified = [](auto k, auto matrix, auto n) {
  auto layer = k.block_id() * k.block_dim() + k.thread_id();
  auto first = layer;
  auto last = n - 1 - layer;
  return w::when(layer < n / 2, w::for_range(k, first, last, [&](auto k, auto i) {
                   return w::local(k, matrix[first * n + i], [&](auto, auto top) {
                     return w::seq(matrix[first * n + i] = matrix[(n - 1 - i) * n + first], matrix[(n - 1 - i) * n + first] = matrix[last * n + (n - 1 - i)],
                                   matrix[last * n + (n - 1 - i)] = matrix[i * n + last], matrix[i * n + last] = top);
                   });
                 }));
};

using Blk = w::block<256>;
using V = w::value<int>;

}  // namespace

// The faithful body is W011 (below); the kernel that runs is the same body under trusted(...).
WARDEN_KERNEL(rotate_trusting_k, w::kernel<Blk, w::inout<float>, V>(w::testing::trusting(rotate_matrix_parallel)).named("rotate_matrix_parallel", "matrix", "n"));

WARDEN_KERNEL(rotate_simplified_trusting_k, w::kernel<Blk, w::inout<float>, V>(w::testing::trusting(rotate_simplified)).named("rotate_matrix_parallel", "matrix", "n"));

TEST_CASE("hecbench rotate_matrix_parallel: refused at compile time (W011, rings not proved apart), trusted runs clean and equals "
          "the reference",
          "[corpus2][hecbench]") {
  // "load matrix[layer * n + i] vs store matrix[layer * n + i]: threads of different blocks may
  // meet": the top rows of two rings, layer * n + i with first <= i < last = n - 1 - layer, differ
  // (|i - i'| < n), which the checker does not prove (the loop's bounds move with the thread).
  STATIC_REQUIRE(code_of<Blk, w::inout<float>, V>(rotate_matrix_parallel) == code::W011);

  STATIC_REQUIRE(code_of<Blk, w::inout<float>, V>(rotate_simplified) == code::W011);

  const int repeat = 2;
  for (int n : {1, 7, 16, 33}) {
    CAPTURE(n);
    std::vector<float> m(at(n * n));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) m[at(i * n + j)] = static_cast<float>(i * n + j);
    // Reference: the original's turn takes (r, c) to (c, n - 1 - r); written here as
    // out(r, c) = in(n - 1 - c, r).
    std::vector<float> ref = m;
    for (int t = 0; t < repeat; ++t) {
      std::vector<float> next(ref.size());
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) next[at(r * n + c)] = ref[at((n - 1 - c) * n + r)];
      ref = next;
    }
    const auto grid = w::grid((n / 2 + 255) / 256);
    // As written, even trusted: launch's bounds analysis refuses (last - offset) * n + first, which
    // it bounds term by term (last and offset both move with the thread) below 0 (E101).
    auto d = w::to_device(m);
    if (n >= 2) {
      try {
        (void)w::record(rotate_trusting_k, grid, d, n);
        FAIL("the faithful rotation launched");
      } catch (const w::bounds_error& e) {
        CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] rotate_trusting_k: load matrix[((((n - 1) - ((block_id.x"));
        CHECK_THAT(e.what(), Catch::Matchers::Contains("may reach index -"));  // -7, -96, -462 for n = 7, 16, 33
      }
    } else {
      CHECK(w::record(rotate_trusting_k, grid, d, n).clean());  // n = 1: no ring, no thread works
    }
    // With last - offset written n - 1 - i (and trusted): runs clean, equal to the reference.
    auto d2 = w::to_device(m);
    for (int t = 0; t < repeat; ++t) CHECK(w::record(rotate_simplified_trusting_k, grid, d2, n).clean());
    CHECK(w::to_host(d2) == ref);
  }
}
