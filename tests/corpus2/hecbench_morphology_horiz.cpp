// HeCBench, morphology: zjin-lcf/HeCBench, src/morphology-cuda/morphology.cu, kernel
// vhgw_horiz<MorphOpType::ERODE> with its device function twoWayScan (van Herk/Gil-Werman erosion
// along rows), ported by hand; BLACK, WHITE and roundUp from src/morphology-cuda/morphology.h. A
// RACY original, reported upstream as ORNL/HeCBench issue #255: twoWayScan is an in-place
// Hillis-Steele scan whose loop body reads opArray[tid + offset] (and opArray[tid + selSize - 1 -
// offset]) and writes opArray[tid] (and opArray[tid + selSize - 1]) before the iteration's
// __syncthreads(), so one thread may read an element another thread of the block (another warp, for
// a block wider than 32) is writing. The kernel also returns early for pixels outside the image,
// before its barriers.
//
// width, height and selSize are the kernel's const int parameters. Shared memory is one `extern
// __shared__ unsigned char sMem[]` of 4 * hsize bytes: buffer = sMem, opArray = buffer + 2 * selSize
// (folded into the indices: opArray[e] is sMem[2 * selSize + e]). twoWayScan is inlined with tid =
// threadIdx.x. `for (offset = 1; offset < selSize; offset *= 2)` is w::for_doubling(k, 1, selSize,
// ...) (selSize is uniform, so the barrier in it is reached by every thread). elementOp<ERODE> is min. Launch as morphology(): blockSize_h(hsize, 1),
// gridSize_h(roundUp(width, hsize), roundUp(height, 1)), sMemSize 4 * hsize, selSize = hsize; the
// block is static here, 64 x 1 (the reproducer uses hsize 64: two warps).
//
// Verdict: REFUSED AT COMPILE TIME, W030 [barrier-divergence]: the barriers (the kernel's and
// twoWayScan's) sit under the early return's condition, which differs between threads (a second
// real defect: in the last block of a row whose width is not a multiple of hsize, the returning
// threads skip them). Written without the early return (guards on the global accesses), with
// opArray a tile of its own and selSize the constant 64 (a variant, not the original), the finding
// is W020 on the scan's race of issue #255. The original under trusted(...) records the read-write
// race on sMem on a 128 x 2 image, and barrier divergence on a 100-wide one.
#include "../corpus/corpus.hpp"

#include <cstdint>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int hsize = 64;

// template <MorphOpType opType> __global__ void vhgw_horiz(unsigned char* __restrict__ dst,
//     const unsigned char* __restrict__ src, const int width, const int height, const int selSize)
constexpr auto vhgw_horiz = [](auto k, auto dst, auto src, auto width, auto height, auto selSize) {
  return w::shared<std::uint8_t, 4 * hsize>(k, [&](auto k, auto sMem) {  // extern __shared__ unsigned char sMem[]
    auto tidx = k.thread_id() + k.block_id() * k.block_dim();
    auto tidy = k.thread_id_y() + k.block_id_y() * k.block_dim_y();
    auto tid = k.thread_id();
    auto op = [&](auto e) { return sMem[2 * selSize + e]; };  // opArray = buffer + 2 * selSize
    return w::when(
        !(tidx >= width || tidy >= height),  // if (tidx >= width || tidy >= height) return;
        sMem[k.thread_id()] = src[tidy * width + tidx],
        w::when(tidx + selSize < width, sMem[k.thread_id() + selSize] = src[tidy * width + tidx + selSize]), w::sync(),
        // twoWayScan<opType>(buffer, opArray, selSize, threadIdx.x)
        op(tid) = sMem[tid], op(tid + selSize) = sMem[tid + selSize], w::sync(),
        w::for_doubling(k, 1, selSize, [&](auto, auto offset) {  // for (offset = 1; offset < selSize; offset *= 2)
          return w::seq(w::when(tid >= offset, op(tid + selSize - 1) = w::min(op(tid + selSize - 1), op(tid + selSize - 1 - offset))),
                        w::when(tid <= selSize - 1 - offset, op(tid) = w::min(op(tid), op(tid + offset))), w::sync());
        }),
        w::when(tidx + selSize / 2 < width - selSize / 2, dst[tidy * width + tidx + selSize / 2] = w::min(op(k.thread_id()), op(k.thread_id() + selSize - 1))));
  });
};

// Not the original: the early return replaced by guards on the global accesses (every thread
// reaches the barriers), opArray a tile of its own and selSize the block width (64) as a constant,
// so that no shared index holds a run-time value. It isolates the scan's race.
constexpr auto vhgw_horiz_isolated = [](auto k, auto dst, auto src, auto width, auto height, auto /*selSize*/) {
  constexpr int selSize = hsize;
  return w::shared<std::uint8_t, 2 * hsize>(k, [&](auto k, auto buffer) {
    return w::shared<std::uint8_t, 2 * hsize>(k, [&](auto k, auto opArray) {
      auto tidx = k.thread_id() + k.block_id() * k.block_dim();
      auto tidy = k.thread_id_y() + k.block_id_y() * k.block_dim_y();
      auto tid = k.thread_id();
      auto inside = tidx < width && tidy < height;
      return w::seq(
          w::when(inside, buffer[tid] = src[tidy * width + tidx]),
          w::when(inside && tidx + selSize < width, buffer[tid + selSize] = src[tidy * width + tidx + selSize]), w::sync(),
          opArray[tid] = buffer[tid], opArray[tid + selSize] = buffer[tid + selSize], w::sync(),
          w::for_doubling(k, 1, selSize, [&](auto, auto offset) {  // offset = 1, 2, ..., 32 < selSize
            return w::seq(w::when(tid >= offset, opArray[tid + selSize - 1] = w::min(opArray[tid + selSize - 1], opArray[tid + selSize - 1 - offset])),
                          w::when(tid <= selSize - 1 - offset, opArray[tid] = w::min(opArray[tid], opArray[tid + offset])), w::sync());
          }),
          w::when(inside && tidx + selSize / 2 < width - selSize / 2,
                  dst[tidy * width + tidx + selSize / 2] = w::min(opArray[tid], opArray[tid + selSize - 1])));
    });
  });
};

using Blk = w::block<hsize, 1>;
using V = w::value<int>;

}  // namespace

#define MORPH_PARAMS Blk, w::out<std::uint8_t>, w::in<std::uint8_t>, V, V, V
// The original under trusted(...), to record.
WARDEN_KERNEL(vhgw_horiz_trusting_k, w::kernel<MORPH_PARAMS>(w::testing::trusting(vhgw_horiz)).named("vhgw_horiz", "dst", "src", "width", "height", "selSize"));
WARDEN_KERNEL(vhgw_isolated_trusting_k, w::kernel<MORPH_PARAMS>(w::testing::trusting(vhgw_horiz_isolated)).named("vhgw_horiz", "dst", "src", "width", "height", "selSize"));

namespace {

bool has(const w::recording& r, w::conflict_kind kind) {
  for (const auto& c : r.conflicts())
    if (c.kind == kind) return true;
  return false;
}

}  // namespace

TEST_CASE("hecbench vhgw_horiz (racy, issue #255): refused at compile time (W030 - isolated, W020 on the scan's race), the recording "
          "shows the race",
          "[corpus2][hecbench][racy]") {
  // The original: the barriers sit under the early return's condition, which differs between
  // threads (W030), checked first.
  STATIC_REQUIRE(code_of<MORPH_PARAMS>(vhgw_horiz) == code::W030);
  // Without the early return, opArray a tile of its own and selSize constant: W020, "load
  // opArray[tid + 64 - 1 - (1 << l)] vs store opArray[tid + 64 - 1]: threads 2 and 1 meet at element
  // 64 in one phase": the in-place scan's race of issue #255.
  STATIC_REQUIRE(code_of<MORPH_PARAMS>(vhgw_horiz_isolated) == code::W020);

  // The race is real: a 128 x 2 image (whole blocks, so no thread returns early), hsize 64.
  const int width = 128, height = 2, selSize = hsize;
  std::vector<std::uint8_t> img(at(width * height));
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<std::uint8_t>((i * 97) % 251);
  auto d_src = w::to_device(img);
  w::device_buffer<std::uint8_t> d_dst(img.size());
  auto r = w::record(vhgw_horiz_trusting_k, w::grid((width + hsize - 1) / hsize, (height + 1 - 1) / 1), d_dst, d_src, width, height, selSize);
  CHECK_FALSE(r.clean());
  CHECK(has(r, w::conflict_kind::read_write));
  CHECK_FALSE(has(r, w::conflict_kind::barrier_divergence));
  // The pair W020 names in the isolated kernel is a race its run reproduces.
  auto r_isolated = w::record(vhgw_isolated_trusting_k, w::grid(width / hsize, height), d_dst, d_src, width, height, selSize);
  CHECK(w::testing::named_pair_meets<MORPH_PARAMS>(vhgw_horiz_isolated, r_isolated));
  // An image width that is not a multiple of hsize: the last block's threads past the width
  // return before the barriers, which the recording reports.
  std::vector<std::uint8_t> img2(at(100 * height), 7);
  auto d_src2 = w::to_device(img2);
  w::device_buffer<std::uint8_t> d_dst2(img2.size());
  auto r2 = w::record(vhgw_horiz_trusting_k, w::grid((100 + hsize - 1) / hsize, height), d_dst2, d_src2, 100, height, selSize);
  CHECK(has(r2, w::conflict_kind::barrier_divergence));
}
