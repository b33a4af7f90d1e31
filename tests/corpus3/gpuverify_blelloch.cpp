// GPUVerify's barrier-invariant benchmarks, Blelloch scan: nchong/barrier-reasoning-tests (commit
// 0e2c27b9), tests/blelloch/cuda/kernel.cu, kernel blelloch (the work-efficient exclusive scan of
// GPU Gems 3, ch. 39, that the GPUVerify papers verify), ported by hand with INC_UPSWEEP,
// INC_DOWNSWEEP and INC_ENDSPEC, dwidth = rwidth = 32 and raddf = +. One block of N / 2 threads
// scans N elements in the shared array result: the up-sweep `offset = 1; for (d = N/2; d > 0;
// d /= 2) { __syncthreads(); if (t < d) { ai = offset * (2t + 1) - 1; bi = offset * (2t + 2) - 1;
// result[bi] += result[ai]; } offset *= 2; }`, then `if (t == 0) result[N - 1] = 0;`, then the
// down-sweep `for (d = 1; d < N; d <<= 1) { offset >>= 1; __syncthreads(); if (t < d) { swap-add
// result[ai], result[bi] } }`, then out[2t], out[2t + 1]. Launch as its main: blelloch<<<1, N/2>>>.
//
// Translation: dtype (unsigned int) for t, d, offset, ai, bi; offset is a w::local<unsigned> the
// loops update (`offset *= 2u`, `offset >>= 1u`), as written. The for loops over d, whose d halves
// or doubles, count their trips instead (w::for_range over log2 N trips, d = (N/2) >> i and
// 1u << i: the same values in the same order). The ghost array ghostsum and the barrier
// invariants are verification annotations (no memory the kernel reads); the spec's final
// __syncthreads() is kept.
//
// Verdict (issue 56, item 5): ACCEPTED with no obligation, and RUNS AS WRITTEN: N = 128 and 512,
// clean and equal to an exclusive scan. The offset that doubles and halves is a local the loops
// step (an induction variable by shifts: include/warden/dsl/local_values.hpp), which the tile
// listing reads at each trip; and the listing orders every trip of a loop whose trips open with a
// barrier but the last before what follows the loop (the store `result[N - 1] = 0` after the
// up-sweep meets only the last trip, thread 0's own: check/order.hpp, barrier_every_trip). Its
// twin without the down-sweep's barrier races (one level's swap against the next level's) and is
// refused at compile time, W020. The W050 warning the build prints is right: the original has the
// bank conflicts that GPU Gems' padded variant (CONFLICT_FREE_OFFSET) removes.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

template <unsigned N, bool DownBarrier = true>
constexpr auto blelloch = [](auto k, auto len, auto out) {
  constexpr unsigned levels = N == 128 ? 7 : 9;  // log2 N
  auto t = w::convert<unsigned>(k.thread_id());
  return w::shared<unsigned, N>(k, [&](auto k, auto result) {
    return w::local(k, 1u, [&](auto k, auto offset) {
      return w::seq(
          w::when(t < N / 2, result[2u * t] = len[2u * t], result[2u * t + 1u] = len[2u * t + 1u]),
          w::for_range(k, 0, static_cast<int>(levels), [&](auto, auto i) {  // d = N/2, N/4, ..., 1
            auto d = (N / 2) >> i;
            return w::seq(w::sync(),
                          w::when(t < d, result[offset * (2u * t + 2u) - 1u] = result[offset * (2u * t + 1u) - 1u] +
                                                                                result[offset * (2u * t + 2u) - 1u]),
                          offset *= 2u);
          }),
          w::when(t == 0u, result[N - 1] = 0u),
          w::for_range(k, 0, static_cast<int>(levels), [&](auto k, auto i) {  // d = 1, 2, ..., N/2
            auto d = 1u << i;
            auto ai = offset * (2u * t + 1u) - 1u;
            auto bi = offset * (2u * t + 2u) - 1u;
            auto body = w::when(t < d, w::local(k, result[ai], [&](auto, auto temp) {
                                  return w::seq(result[ai] = result[bi], result[bi] = result[bi] + temp);
                                }));
            if constexpr (DownBarrier) return w::seq(offset >>= 1u, w::sync(), body);
            else return w::seq(offset >>= 1u, body);
          }),
          w::sync(), w::when(t < N / 2, out[2u * t] = result[2u * t], out[2u * t + 1u] = result[2u * t + 1u]));
    });
  });
};

#define BLELLOCH_PARAMS(N) w::block<(N) / 2>, w::in<unsigned>, w::out<unsigned>

}  // namespace

WARDEN_KERNEL(blelloch128_k, w::kernel<BLELLOCH_PARAMS(128)>(blelloch<128>).named("blelloch", "len", "out"));
WARDEN_KERNEL(blelloch512_k, w::kernel<BLELLOCH_PARAMS(512)>(blelloch<512>).named("blelloch", "len", "out"));

namespace {
template <class Kernel>
void scan(const Kernel& kernel, unsigned n) {
  CAPTURE(n);
  std::vector<unsigned> in(at(static_cast<int>(n))), want(in.size());
  for (unsigned i = 0; i < n; ++i) in[at(static_cast<int>(i))] = (i * 7u + 3u) % 11u;
  unsigned sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = sum, sum += in[i];
  auto len = w::to_device(in);
  w::device_buffer<unsigned> out(in.size());
  CHECK(w::record(kernel, w::grid(1), len, out).clean());
  CHECK(w::to_host(out) == want);
  w::launch(w::on_cpu, kernel, w::grid(1), len, out);
  CHECK(w::to_host(out) == want);
}
}  // namespace

TEST_CASE("GPUVerify's Blelloch scan (a doubling and halving offset in a local): accepted, runs as written, without the "
          "down-sweep's barrier, W020",
          "[corpus3][gpuverify]") {
  STATIC_REQUIRE(code_of<BLELLOCH_PARAMS(128)>(blelloch<128>) == code::none);
  STATIC_REQUIRE(code_of<BLELLOCH_PARAMS(512)>(blelloch<512>) == code::none);
  STATIC_REQUIRE(code_of<BLELLOCH_PARAMS(128)>(blelloch<128, false>) == code::W020);
  CHECK(w::obligations_of(blelloch128_k).empty());
  scan(blelloch128_k, 128);
  scan(blelloch512_k, 512);
}
