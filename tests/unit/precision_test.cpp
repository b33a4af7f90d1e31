// Precision (issue 14, "Precision, measured"): race-free kernels of the shapes the checker used to
// refuse, each ported from a public example and written here by hand, with the verdict the checker
// gives now, the recording's agreement (no conflict), and the racy or unbounded twin that must still
// be refused. docs/soundness.md ("Precision: before and after") tabulates them.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;

using w::testing::code_of;

// ---- 1. A barrier inside a loop orders what comes before the loop against what follows it ------
//
// The shape of a tiled matrix-vector product with a shared epilogue (after the matrixMul sample of
// NVIDIA's cuda-samples, with a bias tile): the bias is staged in shared memory before the loop over
// K-tiles, every iteration synchronises, and the epilogue reads a neighbour's bias entry. Only the
// loop's barriers order the bias store against the epilogue's load; they run, since the loop has a
// constant trip count of 4.

constexpr auto tiled_with_bias = [](auto k, auto a, auto bias, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto cb) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      auto g = k.global_id();
      return w::seq(cb[t] = bias[t],
                    w::for_range(k, 0, 4, [&](auto, auto kt) {
                      return w::seq(tile[t] = a[kt * 64 + t], w::sync(), out[g] = out[g] + tile[63 - t], w::sync());
                    }),
                    out[g] = out[g] + cb[63 - t]);
    });
  });
};
// The same with a run-time trip count: for n == 0 no barrier runs between the bias store and the
// epilogue's load of another thread's entry.
constexpr auto tiled_with_bias_runtime_trips = [](auto k, auto a, auto bias, auto out, auto n) {
  return w::shared<float, 64>(k, [&](auto k, auto cb) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      auto g = k.global_id();
      return w::seq(cb[t] = bias[t],
                    w::for_range(k, 0, n, [&](auto, auto kt) {
                      return w::seq(tile[t] = a[kt * 64 + t], w::sync(), out[g] = out[g] + tile[63 - t], w::sync());
                    }),
                    out[g] = out[g] + cb[63 - t]);
    });
  });
};
WARDEN_KERNEL(tiled_with_bias_k, w::kernel<w::block<64>, w::in<float>, w::in<float>, w::inout<float>>(tiled_with_bias));

TEST_CASE("precision: a barrier in a loop of constant trips orders the accesses around the loop", "[precision][order]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<float>, w::in<float>, w::inout<float>>(tiled_with_bias) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<float>, w::in<float>, w::inout<float>, w::value<int>>(
                     tiled_with_bias_runtime_trips) == code::W020);
  std::vector<float> a(256), bias(64), out(128, 0.f);
  std::iota(a.begin(), a.end(), 0.f);
  std::iota(bias.begin(), bias.end(), 1000.f);
  auto da = w::to_device(a);
  auto dbias = w::to_device(bias);
  auto dout = w::to_device(out);
  const w::recording r = w::record(tiled_with_bias_k, w::grid(2), da, dbias, dout);
  CHECK(r.clean());
  const std::vector<float> got = w::to_host(dout);
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 64; ++t) {
      float expect = 0.f;
      for (int kt = 0; kt < 4; ++kt) expect += a[static_cast<std::size_t>(kt * 64 + 63 - t)];
      expect += bias[static_cast<std::size_t>(63 - t)];
      CHECK(got[static_cast<std::size_t>(b * 64 + t)] == expect);
    }
}

// ---- 2. E101 relates the global id to the guards on the thread id --------------------------------
//
// The 1-D stencil of NVIDIA's "CUDA C/C++ Basics" training (radius 2): each block stages its
// elements and a halo of 2 on either side in shared memory; the first two threads load the halo,
// `in[g]` and `in[g + block + 2]`, in an input padded by the radius on both sides. The right halo
// index reaches grid * block + 3 only because t < 2: the bound must follow the guard through g.

constexpr int radius = 2;
constexpr auto stencil_1d = [](auto k, auto in, auto out) {
  return w::shared<int, 64 + 2 * radius>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t + radius] = in[g + radius],
                  w::when(t < radius, w::seq(tile[t] = in[g], tile[t + 64 + radius] = in[g + 64 + radius])), w::sync(),
                  out[g] = tile[t] + tile[t + 1] + tile[t + 2] + tile[t + 3] + tile[t + 4]);
  });
};
WARDEN_KERNEL(stencil_1d_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(stencil_1d));

TEST_CASE("precision: a halo load under a thread guard passes E101 without a redundant guard", "[precision][bounds]") {
  constexpr int blocks = 3, n = 64 * blocks;
  std::vector<int> in(n + 2 * radius);
  std::iota(in.begin(), in.end(), 0);
  auto din = w::to_device(in);
  w::device_buffer<int> dout(n);
  const w::recording r = w::record(stencil_1d_k, w::grid(blocks), din, dout);
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(dout);
  for (int i = 0; i < n; ++i) {
    int expect = 0;
    for (int d = 0; d <= 2 * radius; ++d) expect += in[static_cast<std::size_t>(i + d)];
    CHECK(got[static_cast<std::size_t>(i)] == expect);
  }
  // The padding is what keeps the halo in bounds: one element short and launch refuses (E101),
  // naming the right halo's load.
  w::device_buffer<int> short_in(static_cast<std::size_t>(n + 2 * radius - 1));
  try {
    (void)w::record(stencil_1d_k, w::grid(blocks), short_in, dout);
    FAIL("an input one element short passed E101");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("E101") && Catch::Matchers::Contains("reaches index 195"));
  }
}

// ---- 3. Shift offsets in global memory: loops of constant trips are unrolled ------------------
//
// Sequential addressing (Mark Harris, "Optimizing Parallel Reduction in CUDA", reduction #3), in
// place in global memory: at level e, thread t < 32 >> e adds a[b * 64 + t + (32 >> e)] into
// a[b * 64 + t], then a barrier. `32 >> e` is no polynomial, so the two accesses are compared once
// per pair of levels; in one level they fall in disjoint halves, across levels the barrier orders
// them, and every block stays in its own 64 elements.

constexpr auto global_tree = [](auto k, auto a) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 6, [&](auto, auto e) {
    auto half = 32 >> e;
    return w::seq(w::when(t < half, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + half]), w::sync());
  });
};
// Without the barrier, level e + 1 reads what level e stores, in one phase.
constexpr auto global_tree_no_barrier = [](auto k, auto a) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 6, [&](auto, auto e) {
    auto half = 32 >> e;
    return w::when(t < half, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + half]);
  });
};
// With t <= half, thread 32 of level 0 reads a[b * 64 + 64]: the next block's first element.
constexpr auto global_tree_one_too_many = [](auto k, auto a) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 6, [&](auto, auto e) {
    auto half = 32 >> e;
    return w::seq(w::when(t <= half, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + half]), w::sync());
  });
};
WARDEN_KERNEL(global_tree_k, w::kernel<w::block<64>, w::inout<int>>(global_tree));
WARDEN_KERNEL(global_tree_one_too_many_k, w::kernel<w::block<64>, w::inout<int>>(w::testing::trusting(global_tree_one_too_many)));

// A constant half: the two halves of each block's window are told apart by the guard alone.
constexpr auto global_half_add = [](auto k, auto a) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::when(t < 32, a[b * 64 + t] = a[b * 64 + t] + a[b * 64 + t + 32]);
};

TEST_CASE("precision: a tree reduction in global memory with shift offsets is accepted, its racy twins are not",
          "[precision][global]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(global_tree) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(global_half_add) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(global_tree_no_barrier) == code::W011);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(global_tree_one_too_many) == code::W011);
  constexpr int blocks = 3;
  std::vector<int> a(64 * blocks);
  std::iota(a.begin(), a.end(), 1);
  auto da = w::to_device(a);
  CHECK(w::record(global_tree_k, w::grid(blocks), da).clean());
  const std::vector<int> got = w::to_host(da);
  for (int b = 0; b < blocks; ++b)
    CHECK(got[static_cast<std::size_t>(b * 64)] == std::accumulate(a.begin() + b * 64, a.begin() + (b + 1) * 64, 0));
  // The twin the checker refuses does race: block b's thread 32 reads block b + 1's element 0.
  auto db = w::to_device(std::vector<int>(64 * blocks + 1, 1));
  CHECK_FALSE(w::record(global_tree_one_too_many_k, w::grid(blocks), db).clean());
}

// ---- 4. Loop bounds are facts (issue 20, safe idioms) -----------------------------------------
//
// A block-stride loop over one row per block, as softmax and layernorm rows wider than the block
// are written (`for (j = threadIdx.x; j < cols; j += blockDim.x) out[row * cols + j] = ...`), and
// one row per thread with an inner loop over a run-time count: the loop bound `j < cols` keeps
// each row inside its own window.

constexpr auto row_per_block = [](auto k, auto in, auto out, auto cols) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, t, cols, 64, [&](auto, auto j) { return out[b * cols + j] = in[b * cols + j] * 2; });
};
// One element too far: the last thread's j == cols is the next row's first element.
constexpr auto row_per_block_past_end = [](auto k, auto in, auto out, auto cols) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, t, cols + 1, 64, [&](auto, auto j) { return out[b * cols + j] = in[b * cols + j] * 2; });
};
constexpr auto row_per_thread = [](auto k, auto out, auto n) {
  auto r = k.global_id();
  return w::when(r * n < out.size(), w::for_range(k, 0, n, [&](auto, auto j) { return out[r * n + j] = r; }));
};
WARDEN_KERNEL(row_per_block_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(row_per_block));
WARDEN_KERNEL(row_per_block_past_end_k,
              w::kernel<w::block<64>, w::in<int>, w::inout<int>, w::value<int>>(w::testing::trusting(row_per_block_past_end)));
WARDEN_KERNEL(row_past_end_checked_k, w::kernel<w::block<64>, w::in<int>, w::inout<int>, w::value<int>>(row_per_block_past_end)
                                         .named("row_per_block_past_end", "in", "out", "cols"));
WARDEN_KERNEL(row_per_thread_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>(row_per_thread));

TEST_CASE("precision: a loop's bound bounds its variable (block-stride rows, rows per thread)", "[precision][loops]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(row_per_block) == code::none);
  // One element too far reads cols: the launch lists it (global_at_launch) and refuses it below.
  STATIC_REQUIRE(w::testing::left_to_launch<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(row_per_block_past_end));
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>, w::value<int>>(row_per_thread) == code::none);
  constexpr int rows = 3, cols = 150;  // rows wider than the block
  std::vector<int> in(rows * cols);
  std::iota(in.begin(), in.end(), 0);
  auto din = w::to_device(in);
  w::device_buffer<int> out(rows * cols);
  CHECK(w::record(row_per_block_k, w::grid(rows), din, out, cols).clean());
  const std::vector<int> got = w::to_host(out);
  for (int i = 0; i < rows * cols; ++i) CHECK(got[static_cast<std::size_t>(i)] == 2 * i);
  // The refused twin races: block 0's j == 150 is block 1's first element.
  auto big_in = w::to_device(std::vector<int>(rows * cols + 1, 1));
  auto big_out = w::to_device(std::vector<int>(rows * cols + 1, 0));
  CHECK_FALSE(w::record(row_per_block_past_end_k, w::grid(rows), big_in, big_out, cols).clean());
  // The checked kernel is refused by that launch, naming two threads of neighbouring blocks.
  try {
    w::launch(w::on_cpu, row_past_end_checked_k, w::grid(rows), big_in, big_out, cols);
    FAIL("launch ran one element past each row");
  } catch (const w::obligation_error& e) {
    const std::string m = e.what();
    CHECK(m.find("E106 [launch-obligation] row_past_end_checked_k: W010 for out[") == 0);
    CAPTURE(m);
    CHECK(m.find(" both reach element ") != std::string::npos);
  }
  // Rows per thread: 128 threads, rows of 5.
  w::device_buffer<int> per_thread(128 * 5);
  CHECK(w::record(row_per_thread_k, w::grid(2), per_thread, 5).clean());
  CHECK(w::to_host(per_thread)[5 * 77 + 4] == 77);
}

// ---- 5. && and || guard their right operand (issue 20, safe idioms) -----------------------------
//
// `i < in.size() && in[i] > 0` loads in[i] only where i < in.size(): on a grid that overhangs the
// buffer, launch must not refuse the load as if it ran everywhere. The other order loads first.

WARDEN_KERNEL(positive_guarded_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size() && in[i] > 0, out[i] = 1).otherwise(w::when(i < out.size(), out[i] = 0));
}));
WARDEN_KERNEL(positive_load_first_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(in[i] > 0 && i < in.size(), out[i] = 1);
}));
WARDEN_KERNEL(positive_or_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i >= in.size() || in[i] <= 0, w::seq()).otherwise(out[i] = 1);
}));

TEST_CASE("precision: the right operand of && and || runs under the left one (E101)", "[precision][bounds]") {
  std::vector<int> data(100);
  for (int i = 0; i < 100; ++i) data[static_cast<std::size_t>(i)] = i % 3 - 1;
  auto in = w::to_device(data);
  w::device_buffer<int> out(100);
  CHECK(w::record(positive_guarded_k, w::grid(2), in, out).clean());  // 128 threads, 100 elements
  const std::vector<int> got = w::to_host(out);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(i)] == (data[static_cast<std::size_t>(i)] > 0 ? 1 : 0));
  CHECK(w::record(positive_or_k, w::grid(2), in, out).clean());
  CHECK_THROWS_WITH(w::record(positive_load_first_k, w::grid(2), in, out),
                    Catch::Matchers::StartsWith("E101 [out-of-bounds] positive_load_first_k: load in[i] reaches index 127"));  // the farthest of 128 threads
}

// ---- E101 through a select (issue 32, item 3) ----------------------------------------------------
//
// A neighbour clamped by a select, as a stencil's edge is written (`i + 1 < n ? i + 1 : n - 1`):
// each arm is bounded under its side of the condition, so the load stays below n with no guard
// the original lacks. Its twin, whose arms are the wrong way round, reaches n and is refused.
constexpr auto right_neighbour = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  auto n = in.size();
  return w::when(i < n, out[i] = in[w::select(i + 1 < n, i + 1, n - 1)]);
};
constexpr auto right_neighbour_swapped = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  auto n = in.size();
  return w::when(i < n, out[i] = in[w::select(i + 1 < n, n - 1, i + 1)]);
};
WARDEN_KERNEL(right_neighbour_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(right_neighbour));
WARDEN_KERNEL(right_neighbour_swapped_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(right_neighbour_swapped));

TEST_CASE("precision: a select is bounded arm by arm under its condition (E101)", "[precision][bounds]") {
  std::vector<int> data(100);
  for (int i = 0; i < 100; ++i) data[static_cast<std::size_t>(i)] = i * 2;
  auto in = w::to_device(data);
  w::device_buffer<int> out(100);
  CHECK(w::record(right_neighbour_k, w::grid(2), in, out).clean());  // 128 threads, 100 elements
  const std::vector<int> got = w::to_host(out);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(i)] == data[static_cast<std::size_t>(std::min(i + 1, 99))]);
  CHECK_THROWS_WITH(w::record(right_neighbour_swapped_k, w::grid(2), in, out),
                    Catch::Matchers::StartsWith("E101 [out-of-bounds] right_neighbour_swapped_k: load p0["));
}

// ---- 6. A uniform switch next to a whole-warp guard (issue 20, safe idioms) ---------------------
//
// `when(t < 32 && n > 0, shuffle_down(...))`: n > 0 is the same in every thread, so the warp is
// reached whole or not at all; each conjunct is a guard of its own. With t < 16 it splits warp 0.

constexpr auto first_warp_if = [](auto k, auto a, auto n) {
  auto t = k.thread_id();
  return w::when(t < 32 && n > 0, w::shuffle_down(k, a[t], 1, [&](auto, auto other) { return a[t] = other; }));
};
constexpr auto half_warp_if = [](auto k, auto a, auto n) {
  auto t = k.thread_id();
  return w::when(t < 16 && n > 0, w::shuffle_down(k, a[t], 1, [&](auto, auto other) { return a[t] = other; }));
};
WARDEN_KERNEL(first_warp_if_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>>(first_warp_if));

TEST_CASE("precision: a whole-warp guard joined with a uniform switch reaches whole warps (W031)", "[precision][shuffle]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(first_warp_if) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(half_warp_if) == code::W031);
  std::vector<int> data(64);
  std::iota(data.begin(), data.end(), 0);
  auto a = w::to_device(data);
  CHECK(w::record(first_warp_if_k, w::grid(1), a, 1).clean());
  const std::vector<int> got = w::to_host(a);
  CHECK(got[0] == 1);
  CHECK(got[30] == 31);
  CHECK(got[40] == 40);  // the second warp did not take part
  CHECK(w::record(first_warp_if_k, w::grid(1), a, 0).clean());
}

// ---- 7. One block: barriers order accesses at indices the checker cannot follow (issue 20) ----
//
// A one-block histogram: atomics at data-dependent bins, a barrier, then plain reads of the bins.
// The kernel names no block coordinate, so launch runs one block (E102 otherwise), and the
// barrier orders every atomic before every read. Without the barrier it is W040.

constexpr auto block_histogram = [](auto k, auto in, auto hist, auto out) {
  auto t = k.thread_id();
  return w::seq(w::when(t < in.size(), w::atomic_add(hist[in[t] & 15], 1)), w::sync(), w::when(t < 16, out[t] = hist[t]));
};
constexpr auto block_histogram_no_barrier = [](auto k, auto in, auto hist, auto out) {
  auto t = k.thread_id();
  return w::seq(w::when(t < in.size(), w::atomic_add(hist[in[t] & 15], 1)), w::when(t < 16, out[t] = hist[t]));
};
WARDEN_KERNEL(block_histogram_k, w::kernel<w::block<64>, w::in<int>, w::inout<int>, w::out<int>>(block_histogram));

TEST_CASE("precision: in one block, a barrier orders atomics at loaded indices before plain reads", "[precision][atomic]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>, w::out<int>>(block_histogram) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>, w::out<int>>(block_histogram_no_barrier) == code::W040);
  std::vector<int> data(64);
  for (int i = 0; i < 64; ++i) data[static_cast<std::size_t>(i)] = i * 7;
  auto in = w::to_device(data);
  auto hist = w::to_device(std::vector<int>(16, 0));
  w::device_buffer<int> out(16);
  CHECK(w::record(block_histogram_k, w::grid(1), in, hist, out).clean());
  std::vector<int> expect(16, 0);
  for (int v : data) ++expect[static_cast<std::size_t>(v & 15)];
  CHECK(w::to_host(out) == expect);
  CHECK_THROWS_AS(w::launch(w::on_cpu, block_histogram_k, w::grid(2), in, hist, out), w::grid_error);  // one block only
}

// ---- 8. A block-uniform count held in a local (issue 20, safe idioms) ---------------------------
//
// The number of rounds is computed once into a local from a parameter and bounds a loop with
// barriers inside: a local never assigned holds its initial value, uniform when that is. A local
// that depends on the thread, or that some threads assign, is not (W030).

constexpr auto rounds_in_local = [](auto k, auto a, auto n) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, n / 4, [&](auto k, auto rounds) {
      return w::for_range(k, 0, rounds, [&](auto, auto) { return w::seq(tile[t] = a[t], w::sync(), a[t] = tile[63 - t], w::sync()); });
    });
  });
};
constexpr auto rounds_per_thread = [](auto k, auto a, auto n) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, n / 4 + t, [&](auto k, auto rounds) {
      return w::for_range(k, 0, rounds, [&](auto, auto) { return w::seq(tile[t] = a[t], w::sync(), a[t] = tile[63 - t], w::sync()); });
    });
  });
};
constexpr auto rounds_reassigned = [](auto k, auto a, auto n) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, n / 4, [&](auto k, auto rounds) {
      return w::seq(w::when(t < 3, rounds = 1), w::for_range(k, 0, rounds, [&](auto, auto) {
                      return w::seq(tile[t] = a[t], w::sync(), a[t] = tile[63 - t], w::sync());
                    }));
    });
  });
};
WARDEN_KERNEL(rounds_in_local_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>>(rounds_in_local));

TEST_CASE("precision: a local never assigned and initialised uniformly may bound a loop with barriers", "[precision][uniform]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(rounds_in_local) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(rounds_per_thread) == code::W030);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(rounds_reassigned) == code::W030);
  std::vector<int> data(64);
  std::iota(data.begin(), data.end(), 0);
  auto a = w::to_device(data);
  CHECK(w::record(rounds_in_local_k, w::grid(1), a, 12).clean());  // 3 rounds: reversed an odd number of times
  CHECK(w::to_host(a)[0] == 63);
}

// ---- 9. A per-block count broadcast through shared memory (issue 20, safe idioms) ---------------
//
// Thread 0 reads its block's count, stores it in a one-element tile, and after a barrier every
// thread loops to it with barriers inside (the shape of CSR-row and work-list kernels). Every thread
// reads the same element after the barrier that ended the only phase storing it: they all see the
// same count. The same count read from an `in` buffer at the block's index is uniform as well: the
// kernel never writes it. Refused twins: the read before the barrier (W020: thread 0's store meets
// the others' reads), a count per thread (W030), and a count from a buffer the kernel also writes
// (W030: another block may change it while this one reads).

constexpr auto broadcast_rounds = [](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::shared<int, 1>(k, [&](auto k, auto count) {
      auto t = k.thread_id();
      auto b = k.block_id();
      auto g = k.global_id();
      return w::seq(w::when(t == 0, count[0] = counts[b] % 8), w::sync(),
                    w::for_range(k, 0, count[0], [&](auto, auto) {
                      return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
                    }));
    });
  });
};
constexpr auto broadcast_without_barrier = [](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::shared<int, 1>(k, [&](auto k, auto count) {
      auto t = k.thread_id();
      auto b = k.block_id();
      auto g = k.global_id();
      return w::seq(w::when(t == 0, count[0] = counts[b] % 8),
                    w::for_range(k, 0, count[0], [&](auto, auto) {
                      return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
                    }));
    });
  });
};
constexpr auto count_per_thread = [](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::shared<int, 2>(k, [&](auto k, auto count) {
      auto t = k.thread_id();
      auto b = k.block_id();
      auto g = k.global_id();
      return w::seq(w::when(t < 2, count[t] = counts[b] % 8 + t), w::sync(),
                    w::for_range(k, 0, count[t % 2], [&](auto, auto) {
                      return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
                    }));
    });
  });
};
constexpr auto rounds_from_input = [](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::for_range(k, 0, counts[k.block_id()] % 8, [&](auto, auto) {
      return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
    });
  });
};
// The counts are written by the kernel itself: thread 0 bumps its block's count while the other
// threads read it, so they may run different numbers of rounds.
constexpr auto rounds_from_written = [](auto k, auto counts, auto a) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto b = k.block_id();
    auto g = k.global_id();
    return w::seq(w::when(t == 0, counts[b] = counts[b] + 1), w::for_range(k, 0, counts[b] % 8, [&](auto, auto) {
                    return w::seq(tile[t] = a[g], w::sync(), a[g] = tile[63 - t], w::sync());
                  }));
  });
};
WARDEN_KERNEL(broadcast_rounds_k, w::kernel<w::block<64>, w::in<int>, w::inout<int>>(broadcast_rounds));
WARDEN_KERNEL(rounds_from_input_k, w::kernel<w::block<64>, w::in<int>, w::inout<int>>(rounds_from_input));

TEST_CASE("precision: a count broadcast through shared memory, or read from an input, may bound a loop with barriers",
          "[precision][uniform]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>>(broadcast_rounds) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>>(broadcast_without_barrier) == code::W020);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>>(count_per_thread) == code::W030);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::inout<int>>(rounds_from_input) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::inout<int>>(rounds_from_written) == code::W030);
  // Block 0 reverses its 64 elements 3 times (odd: reversed), block 1 twice (unchanged).
  std::vector<int> data(128);
  std::iota(data.begin(), data.end(), 0);
  auto counts = w::to_device(std::vector<int>{3, 2});
  for (int variant = 0; variant < 2; ++variant) {
    auto a = w::to_device(data);
    const auto r = variant == 0 ? w::record(broadcast_rounds_k, w::grid(2), counts, a)
                                : w::record(rounds_from_input_k, w::grid(2), counts, a);
    CHECK(r.clean());
    const std::vector<int> got = w::to_host(a);
    CHECK(got[0] == 63);
    CHECK(got[63] == 0);
    CHECK(got[64] == 64);
  }
}

// ---- 10. A halving tree whose number of levels is a parameter (issue 20, safe idioms) ----------
//
// `for level < levels: s = 128 >> level; when(t < s, tile[t] += tile[t + s]); sync()`, with
// levels a value<int> (Harris's reduction #3 with the depth passed in). Taken as "some iteration"
// of a loop the launch bounds, `t + s` is unknown and seems to meet every store; listed level by
// level it meets none. The checker lists the first 32 levels, accepts, and the kernel carries the
// obligation that the loop runs at most 32 trips, which launch checks (E106). Refused twins: no
// barrier per level (W021), the guard `t <= s` (W020), each explained by a meeting that happens.

constexpr auto tree_levels = [](auto k, auto in, auto out, auto levels) {
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_range(k, 0, levels, [&](auto, auto level) {
                    auto s = 128 >> level;
                    return w::seq(w::when(t < s, tile[t] = tile[t] + tile[t + s]), w::sync());
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
constexpr auto tree_levels_no_barrier = [](auto k, auto in, auto out, auto levels) {
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_range(k, 0, levels, [&](auto, auto level) {
                    auto s = 128 >> level;
                    return w::when(t < s, tile[t] = tile[t] + tile[t + s]);
                  }),
                  w::sync(), w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
constexpr auto tree_levels_overlap = [](auto k, auto in, auto out, auto levels) {
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_range(k, 0, levels, [&](auto, auto level) {
                    auto s = 128 >> level;
                    return w::seq(w::when(t <= s && t + s < 256, tile[t] = tile[t] + tile[t + s]), w::sync());
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
WARDEN_KERNEL(tree_levels_k, w::kernel<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(tree_levels));

TEST_CASE("precision: a halving tree over a parameter's number of levels is accepted with a launch obligation (E106)",
          "[precision][obligation]") {
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(tree_levels) == code::none);
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(tree_levels_no_barrier) == code::W021);
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(tree_levels_overlap) == code::W020);
  // The obligation, as a user can print it.
  CHECK(w::obligations_of(tree_levels_k) == "W020 holds if the loop over i1 from 0 to p2 runs at most 32 trips\n");
  // The explanation of a racy twin names a meeting that happens: at level 1 (s = 64), thread 0
  // reads element 64 while thread 64 (t <= s) stores it.
  constexpr auto overlap = w::check::verdict_of(w::dsl::build_kernel<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(tree_levels_overlap));
  CHECK(std::string(overlap.text.data).find("threads 0 and 64 meet at element 64") != std::string::npos);
  // Runs and sums, for every depth up to the limit; 8 levels sum a block.
  std::vector<int> data(600);
  std::iota(data.begin(), data.end(), 1);
  auto in = w::to_device(data);
  w::device_buffer<int> out(3);
  CHECK(w::record(tree_levels_k, w::grid(3), in, out, 8).clean());
  CHECK(w::to_host(out)[0] == 256 * 257 / 2);
  CHECK(w::record(tree_levels_k, w::grid(3), in, out, 32).clean());
  CHECK(w::record(tree_levels_k, w::grid(3), in, out, 0).clean());
  // Past the limit: refused before anything runs, naming the loop, the rule and the value.
  try {
    w::launch(w::on_cpu, tree_levels_k, w::grid(3), in, out, 33);
    FAIL("launch ran with 33 levels");
  } catch (const w::obligation_error& e) {
    const std::string m = e.what();
    CHECK(m.find("E106 [launch-obligation] tree_levels_k") == 0);
    CHECK(m.find("may run 33 trips for this launch (p2 = 33)") != std::string::npos);
    CHECK(m.find("proved W020 for at most 32 trips") != std::string::npos);
  }
}

// ---- E101 through more guards (issue 21, item 4): ports that needed a redundant guard --------------

// PolyBench fdtd-2d's first row: `if (i == 0) ... else ey[i] -= hz[i - 1]`; the otherwise branch of
// i == 0, with i >= 0, has i >= 1.
constexpr auto first_row_apart = [](auto k, auto ey, auto hz, auto n) {
  auto i = k.global_id();
  return w::when(i < n, w::when(i == 0, ey[i] = 1).otherwise(ey[i] = ey[i] - hz[i - 1]));
};
// cuda-samples convolutionRows' guard `imageW - baseX > c`: bounds baseX through the difference.
constexpr auto row_tail = [](auto k, auto src, auto dst, auto width) {
  auto base = k.block_id() * 64 + k.thread_id() - 16;
  return w::when(width - base > 16 && base + 16 >= 0, dst[base + 16] = src[base + 16]);
};
// Their overrunning twins: the branch that includes i == 0, and a guard one element too loose.
constexpr auto first_row_included = [](auto k, auto ey, auto hz, auto n) {
  auto i = k.global_id();
  return w::when(i < n, w::when(i == 1, ey[i] = 1).otherwise(ey[i] = ey[i] - hz[i - 1]));
};
constexpr auto row_tail_loose = [](auto k, auto src, auto dst, auto width) {
  auto base = k.block_id() * 64 + k.thread_id() - 16;
  return w::when(width - base > 15 && base + 16 >= 0, dst[base + 16] = src[base + 16]);
};
WARDEN_KERNEL(first_row_apart_k, w::kernel<w::block<64>, w::inout<int>, w::in<int>, w::value<int>>(first_row_apart));
WARDEN_KERNEL(row_tail_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(row_tail));
WARDEN_KERNEL(first_row_included_k, w::kernel<w::block<64>, w::inout<int>, w::in<int>, w::value<int>>(first_row_included));
WARDEN_KERNEL(row_tail_loose_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(row_tail_loose));

TEST_CASE("precision: != and differences narrow what E101 sees, their loose twins overrun", "[precision][bounds]") {
  auto ey = w::to_device(std::vector<int>(100, 0));
  auto hz = w::to_device(std::vector<int>(100, 1));
  CHECK(w::record(first_row_apart_k, w::grid(2), ey, hz, 100).clean());
  const std::vector<int> got = w::to_host(ey);
  CHECK(got[0] == 1);
  CHECK(got[99] == -1);
  CHECK_THROWS_AS(w::launch(w::on_cpu, first_row_included_k, w::grid(2), ey, hz, 100), w::bounds_error);

  auto src = w::to_device(std::vector<int>(100, 7));
  w::device_buffer<int> dst(100);
  CHECK(w::record(row_tail_k, w::grid(2), src, dst, 100).clean());
  CHECK(w::to_host(dst) == std::vector<int>(100, 7));
  CHECK_THROWS_AS(w::launch(w::on_cpu, row_tail_loose_k, w::grid(2), src, dst, 100), w::bounds_error);
}

// ---- Loaded values in the launch's integer sets (issue 56) -------------------------------------
//
// A column-major neighbour gather (Rodinia's srad): row and col of element e are selects on
// `(e + 1) % rows == 0`, and the neighbour's row comes from a table the kernel only reads. The
// intervals take the select's side `(e + 1) / rows - 1` at e = 0 (it is -1 there, but that side is
// taken only where e + 1 >= rows); the launch's integer set holds the select with its condition and
// the table's load as a value within what it measured. Its twin: a table that points past the
// last row is refused, the message naming the element it may reach.
constexpr auto column_gather = [](auto k, auto up, auto img, auto out, auto rows) {
  auto e = k.global_id();
  auto row = w::select((e + 1) % rows == 0, rows - 1, (e + 1) % rows - 1);
  auto col = w::select((e + 1) % rows == 0, (e + 1) / rows - 1, (e + 1) / rows);
  return w::when(e < out.size(), out[e] = img[up[row] + rows * col]);
};
WARDEN_KERNEL(column_gather_k, w::kernel<w::block<64>, w::in<int>, w::in<int>, w::out<int>, w::value<int>>(column_gather)
                                   .named("column_gather", "up", "img", "out", "rows"));

// Per-block bins in shared memory (Chai's HSTO): a thread votes for a loaded value d at
// `d - start` only where start <= d < end, start moving with the block. The footprint cannot follow
// d (data) and the intervals lose that d and start move together; the integer set keeps it. Its
// twin drops the lower guard: d below start wraps to a huge row, refused.
constexpr auto block_bins = [](auto k, auto data, auto bins, auto per_block) {
  auto start = k.block_id() * per_block;
  return w::shared<unsigned, 64>(k, [&](auto k, auto votes) {
    return w::seq(w::when(k.thread_id() < per_block, votes[k.thread_id()] = 0u), w::sync(),
                  w::local(k, data[k.global_id()], [&](auto, auto d) {
                    return w::when(d >= start && d < start + per_block, w::atomic_add(votes[d - start], 1u));
                  }),
                  w::sync(), w::when(k.thread_id() < per_block, bins[start + k.thread_id()] = votes[k.thread_id()]));
  });
};
constexpr auto block_bins_one_sided = [](auto k, auto data, auto bins, auto per_block) {
  auto start = k.block_id() * per_block;
  return w::shared<unsigned, 64>(k, [&](auto k, auto votes) {
    return w::seq(w::when(k.thread_id() < per_block, votes[k.thread_id()] = 0u), w::sync(),
                  w::local(k, data[k.global_id()], [&](auto, auto d) {
                    return w::when(d < start + per_block, w::atomic_add(votes[d - start], 1u));
                  }),
                  w::sync(), w::when(k.thread_id() < per_block, bins[start + k.thread_id()] = votes[k.thread_id()]));
  });
};
WARDEN_KERNEL(block_bins_k, w::kernel<w::block<64>, w::in<unsigned>, w::out<unsigned>, w::value<unsigned>>(block_bins)
                                .named("block_bins", "data", "bins", "per_block"));
WARDEN_KERNEL(block_bins_one_sided_k, w::kernel<w::block<64>, w::in<unsigned>, w::out<unsigned>, w::value<unsigned>>(block_bins_one_sided)
                                          .named("block_bins", "data", "bins", "per_block"));

TEST_CASE("precision: loaded values in the launch's integer sets decide a select's side and a guarded difference",
          "[precision][bounds][data]") {
  const int rows = 10, cols = 7, n = rows * cols;
  std::vector<int> up(rows), img(n);
  for (int r = 0; r < rows; ++r) up[static_cast<std::size_t>(r)] = r == 0 ? 0 : r - 1;
  for (int e = 0; e < n; ++e) img[static_cast<std::size_t>(e)] = e * 3;
  auto d_up = w::to_device(up);
  auto d_img = w::to_device(img);
  w::device_buffer<int> out(n);
  CHECK(w::record(column_gather_k, w::grid_for(n), d_up, d_img, out, rows).clean());
  const std::vector<int> got = w::to_host(out);
  for (int e = 0; e < n; ++e) {
    const int row = (e + 1) % rows == 0 ? rows - 1 : (e + 1) % rows - 1, col = (e + 1) % rows == 0 ? (e + 1) / rows - 1 : (e + 1) / rows;
    REQUIRE(got[static_cast<std::size_t>(e)] == img[static_cast<std::size_t>(up[static_cast<std::size_t>(row)] + rows * col)]);
  }
  up[rows - 1] = rows;  // the last row's neighbour one past the image's last row
  auto bad_up = w::to_device(up);
  try {
    w::launch(w::on_cpu, column_gather_k, w::grid_for(n), bad_up, d_img, out, rows);
    FAIL("a neighbour past the image ran");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] column_gather_k: load img[up["));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("but img (parameter 1, in) has 70 elements; up holds 0 to 10"));
  }

  const unsigned per_block = 40, blocks = 3;
  std::vector<unsigned> data(blocks * 64);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned>((i * 37) % 150);
  auto d_data = w::to_device(data);
  w::device_buffer<unsigned> bins(per_block * blocks);
  CHECK(w::record(block_bins_k, w::grid(blocks), d_data, bins, per_block).clean());
  std::vector<unsigned> want(per_block * blocks, 0);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t t = 0; t < 64; ++t) {
      const unsigned d = data[b * 64 + t];
      if (d >= b * per_block && d < (b + 1) * per_block) ++want[d];
    }
  CHECK(w::to_host(bins) == want);
  try {
    w::launch(w::on_cpu, block_bins_one_sided_k, w::grid(blocks), d_data, bins, per_block);
    FAIL("a vote below the block's first bin ran");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101 [out-of-bounds] block_bins_one_sided_k: atomic update"));
  }
}
