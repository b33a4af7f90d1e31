// NVIDIA cuda-samples, transpose: NVIDIA/cuda-samples, Samples/6_Performance/transpose/transpose.cu,
// kernel transposeNoBankConflicts (a padded TILE_DIM x (TILE_DIM + 1) shared tile, each thread
// moving TILE_DIM / BLOCK_ROWS elements), ported by hand. TILE_DIM 32 and BLOCK_ROWS 16 are
// #defines; width and height are the kernel's int parameters. Launch as the original:
// grid(size_x / TILE_DIM, size_y / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS). The kernel has no
// bounds guard (the sample sizes the matrix in whole tiles), so a grid that overhangs the matrix
// must be refused at launch (E101), as it would overrun on a GPU.
//
// ACCEPTED (issue 21) under one launch obligation, height - 32 * grid_dim.y >= 0: the output
// rows of one block column (height apart) must not run into the next. Every whole-tile launch
// meets it and runs clean. (Earlier builds bounded the step-16 loop variable by hi - 1 = 31 rather
// than its last value 16: every launch was refused E101, and the obligations grew to three, the
// third failing on grids more than one tile wide. The form counted in trips, r = 0, 1 and
// i = r * BLOCK_ROWS, is kept as a cross-check: it gets the same obligation.)
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_DIM = 32, BLOCK_ROWS = 16;

// __global__ void transposeNoBankConflicts(float *odata, float *idata, int width, int height)
constexpr auto transposeNoBankConflicts = [](auto k, auto odata, auto idata, auto width, auto height) {
  return w::shared<float, TILE_DIM, TILE_DIM, 1>(k, [&](auto k, auto tile) {  // __shared__ float tile[TILE_DIM][TILE_DIM + 1]
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    auto index_in = (k.block_id() * TILE_DIM + tx) + (k.block_id_y() * TILE_DIM + ty) * width;
    auto index_out = (k.block_id_y() * TILE_DIM + tx) + (k.block_id() * TILE_DIM + ty) * height;
    return w::seq(w::for_range(k, 0, TILE_DIM, BLOCK_ROWS, [&](auto, auto i) { return tile(ty + i, tx) = idata[index_in + i * width]; }),
                  w::sync(),
                  w::for_range(k, 0, TILE_DIM, BLOCK_ROWS, [&](auto, auto i) { return odata[index_out + i * height] = tile(tx, ty + i); }));
  });
};
// The loops counted in trips (r = 0, 1; i = r * BLOCK_ROWS): the same iterations and indices.
constexpr auto transpose_by_trips = [](auto k, auto odata, auto idata, auto width, auto height) {
  return w::shared<float, TILE_DIM, TILE_DIM, 1>(k, [&](auto k, auto tile) {
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    auto index_in = (k.block_id() * TILE_DIM + tx) + (k.block_id_y() * TILE_DIM + ty) * width;
    auto index_out = (k.block_id_y() * TILE_DIM + tx) + (k.block_id() * TILE_DIM + ty) * height;
    return w::seq(w::for_range(k, 0, TILE_DIM / BLOCK_ROWS,
                               [&](auto, auto r) { return tile(ty + r * BLOCK_ROWS, tx) = idata[index_in + r * BLOCK_ROWS * width]; }),
                  w::sync(),
                  w::for_range(k, 0, TILE_DIM / BLOCK_ROWS,
                               [&](auto, auto r) { return odata[index_out + r * BLOCK_ROWS * height] = tile(tx, ty + r * BLOCK_ROWS); }));
  });
};

using Blk = w::block<TILE_DIM, BLOCK_ROWS>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(transpose_k, w::kernel<Blk, w::out<float>, w::in<float>, V, V>(transposeNoBankConflicts)
                               .named("transposeNoBankConflicts", "odata", "idata", "width", "height"));
WARDEN_KERNEL(transpose_trips_k, w::kernel<Blk, w::out<float>, w::in<float>, V, V>(transpose_by_trips)
                                     .named("transposeNoBankConflicts", "odata", "idata", "width", "height"));

TEST_CASE("corpus cuda-samples transposeNoBankConflicts: accepted under one obligation, runs clean on whole tiles",
          "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, w::out<float>, w::in<float>, V, V>(transposeNoBankConflicts) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::out<float>, w::in<float>, V, V>(transpose_by_trips) == code::none);
  const std::string ob = w::obligations_of(transpose_k);
  const std::string store = "odata[(((block_id.y * 32) + thread_id.x) + (((block_id.x * 32) + thread_id.y) * height)) + (i1 * height)]";
  CHECK(ob == "W010 holds for " + store + " and " + store + " if height - 32 * grid_dim.y >= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  const std::string ob_trips = w::obligations_of(transpose_trips_k);
  CAPTURE(ob_trips);
  CHECK(ob_trips.find("if height - 32 * grid_dim.y >= 0") != std::string::npos);
  CHECK(ob_trips.find('\n') == ob_trips.size() - 1);  // one obligation

  // size_x x size_y in whole tiles, square and not, one and several tiles wide.
  for (auto [size_x, size_y] : {std::pair{64, 96}, std::pair{96, 64}, std::pair{32, 96}, std::pair{32, 32}}) {
    CAPTURE(size_x, size_y);
    std::vector<float> in(at(size_x * size_y)), ref(in.size());
    for (int i = 0; i < size_x * size_y; ++i) in[at(i)] = static_cast<float>(i);
    for (int y = 0; y < size_y; ++y)
      for (int x = 0; x < size_x; ++x) ref[at(x * size_y + y)] = in[at(y * size_x + x)];
    auto din = w::to_device(in);
    w::device_buffer<float> dout(in.size()), dout_trips(in.size());
    const auto grid = w::grid(size_x / TILE_DIM, size_y / TILE_DIM);
    CHECK(w::record(transpose_k, grid, dout, din, size_x, size_y).clean());
    CHECK(w::record(transpose_trips_k, grid, dout_trips, din, size_x, size_y).clean());
    CHECK(w::to_host(dout) == ref);
    CHECK(w::to_host(dout_trips) == ref);
  }
  // A grid that overhangs the matrix: the kernel has no guard, so launch refuses it (E101).
  auto din = w::to_device(std::vector<float>(64 * 64, 1.f));
  w::device_buffer<float> dout(64 * 64);
  try {
    (void)w::record(transpose_k, w::grid(3, 2), dout, din, 64, 64);
    FAIL("an overhanging grid launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
  }
  // A height below the grid's rows: output rows overlap; refused before running (E106).
  auto big_in = w::to_device(std::vector<float>(64 * 64 * 2, 1.f));
  w::device_buffer<float> big_out(64 * 64 * 2);
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, transpose_k, w::grid(1, 2), big_out, big_in, 32, 32); }).find("E106") == 0);
}
