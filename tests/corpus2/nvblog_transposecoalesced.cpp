// NVIDIA developer blog, "An Efficient Matrix Transpose in CUDA C/C++":
// NVIDIA-developer-blog/code-samples, series/cuda-cpp/transpose/transpose.cu (commit 1c96aecd),
// kernel transposeCoalesced, ported by hand. A TILE_DIM x TILE_DIM shared tile (unpadded), each
// thread moving TILE_DIM / BLOCK_ROWS elements in and out; the matrix width is not a parameter
// but width = gridDim.x * TILE_DIM, used for the input and (the matrix being square) the output.
// TILE_DIM 32 and BLOCK_ROWS 8 are the sample's const ints. Launch as main: nx = ny = 1024,
// dimGrid(nx / TILE_DIM, ny / TILE_DIM), dimBlock(TILE_DIM, BLOCK_ROWS); also nx = ny = 256 here.
//
// ACCEPTED under one launch obligation, gridDim.x >= gridDim.y (the output, indexed with the
// input's width, overlaps between blocks otherwise: a real race for a tall grid, refused E106);
// the sample's square launches meet it. Each thread stores tile rows threadIdx.y + j of its own column, reads the transposed
// element a barrier later, and the blocks store disjoint tiles of the output. The sample's
// 1024 x 1024 launch and a 256 x 256 one run clean and equal the host transpose.
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_DIM = 32, BLOCK_ROWS = 8;

// __global__ void transposeCoalesced(float *odata, const float *idata)
constexpr auto transposeCoalesced = [](auto k, auto odata, auto idata) {
  return w::shared<float, TILE_DIM, TILE_DIM>(k, [&](auto k, auto tile) {  // __shared__ float tile[TILE_DIM][TILE_DIM]
    auto x = k.block_id() * TILE_DIM + k.thread_id();
    auto y = k.block_id_y() * TILE_DIM + k.thread_id_y();
    auto width = k.grid_dim() * TILE_DIM;
    // x = blockIdx.y * TILE_DIM + threadIdx.x; y = blockIdx.x * TILE_DIM + threadIdx.y;  (transpose block offset)
    auto xt = k.block_id_y() * TILE_DIM + k.thread_id();
    auto yt = k.block_id() * TILE_DIM + k.thread_id_y();
    return w::seq(w::for_range(k, 0, TILE_DIM, BLOCK_ROWS,
                               [&](auto, auto j) { return tile(k.thread_id_y() + j, k.thread_id()) = idata[(y + j) * width + x]; }),
                  w::sync(),
                  w::for_range(k, 0, TILE_DIM, BLOCK_ROWS,
                               [&](auto, auto j) { return odata[(yt + j) * width + xt] = tile(k.thread_id(), k.thread_id_y() + j); }));
  });
};

using Blk = w::block<TILE_DIM, BLOCK_ROWS>;

}  // namespace

WARDEN_KERNEL(transposeCoalesced_k, w::kernel<Blk, w::out<float>, w::in<float>>(transposeCoalesced).named("transposeCoalesced", "odata", "idata"));

TEST_CASE("corpus2 nvblog transposeCoalesced: accepted, clean on the sample's square launches, equal to the reference", "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::out<float>, w::in<float>>(transposeCoalesced) == code::none);
  const std::string ob = w::obligations_of(transposeCoalesced_k);
  CAPTURE(ob);
  // One obligation: the output rows of one block column (width = gridDim.x * 32 apart) must not run
  // into the next, i.e. gridDim.x >= gridDim.y, which a square matrix meets.
  CHECK(ob.find("W010 holds for odata[") == 0);
  CHECK(ob.find("if 32 * grid_dim.x - 32 * grid_dim.y >= 0") != std::string::npos);
  CHECK(ob.find('\n') == ob.size() - 1);
  for (int nx : {1024, 256}) {
    const int ny = nx;
    CAPTURE(nx);
    std::vector<float> h_idata(at(nx * ny)), gold(h_idata.size());
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) h_idata[at(j * nx + i)] = static_cast<float>(j * nx + i);
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) gold[at(j * nx + i)] = h_idata[at(i * nx + j)];
    auto d_idata = w::to_device(h_idata);
    w::device_buffer<float> d_tdata(h_idata.size());
    CHECK(w::record(transposeCoalesced_k, w::grid(nx / TILE_DIM, ny / TILE_DIM), d_tdata, d_idata).clean());
    CHECK(w::to_host(d_tdata) == gold);
  }
  // A grid taller than wide (not a launch of the sample, whose matrix is square): the output
  // tiles of different blocks overlap, a real race; refused before running (E106).
  auto d_in = w::to_device(std::vector<float>(64 * 128 * 2, 1.f));
  w::device_buffer<float> d_out(64 * 128 * 2);
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, transposeCoalesced_k, w::grid(2, 4), d_out, d_in); }).find("E106") == 0);
}
