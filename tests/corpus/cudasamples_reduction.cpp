// NVIDIA cuda-samples, reduction: NVIDIA/cuda-samples,
// Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu, kernels reduce1 (interleaved
// addressing, index = 2 * s * tid), reduce2 (sequential addressing) and reduce3 (first add during
// the load, the running sum kept in a register), ported by hand for T = float and 256 threads (the
// sample's default). n is the kernels' unsigned int parameter. Each block writes its partial sum
// to g_odata[blockIdx.x]. Launch as the sample: 256 threads, ceil(n / 256) blocks (reduce1, 2) or
// ceil(n / 512) (reduce3).
//
// Language pieces: `for (s = 1; s < blockDim.x; s *= 2)` (a doubling loop, which warden lacks) is
// written as a loop over the level l with s = 1 << l; `for (s = blockDim.x / 2; s > 0; s >>= 1)` is
// w::for_halving from 128 (blockDim.x is the static block shape); `(i < n) ? g_idata[i] : 0` is
// w::select; `sdata[tid] = mySum = mySum + sdata[tid + s]` is two statements.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int threads = 256;

// template <class T> __global__ void reduce1(T *g_idata, T *g_odata, unsigned int n)
constexpr auto reduce1 = [](auto k, auto g_idata, auto g_odata, auto n) {
  return w::shared<float, threads>(k, [&](auto k, auto sdata) {
    auto tid = k.thread_id();
    auto i = k.global_id();
    return w::seq(sdata[tid] = w::select(i < n, g_idata[i], 0.f), w::sync(),
                  w::for_range(k, 0, 8, [&](auto, auto l) {  // s = 1, 2, ..., 128 (s < blockDim.x)
                    auto s = 1 << l;
                    auto index = 2 * s * tid;
                    return w::seq(w::when(index < threads, sdata[index] += sdata[index + s]), w::sync());
                  }),
                  w::when(tid == 0, g_odata[k.block_id()] = sdata[0]));
  });
};
// template <class T> __global__ void reduce2(T *g_idata, T *g_odata, unsigned int n)
constexpr auto reduce2 = [](auto k, auto g_idata, auto g_odata, auto n) {
  return w::shared<float, threads>(k, [&](auto k, auto sdata) {
    auto tid = k.thread_id();
    auto i = k.global_id();
    return w::seq(sdata[tid] = w::select(i < n, g_idata[i], 0.f), w::sync(),
                  w::for_halving(k, threads / 2, [&](auto, auto s) { return w::seq(w::when(tid < s, sdata[tid] += sdata[tid + s]), w::sync()); }),
                  w::when(tid == 0, g_odata[k.block_id()] = sdata[0]));
  });
};
// template <class T> __global__ void reduce3(T *g_idata, T *g_odata, unsigned int n)
constexpr auto reduce3 = [](auto k, auto g_idata, auto g_odata, auto n) {
  return w::shared<float, threads>(k, [&](auto k, auto sdata) {
    auto tid = k.thread_id();
    auto i = k.block_id() * (threads * 2) + tid;
    return w::local(k, w::select(i < n, g_idata[i], 0.f), [&](auto k, auto mySum) {
      return w::seq(w::when(i + threads < n, mySum += g_idata[i + threads]), sdata[tid] = mySum, w::sync(),
                    w::for_halving(k, threads / 2, [&](auto, auto s) {
                      return w::seq(w::when(tid < s, mySum = mySum + sdata[tid + s], sdata[tid] = mySum), w::sync());
                    }),
                    w::when(tid == 0, g_odata[k.block_id()] = mySum));
    });
  });
};

using Blk = w::block<threads>;
using P = w::value<unsigned>;

}  // namespace

WARDEN_KERNEL(reduce1_k, w::kernel<Blk, w::in<float>, w::out<float>, P>(reduce1).named("reduce1", "g_idata", "g_odata", "n"));
WARDEN_KERNEL(reduce2_k, w::kernel<Blk, w::in<float>, w::out<float>, P>(reduce2).named("reduce2", "g_idata", "g_odata", "n"));
WARDEN_KERNEL(reduce3_k, w::kernel<Blk, w::in<float>, w::out<float>, P>(reduce3).named("reduce3", "g_idata", "g_odata", "n"));

TEST_CASE("corpus cuda-samples reduce1, reduce2, reduce3: accepted, clean, equal to the reference", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, P>(reduce1) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, P>(reduce2) == code::none);
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, P>(reduce3) == code::none);
  CHECK(w::obligations_of(reduce1_k).empty());
  CHECK(w::obligations_of(reduce2_k).empty());
  CHECK(w::obligations_of(reduce3_k).empty());
  // n = 1000 (the last block overhangs), n = 1024 (exact for both launch widths).
  for (unsigned n : {1000u, 1024u}) {
    CAPTURE(n);
    std::vector<float> in(n);
    for (unsigned i = 0; i < n; ++i) in[i] = static_cast<float>(i % 17) - 8.f;
    auto partials = [&](unsigned per_block) {
      std::vector<float> out((n + per_block - 1) / per_block, 0.f);
      for (unsigned i = 0; i < n; ++i) out[i / per_block] += in[i];
      return out;
    };
    auto din = w::to_device(in);
    const int blocks1 = static_cast<int>((n + 255) / 256), blocks3 = static_cast<int>((n + 511) / 512);
    w::device_buffer<float> o1(at(blocks1)), o2(at(blocks1)), o3(at(blocks3));
    CHECK(w::record(reduce1_k, w::grid(blocks1), din, o1, n).clean());
    CHECK(w::record(reduce2_k, w::grid(blocks1), din, o2, n).clean());
    CHECK(w::record(reduce3_k, w::grid(blocks3), din, o3, n).clean());
    corpus::check_close(w::to_host(o1), partials(256));
    corpus::check_close(w::to_host(o2), partials(256));
    corpus::check_close(w::to_host(o3), partials(512));
  }
}
