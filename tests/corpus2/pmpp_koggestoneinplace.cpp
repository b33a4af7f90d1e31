// "Programming Massively Parallel Processors", 3rd edition, chapter 8: the Kogge-Stone scan that
// adds in place, XY[threadIdx.x] += XY[threadIdx.x - stride] after one barrier per step, as
// published in nvixnu/pmpp__programming_massively_parallel_processors,
// src/chapter_8/ch8__partial_prefix_sum.cu (commit 4e4c3993), kernel
// ch8__kogge_stone_scan_by_block_kernel, ported by hand. RACY as written (the 4th edition adds a
// second barrier and a temporary to fix exactly this): in one step, thread t stores
// section_sums[t] while thread t + stride loads section_sums[t], with no barrier between them, so
// t + stride may add the value before or after t's update.
//
// Launch as ch8__partial_prefix_sum_device: block_dim = maxThreadsDim[0] (1024),
// grid_dim = ceil(length / block_dim), shared memory block_dim doubles (extern __shared__; a
// static tile of 1024 here). length is the kernel's int parameter. The last_sum parameter is NULL
// at every launch in the file, so its branch (if last_sum != NULL && ...) never runs; the port
// leaves out the parameter and the dead branch.
//
// REFUSED at compile time, W020 [shared-race]: the load section_sums[t - stride] and the store
// section_sums[t] in one phase, as a GPU would race. Recorded without the race rules on one block
// (length 1024), the run reports read-write races on the tile and its result is not the scan.
#include "../corpus/corpus.hpp"

#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int block_dim = 1024;  // maxThreadsDim[0]

// __global__ void ch8__kogge_stone_scan_by_block_kernel(double *input, double *output,
//                                                       const int length, double *last_sum)
constexpr auto kogge_stone_by_block = [](auto k, auto input, auto output, auto length) {
  return w::shared<double, block_dim>(k, [&](auto k, auto section_sums) {  // extern __shared__ double section_sums[]
    auto t = k.thread_id();
    auto tid = k.block_id() * k.block_dim() + t;
    return w::seq(w::when(tid < length, section_sums[t] = input[tid]),
                  w::for_range(k, 0, 10, [&](auto, auto l) {  // stride = 1, 2, ..., 512 (stride < blockDim.x)
                    auto stride = 1 << l;
                    return w::seq(w::sync(), w::when(t >= stride, section_sums[t] += section_sums[t - stride]));
                  }),
                  output[tid] = section_sums[t]);
  });
};

using Blk = w::block<block_dim>;
using V = w::value<int>;

}  // namespace

// The original as written, without the race rules, to record it.
WARDEN_KERNEL(kogge_stone_unchecked, w::kernel<Blk, w::in<double>, w::out<double>, V>(w::testing::trusting(kogge_stone_by_block))
                                         .named("ch8__kogge_stone_scan_by_block_kernel", "input", "output", "length"));

TEST_CASE("corpus2 pmpp Kogge-Stone in place (3rd edition): racy, refused W020, the recording shows the race", "[corpus2][pmpp]") {
  // The load section_sums[t - stride] and the store section_sums[t] of one step meet: thread t
  // stores element t while thread t + stride loads it, in one barrier phase.
  STATIC_REQUIRE(code_of<Blk, w::in<double>, w::out<double>, V>(kogge_stone_by_block) == code::W020);

  // One block, length = 1024 (the launch ch8__partial_prefix_sum_device makes for 1024 elements).
  const int length = block_dim;
  std::vector<double> in(at(length)), scan(at(length));
  double acc = 0.;
  for (int i = 0; i < length; ++i) in[at(i)] = static_cast<double>(i % 5 + 1), scan[at(i)] = acc += in[at(i)];
  auto d_in = w::to_device(in);
  w::device_buffer<double> d_out(at(length));
  const auto r = w::record(kogge_stone_unchecked, w::grid((length + block_dim - 1) / block_dim), d_in, d_out, length);
  CHECK_FALSE(r.clean());
  bool read_write_on_tile = false;
  for (const auto& c : r.conflicts())
    if (c.kind == w::conflict_kind::read_write && c.first.memory == w::dsl::memory_kind::shared) read_write_on_tile = true;
  CHECK(read_write_on_tile);
  CHECK(w::testing::named_pair_meets<Blk, w::in<double>, w::out<double>, V>(kogge_stone_by_block, r));  // W020's pair
  // The cpu backend runs each statement for thread 0, 1, 2, ... in turn, so every thread adds a
  // neighbour that was already updated in the same step: one of the orders a GPU may pick, and
  // not the scan.
  CHECK(w::to_host(d_out) != scan);
}
