// GPUVerifyBenchmarks: mc-imperial/GPUVerifyBenchmarks, C++AMP/Histogram/histo_merge_kernel/kernel.cu,
// kernel histo_merge_kernel (Microsoft's C++ AMP Histogram sample, translated to CUDA by the
// GPUVerify authors; marked `//pass`, run with --blockDim=256 --gridDim=256). Ported by hand, with
// the suite's own injected bug as a second variant. histogram_bin_count (256), merge_tile_size (256)
// and partial_histogram256_count (8 << 5 = 256) are #defines. Block b sums bin b over the 256 * 256
// partial histograms (each thread a strided share: i = threadIdx.x, += 256, < 65536, loading
// partial_result[b + i * 256]), reduces the 256 sums in shared memory (stride 128, 64, ..., 1 with a
// barrier at the top of each step), and thread 0 stores histogram_amp[b].
// `for (int stride = 128; stride > 0; stride >>= 1)` is w::for_halving(k, 128, ...); `unsigned sum`
// is a w::local. Launch as the benchmark: 256 threads, 256 blocks (one per bin); partial_result has
// 65536 * 256 elements (all the kernel's loads reach).
//
// RACE-FREE as written (the suite's //pass). The suite marks the barrier in the reduction loop
// `BUGINJECT: REMOVE_BARRIER` (compiled out under -DMUTATION, the racy variant GPUVerify must
// refuse); histo_merge_mutation below is that variant: without the barrier, step s's
// s_data[tid] += s_data[tid + s] loads an element that thread tid + s updates in step 2 s (a
// shared-memory race across the iterations of the loop, and with the initial store).
// VERDICT: the original is ACCEPTED at compile time with no launch obligation, and runs clean on
// the benchmark's launch (256 x 256), equal to the reference (the recording holds 16.8 million
// loads: this test takes about 13 s and 1.5 GB). The MUTATION variant is refused at compile time,
// W020 [shared-race] ("store tile0[thread_id.x] vs load tile0[thread_id.x + (128 >> i2)]"), and
// its trusting() copy recorded on one block reports read-write races.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int histogram_bin_count = 256, merge_tile_size = histogram_bin_count, partial_histogram256_count = 8 * (1 << 5);

// __global__ void histo_merge_kernel(unsigned int* partial_result, unsigned int* histogram_amp)
constexpr auto histo_merge = [](auto k, auto partial_result, auto histogram_amp) {
  return w::local(k, 0u, [&](auto k, auto sum) {
    return w::seq(w::for_range(k, k.thread_id(), partial_histogram256_count * histogram_bin_count, merge_tile_size,
                               [&](auto, auto i) { return sum += partial_result[k.block_id() + i * histogram_bin_count]; }),
                  w::shared<unsigned, merge_tile_size>(k, [&](auto k, auto s_data) {
                    return w::seq(s_data[k.thread_id()] = sum,
                                  w::for_halving(k, merge_tile_size / 2, [&](auto, auto stride) {
                                    return w::seq(w::sync(), w::when(k.thread_id() < stride, s_data[k.thread_id()] += s_data[k.thread_id() + stride]));
                                  }),
                                  w::when(k.thread_id() == 0, histogram_amp[k.block_id()] = s_data[0]));
                  }));
  });
};
// -DMUTATION: the same without the barrier in the reduction loop.
constexpr auto histo_merge_mutation = [](auto k, auto partial_result, auto histogram_amp) {
  return w::local(k, 0u, [&](auto k, auto sum) {
    return w::seq(w::for_range(k, k.thread_id(), partial_histogram256_count * histogram_bin_count, merge_tile_size,
                               [&](auto, auto i) { return sum += partial_result[k.block_id() + i * histogram_bin_count]; }),
                  w::shared<unsigned, merge_tile_size>(k, [&](auto k, auto s_data) {
                    return w::seq(s_data[k.thread_id()] = sum,
                                  w::for_halving(k, merge_tile_size / 2, [&](auto, auto stride) {
                                    return w::when(k.thread_id() < stride, s_data[k.thread_id()] += s_data[k.thread_id() + stride]);
                                  }),
                                  w::when(k.thread_id() == 0, histogram_amp[k.block_id()] = s_data[0]));
                  }));
  });
};

using Blk = w::block<merge_tile_size>;

}  // namespace

WARDEN_KERNEL(histo_merge_k, w::kernel<Blk, w::in<unsigned>, w::out<unsigned>>(histo_merge)
                                .named("histo_merge_kernel", "partial_result", "histogram_amp"));
WARDEN_KERNEL(histo_merge_mutation_trusting_k, w::kernel<Blk, w::in<unsigned>, w::out<unsigned>>(w::testing::trusting(histo_merge_mutation))
                                                  .named("histo_merge_kernel", "partial_result", "histogram_amp"));

TEST_CASE("corpus2 gpuverify C++AMP histo_merge_kernel: accepted, clean, equal to the reference, its REMOVE_BARRIER mutation refused W020",
          "[corpus2][gpuverify]") {
  STATIC_REQUIRE(code_of<Blk, w::in<unsigned>, w::out<unsigned>>(histo_merge) == code::none);
  // Without the barrier, s_data[tid] is stored (before the loop, and by each step) in the phase
  // where thread tid - s loads it.
  STATIC_REQUIRE(code_of<Blk, w::in<unsigned>, w::out<unsigned>>(histo_merge_mutation) == code::W020);
  const std::string ob = w::obligations_of(histo_merge_k);
  CAPTURE(ob);
  CHECK(ob.empty());

  const int n = partial_histogram256_count * histogram_bin_count * histogram_bin_count;
  std::vector<unsigned> partial(at(n));
  for (int i = 0; i < n; ++i) partial[at(i)] = static_cast<unsigned>((i * 2654435761u) >> 28);
  std::vector<unsigned> ref(histogram_bin_count, 0u);
  for (int i = 0; i < n; ++i) ref[at(i % histogram_bin_count)] += partial[at(i)];
  auto dpartial = w::to_device(partial);
  w::device_buffer<unsigned> dhist(histogram_bin_count);
  CHECK(w::record(histo_merge_k, w::grid(histogram_bin_count), dpartial, dhist).clean());
  CHECK(w::to_host(dhist) == ref);

  // The mutation, unchecked, on one block: the recording shows the race.
  w::device_buffer<unsigned> dhist1(histogram_bin_count);
  const auto r = w::record(histo_merge_mutation_trusting_k, w::grid(1), dpartial, dhist1);
  CHECK_FALSE(r.clean());
  // Loads of elements stored in the same phase (reported first, as unwritten by an earlier
  // phase), and the read-write races themselves.
  std::size_t read_write = 0;
  for (const auto& c : r.conflicts()) read_write += c.kind == w::conflict_kind::read_write;
  CAPTURE(r.report(3));
  CHECK(read_write > 0);
  CHECK(w::testing::named_pair_meets<Blk, w::in<unsigned>, w::out<unsigned>>(histo_merge_mutation, r));  // W020's pair
}
