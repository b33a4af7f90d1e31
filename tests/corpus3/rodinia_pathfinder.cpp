// Rodinia, pathfinder: yuhc/gpu-rodinia (commit 9c10d3ea), cuda/pathfinder/pathfinder.cu, kernel
// dynproc_kernel (host loop in calc_path, sizes in run), ported by hand. Dynamic programming down a
// rows x cols grid of weights, `iteration` rows per launch (the pyramid): each block of 256 threads
// loads 256 columns of the previous row into shared prev (only columns inside [0, cols)), then for
// each of the iteration rows every thread inside the shrinking pyramid (tx in [i + 1, 254 - i]) and
// inside the image (isValid) stores result[tx] = min(prev[W], prev[tx], prev[E]) + its weight, with
// W and E clamped to the valid range; after a barrier, unless it is the last row, computed threads
// copy result[tx] into prev[tx]. At the end the threads whose last row was computed store
// gpuResults[xidx]. Neighbouring blocks overlap by 2 * border columns; only the small block of
// BLOCK_SIZE - 2 * iteration columns in the middle is computed to the last row.
// Translation: the two __shared__ int arrays are w::shared<int, 256> tiles; the ints computed once
// (small_block_cols, blkX, blkXmax, xidx, validXmin, validXmax, W, E, isValid) are expressions, the
// reassigned `W = (W < validXmin) ? validXmin : W` the select of the first value; the ternaries
// and MIN are w::select; `bool computed;` (unset until the loop's first trip; iteration >= 1 on every
// launch) is a w::local<bool> set to false; left, up, right and shortest are w::locals;
// `if (i == iteration - 1) break;` after the first barrier is a guard `!(i == iteration - 1)` around
// the rest of the trip (the break happens only on the last trip, so the loop runs the same trips).
// Launch as calc_path: block 256, grid blockCols = cols / smallBlockCol (+1 on a remainder),
// smallBlockCol = 256 - 2 * pyramid_height, border = pyramid_height; for t = 0, pyramid_height, ...
// < rows - 1: iteration = MIN(pyramid_height, rows - t - 1), startStep = t, src and dst swapped.
// gpuWall holds rows 1 .. rows - 1 ((rows - 1) * cols ints). The last block always overhangs cols.
//
// Verdict before issue 56's fixes: ACCEPTED at compile time with one launch obligation that no
// launch meets, and REFUSED AT LAUNCH on every launch of the host loop (E106 on two blocks or more,
// E101 on one): the final store `if (computed) gpuResults[xidx] = result[tx];` is guarded only by
// the thread-private bool `computed`, which the launch could not read, so the stores of
// neighbouring blocks (whose xidx ranges overlap by the halo) looked apart only "if 2 * iteration
// <= 0", and xidx = blkX + tx looked able to run from -border past cols. Recorded anyway, every
// launch was clean and equal to the reference.
//
// Verdict now: RUNS AS WRITTEN. The static verdict is unchanged (one obligation, left to the
// launch); the launch reads `computed` after the loop as the value the last trip left
// (dsl/local_values.hpp): select(iteration > 0, IN_RANGE(tx, iteration, 255 - iteration) &&
// isValid, false), so it finds the blocks' stores apart and inside [0, cols). Every launch of the
// host loop runs clean and equals the reference (cols 1000, 100, 600; pyramid heights 5, 1, 4;
// rows - 1 not always a multiple of the height). The twin dynproc_wide_k computes one column more
// on each side (IN_RANGE(tx, i, BLOCK_SIZE - i - 1)): neighbouring blocks then both store the
// columns at their seams, and its launches are refused E106 (the recording confirms the race).
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_SIZE = 256;
constexpr int HALO = 1;

// __global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults,
//                                int cols, int rows, int startStep, int border)
// Slack 0: the original; 1: the twin whose pyramid is one column wider on each side.
template <int Slack>
constexpr auto dynproc = [](auto k, auto iteration, auto gpuWall, auto gpuSrc, auto gpuResults, auto cols, auto /*rows*/,
                                   auto startStep, auto border) {
  return w::shared<int, BLOCK_SIZE>(k, [&](auto k, auto prev) {
    return w::shared<int, BLOCK_SIZE>(k, [&](auto k, auto result) {
      auto bx = k.block_id();
      auto tx = k.thread_id();
      auto small_block_cols = BLOCK_SIZE - iteration * HALO * 2;
      auto blkX = small_block_cols * bx - border;
      auto blkXmax = blkX + BLOCK_SIZE - 1;
      auto xidx = blkX + tx;
      auto validXmin = w::select(blkX < 0, -blkX, 0);
      auto validXmax = w::select(blkXmax > cols - 1, BLOCK_SIZE - 1 - (blkXmax - cols + 1), BLOCK_SIZE - 1);
      auto W = w::select(tx - 1 < validXmin, validXmin, tx - 1);
      auto E = w::select(tx + 1 > validXmax, validXmax, tx + 1);
      auto isValid = tx >= validXmin && tx <= validXmax;  // IN_RANGE(tx, validXmin, validXmax)
      return w::seq(
          w::when(xidx >= 0 && xidx <= cols - 1, prev[tx] = gpuSrc[xidx]),  // IN_RANGE(xidx, 0, cols-1)
          w::sync(),
          w::local<bool>(k, false, [&](auto k, auto computed) {
            return w::seq(
                w::for_range(k, 0, iteration, [&](auto k, auto i) {
                  return w::seq(
                      computed = false,
                      w::when(tx >= i + 1 - Slack && tx <= BLOCK_SIZE - i - 2 + Slack && isValid,  // IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) && isValid
                              computed = true,
                              w::locals(k, prev[W], prev[tx], prev[E], [&](auto k, auto left, auto up, auto right) {
                                return w::local(k, w::select(left <= up, left, up), [&](auto, auto shortest) {
                                  auto index = cols * (startStep + i) + xidx;
                                  return w::seq(shortest = w::select(shortest <= right, shortest, right), result[tx] = shortest + gpuWall[index]);
                                });
                              })),
                      w::sync(),
                      w::when(!(i == iteration - 1),  // if (i == iteration-1) break;
                              w::when(computed, prev[tx] = result[tx]),
                              w::sync()));
                }),
                w::when(computed, gpuResults[xidx] = result[tx]));
          }));
    });
  });
};
constexpr auto dynproc_kernel = dynproc<0>;

using Blk = w::block<BLOCK_SIZE>;
using I = w::value<int>;

}  // namespace

#define PF_PARAMS Blk, I, w::in<int>, w::in<int>, w::out<int>, I, I, I, I

WARDEN_KERNEL(dynproc_k, w::kernel<PF_PARAMS>(dynproc_kernel)
                                      .named("dynproc_kernel", "iteration", "gpuWall", "gpuSrc", "gpuResults", "cols", "rows", "startStep", "border"));
WARDEN_KERNEL(dynproc_wide_k, w::kernel<PF_PARAMS>(dynproc<1>)
                                      .named("dynproc_wide", "iteration", "gpuWall", "gpuSrc", "gpuResults", "cols", "rows", "startStep", "border"));

TEST_CASE("rodinia pathfinder dynproc_kernel: runs as written (computed, a local the loop assigns, read as the last trip left it), its one-column-wider twin is refused E106", "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<PF_PARAMS>(dynproc_kernel) == code::none);
  // One obligation, as the static rules see it: the blocks' stores gpuResults[xidx] are apart only
  // if 2 * iteration <= 0 (to them `computed` is data). The launch, which reads `computed`, lists
  // both stores with its own values instead, and finds no two threads that meet.
  const std::string ob = w::obligations_of(dynproc_k);
  CAPTURE(ob);
  CHECK(ob.find("W010 holds for gpuResults[(((256 - ((iteration * 1) * 2)) * block_id.x) - border) + thread_id.x] and gpuResults[") == 0);
  CHECK(ob.find(" if 2 * iteration <= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n") != std::string::npos);
  CHECK(std::count(ob.begin(), ob.end(), '\n') == 1);

  for (auto [rows, cols, pyramid_height] : {std::array{20, 1000, 5}, std::array{9, 100, 1}, std::array{14, 600, 4}}) {
    CAPTURE(rows, cols, pyramid_height);
    std::vector<int> data(at(rows * cols));
    for (int e = 0; e < rows * cols; ++e) data[at(e)] = (e * 7 + e / 13) % 10;  // rand() % 10
    std::vector<int> ref(data.begin(), data.begin() + cols), next(at(cols));
    for (int r = 1; r < rows; ++r) {
      for (int x = 0; x < cols; ++x)
        next[at(x)] = data[at(r * cols + x)] + std::min({ref[at(std::max(x - 1, 0))], ref[at(x)], ref[at(std::min(x + 1, cols - 1))]});
      ref = next;
    }
    const int borderCols = pyramid_height * HALO;
    const int smallBlockCol = BLOCK_SIZE - pyramid_height * HALO * 2;
    const int blockCols = cols / smallBlockCol + ((cols % smallBlockCol == 0) ? 0 : 1);
    w::device_buffer<int> gpuResult[2] = {w::to_device(std::vector<int>(data.begin(), data.begin() + cols)), w::device_buffer<int>(at(cols))};
    auto gpuWall = w::to_device(std::vector<int>(data.begin() + cols, data.end()));
    int src = 1, dst = 0;
    for (int t = 0; t < rows - 1; t += pyramid_height) {
      std::swap(src, dst);
      const int iteration = std::min(pyramid_height, rows - t - 1);
      CHECK(w::record(dynproc_k, w::grid(blockCols), iteration, gpuWall, gpuResult[src], gpuResult[dst], cols, rows, t, borderCols).clean());
      w::launch(w::on_cpu, dynproc_k, w::grid(blockCols), iteration, gpuWall, gpuResult[src], gpuResult[dst], cols, rows, t, borderCols);
      if (blockCols > 1) {  // the twin's blocks both store the columns at their seams
        w::device_buffer<int> scratch(at(cols));
        CHECK_THROWS_AS(w::launch(w::on_cpu, dynproc_wide_k, w::grid(blockCols), iteration, gpuWall, gpuResult[src], scratch, cols, rows, t, borderCols),
                        w::obligation_error);
        auto r = w::record_anyway(dynproc_wide_k, w::grid(blockCols), iteration, gpuWall, gpuResult[src], scratch, cols, rows, t, borderCols);
        CAPTURE(r.refusal());
        CHECK(r.refusal().find("E106 [launch-obligation] dynproc_wide_k: two threads may store gpuResults[") == 0);
        CHECK_FALSE(r.conflicts().empty());
      }
    }
    CHECK(w::to_host(gpuResult[dst]) == ref);
  }
}
