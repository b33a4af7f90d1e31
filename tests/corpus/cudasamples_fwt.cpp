// NVIDIA cuda-samples, fastWalshTransform: NVIDIA/cuda-samples (commit c94ff366),
// Samples/5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh, kernel
// fwtBatch1Kernel (the in-shared-memory radix-4 + radix-2 Walsh transform of each block's
// N = 2^log2N values), ported by hand. Launch as fwtBatchGPU does for the sample's 2^23 values:
// after the global radix-4 passes log2N is 11, so fwtBatch1Kernel<<<M, N / 4, N * 4 bytes>>>,
// 512 threads and 8 KB of shared memory per block. Language pieces: `for (stride = N >> 2;
// stride > 0; stride >>= 2)` is w::for_shift_down<2>(k, N >> 2, ...), the loop as written;
// `for (pos = threadIdx.x; pos < N; pos += blockDim.x)` is w::for_range(k, t, N, 512); the
// register pipeline D0..D3 is w::locals; `extern __shared__ float s_data[]` is a 2048-float tile
// (the sample's own maximum, 2^ELEMENTARY_LOG2SIZE); cg::sync(cta) is w::sync().
// The sample runs it in place (d_Output == d_Input): here the two are distinct buffers, since a
// kernel that loads one parameter and stores another is refused E100 on one buffer whatever it
// stores where (each block here only touches its own slice, after loading it).
//
// ACCEPTED, the tiles left to the launch: which elements the threads touch depends on log2N, which
// only the launch knows, so launch lists every thread's footprint with log2N written in. The
// sample's launch (log2N = 11, 512 threads) runs clean and equals a radix-2 Walsh transform on the
// host. log2N = 10 on the same 512 threads (fwtBatchGPU launches it with 256) loads tile elements
// no thread stored, which the recording reports and launch does not refuse (W022 takes a load
// covered by a store later in a loop around both; the first iteration has none): a gap, in
// docs/soundness.md. No race: the promise holds.
#include "corpus.hpp"

#include <random>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int ELEMENTARY_LOG2SIZE = 11;
constexpr int threads = (1 << ELEMENTARY_LOG2SIZE) / 4;

// __global__ void fwtBatch1Kernel(float *d_Output, float *d_Input, int log2N)
constexpr auto fwtBatch1Kernel = [](auto k, auto d_Output, auto d_Input, auto log2N) {
  return w::shared<float, (1 << ELEMENTARY_LOG2SIZE)>(k, [&](auto k, auto s_data) {
    auto t = k.thread_id();
    auto N = 1 << log2N;
    auto base = k.block_id() << log2N;  // d_Src = d_Input + base, d_Dst = d_Output + base
    return w::seq(
        w::for_range(k, t, N, threads, [&](auto, auto pos) { return s_data[pos] = d_Input[base + pos]; }),
        // Main radix-4 stages
        w::for_shift_down<2>(k, N >> 2, [&](auto k, auto stride) {
          auto lo = t & (stride - 1);
          auto i0 = ((t - lo) << 2) + lo;
          auto i1 = i0 + stride;
          auto i2 = i1 + stride;
          auto i3 = i2 + stride;
          return w::seq(w::sync(), w::locals(k, s_data[i0], s_data[i1], s_data[i2], s_data[i3], [&](auto, auto D0, auto D1, auto D2, auto D3) {
                          // T = D0; D0 = D0 + D2; D2 = T - D2; T = D1; D1 = D1 + D3; D3 = T - D3; then the pairs
                          return w::seq(s_data[i0] = (D0 + D2) + (D1 + D3), s_data[i1] = (D0 + D2) - (D1 + D3),
                                        s_data[i2] = (D0 - D2) + (D1 - D3), s_data[i3] = (D0 - D2) - (D1 - D3));
                        }));
        }),
        // Do single radix-2 stage for odd power of two
        w::when((log2N & 1) != 0,
                w::sync(), w::for_range(k, t, N / 2, threads, [&](auto k, auto pos) {
                  auto i0 = pos << 1;
                  auto i1 = i0 + 1;
                  return w::locals(k, s_data[i0], s_data[i1], [&](auto, auto D0, auto D1) {
                    return w::seq(s_data[i0] = D0 + D1, s_data[i1] = D0 - D1);
                  });
                })),
        w::sync(), w::for_range(k, t, N, threads, [&](auto, auto pos) { return d_Output[base + pos] = s_data[pos]; }));
  });
};

using Blk = w::block<threads>;
using In = w::in<float>;
using Out = w::out<float>;
using Int = w::value<int>;

}  // namespace

WARDEN_KERNEL(fwt_k, w::kernel<Blk, Out, In, Int>(fwtBatch1Kernel).named("fwtBatch1Kernel", "d_Output", "d_Input", "log2N"));

TEST_CASE("corpus cuda-samples fwtBatch1Kernel: radix-4 stages over for_shift_down, tiles decided at launch", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, Out, In, Int>(fwtBatch1Kernel) == code::none);
  const int log2N = ELEMENTARY_LOG2SIZE, N = 1 << log2N, M = 3;
  std::mt19937 random(11);
  std::vector<float> data(at(M * N));
  for (float& v : data) v = static_cast<float>(static_cast<int>(random() % 7) - 3);  // small integers: exact sums
  auto in = w::to_device(data);
  w::device_buffer<float> out(at(M * N));
  CHECK(w::record(fwt_k, w::grid(M), out, in, log2N).clean());
  // The reference: fwtCPU's radix-2 transform of each block's N values.
  std::vector<float> want = data;
  for (int b = 0; b < M; ++b)
    for (int stride = N / 2; stride >= 1; stride >>= 1)
      for (int base = 0; base < N; base += 2 * stride)
        for (int j = 0; j < stride; ++j) {
          float& d0 = want[at(b * N + base + j)];
          float& d1 = want[at(b * N + base + j + stride)];
          const float s = d0 + d1, d = d0 - d1;
          d0 = s;
          d1 = d;
        }
  corpus::check_close(w::to_host(out), want);

  // log2N = 10 on 512 threads: threads 256 to 511 load tile elements 1024 to 2047 in the first
  // radix-4 stage, which nobody stored (their results are never copied out, so the output is still
  // right). The recording sees those loads. Launch lets it run: the listing takes a load as
  // covered when a store later in a loop around both could have run in an earlier iteration
  // (W022's rule, docs/soundness.md), and the first stage has none.
  auto small_in = w::to_device(std::vector<float>(at(M * 1024), 1.f));
  w::device_buffer<float> small_out(at(M * 1024));
  const w::recording r = w::record(fwt_k, w::grid(M), small_out, small_in, 10);
  CHECK_FALSE(r.clean());
  CHECK(r.report().find("load of unwritten shared memory") != std::string::npos);
  CHECK_NOTHROW(w::launch(w::on_cpu, fwt_k, w::grid(M), small_out, small_in, 10));
}
