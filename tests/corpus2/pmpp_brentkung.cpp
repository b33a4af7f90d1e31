// "Programming Massively Parallel Processors", 3rd edition, chapter 8, the Brent-Kung scan (a
// reduction tree up, a distribution tree down, in place in shared memory), as published in
// nvixnu/pmpp__programming_massively_parallel_processors, src/chapter_8/ch8__partial_prefix_sum.cu
// (commit 4e4c3993), kernel ch8__brent_kung_scan_by_block_kernel, ported by hand. Each step
// updates section_sums[idx] with idx = (threadIdx.x + 1) * 2 * stride - 1 (up) or
// section_sums[idx + stride] (down), one barrier per step. length is the kernel's int parameter.
// Launch as ch8__partial_prefix_sum_device: block_dim = maxThreadsDim[0] (1024), grid_dim =
// ceil(length / block_dim), block_dim doubles of shared memory (extern __shared__; a static tile
// of 1024 here). last_sum is NULL at every launch in the file, so the branch on it never runs; the
// port leaves out the parameter and the dead branch. Language pieces: the doubling loop
// (stride = 1; stride < blockDim.x; stride *= 2) is a loop over l with stride = 1 << l; the halving
// one from blockDim.x / 4 is w::for_halving from 256.
//
// ACCEPTED, no launch obligation: within a step the stored elements ((t + 1) * 2 * stride - 1 up,
// that plus stride down) and the loaded ones (stride before them) never meet, and every step
// begins with a barrier. Runs clean on whole 1024-element sections and matches a sectioned scan.
// A length that is not a multiple of 1024 is refused at launch, E101, rightly: output[tid] has no
// guard and the last block would store past the end (as it would on a GPU).
#include "../corpus/corpus.hpp"

#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int block_dim = 1024;  // maxThreadsDim[0]

// __global__ void ch8__brent_kung_scan_by_block_kernel(double *input, double *output,
//                                                      const int length, double *last_sum)
constexpr auto brent_kung_by_block = [](auto k, auto input, auto output, auto length) {
  return w::shared<double, block_dim>(k, [&](auto k, auto section_sums) {  // extern __shared__ double section_sums[]
    auto t = k.thread_id();
    auto tid = k.block_id() * k.block_dim() + t;
    return w::seq(w::when(tid < length, section_sums[t] = input[tid]), w::sync(),
                  w::for_range(k, 0, 10, [&](auto, auto l) {  // stride = 1, 2, ..., 512 (stride < blockDim.x)
                    auto stride = 1 << l;
                    auto idx = (t + 1) * 2 * stride - 1;
                    return w::seq(w::sync(), w::when(idx < k.block_dim(), section_sums[idx] += section_sums[idx - stride]));
                  }),
                  w::for_halving(k, block_dim / 4, [&](auto, auto stride) {  // stride = blockDim.x / 4, ..., 1
                    auto idx = (t + 1) * 2 * stride - 1;
                    return w::seq(w::sync(), w::when((idx + stride) < k.block_dim(), section_sums[idx + stride] += section_sums[idx]));
                  }),
                  w::sync(), output[tid] = section_sums[t]);
  });
};

using Blk = w::block<block_dim>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(brent_kung_k, w::kernel<Blk, w::in<double>, w::out<double>, V>(brent_kung_by_block)
                                .named("ch8__brent_kung_scan_by_block_kernel", "input", "output", "length"));

TEST_CASE("corpus2 pmpp Brent-Kung scan by block: accepted, clean on whole sections, equal to the reference", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<Blk, w::in<double>, w::out<double>, V>(brent_kung_by_block) == code::none);
  const std::string ob = w::obligations_of(brent_kung_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  for (int length : {1024, 3072}) {
    CAPTURE(length);
    std::vector<double> in(at(length)), ref(at(length));
    double acc = 0.;
    for (int i = 0; i < length; ++i) {
      if (i % block_dim == 0) acc = 0.;  // a scan of each 1024-element section
      in[at(i)] = static_cast<double>(i % 7) - 2.5;
      ref[at(i)] = acc += in[at(i)];
    }
    auto d_in = w::to_device(in);
    w::device_buffer<double> d_out(at(length));
    CHECK(w::record(brent_kung_k, w::grid((length + block_dim - 1) / block_dim), d_in, d_out, length).clean());
    corpus::check_close(w::to_host(d_out), ref, 1e-9);
  }
  // A length that is not whole sections: output[tid] has no guard, so the last block would store
  // past output's end; refused, E101.
  auto d_in = w::to_device(std::vector<double>(1500, 1.));
  w::device_buffer<double> d_out(1500);
  try {
    (void)w::record(brent_kung_k, w::grid((1500 + block_dim - 1) / block_dim), d_in, d_out, 1500);
    FAIL("length 1500 launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("output"));
  }
}
