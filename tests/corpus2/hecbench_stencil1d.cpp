// HeCBench, stencil1d: zjin-lcf/HeCBench, src/stencil1d-cuda/stencil_1d.cu, kernel stencil_1d,
// ported by hand. A 1-D sum over a window of radius RADIUS (7) through a shared tile of
// BLOCK_SIZE + 2 * RADIUS ints: each thread loads its element, the first RADIUS threads of the
// block also load the left halo (0 left of the array: `(gindex < RADIUS) ? 0 : in[gindex - RADIUS]`)
// and the right halo (in[gindex + BLOCK_SIZE]), then after the barrier each thread sums the 15
// elements around it. RADIUS and BLOCK_SIZE are #defines; the kernel takes no run-time parameter
// but its two pointers. Launch as the original's host code: grids(length / BLOCK_SIZE),
// blocks(BLOCK_SIZE), with `in` allocated length + RADIUS ints (the right halo of the last block
// reads past `length`) and `out` length ints. There is no bounds guard: the host makes length a
// multiple of BLOCK_SIZE.
//
// Verdict: ACCEPTED, with no launch obligation; the original's launches run clean and equal the
// reference. A grid one block too long (what `length` not a multiple of BLOCK_SIZE would need if
// the host rounded up) is refused at launch (E101), as it would overrun on a GPU.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int RADIUS = 7, BLOCK_SIZE = 256;

// __global__ void stencil_1d(const int *__restrict__ in, int *__restrict__ out)
constexpr auto stencil_1d = [](auto k, auto in, auto out) {
  return w::shared<int, BLOCK_SIZE + 2 * RADIUS>(k, [&](auto k, auto temp) {  // __shared__ int temp[BLOCK_SIZE + 2 * RADIUS]
    auto gindex = k.thread_id() + k.block_id() * k.block_dim();
    auto lindex = k.thread_id() + RADIUS;
    return w::seq(temp[lindex] = in[gindex],
                  w::when(k.thread_id() < RADIUS,
                          temp[lindex - RADIUS] = w::select(gindex < RADIUS, 0, in[gindex - RADIUS]),
                          temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE]),
                  w::sync(),
                  w::local(k, 0, [&](auto k, auto result) {  // int result = 0
                    return w::seq(w::for_range(k, -RADIUS, RADIUS + 1, [&](auto, auto offset) { return result += temp[lindex + offset]; }),
                                  out[gindex] = result);
                  }));
  });
};

using Blk = w::block<BLOCK_SIZE>;

}  // namespace

WARDEN_KERNEL(stencil_1d_k, w::kernel<Blk, w::in<int>, w::out<int>>(stencil_1d).named("stencil_1d", "in", "out"));

TEST_CASE("hecbench stencil_1d: accepted, clean on the original's launches, equal to the reference", "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, w::in<int>, w::out<int>>(stencil_1d) == code::none);
  CHECK(w::obligations_of(stencil_1d_k).empty());

  for (int length : {256, 1024, 2560}) {
    CAPTURE(length);
    std::vector<int> a(at(length + RADIUS));
    for (int i = 0; i < length + RADIUS; ++i) a[at(i)] = (i * 37) % 101 - 50;
    std::vector<int> ref(at(length), 0);
    for (int i = 0; i < length; ++i)
      for (int j = i - RADIUS; j <= i + RADIUS; ++j) ref[at(i)] += j < 0 ? 0 : a[at(j)];
    auto din = w::to_device(a);
    w::device_buffer<int> dout(at(length));
    CHECK(w::record(stencil_1d_k, w::grid(length / BLOCK_SIZE), din, dout).clean());
    CHECK(w::to_host(dout) == ref);
  }
  // One block more than length / BLOCK_SIZE: in and out overrun; refused before running.
  auto din = w::to_device(std::vector<int>(512 + RADIUS, 1));
  w::device_buffer<int> dout(512);
  try {
    (void)w::record(stencil_1d_k, w::grid(3), din, dout);
    FAIL("an overhanging grid launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
  }
}
