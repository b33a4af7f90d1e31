// Chai, HSTI (histogram, input partitioning): chai-benchmarks/chai (commit 1ad38e36),
// CUDA-D/HSTI/kernel.cu, kernel Histogram_kernel, with the static partitioner of
// CUDA-D/HSTI/support/partitioner.h (CUDA_8_0 is not defined in CUDA-D's build, so there is no
// dynamic path), ported by hand. Each block zeroes a private histogram of `bins` counters in
// `extern __shared__ unsigned int l_mem[]` (a block-stride loop), syncs, walks its tasks (task i
// from p.cut + blockIdx.x while i < n_tasks, step gridDim.x, with p.cut = n_tasks * alpha converted
// to int: the tasks below cut are the host threads'), loads d = data[i * blockDim.x + threadIdx.x]
// and votes atomicAdd(&l_histo[(d * bins) >> 12], 1) in shared memory, syncs, and adds its counters
// to the global histogram with atomicAdd(histo + pos, l_histo[pos]). size, bins, n_tasks are int
// parameters, alpha a float. Launch as call_Histogram_kernel from main.cpp: dimGrid(n_gpu_blocks =
// 16), dimBlock(n_gpu_threads = 256), l_mem_size = n_bins * sizeof(unsigned int) (n_bins 256),
// n_tasks = divceil(in_size, n_gpu_threads); the input holds 12-bit values (main.cpp clamps them to
// 4095), so (d * bins) >> 12 < bins. There is no guard on data[i * bD + tx]: an in_size that is not
// a multiple of 256 makes the last task read past the input on a GPU too.
//
// Translation: the Partitioner's gpu_first / gpu_more / gpu_next are the loop
// for (i = cut + blockIdx.x; i < n_tasks; i += gridDim.x), w::for_range(k, cut + bx, n_tasks, gD);
// `p.cut = p.n_tasks * alpha` (an int field set from a float) is w::convert<int>(n_tasks * alpha).
// The extern shared array is a static tile of the host's 256 counters. `unsigned int d` is a local.
// histo is an atomic<unsigned> parameter.
//
// Verdict: ACCEPTED AT COMPILE TIME under two obligations (each block-stride loop over the bins,
// pos from threadIdx.x to bins step blockDim.x, runs at most 32 trips; one trip for the host's 256
// bins and 256 threads), but REFUSED AT LAUNCH, E104, on every launch: "i1 * block_dim.x is computed
// in a 32-bit signed type and cannot be bounded for this launch" (the index i * bD + tx of
// data). The task loop starts at cut + blockIdx.x, cut = (int)(n_tasks * alpha): a float-to-int
// conversion, which the checker takes as data, so the loop counter has no lower bound and the
// product cannot be bounded. (The shared vote at the data-dependent bin (d * bins) >> 12, d a
// local loaded from data, is not the problem.) Recorded anyway, the faithful kernel has no
// conflict and its histogram equals the reference (alpha 0.2, 0 and 0.5). Minimal change: none
// inside the kernel that keeps the partitioner as written; w::max(cut, 0) still gets E104. With the
// loop starting at a bound the launch can evaluate (a scratch copy with cut = 0, i.e. alpha = 0),
// it runs clean: passing cut from the host as an int parameter would do it, a signature change.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int N_BINS = 256;  // the host's default n_bins, the size of l_mem

// __global__ void Histogram_kernel(int size, int bins, int n_tasks, float alpha, unsigned int *data, unsigned int *histo)
constexpr auto Histogram_kernel = [](auto k, auto size, auto bins, auto n_tasks, auto alpha, auto data, auto histo) {
  (void)size;
  auto tx = k.thread_id();
  auto bD = k.block_dim();
  auto gD = k.grid_dim();
  auto cut = w::convert<int>(n_tasks * alpha);  // partitioner_create: p.cut = p.n_tasks * alpha
  return w::shared<unsigned, N_BINS>(k, [&](auto k, auto l_histo) {
    return w::seq(
        // Sub-histograms initialization
        w::for_range(k, tx, bins, bD, [&](auto, auto pos) { return l_histo[pos] = 0u; }), w::sync(),
        // Main loop: for (int i = gpu_first(&p); gpu_more(&p); i = gpu_next(&p))
        w::for_range(k, cut + k.block_id(), n_tasks, gD,
                     [&](auto k, auto i) {
                       return w::local(k, data[i * bD + tx], [&](auto, auto d) {  // Global memory read
                         return w::atomic_add(l_histo[((d * bins) >> 12)], 1u);   // Atomic vote in shared memory
                       });
                     }),
        w::sync(),
        // Merge per-block histograms and write to global memory
        w::for_range(k, tx, bins, bD, [&](auto, auto pos) { return w::atomic_add(histo[pos], l_histo[pos]); }));
  });
};

using Blk = w::block<256>;
using V = w::value<int>;

}  // namespace

#define HSTI_PARAMS Blk, V, V, V, w::value<float>, w::in<unsigned>, w::atomic<unsigned>

WARDEN_KERNEL(hsti_k, w::kernel<HSTI_PARAMS>(Histogram_kernel).named("Histogram_kernel", "size", "bins", "n_tasks", "alpha", "data", "histo"));

TEST_CASE("chai HSTI Histogram_kernel: accepted at compile time, refused at launch E104 (the task loop starts at a converted "
          "float), recorded anyway, clean and equal to the reference",
          "[corpus3][chai]") {
  STATIC_REQUIRE(code_of<HSTI_PARAMS>(Histogram_kernel) == code::none);
  // The block-stride loops over the bins: W020 holds if each runs at most 32 trips (bins / 256 = 1 here).
  const std::string ob = w::obligations_of(hsti_k);
  CAPTURE(ob);
  CHECK(ob == "W020 holds if the loop over i1 from thread_id.x to bins runs at most 32 trips\n"
              "W020 holds if the loop over i1 from thread_id.x to bins runs at most 32 trips\n");
  const int n_gpu_threads = 256, n_gpu_blocks = 16, n_bins = N_BINS;
  // in_size 256 x 40 with the host's alpha 0.2 (the GPU takes tasks 8 to 39) and 0 (all of them);
  // 256 x 9 with alpha 0.5 (fewer tasks than blocks).
  for (auto [in_size, alpha] : {std::pair{256 * 40, 0.2f}, std::pair{256 * 40, 0.0f}, std::pair{256 * 9, 0.5f}}) {
    CAPTURE(in_size, alpha);
    const int n_tasks = (in_size - 1) / n_gpu_threads + 1;  // divceil
    std::vector<unsigned> input(at(in_size));
    for (int i = 0; i < in_size; ++i) input[at(i)] = (static_cast<unsigned>(i) * 2654435761u >> 9) % 4096u;
    const int cut = static_cast<int>(static_cast<float>(n_tasks) * alpha);
    std::vector<unsigned> ref(at(n_bins), 0u);
    for (int i = cut * n_gpu_threads; i < n_tasks * n_gpu_threads; ++i) ++ref[at((input[at(i)] * static_cast<unsigned>(n_bins)) >> 12)];
    auto d_in = w::to_device(input);
    auto d_histo = w::to_device(std::vector<unsigned>(at(n_bins), 0u));
    try {
      w::launch(w::on_cpu, hsti_k, w::grid(n_gpu_blocks), in_size, n_bins, n_tasks, alpha, d_in, d_histo);
      FAIL("the faithful port launched");
    } catch (const std::exception& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E104 [integer-wrap] hsti_k: i1 * block_dim.x is computed in a 32-bit signed type and "
                                                       "cannot be bounded for this launch"));
    }
    const auto r = w::record_anyway(hsti_k, w::grid(n_gpu_blocks), in_size, n_bins, n_tasks, alpha, d_in, d_histo);
    CHECK_THAT(r.refusal(), Catch::Matchers::StartsWith("E104"));
    CHECK(r.conflicts().empty());
    CHECK(w::to_host(d_histo) == ref);
  }
}
