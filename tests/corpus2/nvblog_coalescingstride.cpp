// NVIDIA developer blog, "How to Access Global Memory Efficiently in CUDA C/C++ Kernels":
// NVIDIA-developer-blog/code-samples, series/cuda-cpp/coalescing-global/coalescing.cu
// (commit 1c96aecd), kernels stride and offset (T = float, the default), ported by hand.
// stride: i = (blockDim.x * blockIdx.x + threadIdx.x) * s; a[i] = a[i] + 1. offset: i = ... + s.
// s is the kernels' int parameter. Launch as runTest: blockSize = 256, n / blockSize blocks, the
// buffer n * 33 elements, s = 1 .. 32 for stride and 0 .. 32 for offset; n = nMB * 2^20 / 4 with
// nMB = 4 in the sample, scaled here to n = 4096 (nMB = 1/64) for the cpu backend.
//
// Both ACCEPTED. offset: no obligation (each thread its own element). stride: one launch
// obligation, s >= 1, since with s == 0 every thread would update a[0] (a real race); every launch
// of the sample (s = 1 .. 32) meets it and runs clean, and s = 0 is refused, E106.
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// template <typename T> __global__ void stride(T* a, int s)
constexpr auto stride = [](auto k, auto a, auto s) {
  auto i = (k.block_dim() * k.block_id() + k.thread_id()) * s;
  return a[i] = a[i] + 1;
};
// template <typename T> __global__ void offset(T* a, int s)
constexpr auto offset = [](auto k, auto a, auto s) {
  auto i = k.block_dim() * k.block_id() + k.thread_id() + s;
  return a[i] = a[i] + 1;
};

using Blk = w::block<256>;  // blockSize = 256
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(stride_k, w::kernel<Blk, w::inout<float>, V>(stride).named("stride", "a", "s"));
WARDEN_KERNEL(offset_k, w::kernel<Blk, w::inout<float>, V>(offset).named("offset", "a", "s"));

TEST_CASE("corpus2 nvblog coalescing stride and offset: accepted (stride under s >= 1), clean on the sample's launches",
          "[corpus2][nvblog]") {
  STATIC_REQUIRE(code_of<Blk, w::inout<float>, V>(stride) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::inout<float>, V>(offset) == code::none);
  // stride: threads t and u meet at one element when t * s == u * s, i.e. when s == 0.
  const std::string ob = w::obligations_of(stride_k);
  CAPTURE(ob);
  CHECK(ob == "W011 holds for a[((block_dim.x * block_id.x) + thread_id.x) * s] and a[((block_dim.x * block_id.x) + thread_id.x) * s] "
              "if s >= 1 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  CHECK(w::obligations_of(offset_k).empty());

  const int n = 4096, blockSize = 256;
  for (int s : {1, 2, 7, 32}) {  // the sample's loop runs s = 1 .. 32
    CAPTURE(s);
    std::vector<float> ref(at(n * 33), 0.f);  // cudaMemset(d_a, 0, n * sizeof(T)): the first n elements; all, here
    for (int t = 0; t < n; ++t) ref[at(t * s)] += 1.f;
    auto d_a = w::to_device(std::vector<float>(at(n * 33), 0.f));
    CHECK(w::record(stride_k, w::grid(n / blockSize), d_a, s).clean());
    CHECK(w::to_host(d_a) == ref);
  }
  for (int s : {0, 1, 31, 32}) {
    CAPTURE(s);
    std::vector<float> ref(at(n * 33), 0.f);
    for (int t = 0; t < n; ++t) ref[at(t + s)] += 1.f;
    auto d_a = w::to_device(std::vector<float>(at(n * 33), 0.f));
    CHECK(w::record(offset_k, w::grid(n / blockSize), d_a, s).clean());
    CHECK(w::to_host(d_a) == ref);
  }
  // s = 0 (outside the sample's range) makes every thread update a[0]: refused before running.
  auto d_a = w::to_device(std::vector<float>(at(n * 33), 0.f));
  CHECK(corpus::e106_of([&] { w::launch(w::on_cpu, stride_k, w::grid(n / blockSize), d_a, 0); }).find("E106") == 0);
}
