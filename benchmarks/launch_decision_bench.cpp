// What a first (uncached) launch's checks cost as the problem grows (issue 54, item 5): every
// launch-time check of a kernel whose checker left questions to the launch, on arguments that are
// only described (tests/support/check_only.hpp: no memory, no run), at 2^10, 2^16, 2^20, 2^24 and
// 2^30 elements. The launch decides those questions as integer sets (check/launch/global_pairs.hpp),
// so the cost should stay flat; beside it, the listing the launch used before (the oracle of
// tests/support/pair_listing.hpp) over the same pairs, up to 2^20 elements.
//
//   launch_decision_bench [--benchmark_filter=...]
//
// Kernels: an in-place vignette over interleaved RGB pixels (issue 54's: x = gid % width,
// y = gid / width, img[3 * (y * width + x) + c] for c = 0..2), HeCBench's heat step and matrix
// rotation as tests/corpus2 ports them (their kernels' headers there). Each size's launch must be accepted: the benchmark fails
// (SkipWithError) where a check refuses it.
#include <warden/warden.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../tests/support/check_only.hpp"
#include "../tests/corpus2/hecbench_heat_kernel.hpp"
#include "../tests/corpus2/hecbench_matrix_rotate_kernel.hpp"
#include "../tests/support/pair_listing.hpp"

namespace w = warden;
using w::testing::buffer_of;
using w::testing::described_argument;
using w::testing::value_of;

namespace {

// Issue 54's vignette, in place: each thread darkens one pixel's three channels.
constexpr auto vignette = [](auto k, auto img, auto width, auto height) {
  auto gid = k.global_id();
  auto x = gid % width;
  auto y = gid / width;
  return w::when(gid < width * height, w::for_range(k, 0, 3, [&](auto, auto c) {
                   return img[3 * (y * width + x) + c] = img[3 * (y * width + x) + c] * 0.5f;
                 }));
};

using B256 = w::block<256>;
using U = w::value<unsigned>;
using D = w::value<double>;

}  // namespace

WARDEN_KERNEL(vignette_k, w::kernel<B256, w::inout<float>, U, U>(vignette).named("vignette", "img", "width", "height"));
WARDEN_KERNEL(heat_k, w::kernel<B256, U, D, D, D, D, D, w::in<double>, w::out<double>>(corpus2::heat_solve)
                          .named("solve", "n", "alpha", "dx", "dt", "r", "r2", "u", "u_tmp"));
WARDEN_KERNEL(rotate_k, w::kernel<B256, w::inout<float>, w::value<int>>(corpus2::rotate_matrix_parallel).named("rotate_matrix_parallel", "matrix", "n"));

namespace {

// A launch of `kernel` at about 2^log2 elements: its grid and described arguments.
struct sized_launch {
  w::detail::dims3 grid;
  std::vector<described_argument> arguments;
};

sized_launch vignette_at(int log2) {
  const unsigned width = 1u << (log2 / 2), height = 1u << (log2 - log2 / 2);
  const long long pixels = static_cast<long long>(width) * height;
  return {{static_cast<int>((pixels + 255) / 256), 1, 1}, {buffer_of(3 * pixels), value_of(width), value_of(height)}};
}
sized_launch heat_at(int log2) {
  const long long n = 1LL << (log2 / 2);
  return {{static_cast<int>((n * n + 255) / 256), 1, 1}, {value_of(n), value_of(0), value_of(0), value_of(0), value_of(0), value_of(0), buffer_of(n * n), buffer_of(n * n)}};
}
sized_launch rotate_at(int log2) {  // an n x n matrix, a thread per ring
  const long long n = 1LL << (log2 / 2);
  return {{static_cast<int>((n / 2 + 255) / 256), 1, 1}, {buffer_of(n * n), value_of(n)}};
}

template <class K>
void first_launch_check(benchmark::State& state, const K& kernel, sized_launch (*at)(int)) {
  const sized_launch l = at(static_cast<int>(state.range(0)));
  try {
    w::testing::check_only(kernel, l.grid, l.arguments);
  } catch (const w::error& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) w::testing::check_only(kernel, l.grid, l.arguments);
  state.counters["elements"] = static_cast<double>(1LL << state.range(0));
}

// The same launch's global pairs listed as the launch did before issue 54 (up to 2^22 runs of
// each access): what the solver replaced.
template <class K>
void listed_pairs(benchmark::State& state, const K& kernel, sized_launch (*at)(int)) {
  const sized_launch l = at(static_cast<int>(state.range(0)));
  const auto& definition = w::dsl::definition_of(kernel);
  const w::dsl::kernel_ir ir = definition.describe();
  w::check::launch_facts facts;
  facts.block = {K::block_type::x, K::block_type::y, K::block_type::z};
  facts.grid = l.grid;
  for (const described_argument& a : l.arguments) {
    facts.values.push_back(a.is_buffer ? std::nullopt : std::optional<long long>(a.number));
    facts.sizes.push_back(a.is_buffer ? a.number : 0);
  }
  facts.beyond.assign(l.arguments.size(), 0);
  facts.contents.resize(l.arguments.size());
  for (auto _ : state)
    for (int p = 0; p < definition.obligations.pair_count; ++p) {
      const auto& pair = definition.obligations.pairs[p];
      const auto v = w::testing::listing::global_pair_meeting(ir, facts, pair.first, pair.second);
      if (v.answer != w::check::launch_impl::pair_answer::apart) {
        state.SkipWithError("the listing did not find the pair apart");
        return;
      }
    }
  state.counters["pairs"] = definition.obligations.pair_count;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int log2 : {10, 16, 20, 24, 30}) b->Arg(log2);
  b->Unit(benchmark::kMillisecond);
}
void listed_sizes(benchmark::internal::Benchmark* b) {
  for (int log2 : {10, 16, 20}) b->Arg(log2);
  b->Unit(benchmark::kMillisecond)->Iterations(1);
}

}  // namespace

BENCHMARK_CAPTURE(first_launch_check, vignette, vignette_k, vignette_at)->Apply(sizes);
BENCHMARK_CAPTURE(first_launch_check, heat, heat_k, heat_at)->Apply(sizes);
BENCHMARK_CAPTURE(first_launch_check, rotate, rotate_k, rotate_at)->Apply(sizes);
BENCHMARK_CAPTURE(listed_pairs, vignette, vignette_k, vignette_at)->Apply(listed_sizes);
BENCHMARK_CAPTURE(listed_pairs, heat, heat_k, heat_at)->Apply(listed_sizes);
BENCHMARK_CAPTURE(listed_pairs, rotate, rotate_k, rotate_at)->Apply(listed_sizes);

BENCHMARK_MAIN();
