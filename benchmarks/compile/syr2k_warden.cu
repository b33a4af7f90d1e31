// A corpus kernel as a user's launching file, for scripts/check-once-cost (issue 58): PolyBench's
// syr2k_kernel as tests/corpus3/polybench_syr2k.cpp ports it (one thread per element of the NI x NI
// matrix c, a loop over NJ), with that file's sizes. Compiled only by that script (the precheck,
// then nvcc -c), never built or run by the test suite.
#define WARDEN_LINTS 0  // as the corpus file: the W051 lint on b[j * NJ + k] is right, and not the point here
#include <warden/warden.hpp>

#include <cstdio>
#include <vector>

namespace w = warden;

constexpr int NI = 40, NJ = 24;
constexpr int DIM_THREAD_BLOCK_X = 32, DIM_THREAD_BLOCK_Y = 8;

WARDEN_KERNEL(syr2k_k, w::kernel<w::block<DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y>, w::value<float>, w::value<float>, w::in<float>,
                                 w::in<float>, w::inout<float>>([](auto k, auto alpha, auto beta, auto a, auto b, auto c) {
  auto j = k.block_id() * k.block_dim() + k.thread_id();
  auto i = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  return w::when((i < NI) && (j < NI), c[i * NI + j] *= beta, w::for_range(k, 0, NJ, [&](auto, auto kk) {
                   return c[i * NI + j] += alpha * a[i * NJ + kk] * b[j * NJ + kk] + alpha * b[i * NJ + kk] * a[j * NJ + kk];
                 }));
}));

int main() {
  std::vector<float> a(NI * NJ, 1.f), b(NI * NJ, 2.f), c(NI * NI, 3.f);
  auto da = w::to_device(a), db = w::to_device(b), dc = w::to_device(c);
  const auto grid = w::grid((NI + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NI + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
  w::launch(syr2k_k, grid, 1.5f, 0.5f, da, db, dc);
  std::printf("%f\n", w::to_host(dc)[0]);
  return 0;
}
