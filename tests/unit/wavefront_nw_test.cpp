// Rodinia's Needleman-Wunsch (issue 56, item 2: "wavefronts: tiles along one anti-diagonal are
// disjoint for every launch the host makes"). Ported as written from Rodinia's
// cuda/nw/needle_kernel.cu (JuliaParallel/rodinia, commit 0f47cfc2f35034405973703fbb6d2c77a25439c0;
// the same kernels as Rodinia 3.1), both kernels, and the host loops of needle.cu:
//
//   for (int i = 1; i <= block_width; i++)      needle_cuda_shared_1<<<i, BLOCK_SIZE>>>(..., i, block_width);
//   for (int i = block_width - 1; i >= 1; i--)  needle_cuda_shared_2<<<i, BLOCK_SIZE>>>(..., i, block_width);
//
// Block bx of launch i owns the 16 x 16 tile (bx, i - 1 - bx) of the score matrix (the second
// kernel: (bx + block_width - i, block_width - bx - 1)): the tiles of one anti-diagonal. Each reads
// the row above and the column left of its tile, written by the launches before, and writes its
// tile; in shared memory it sweeps the tile's anti-diagonals, thread tx computing row m - tx + 1
// of column tx + 1 under `if (tx <= m)`, one barrier per sweep step.
//
// Translation: `maximum(a, b, c)` is w::max(w::max(a, b), c) (its two if/else pick the same);
// temp[r][c] and ref[r][c] are w::shared 2-D tiles; the ints computed once are expressions; the
// descending loop `for (m = BLOCK_SIZE - 2; m >= 0; m--)` is w::for_down(k, BLOCK_SIZE - 1, 0).
//
// Verdict before this change: accepted at compile time, the stores of matrix_cuda left to
// the launch (W011 obligations: their tiles depend on i, a launch value); every launch refused
// with E101, "the column may reach 29" for temp(t_index_y - 1, t_index_x - 1) in the second
// sweep: the index intervals bound tx + 16 - m by tx's and m's ranges apart, blind to the guard
// tx <= m. Now a 2-D tile's column that the intervals cannot keep inside is decided as its row
// is, by the per-thread footprint and then the integer set of the runs whose column is outside
// (check/launch/overrun.hpp), so the guard counts; the launch's integer sets then find the
// anti-diagonal's tiles apart. Both kernels run as written on every launch of both host loops,
// clean and equal to the dynamic-programming reference; the careless twins below are refused.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

constexpr int BLOCK_SIZE = 16;

constexpr auto maximum = [](auto a, auto b, auto c) { return w::max(w::max(a, b), c); };

// The body both kernels share once their tile is placed (b_index_x, b_index_y), with the order of
// the first loads as each kernel writes it (`ref_first`: needle_cuda_shared_2 loads ref and waits
// before it loads the corner). `slack`: 0 as written; 1 widens the second sweep's guard to
// tx <= m + 1 (the careless twin, whose columns reach past both tiles).
template <bool ref_first, int slack = 0>
constexpr auto needle_body = [](auto k, auto referrence, auto matrix_cuda, auto cols, auto penalty, auto b_index_x, auto b_index_y) {
  return w::shared<int, BLOCK_SIZE + 1, BLOCK_SIZE + 1>(k, [&](auto k, auto temp) {
    return w::shared<int, BLOCK_SIZE, BLOCK_SIZE>(k, [&](auto k, auto ref) {
      auto tx = k.thread_id();
      auto index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
      auto index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
      auto index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
      auto index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
      auto corner = w::when(tx == 0, temp(tx, 0) = matrix_cuda[index_nw]);
      auto load_ref = w::for_range(k, 0, BLOCK_SIZE, [&](auto, auto ty) { return ref(ty, tx) = referrence[index + cols * ty]; });
      auto first = [&] {
        if constexpr (ref_first) return w::seq(load_ref, w::sync(), corner);
        else return w::seq(corner, load_ref, w::sync());
      };
      return w::seq(
          first(),
          temp(tx + 1, 0) = matrix_cuda[index_w + cols * tx],
          w::sync(),
          temp(0, tx + 1) = matrix_cuda[index_n],
          w::sync(),
          w::for_range(k, 0, BLOCK_SIZE, [&](auto, auto m) {
            auto t_index_x = tx + 1;
            auto t_index_y = m - tx + 1;
            return w::seq(w::when(tx <= m, temp(t_index_y, t_index_x) = maximum(temp(t_index_y - 1, t_index_x - 1) + ref(t_index_y - 1, t_index_x - 1),
                                                                               temp(t_index_y, t_index_x - 1) - penalty,
                                                                               temp(t_index_y - 1, t_index_x) - penalty)),
                          w::sync());
          }),
          w::for_down(k, BLOCK_SIZE - 1, 0, [&](auto, auto m) {
            auto t_index_x = tx + BLOCK_SIZE - m;
            auto t_index_y = BLOCK_SIZE - tx;
            return w::seq(w::when(tx <= m + slack, temp(t_index_y, t_index_x) = maximum(temp(t_index_y - 1, t_index_x - 1) + ref(t_index_y - 1, t_index_x - 1),
                                                                                       temp(t_index_y, t_index_x - 1) - penalty,
                                                                                       temp(t_index_y - 1, t_index_x) - penalty)),
                          w::sync());
          }),
          w::for_range(k, 0, BLOCK_SIZE, [&](auto, auto ty) { return matrix_cuda[index + ty * cols] = temp(ty + 1, tx + 1); }));
    });
  });
};

// __global__ void needle_cuda_shared_1(int* referrence, int* matrix_cuda, int cols, int penalty, int i, int block_width)
constexpr auto needle_cuda_shared_1 = [](auto k, auto referrence, auto matrix_cuda, auto cols, auto penalty, auto i, auto /*block_width*/) {
  auto bx = k.block_id();
  return needle_body<false>(k, referrence, matrix_cuda, cols, penalty, bx, i - 1 - bx);
};

// __global__ void needle_cuda_shared_2(int* referrence, int* matrix_cuda, int cols, int penalty, int i, int block_width)
constexpr auto needle_cuda_shared_2 = [](auto k, auto referrence, auto matrix_cuda, auto cols, auto penalty, auto i, auto block_width) {
  auto bx = k.block_id();
  return needle_body<true>(k, referrence, matrix_cuda, cols, penalty, bx + block_width - i, block_width - bx - 1);
};

// Careless twins. Two blocks on one tile: block_x = bx / 2 on the anti-diagonal of bx / 2.
constexpr auto two_blocks_per_tile = [](auto k, auto referrence, auto matrix_cuda, auto cols, auto penalty, auto i, auto /*block_width*/) {
  auto bx = k.block_id() / 2;
  return needle_body<false>(k, referrence, matrix_cuda, cols, penalty, bx, i - 1 - bx);
};
// The second sweep's guard one step wide: its last thread reads column 16 of the 16-column ref.
constexpr auto sweep_one_wide = [](auto k, auto referrence, auto matrix_cuda, auto cols, auto penalty, auto i, auto /*block_width*/) {
  auto bx = k.block_id();
  return needle_body<false, 1>(k, referrence, matrix_cuda, cols, penalty, bx, i - 1 - bx);
};

using Blk = w::block<BLOCK_SIZE>;
using I = w::value<int>;

}  // namespace

#define NW_PARAMS Blk, w::in<int>, w::inout<int>, I, I, I, I

WARDEN_KERNEL(needle_1, w::kernel<NW_PARAMS>(needle_cuda_shared_1)
                            .named("needle_cuda_shared_1", "referrence", "matrix_cuda", "cols", "penalty", "i", "block_width"));
WARDEN_KERNEL(needle_2, w::kernel<NW_PARAMS>(needle_cuda_shared_2)
                            .named("needle_cuda_shared_2", "referrence", "matrix_cuda", "cols", "penalty", "i", "block_width"));
WARDEN_KERNEL(needle_two_per_tile, w::kernel<NW_PARAMS>(two_blocks_per_tile)
                                       .named("two_blocks_per_tile", "referrence", "matrix_cuda", "cols", "penalty", "i", "block_width"));
WARDEN_KERNEL(needle_one_wide, w::kernel<NW_PARAMS>(sweep_one_wide)
                                   .named("sweep_one_wide", "referrence", "matrix_cuda", "cols", "penalty", "i", "block_width"));

namespace {

// needle.cu's input: random sequences scored through blosum62 in the original; any scores and
// borders serve the reference.
struct nw_input {
  int max_cols = 0;
  std::vector<int> referrence, matrix;
};
nw_input make_input(int dim, int penalty) {
  nw_input in;
  in.max_cols = dim + 1;
  const auto n = static_cast<std::size_t>(in.max_cols);
  in.referrence.assign(n * n, 0);
  in.matrix.assign(n * n, 0);
  for (std::size_t r = 1; r < n; ++r)
    for (std::size_t c = 1; c < n; ++c) in.referrence[r * n + c] = static_cast<int>((r * 37 + c * 11) % 13) - 4;
  for (std::size_t r = 1; r < n; ++r) in.matrix[r * n] = -static_cast<int>(r) * penalty;
  for (std::size_t c = 1; c < n; ++c) in.matrix[c] = -static_cast<int>(c) * penalty;
  return in;
}
std::vector<int> reference(const nw_input& in, int penalty) {
  const auto n = static_cast<std::size_t>(in.max_cols);
  std::vector<int> m = in.matrix;
  for (std::size_t r = 1; r < n; ++r)
    for (std::size_t c = 1; c < n; ++c)
      m[r * n + c] = std::max({m[(r - 1) * n + c - 1] + in.referrence[r * n + c], m[r * n + c - 1] - penalty, m[(r - 1) * n + c] - penalty});
  return m;
}

}  // namespace

TEST_CASE("rodinia nw: both wavefront kernels run as written on every launch of the host loops, clean and equal to the reference", "[wavefront][rodinia]") {
  STATIC_REQUIRE(code_of<NW_PARAMS>(needle_cuda_shared_1) == code::none);
  STATIC_REQUIRE(code_of<NW_PARAMS>(needle_cuda_shared_2) == code::none);
  // What the compiler cannot know (which tile a block owns) is left to the launch.
  CHECK(w::obligations_of(needle_1).find("W011 holds for matrix_cuda[") == 0);
  CHECK(w::obligations_of(needle_2).find("W011 holds for matrix_cuda[") == 0);
  const int penalty = 10;
  for (int dim : {64, 128}) {
    CAPTURE(dim);
    const nw_input in = make_input(dim, penalty);
    const int block_width = (in.max_cols - 1) / BLOCK_SIZE;
    auto referrence = w::to_device(in.referrence);
    auto matrix_cuda = w::to_device(in.matrix);
    for (int i = 1; i <= block_width; i++) {
      CAPTURE(i);
      CHECK(w::record(needle_1, w::grid(i), referrence, matrix_cuda, in.max_cols, penalty, i, block_width).clean());
    }
    for (int i = block_width - 1; i >= 1; i--) {
      CAPTURE(i);
      CHECK(w::record(needle_2, w::grid(i), referrence, matrix_cuda, in.max_cols, penalty, i, block_width).clean());
    }
    CHECK(w::to_host(matrix_cuda) == reference(in, penalty));
  }
}

TEST_CASE("rodinia nw, careless twins: two blocks on one tile race (E106), a sweep one step wide leaves its tile's columns (E101)", "[wavefront][rodinia]") {
  const int penalty = 10;
  const nw_input in = make_input(64, penalty);
  const int block_width = 4;
  auto referrence = w::to_device(in.referrence);
  auto matrix_cuda = w::to_device(in.matrix);
  const std::vector<int> before = w::to_host(matrix_cuda);
  // Launch 1 has one block, alone on its tile; from launch 2 on, blocks 0 and 1 share tile (0, i - 1).
  CHECK(w::testing::refusal_of([&] { w::launch(needle_two_per_tile, w::grid(1), referrence, matrix_cuda, in.max_cols, penalty, 1, block_width); }) ==
        "(launched)");
  const std::string race = w::testing::refusal_of(
      [&] { w::launch(needle_two_per_tile, w::grid(2), referrence, matrix_cuda, in.max_cols, penalty, 2, block_width); });
  CAPTURE(race);
  CHECK(race.rfind("E106", 0) == 0);
  CHECK(race.find("matrix_cuda[") != std::string::npos);
  const std::string wide = w::testing::refusal_of(
      [&] { w::launch(needle_one_wide, w::grid(1), referrence, matrix_cuda, in.max_cols, penalty, 1, block_width); });
  CAPTURE(wide);
  CHECK(wide.rfind("E101", 0) == 0);
  // Its first access past the tiles: the read of ref, 16 columns wide, at column 16.
  CHECK(wide.find("): the column reaches 16, outside [0, 16)") != std::string::npos);
  // Refused before anything ran: launch 1 of the twin computed tile (0, 0) as the original would.
  std::vector<int> after_first = w::to_host(matrix_cuda);
  CHECK(after_first != before);
  auto again = w::to_device(in.matrix);
  CHECK(w::testing::refusal_of([&] { w::launch(needle_one_wide, w::grid(1), referrence, again, in.max_cols, penalty, 1, block_width); }) == wide);
  CHECK(w::to_host(again) == in.matrix);
}
