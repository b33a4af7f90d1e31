// HeCBench, reverse: zjin-lcf/HeCBench (commit 280045f0), src/reverse-cuda/main.cu, kernel reverse,
// ported by hand. One block reverses len ints in place through a static shared array:
// s[t] = d[t]; __syncthreads(); d[t] = s[len - t - 1]; with t = threadIdx.x and no guard. len is
// the kernel's const int parameter. Launch as the original: reverse<<<1, len>>>(d_test, len) with
// len = 256, repeated count times (the host checks the parity of count).
//
// Translation: direct; `__shared__ int s[256]` is a 256-int tile; d is an inout<int>.
//
// Verdict: ACCEPTED with no launch obligation, and RUNS AS WRITTEN: clean over repeated launches,
// equal to the host's gold_odd / gold_even. A len other than 256 on the 256-thread block, which
// would read s or d out of range on a GPU (d holds len ints), is refused at launch E101; so is a
// second block (E102: the kernel never names its block).
#include "../corpus/corpus.hpp"

#include <numeric>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void reverse(int *d, const int len)
constexpr auto reverse = [](auto k, auto d, auto len) {
  return w::shared<int, 256>(k, [&](auto, auto s) {
    auto t = k.thread_id();
    return w::seq(s[t] = d[t], w::sync(), d[t] = s[len - t - 1]);
  });
};

using Blk = w::block<256>;

}  // namespace

WARDEN_KERNEL(reverse_k, w::kernel<Blk, w::inout<int>, w::value<int>>(reverse).named("reverse", "d", "len"));

TEST_CASE("hecbench reverse: accepted with no obligation, clean over repeated launches, equal to the host's gold", "[corpus3][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, w::inout<int>, w::value<int>>(reverse) == code::none);
  CHECK(w::obligations_of(reverse_k).empty());
  const int len = 256;
  std::vector<int> gold_even(at(len)), gold_odd(at(len));
  std::iota(gold_even.begin(), gold_even.end(), 0);
  for (int i = 0; i < len; i++) gold_odd[at(i)] = len - i - 1;
  for (int count : {1, 2, 5}) {
    CAPTURE(count);
    auto d_test = w::to_device(gold_even);
    int dirty = 0;
    for (int j = 0; j < count; j++) dirty += !w::record(reverse_k, w::grid(1), d_test, len).clean();
    CHECK(dirty == 0);
    CHECK(w::to_host(d_test) == (count % 2 == 0 ? gold_even : gold_odd));
  }
  // len 255 on 256 threads: thread 255 reads s[-1] and d[255] of a 255-int buffer; refused.
  auto short_d = w::to_device(std::vector<int>(255, 1));
  CHECK_THROWS_AS(w::launch(w::on_cpu, reverse_k, w::grid(1), short_d, 255), w::bounds_error);
  auto d_test = w::to_device(gold_even);
  CHECK_THROWS_AS(w::launch(w::on_cpu, reverse_k, w::grid(2), d_test, len), w::grid_error);
}
