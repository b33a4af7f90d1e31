// HeCBench, rmsnorm: zjin-lcf/HeCBench, src/rmsnorm-cuda/main.cu, kernel
// rmsnorm_fwd_two_scan_kernel<float, UNROLL = 4> with BlockReduce<SumOp, float> and WarpReduce from
// src/rmsnorm-cuda/reduce.cuh and load_data / store_data from src/rmsnorm-cuda/utils.cuh, ported by
// hand. One block per row of inner_len floats: each thread sums the squares of UNROLL consecutive
// elements per trip (a block-stride loop from start_offset = warp_id * 32 * UNROLL + lane_id *
// UNROLL by BLOCKSIZE * UNROLL), the block reduces the sums (a __shfl_xor_sync butterfly in each
// warp, lane 0 of each warp to smem[warp_id], barrier, warp 0 reduces the num_warps partial sums
// with the same butterfly and lane 0 writes smem[0], barrier, every thread reads smem[0]), and a
// second trip over the row writes input * rsqrtf(mean_square + epsilon) * gamma. inner_len is the
// kernel's const int64_t parameter, epsilon a float. `input + bid * inner_len` is folded into the
// indices; load_data's one 16-byte load of UNROLL floats is UNROLL element loads here (w::unroll),
// and store_data's store UNROLL element stores; the register arrays hold nothing across trips and
// are left out; rsqrtf(x) is w::fast::rsqrt(x); each WarpReduce is a 5-trip loop of shuffle_xor with
// offset 16 >> s (16, 8, 4, 2, 1). The host picks the block size from {32, ..., 1024} at run time
// (one static shape here, 256) and UNROLL = 4 when inner_len % 4 == 0. Launch as rmsnorm_forward:
// grid_dim(outer_len), block_dim(block_size).
//
// Verdict: ACCEPTED, the output store left to the launch (global_at_launch), and RUNS AS WRITTEN,
// for UNROLL 4 and for UNROLL 1 alike. start_offset = warp_id * 32 * UNROLL + lane_id * UNROLL,
// with warp_id = threadIdx.x / 32 and lane_id = threadIdx.x % 32, is UNROLL * threadIdx.x; the
// checker lacks (a / 32) * 32 + a % 32 == a (as in hecbench_heat.cpp), so it cannot keep a row's
// stores output[bid * inner_len + offset + i] inside the row for every inner_len (before issue 32's
// item 1 it refused them, W010, "threads of different blocks may meet"). The index reads
// inner_len: the launch lists the stores with its own and finds them apart, on the host's launches
// (UNROLL 1 for inner_len % 4 != 0, UNROLL 4 otherwise), equal to the reference.
// input[... + offset + i], i <= 3, stays in the row because offset, from 4 * threadIdx.x by 4 *
// 256, is a multiple of 4 and launch's bounds follow the loop's lattice. Both loops bounded by
// inner_len - 3 (the same trips for inner_len % 4 == 0) runs as well.
#include "../corpus/corpus.hpp"

#include <cmath>
#include <cstdint>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int THREADS_PER_WARP = 32, MAX_THREADS_PER_BLOCK = 1024, block_size = 256;

// template <typename T, int UNROLL> __global__ void rmsnorm_fwd_two_scan_kernel(const T *__restrict__ input,
//     const T *__restrict__ gamma, T *output, const int64_t inner_len, const float epsilon)
// Tight = true is not the original: both loops bounded by inner_len - (UNROLL - 1), the same trips
// when inner_len % UNROLL == 0 (offset is a multiple of UNROLL), the only change.
template <int UNROLL, bool Tight = false>
constexpr auto rmsnorm_fwd_two_scan = [](auto k, auto input, auto gamma, auto output, auto inner_len, auto epsilon) {
  auto BLOCKSIZE = k.block_dim();
  auto bid = k.block_id();
  auto warp_id = k.thread_id() / THREADS_PER_WARP;
  auto lane_id = k.thread_id() % THREADS_PER_WARP;
  auto start_offset = warp_id * THREADS_PER_WARP * UNROLL + lane_id * UNROLL;
  auto num_warps = (k.block_dim() + THREADS_PER_WARP - 1) / THREADS_PER_WARP;
  auto bound = [&] {  // the loops' end: inner_len as written
    if constexpr (Tight)
      return inner_len - (UNROLL - 1);
    else
      return inner_len;
  }();
  // BlockReduce's __shared__ T smem[MAX_NUM_WARPS]
  return w::shared<float, MAX_THREADS_PER_BLOCK / THREADS_PER_WARP>(k, [&](auto k, auto smem) {
    return w::local(k, 0.0f, [&](auto k, auto local_squares_sum) {
      // WarpReduce<SumOp>(val): for (offset = 16; offset > 0; offset >>= 1) val = __shfl_xor_sync(.., val, offset) + val
      auto warp_reduce = [&](auto k, auto val) {
        return w::for_range(k, 0, 5, [&](auto k, auto s) {
          return w::shuffle_xor(k, val, (THREADS_PER_WARP >> 1) >> s, [&](auto, auto tmp) { return val = tmp + val; });
        });
      };
      return w::seq(
          w::for_range(k, start_offset, bound, BLOCKSIZE * UNROLL, [&](auto k, auto offset) {
            return w::unroll<UNROLL>(k, [&](auto, auto i) {
              return local_squares_sum += input[bid * inner_len + offset + i] * input[bid * inner_len + offset + i];
            });
          }),
          // BlockReduce<SumOp, float>(local_squares_sum)
          w::local(k, 0.0f, [&](auto k, auto val_reg) {  // T val_reg = init(); val_reg = op(val_reg, val)
            return w::seq(val_reg = val_reg + local_squares_sum, warp_reduce(k, val_reg),
                          w::when(lane_id == 0, smem[warp_id] = val_reg), w::sync(),
                          w::when(warp_id == 0, val_reg = w::select(lane_id < num_warps, smem[lane_id], 0.0f), warp_reduce(k, val_reg),
                                  w::when(lane_id == 0, smem[0] = val_reg)),
                          w::sync());
          }),
          // mean_square = smem[0] / inner_len; norm_factor = rsqrtf(mean_square + epsilon)
          w::local(k, w::fast::rsqrt(smem[0] / w::convert<float>(inner_len) + epsilon), [&](auto k, auto norm_factor) {
            return w::for_range(k, start_offset, bound, BLOCKSIZE * UNROLL, [&](auto k, auto offset) {
              return w::unroll<UNROLL>(k, [&](auto, auto i) {
                return output[bid * inner_len + offset + i] = input[bid * inner_len + offset + i] * norm_factor * gamma[offset + i];
              });
            });
          }));
    });
  });
};

constexpr auto rmsnorm_fwd_two_scan_kernel = rmsnorm_fwd_two_scan<4>;  // inner_len % 4 == 0
constexpr auto rmsnorm_fwd_two_scan_kernel_1 = rmsnorm_fwd_two_scan<1>;  // otherwise
constexpr auto rmsnorm_tight_bound = rmsnorm_fwd_two_scan<4, true>;

using Blk = w::block<block_size>;

}  // namespace

#define RMS_PARAMS Blk, w::in<float>, w::in<float>, w::out<float>, w::value<std::int64_t>, w::value<float>
WARDEN_KERNEL(rmsnorm4_k, w::kernel<RMS_PARAMS>(rmsnorm_fwd_two_scan_kernel)
                                       .named("rmsnorm_fwd_two_scan_kernel", "input", "gamma", "output", "inner_len", "epsilon"));
WARDEN_KERNEL(rmsnorm4_tight_k, w::kernel<RMS_PARAMS>(rmsnorm_tight_bound)
                                             .named("rmsnorm_fwd_two_scan_kernel", "input", "gamma", "output", "inner_len", "epsilon"));
WARDEN_KERNEL(rmsnorm1_k, w::kernel<RMS_PARAMS>(rmsnorm_fwd_two_scan_kernel_1)
                                       .named("rmsnorm_fwd_two_scan_kernel", "input", "gamma", "output", "inner_len", "epsilon"));

TEST_CASE("hecbench rmsnorm_fwd_two_scan_kernel: accepted, the output store left to the launch (start_offset from tx / 32 and "
          "tx % 32), runs as written and equals the reference",
          "[corpus2][hecbench]") {
  // output[bid * inner_len + offset + i]: offset runs from start_offset = (tx / 32) * 32 * UNROLL +
  // (tx % 32) * UNROLL, which is UNROLL * tx; the checker lacks (a / 32) * 32 + a % 32 == a, and
  // the launch lists the stores with its inner_len.
  STATIC_REQUIRE(w::testing::left_to_launch<RMS_PARAMS>(rmsnorm_fwd_two_scan_kernel));
  STATIC_REQUIRE(w::testing::left_to_launch<RMS_PARAMS>(rmsnorm_fwd_two_scan_kernel_1));
  STATIC_REQUIRE(w::testing::left_to_launch<RMS_PARAMS>(rmsnorm_tight_bound));

  const float epsilon = 1e-5f;
  // rmsnorm_forward's choice: UNROLL 4 when inner_len % 4 == 0 (1024: 1 trip a thread; 200: part
  // of the block idle), else UNROLL 1 (203).
  for (auto [N, H] : {std::pair{3, 1024}, std::pair{2, 200}, std::pair{2, 203}}) {
    CAPTURE(N, H);
    std::vector<float> inp(at(N * H)), gamma(at(H));
    for (int i = 0; i < N * H; ++i) inp[at(i)] = static_cast<float>((i * 37) % 19) / 9.f - 1.f;
    for (int i = 0; i < H; ++i) gamma[at(i)] = 0.5f + static_cast<float>(i % 7) / 7.f;
    std::vector<float> ref(inp.size());
    for (int t = 0; t < N; ++t) {
      float m = 0.f;
      for (int i = 0; i < H; ++i) m += inp[at(t * H + i)] * inp[at(t * H + i)];
      const float s = 1.f / std::sqrt(m / static_cast<float>(H) + epsilon);
      for (int i = 0; i < H; ++i) ref[at(t * H + i)] = inp[at(t * H + i)] * s * gamma[at(i)];
    }
    auto d_inp = w::to_device(inp), d_gamma = w::to_device(gamma);
    w::device_buffer<float> d_out(inp.size());
    const auto grid = w::grid(N);
    const std::int64_t inner_len = H;
    if (H % 4 == 0) {
      // UNROLL 4 as written: offset is a multiple of 4 (the loop's lattice), so
      // input[bid * inner_len + offset + i], i <= 3, stays in its row: runs clean.
      CHECK(w::record(rmsnorm4_k, grid, d_inp, d_gamma, d_out, inner_len, epsilon).clean());
      corpus::check_close(w::to_host(d_out), ref, 1e-4);
      // With the loops bounded by inner_len - 3 (the same trips here): runs clean too.
      CHECK(w::record(rmsnorm4_tight_k, grid, d_inp, d_gamma, d_out, inner_len, epsilon).clean());
    } else {
      CHECK(w::record(rmsnorm1_k, grid, d_inp, d_gamma, d_out, inner_len, epsilon).clean());
    }
    corpus::check_close(w::to_host(d_out), ref, 1e-4);
  }
}
