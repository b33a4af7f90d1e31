// "Programming Massively Parallel Processors", 4th edition, chapter 11, the Kogge-Stone scan with
// the write-after-read race removed (a temporary and a second barrier per step; compare the 3rd
// edition's in-place version in pmpp_koggestoneinplace.cpp), as published in
// meng3540/parallel-patterns-group-1, parallelScan/kernel.cu (commit 25c21031), kernel
// Kogge_Stone_scan_kernel, ported by hand. N is the kernel's unsigned int parameter. The file has
// no host code and does not define SECTION_SIZE; the kernel is written for
// blockDim.x == SECTION_SIZE (XY[threadIdx.x] for every thread, one section per block): ported
// with SECTION_SIZE = blockDim.x = 256 and grid = ceil(N / 256). Language pieces: the doubling loop
// (stride = 1; stride < blockDim.x; stride *= 2) is a loop over l with stride = 1 << l; float temp
// (set only by threads with threadIdx.x >= stride, read only by them) is a local in the step.
//
// ACCEPTED, no launch obligation: in each step the loads XY[t] and XY[t - stride] and the store
// XY[t] are a barrier apart, and the tail of the last block (i >= N) fills its XY with 0 and
// stores nothing. Runs clean on whole and partial sections and equals a sectioned scan.
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int SECTION_SIZE = 256;

// __global__ void Kogge_Stone_scan_kernel(float *X, float *Y, unsigned int N)
constexpr auto Kogge_Stone_scan_kernel = [](auto k, auto X, auto Y, auto N) {
  return w::shared<float, SECTION_SIZE>(k, [&](auto k, auto XY) {
    auto t = k.thread_id();
    auto i = k.block_id() * k.block_dim() + t;
    return w::seq(w::when(i < N, XY[t] = X[i]).otherwise(XY[t] = 0.0f),
                  w::for_range(k, 0, 8, [&](auto k, auto l) {  // stride = 1, 2, ..., 128 (stride < blockDim.x)
                    auto stride = 1 << l;
                    return w::seq(w::sync(), w::local(k, 0.0f, [&](auto, auto temp) {
                                    return w::seq(w::when(t >= stride, temp = XY[t] + XY[t - stride]), w::sync(),
                                                  w::when(t >= stride, XY[t] = temp));
                                  }));
                  }),
                  w::when(i < N, Y[i] = XY[t]));
  });
};

using Blk = w::block<SECTION_SIZE>;
using P = w::value<unsigned>;

}  // namespace

WARDEN_KERNEL(kogge_stone_k, w::kernel<Blk, w::in<float>, w::out<float>, P>(Kogge_Stone_scan_kernel).named("Kogge_Stone_scan_kernel", "X", "Y", "N"));

TEST_CASE("corpus2 pmpp Kogge-Stone (4th edition, two barriers per step): accepted, clean, equal to a sectioned scan", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::out<float>, P>(Kogge_Stone_scan_kernel) == code::none);
  const std::string ob = w::obligations_of(kogge_stone_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  for (unsigned N : {256u, 1000u, 1536u}) {
    CAPTURE(N);
    std::vector<float> X(N), ref(N);
    float acc = 0.f;
    for (unsigned i = 0; i < N; ++i) {
      if (i % SECTION_SIZE == 0) acc = 0.f;  // each block scans its own section
      X[i] = static_cast<float>(i % 5) - 1.f;
      ref[i] = acc += X[i];
    }
    auto d_X = w::to_device(X);
    w::device_buffer<float> d_Y(N);
    CHECK(w::record(kogge_stone_k, w::grid(static_cast<int>((N + SECTION_SIZE - 1) / SECTION_SIZE)), d_X, d_Y, N).clean());
    CHECK(w::to_host(d_Y) == ref);
  }
}
