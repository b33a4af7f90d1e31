// The bitonic sort step that course repositories copy (issue 56, item 2: "XOR with a loop's power
// of two as the launch's integer questions"). Ported as written from
// NTNU-HPC-Lab/LS-CAT, data/kernels/9688/2/bitonic_sort_step.cu, which is the kernel of the gist
// mre/1392067 ("Parallel bitonic sort using CUDA ... Based on
// http://www.tools-of-computing.com/tc/CS/Sorts/bitonic_sort.htm, License: BSD 3"), with the
// gist's host loops:
//
//   for (k = 2; k <= NUM_VALS; k <<= 1)
//     for (j = k >> 1; j > 0; j = j >> 1)
//       bitonic_sort_step<<<BLOCKS, THREADS>>>(dev_values, j, k);
//
// Thread i compares dev_values[i] with its partner dev_values[i ^ j] where i ^ j > i, and swaps
// them into ascending order where bit k of i is clear, descending where it is set. Two threads
// never touch one element: the partners {i, i ^ j} of one launch are disjoint pairs, and only the
// lower of each pair stores. j and k are launch values, so the static rules cannot separate
// dev_values[i] from dev_values[i ^ j]; the launch decides each pair with its numbers (i ^ j with
// j known is a set of linear pieces for the integer set library).
//
// Translation: `unsigned int i, ixj` are unsigned expressions (w::convert<unsigned> of the int
// index, as the assignment converts it; `i ^ j` and `i & k` then compute in unsigned, as C++ does
// with the int j and k); `float temp = dev_values[i]` is a w::local. THREADS and BLOCKS are the
// gist's 512 and, for the cpu backend, 4 blocks (2048 values) instead of 32768.
//
// Verdict: accepted with the pairs of dev_values left to the launch, and every launch of the host
// loops runs, clean, the array sorted at the end. The careless twin that drops the guard
// `ixj > i` (both partners swap) is refused at its first launch, E106 naming a pair that meets.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

constexpr int THREADS = 512, BLOCKS = 4, NUM_VALS = THREADS * BLOCKS;

// __global__ void bitonic_sort_step(float *dev_values, int j, int k)
template <bool guarded = true>
constexpr auto bitonic_sort_step = [](auto kc, auto dev_values, auto j, auto k) {
  auto i = w::convert<unsigned>(kc.thread_id() + kc.block_dim() * kc.block_id());
  auto ixj = i ^ j;
  auto exchange = [&] {
    return w::local(kc, dev_values[i], [&](auto, auto temp) { return w::seq(dev_values[i] = dev_values[ixj], dev_values[ixj] = temp); });
  };
  auto body = w::seq(w::when((i & k) == 0, w::when(dev_values[i] > dev_values[ixj], exchange())),   // Sort ascending
                     w::when((i & k) != 0, w::when(dev_values[i] < dev_values[ixj], exchange())));  // Sort descending
  if constexpr (guarded) return w::when((ixj) > i, body);
  else return body;
};


}  // namespace

#define BITONIC_PARAMS w::block<THREADS>, w::inout<float>, w::value<int>, w::value<int>

WARDEN_KERNEL(bitonic_step, w::kernel<BITONIC_PARAMS>(bitonic_sort_step<>).named("bitonic_sort_step", "dev_values", "j", "k"));
WARDEN_KERNEL(bitonic_step_unguarded, w::kernel<BITONIC_PARAMS>(bitonic_sort_step<false>).named("bitonic_sort_step", "dev_values", "j", "k"));

TEST_CASE("bitonic_sort_step (gist mre/1392067): partners i ^ j decided by the launch, every step of the host loops runs, clean, and sorts", "[bitonic][xor]") {
  STATIC_REQUIRE(code_of<BITONIC_PARAMS>(bitonic_sort_step<>) == code::none);
  const std::string ob = w::obligations_of(bitonic_step);
  CAPTURE(ob);
  CHECK(ob.find("dev_values[(") != std::string::npos);
  CHECK(ob.find(" ^ j]") != std::string::npos);
  std::vector<float> values(NUM_VALS);
  for (int x = 0; x < NUM_VALS; ++x) values[static_cast<std::size_t>(x)] = static_cast<float>((x * 7919) % 1009) / 1009.f;
  auto dev_values = w::to_device(values);
  int launches = 0;
  for (int k = 2; k <= NUM_VALS; k <<= 1)
    for (int j = k >> 1; j > 0; j = j >> 1) {
      CAPTURE(k, j);
      CHECK(w::record(bitonic_step, w::grid(BLOCKS), dev_values, j, k).clean());
      ++launches;
    }
  CHECK(launches == 66);  // 11 stages, 1 + 2 + ... + 11 steps
  std::vector<float> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  CHECK(w::to_host(dev_values) == sorted);
}

TEST_CASE("bitonic_sort_step without `ixj > i`: both partners swap, refused at the first launch with the pair that meets", "[bitonic][xor]") {
  std::vector<float> values(NUM_VALS, 1.f);
  auto dev_values = w::to_device(values);
  const std::string race = w::testing::refusal_of([&] { w::launch(bitonic_step_unguarded, w::grid(BLOCKS), dev_values, 1, 2); });
  CAPTURE(race);
  CHECK(race.rfind("E106", 0) == 0);
  CHECK(race.find("dev_values[") != std::string::npos);
  CHECK(race.find("both reach element") != std::string::npos);
}
