// HeCBench, softmax: zjin-lcf/HeCBench, src/softmax-cuda/main.cu, kernel softMax (the naive
// implementation, the host's "implementation 0"), ported by hand. One thread per slice: it scans
// its slice of sliceSize floats three times (the maximum, the sum of expf(x - max), then each
// output expf(x - max) / sum). numSlice and sliceSize are the kernel's const int parameters, so
// each thread's loops run over a run-time length, and the slice starts at the run-time stride
// i * sliceSize. `if (i >= numSlice) return;` is a guard around the rest of the body; max is
// w::max, expf is w::exp. Launch as the original: blocks(BLOCK_SIZE = 256),
// grids((numSlice + BLOCK_SIZE - 1) / BLOCK_SIZE), src and dest numSlice * sliceSize floats.
// (softMax2, the cooperative-groups variant that reduces with cg::reduce over a warp tile, is not
// ported: cg::reduce is a library call whose shuffle pattern the source does not spell out.)
//
// Verdict: ACCEPTED with no launch obligation (the stores dest[i * sliceSize + j], 0 <= j <
// sliceSize, are disjoint rows of one thread each); clean and equal to the reference on the
// original's launches, with a last block that overhangs numSlice and a slice of one element.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_SIZE = 256;

// __global__ void softMax(const int numSlice, const int sliceSize, const float* src, float* dest)
constexpr auto softMax = [](auto k, auto numSlice, auto sliceSize, auto src, auto dest) {
  auto i = k.block_id() * k.block_dim() + k.thread_id();
  return w::when(i < numSlice, w::local(k, src[i * sliceSize], [&](auto k, auto max_) {  // float max_ = src[i * sliceSize]
                   return w::seq(w::for_range(k, 0, sliceSize, [&](auto, auto j) { return max_ = w::max(max_, src[i * sliceSize + j]); }),
                                 w::local(k, 0.f, [&](auto k, auto sum) {  // float sum = 0
                                   return w::seq(w::for_range(k, 0, sliceSize, [&](auto, auto j) { return sum += w::exp(src[i * sliceSize + j] - max_); }),
                                                 w::for_range(k, 0, sliceSize, [&](auto, auto j) {
                                                   return dest[i * sliceSize + j] = w::exp(src[i * sliceSize + j] - max_) / sum;
                                                 }));
                                 }));
                 }));
};

using Blk = w::block<BLOCK_SIZE>;
using V = w::value<int>;


}  // namespace

WARDEN_KERNEL(softmax_k, w::kernel<Blk, V, V, w::in<float>, w::out<float>>(softMax).named("softMax", "numSlice", "sliceSize", "src", "dest"));

TEST_CASE("hecbench softMax: accepted, clean on the original's launches, equal to the reference", "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<Blk, V, V, w::in<float>, w::out<float>>(softMax) == code::none);
  CHECK(w::obligations_of(softmax_k).empty());

  for (auto [numSlice, sliceSize] : {std::pair{300, 17}, std::pair{1000, 8}, std::pair{256, 1}}) {
    CAPTURE(numSlice, sliceSize);
    const int numElem = numSlice * sliceSize;
    std::vector<float> input(at(numElem)), ref(at(numElem));
    for (int e = 0; e < numElem; ++e) input[at(e)] = static_cast<float>((e * 131) % 13);
    for (int s = 0; s < numSlice; ++s) {
      const float* x = &input[at(s * sliceSize)];
      const float m = *std::max_element(x, x + sliceSize);
      double total = 0;
      for (int j = 0; j < sliceSize; ++j) total += std::exp(static_cast<double>(x[j] - m));
      for (int j = 0; j < sliceSize; ++j) ref[at(s * sliceSize + j)] = static_cast<float>(std::exp(static_cast<double>(x[j] - m)) / total);
    }
    auto d_input = w::to_device(input);
    w::device_buffer<float> d_output(at(numElem));
    CHECK(w::record(softmax_k, w::grid((numSlice + BLOCK_SIZE - 1) / BLOCK_SIZE), numSlice, sliceSize, d_input, d_output).clean());
    corpus::check_close(w::to_host(d_output), ref);
  }
}
