// "CUDA by Example" (Sanders, Kandrot), chapter 5, the shared-memory bitmap that shows why
// __syncthreads() is needed: CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-,
// chapter05/shared_bitmap.cu (commit 2f08ae06), kernel kernel, ported by hand. Each thread of a
// 16 x 16 block computes one pixel's value into shared[threadIdx.x][threadIdx.y], and after the
// barrier writes the RGBA bytes of its pixel, green taken from the mirrored element
// shared[15 - threadIdx.x][15 - threadIdx.y] (another thread's). The book's comment: "removing
// this syncthreads shows graphically what happens when it doesn't exist". Launch as main:
// grids(DIM / 16, DIM / 16), threads(16, 16); DIM (a #define, 1024) only sizes the image and the
// grid, the kernel never reads it; tested here with DIM = 256 and 128 for the cpu backend.
// The store of the float shared value into an unsigned char is C++'s implicit conversion; warden
// refuses it implicit (W008, by the types, by design) and the port spells the same conversion
// w::convert<std::uint8_t>(...).
//
// ACCEPTED, no launch obligation: each thread stores its own shared element, the mirrored loads
// come after the barrier, and each thread writes the four bytes of its own pixel (offset spans the
// whole image through blockDim.x * gridDim.x). Runs clean and draws the reference image.
// The book's wrong variant without the barrier (its comment invites removing it) is REFUSED,
// W020: the store shared[tx][ty] and the mirrored load meet in one phase; recorded unchecked, the
// run reports the read-write races on the tile.
#include "../corpus/corpus.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr float PI = 3.1415926535897932f;

// __global__ void kernel(unsigned char *ptr)
constexpr auto bitmap_kernel = [](auto k, auto ptr) {
  return w::shared<float, 16, 16>(k, [&](auto k, auto shared) {  // __shared__ float shared[16][16]
    auto x = k.thread_id() + k.block_id() * k.block_dim();
    auto y = k.thread_id_y() + k.block_id_y() * k.block_dim_y();
    auto offset = x + y * k.block_dim() * k.grid_dim();
    const float period = 128.0f;
    return w::seq(shared(k.thread_id(), k.thread_id_y()) =
                      255 * (w::sin(x * 2.0f * PI / period) + 1.0f) * (w::sin(y * 2.0f * PI / period) + 1.0f) / 4.0f,
                  w::sync(),
                  ptr[offset * 4 + 0] = std::uint8_t{0},
                  ptr[offset * 4 + 1] = w::convert<std::uint8_t>(shared(15 - k.thread_id(), 15 - k.thread_id_y())),
                  ptr[offset * 4 + 2] = std::uint8_t{0},
                  ptr[offset * 4 + 3] = std::uint8_t{255});
  });
};

// The book's deliberately wrong variant, named in the kernel's comment: the same kernel with the
// __syncthreads() removed.
constexpr auto bitmap_kernel_nosync = [](auto k, auto ptr) {
  return w::shared<float, 16, 16>(k, [&](auto k, auto shared) {
    auto x = k.thread_id() + k.block_id() * k.block_dim();
    auto y = k.thread_id_y() + k.block_id_y() * k.block_dim_y();
    auto offset = x + y * k.block_dim() * k.grid_dim();
    const float period = 128.0f;
    return w::seq(shared(k.thread_id(), k.thread_id_y()) =
                      255 * (w::sin(x * 2.0f * PI / period) + 1.0f) * (w::sin(y * 2.0f * PI / period) + 1.0f) / 4.0f,
                  ptr[offset * 4 + 0] = std::uint8_t{0},
                  ptr[offset * 4 + 1] = w::convert<std::uint8_t>(shared(15 - k.thread_id(), 15 - k.thread_id_y())),
                  ptr[offset * 4 + 2] = std::uint8_t{0},
                  ptr[offset * 4 + 3] = std::uint8_t{255});
  });
};

using Blk = w::block<16, 16>;

}  // namespace

WARDEN_KERNEL(bitmap_k, w::kernel<Blk, w::out<std::uint8_t>>(bitmap_kernel).named("kernel", "ptr"));

TEST_CASE("corpus2 CUDA by Example shared_bitmap: accepted, clean, equal to the reference", "[corpus2][cuda-by-example]") {
  STATIC_REQUIRE(code_of<Blk, w::out<std::uint8_t>>(bitmap_kernel) == code::none);
  const std::string ob = w::obligations_of(bitmap_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  for (int DIM : {256, 128}) {
    CAPTURE(DIM);
    // Pixel (x, y) shows the value of its mirror in the block: block origin + 15 - its offset.
    std::vector<std::uint8_t> ref(at(DIM * DIM * 4));
    for (int y = 0; y < DIM; ++y)
      for (int x = 0; x < DIM; ++x) {
        const int mx = x / 16 * 16 + 15 - x % 16, my = y / 16 * 16 + 15 - y % 16;
        const float value = 255 * (std::sin(static_cast<float>(mx) * 2.0f * PI / 128.0f) + 1.0f) *
                            (std::sin(static_cast<float>(my) * 2.0f * PI / 128.0f) + 1.0f) / 4.0f;
        const int offset = x + y * DIM;
        ref[at(offset * 4 + 0)] = 0;
        ref[at(offset * 4 + 1)] = static_cast<std::uint8_t>(value);
        ref[at(offset * 4 + 2)] = 0;
        ref[at(offset * 4 + 3)] = 255;
      }
    w::device_buffer<std::uint8_t> dev_bitmap(at(DIM * DIM * 4));
    CHECK(w::record(bitmap_k, w::grid(DIM / 16, DIM / 16), dev_bitmap).clean());  // grids(DIM/16, DIM/16), threads(16, 16)
    CHECK(w::to_host(dev_bitmap) == ref);
  }
}

// Without the barrier, run unchecked to record it.
WARDEN_KERNEL(bitmap_nosync_unchecked, w::kernel<Blk, w::out<std::uint8_t>>(w::testing::trusting(bitmap_kernel_nosync)).named("kernel", "ptr"));

TEST_CASE("corpus2 CUDA by Example shared_bitmap without __syncthreads (the book's wrong variant): racy, refused W020",
          "[corpus2][cuda-by-example]") {
  // Thread (tx, ty) stores shared[tx][ty] while thread (15 - tx, 15 - ty) loads it, in one phase.
  STATIC_REQUIRE(code_of<Blk, w::out<std::uint8_t>>(bitmap_kernel_nosync) == code::W020);
  w::device_buffer<std::uint8_t> dev_bitmap(128 * 128 * 4);
  const auto r = w::record(bitmap_nosync_unchecked, w::grid(8, 8), dev_bitmap);
  CHECK_FALSE(r.clean());
  bool read_write_on_tile = false;
  for (const auto& c : r.conflicts())
    if (c.kind == w::conflict_kind::read_write && c.first.memory == w::dsl::memory_kind::shared) read_write_on_tile = true;
  CHECK(read_write_on_tile);
  CHECK(w::testing::named_pair_meets<Blk, w::out<std::uint8_t>>(bitmap_kernel_nosync, r));  // the pair W020 names
}
