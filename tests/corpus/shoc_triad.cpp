// SHOC level 1, Triad (C = A + s B, the STREAM triad): vetter/shoc, src/cuda/level1/triad/Triad.cu,
// kernel triad, ported by hand. Launch as the benchmark: blockSize = 128, numFloats / 128 blocks
// (numFloats a multiple of 128). The kernel has no bounds guard, so a grid that overhangs the
// arrays must be refused at launch (E101), as it would overrun on a GPU.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void triad(float* A, float* B, float* C, float s)
constexpr auto triad = [](auto k, auto A, auto B, auto C, auto s) {
  auto gid = k.thread_id() + (k.block_id() * k.block_dim());
  return C[gid] = A[gid] + s * B[gid];
};

using Blk = w::block<128>;

}  // namespace

WARDEN_KERNEL(triad_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<float>>(triad).named("triad", "A", "B", "C", "s"));

TEST_CASE("corpus shoc triad: accepted, clean, equal to the reference", "[corpus][shoc]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<float>>(triad) == code::none);
  CHECK(w::obligations_of(triad_k).empty());
  const float s = 1.75f;
  for (int n : {1024, 384}) {
    CAPTURE(n);
    std::vector<float> A(at(n)), B(at(n)), ref(at(n));
    for (int i = 0; i < n; ++i) {
      A[at(i)] = static_cast<float>(i % 10);
      B[at(i)] = static_cast<float>(i % 7) / 4.f;
      ref[at(i)] = A[at(i)] + s * B[at(i)];
    }
    auto dA = w::to_device(A), dB = w::to_device(B);
    w::device_buffer<float> dC(at(n));
    CHECK(w::record(triad_k, w::grid(n / 128), dA, dB, dC, s).clean());
    CHECK(w::to_host(dC) == ref);
  }
  // One block past the arrays: no guard in the kernel, so launch refuses it (E101).
  auto dA = w::to_device(std::vector<float>(384, 1.f)), dB = w::to_device(std::vector<float>(384, 1.f));
  w::device_buffer<float> dC(384);
  CHECK_THROWS_AS(w::record(triad_k, w::grid(4), dA, dB, dC, s), w::bounds_error);
}
