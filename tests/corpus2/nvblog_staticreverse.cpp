// NVIDIA developer blog, "Using Shared Memory in CUDA C/C++": NVIDIA-developer-blog/code-samples,
// series/cuda-cpp/shared-memory/shared-memory.cu, kernels staticReverse and dynamicReverse,
// ported by hand. Both reverse an array of n ints in place through a shared array: s[t] = d[t];
// __syncthreads(); d[t] = s[n - t - 1]. n is the kernels' int parameter. Launch as the sample's
// main: n = 64, staticReverse<<<1, n>>> (one block of 64 threads), dynamicReverse<<<1, n,
// n * sizeof(int)>>>. The static version declares __shared__ int s[64]; the dynamic one sizes
// s at launch (extern __shared__), which warden cannot express: its tiles have a compile-time
// extent, so dynamicReverse is the same port with s[64] (the size the sample launches it with)
// and is not a separate file.
//
// ACCEPTED, no launch obligation: each thread stores d[t] after its own load of d[t] (same
// thread), the shared loads s[n - t - 1] come a barrier after every s[t] is stored, and the launch
// bounds check ties n to the tile (only n = 64 keeps s[n - t - 1] in s[0 .. 63]). The sample's
// launch runs clean and reverses the array. A launch of more than one block (which would race on
// d between blocks) is refused, E102: the kernel never names blockIdx.
#include "../corpus/corpus.hpp"

#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int S = 64;  // __shared__ int s[64]

// __global__ void staticReverse(int *d, int n)
constexpr auto staticReverse = [](auto k, auto d, auto n) {
  return w::shared<int, S>(k, [&](auto k, auto s) {
    auto t = k.thread_id();
    auto tr = n - t - 1;
    return w::seq(s[t] = d[t], w::sync(), d[t] = s[tr]);
  });
};

using Blk = w::block<64>;  // <<<1, n>>> with n = 64
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(staticReverse_k, w::kernel<Blk, w::inout<int>, V>(staticReverse).named("staticReverse", "d", "n"));

TEST_CASE("corpus2 nvblog staticReverse: accepted, clean on the sample's launch, other launches refused", "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::inout<int>, V>(staticReverse) == code::none);
  CHECK(w::obligations_of(staticReverse_k).empty());

  // The sample's launch: n = 64, <<<1, n>>>, a = 0 .. n - 1, expected r[i] = n - i - 1.
  const int n = 64;
  std::vector<int> a(at(n)), r(at(n));
  for (int i = 0; i < n; ++i) a[at(i)] = i, r[at(i)] = n - i - 1;
  auto d_d = w::to_device(a);
  CHECK(w::record(staticReverse_k, w::grid(1), d_d, n).clean());
  CHECK(w::to_host(d_d) == r);
  // Other data, same launch: the reversal of any 64 ints.
  std::vector<int> b(at(n)), rb(at(n));
  for (int i = 0; i < n; ++i) b[at(i)] = (i * 37) % 101 - 50;
  for (int i = 0; i < n; ++i) rb[at(i)] = b[at(n - i - 1)];
  auto d_b = w::to_device(b);
  CHECK(w::record(staticReverse_k, w::grid(1), d_b, n).clean());
  CHECK(w::to_host(d_b) == rb);

  // n is a run-time int but the block and s[64] are fixed: n = 32 with the 64-thread block (the
  // original would read s[-1 - t + 32] below 0 and d past its end) is refused, E101.
  auto small = w::to_device(std::vector<int>(32, 1));
  try {
    (void)w::record(staticReverse_k, w::grid(1), small, 32);
    FAIL("n = 32 launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
  }
  // Two blocks would both reverse d[0 .. 63] in place, a race between blocks; the kernel never
  // names blockIdx, so a grid of more than one block is refused, E102.
  try {
    (void)w::record(staticReverse_k, w::grid(2), d_d, n);
    FAIL("two blocks launched");
  } catch (const w::grid_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E102"));
  }
}
