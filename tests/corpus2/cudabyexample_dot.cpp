// "CUDA by Example" (Sanders, Kandrot), chapter 5, the dot product with a shared-memory
// reduction: CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-, chapter05/dot.cu
// (commit 2f08ae06), kernel dot, ported by hand. Each thread sums a[tid] * b[tid] over a
// grid-stride loop (while (tid < N) ... tid += blockDim.x * gridDim.x), the block reduces its
// 256 sums in cache[] by halving (int i = blockDim.x / 2; while (i != 0) { ... __syncthreads();
// i /= 2; }), and thread 0 writes the block's sum to c[blockIdx.x]; the host adds the partial sums.
// N = 33 * 1024 and threadsPerBlock = 256 are the book's const ints (C++ constants here; the kernel
// takes no size). Launch as main: dot<<<blocksPerGrid, threadsPerBlock>>> with blocksPerGrid =
// imin(32, (N + 255) / 256) = 32. Language pieces: the grid-stride while loop is w::grid_stride
// over [0, N); the halving loop from blockDim.x / 2 (the static block shape) is w::for_halving.
//
// ACCEPTED, no launch obligation: each thread stores its own cache element, the halving steps
// are separated by barriers and read cache[cacheIndex + i] only below 2i, and each block writes
// its own c[blockIdx.x]. The book's launch runs clean; the partial sums match a plain reference
// and add up to the book's closed form.
#include "../corpus/corpus.hpp"

#include <string>
#include <utility>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N = 33 * 1024;
constexpr int threadsPerBlock = 256;
constexpr int blocksPerGrid = 32 < (N + threadsPerBlock - 1) / threadsPerBlock ? 32 : (N + threadsPerBlock - 1) / threadsPerBlock;

// __global__ void dot(float *a, float *b, float *c)
constexpr auto dot = [](auto k, auto a, auto b, auto c) {
  return w::shared<float, threadsPerBlock>(k, [&](auto k, auto cache) {
    auto cacheIndex = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto temp) {
      return w::seq(w::grid_stride(k, N, [&](auto, auto tid) { return temp += a[tid] * b[tid]; }),
                    cache[cacheIndex] = temp, w::sync(),
                    w::for_halving(k, threadsPerBlock / 2, [&](auto, auto i) {
                      return w::seq(w::when(cacheIndex < i, cache[cacheIndex] += cache[cacheIndex + i]), w::sync());
                    }),
                    w::when(cacheIndex == 0, c[k.block_id()] = cache[0]));
    });
  });
};

using Blk = w::block<threadsPerBlock>;

}  // namespace

WARDEN_KERNEL(dot_k, w::kernel<Blk, w::in<float>, w::in<float>, w::out<float>>(dot).named("dot", "a", "b", "c"));

TEST_CASE("corpus2 CUDA by Example dot: accepted, clean on the book's launch, equal to the reference", "[corpus2][cuda-by-example]") {
  STATIC_REQUIRE(code_of<Blk, w::in<float>, w::in<float>, w::out<float>>(dot) == code::none);
  const std::string ob = w::obligations_of(dot_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  STATIC_REQUIRE(blocksPerGrid == 32);

  // The book's data (a[i] = i, b[i] = 2i), and small values of both signs.
  std::vector<float> a0(at(N)), b0(at(N)), a1(at(N)), b1(at(N));
  for (int i = 0; i < N; ++i) {
    a0[at(i)] = static_cast<float>(i), b0[at(i)] = static_cast<float>(i * 2);
    a1[at(i)] = static_cast<float>(i % 9) - 4.f, b1[at(i)] = static_cast<float>(i % 5) * 0.5f;
  }
  for (auto [a, b] : {std::pair{&a0, &b0}, std::pair{&a1, &b1}}) {
    // Reference: what each block's threads cover, tid = blockIdx.x * 256 + threadIdx.x + k * 8192.
    std::vector<double> partial(blocksPerGrid, 0.);
    for (int i = 0; i < N; ++i) partial[at((i / threadsPerBlock) % blocksPerGrid)] += static_cast<double>((*a)[at(i)]) * (*b)[at(i)];
    auto dev_a = w::to_device(*a);
    auto dev_b = w::to_device(*b);
    w::device_buffer<float> dev_partial_c(blocksPerGrid);
    CHECK(w::record(dot_k, w::grid(blocksPerGrid), dev_a, dev_b, dev_partial_c).clean());
    const auto got = w::to_host(dev_partial_c);
    double c = 0.;
    for (int i = 0; i < blocksPerGrid; ++i) {
      CHECK(got[at(i)] == Approx(partial[at(i)]).epsilon(1e-5).margin(1e-3));
      c += got[at(i)];
    }
    if (a == &a0) {
      // The book's closed form: 2 * sum_squares(N - 1).
      const double x = N - 1;
      CHECK(c == Approx(2. * (x * (x + 1) * (2 * x + 1) / 6)).epsilon(1e-5));
    }
  }
}
