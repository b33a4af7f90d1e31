// HeCBench, matrix-rotate: zjin-lcf/HeCBench, src/matrix-rotate-cuda/main.cu, kernel
// rotate_matrix_parallel, ported by hand. An in-place quarter turn of an n x n matrix, one thread
// per concentric ring (layer < n / 2): for each i in [first, last) the thread moves four elements of
// its ring round (top saved in a register, left to top, bottom to left, right to bottom, the saved
// top to right). Rings are disjoint, so threads never share an element, but each loop trip loads
// and stores the same buffer at four places. n is the kernel's const int parameter; `float top` is
// a local. Launch as the original: <<<(n / 2 + 255) / 256, 256>>>, matrix n * n floats.
//
// Verdict: ACCEPTED, its pairs left to the launch (global_at_launch), and RUNS AS WRITTEN on the
// original's launch (two turns, odd and even n), equal to the reference. Two rings' top rows cannot
// meet (first <= i < last = n - 1 - layer keeps |i - i'| < n, so layer * n + i = layer' * n + i'
// forces layer = layer'); the checker does not prove it (the loop's bounds move with the thread),
// and before issue 32's item 1 refused it, W011 [read-write-race], "threads of different blocks may
// meet". Every index reads n: the launch lists the pairs with its own n and finds them apart. The
// launch's bounds then take (last - offset) * n + first, whose value is (n - 1 - i) * n + layer >= 0,
// below 0 by intervals (-7, -96, -462 for n = 7, 16, 33: last and offset both move with the
// thread), which was E101 before; an index the intervals cannot keep inside is now listed
// instance by instance with the launch's numbers, and every one is inside. A buffer one row short
// is still refused, E101, at the index reached. The body with last - offset written n - 1 - i (the
// same value) runs as well.
#include "../corpus/corpus.hpp"
#include "hecbench_matrix_rotate_kernel.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void rotate_matrix_parallel(float *matrix, const int n)
constexpr auto rotate_matrix_parallel = corpus2::rotate_matrix_parallel;

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

WARDEN_KERNEL(rotate_k, w::kernel<Blk, w::inout<float>, V>(rotate_matrix_parallel).named("rotate_matrix_parallel", "matrix", "n"));

WARDEN_KERNEL(rotate_simplified_k, w::kernel<Blk, w::inout<float>, V>(rotate_simplified).named("rotate_matrix_parallel", "matrix", "n"));

TEST_CASE("hecbench rotate_matrix_parallel: accepted, its pairs left to the launch (rings), runs as written and equals the reference",
          "[corpus2][hecbench]") {
  // The top rows of two rings, layer * n + i with first <= i < last = n - 1 - layer, differ
  // (|i - i'| < n), which the checker does not prove (the loop's bounds move with the thread): the
  // launch lists them with its n.
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::inout<float>, V>(rotate_matrix_parallel));
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::inout<float>, V>(rotate_simplified));

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
    // As written: the launch lists the pairs apart, and (last - offset) * n + first, which its
    // intervals bound below 0, instance by instance inside.
    auto d = w::to_device(m);
    for (int t = 0; t < repeat; ++t) CHECK(w::record(rotate_k, grid, d, n).clean());
    CHECK(w::to_host(d) == ref);
    if (n >= 2) {  // one row short: refused at the index the listing reaches
      auto short_buffer = w::to_device(std::vector<float>(at(n * n - n)));
      try {
        w::launch(w::on_cpu, rotate_k, grid, short_buffer, n);
        FAIL("the rotation ran past its buffer");
      } catch (const w::bounds_error& e) {
        CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] rotate_k: "));
        CHECK_THAT(e.what(), Catch::Matchers::Contains("reaches index " + std::to_string(n * n - n) + ", but matrix (parameter 0, inout) has"));
      }
    }
    // With last - offset written n - 1 - i: runs clean, equal to the reference.
    auto d2 = w::to_device(m);
    for (int t = 0; t < repeat; ++t) CHECK(w::record(rotate_simplified_k, grid, d2, n).clean());
    CHECK(w::to_host(d2) == ref);
  }
}
