// NVIDIA cuda-samples, vectorAdd: NVIDIA/cuda-samples, Samples/0_Introduction/vectorAdd/vectorAdd.cu,
// kernel vectorAdd, ported by hand. Launch as the original: 256 threads per block,
// (numElements + 255) / 256 blocks.
#include "corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
constexpr auto vectorAdd = [](auto k, auto A, auto B, auto C, auto numElements) {
  auto i = k.global_id();  // blockDim.x * blockIdx.x + threadIdx.x
  return w::when(i < numElements, C[i] = A[i] + B[i] + 0.0f);
};

using Blk = w::block<256>;

}  // namespace

WARDEN_KERNEL(vectorAdd_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(vectorAdd)
                               .named("vectorAdd", "A", "B", "C", "numElements"));

TEST_CASE("corpus cuda-samples vectorAdd: accepted, clean, equal to the reference", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>, w::value<int>>(vectorAdd) == code::none);
  CHECK(w::obligations_of(vectorAdd_k).empty());
  // 50000 elements as in the sample, scaled: 1000 (4 blocks, overhanging), 512 (exact).
  for (int n : {1000, 512}) {
    CAPTURE(n);
    std::vector<float> A(at(n)), B(at(n)), ref(at(n));
    for (int i = 0; i < n; ++i) {
      A[at(i)] = static_cast<float>(i % 97) / 97.f;
      B[at(i)] = static_cast<float>(i % 31) / 31.f;
      ref[at(i)] = A[at(i)] + B[at(i)] + 0.0f;
    }
    auto dA = w::to_device(A), dB = w::to_device(B);
    w::device_buffer<float> dC(at(n));
    CHECK(w::record(vectorAdd_k, w::grid((n + 255) / 256), dA, dB, dC, n).clean());
    CHECK(w::to_host(dC) == ref);
  }
}
