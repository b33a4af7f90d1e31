// Every construct of the kernel language, run on the default backend and checked against plain
// C++. Compiled by the host compiler (cpu backend) and, as kernel_test_cuda.cu, by nvcc (the GPU
// where there is one).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace w = warden;

namespace {

std::vector<int> iota(std::size_t n, int first = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

// A user function object: pure math on values, callable on host and device.
struct smoothstep {
  WARDEN_HOST_DEVICE constexpr float operator()(float x) const {
    const float t = x < 0.f ? 0.f : (x > 1.f ? 1.f : x);
    return t * t * (3.f - 2.f * t);
  }
};

}  // namespace

WARDEN_KERNEL(saxpy_k, w::kernel<w::block<128>, w::in<float>, w::inout<float>, w::value<float>>(
                           [](auto k, auto x, auto y, auto a) {
                             auto i = k.global_id();
                             return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
                           }));

TEST_CASE("a guarded elementwise map, at a size that is not a multiple of the block", "[kernel]") {
  std::vector<float> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i) x[i] = 0.25f * i, y[i] = 1.f + i;
  auto dx = w::to_device(x);
  auto dy = w::to_device(y);
  w::launch(saxpy_k, w::grid_for(1000), dx, dy, 4.f);
  const auto r = w::to_host(dy);
  for (int i = 0; i < 1000; ++i) REQUIRE(r[i] == Approx(4.f * x[i] + y[i]));
}

WARDEN_KERNEL(integer_ops_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  auto v = in[i];
  return w::when(i < in.size(),
                 out[i] = ((v * 3 + 1) % 7 ^ (i << 1)) + (v >> 2) - (v & 5) + (v | 8) + w::min(v, 50) -
                          w::max(v, 60) + (v / 3) + ((v > 10 && v <= 40) || v == 99) + (v != 7) - (-v));
}));

TEST_CASE("integer arithmetic, bitwise, comparison and logical operators follow C++", "[kernel][expr]") {
  const auto in = iota(200);
  auto din = w::to_device(in);
  w::device_buffer<int> dout(200);
  w::launch(integer_ops_k, w::grid_for(200), din, dout);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 200; ++i) {
    const int v = in[i];
    const int expected = ((v * 3 + 1) % 7 ^ (i << 1)) + (v >> 2) - (v & 5) + (v | 8) + std::min(v, 50) -
                         std::max(v, 60) + (v / 3) + ((v > 10 && v <= 40) || v == 99) + (v != 7) - (-v);
    REQUIRE(out[i] == expected);
  }
}

WARDEN_KERNEL(promotion_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<double>, w::value<double>>(
                               [](auto k, auto a, auto b, auto out, auto scale) {
                                 auto i = k.global_id();
                                 // int * float is float, float * double is double: C++'s promotions.
                                 return w::when(i < out.size(), out[i] = a[i] * b[i] * scale + w::call(smoothstep{}, b[i]));
                               }));

TEST_CASE("mixed types promote as in C++, and user functions are called on values", "[kernel][expr]") {
  const auto a = iota(40, -5);
  std::vector<float> b(40);
  for (int i = 0; i < 40; ++i) b[i] = 0.05f * i - 0.5f;
  auto da = w::to_device(a);
  auto db = w::to_device(b);
  w::device_buffer<double> dout(40);
  w::launch(promotion_k, w::grid_for(40), da, db, dout, 0.5);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 40; ++i) REQUIRE(out[i] == Approx(static_cast<double>(a[i] * b[i]) * 0.5 + smoothstep{}(b[i])));
}

// Floating-point constants outside long long's range (a max-reduction's -INFINITY, 1e30f) are
// fine in kernels: the description keeps no value for them that would overflow.
WARDEN_KERNEL(extreme_constants_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = w::max(w::min(in[i], 1e30f), -INFINITY));
}));

TEST_CASE("floating-point constants beyond the integer range compile and keep their value", "[kernel][expr]") {
  const std::vector<float> in{-INFINITY, -1.f, 0.f, 2.5f, 1e31f};
  auto din = w::to_device(in);
  w::device_buffer<float> dout(in.size());
  w::launch(extreme_constants_k, w::grid_for(in.size()), din, dout);
  const auto out = w::to_host(dout);
  REQUIRE(out == std::vector<float>{-INFINITY, -1.f, 0.f, 2.5f, 1e30f});
}

WARDEN_KERNEL(clamp_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(),
                 w::when(in[i] < 0.f, out[i] = 0.f).otherwise(w::when(in[i] > 1.f, out[i] = 1.f).otherwise(out[i] = in[i])));
}));

TEST_CASE("when / otherwise, nested", "[kernel][stmt]") {
  std::vector<float> in(100);
  for (int i = 0; i < 100; ++i) in[i] = 0.03f * i - 1.f;
  auto din = w::to_device(in);
  w::device_buffer<float> dout(100);
  w::launch(clamp_k, w::grid_for(100), din, dout);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 100; ++i) REQUIRE(out[i] == std::clamp(in[i], 0.f, 1.f));
}

// CUDA's fast-math intrinsics as expressions (rsqrtf, __fdividef, __expf on the device; the precise
// functions on the host): within their documented error of the plain C++.
WARDEN_KERNEL(fast_math_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = w::fast::rsqrt(1.f + in[i] * in[i]) + w::fast::divide(in[i], 3.f) +
                                         w::fast::exp(0.1f * in[i]));
}));

TEST_CASE("fast-math intrinsics: rsqrt, divide, exp", "[kernel][math]") {
  std::vector<float> in(100);
  for (int i = 0; i < 100; ++i) in[i] = 0.25f * i - 12.f;
  auto din = w::to_device(in);
  w::device_buffer<float> dout(100);
  w::launch(fast_math_k, w::grid_for(100), din, dout);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 100; ++i)
    REQUIRE(out[i] == Approx(1.f / std::sqrt(1.f + in[i] * in[i]) + in[i] / 3.f + std::exp(0.1f * in[i])).epsilon(1e-4));
}

// An atomic on an element taken as another integer type of its size (CUDA's
// `atomicInc((unsigned*)&counts[k], 4)` on an int buffer): w::as<unsigned>(counts[k]).
WARDEN_KERNEL(wrap_count_k, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto keys, auto counts) {
  auto i = k.global_id();
  return w::when(i < keys.size(), w::atomic_inc(w::as<unsigned>(counts[keys[i]]), 4u));
}));

TEST_CASE("atomics on an element reinterpreted as its unsigned kind", "[kernel][atomic]") {
  std::vector<int> keys(200);
  for (int i = 0; i < 200; ++i) keys[static_cast<std::size_t>(i)] = i % 3;
  auto dkeys = w::to_device(keys);
  auto dcounts = w::to_device(std::vector<int>(3, 0));
  w::launch(wrap_count_k, w::grid_for(keys.size()), dkeys, dcounts);
  // atomicInc with limit 4 counts 0, 1, 2, 3, 4, 0, ...: n increments leave n % 5.
  REQUIRE(w::to_host(dcounts) == std::vector<int>{67 % 5, 67 % 5, 66 % 5});
}

// Row sums of an m x n matrix: a static-count loop (n is a constant) and a run-time one (cols).
WARDEN_KERNEL(row_sum_k, w::kernel<w::block<32>, w::in<float>, w::out<float>, w::out<float>, w::value<int>>(
                             [](auto k, auto a, auto fixed, auto dynamic, auto cols) {
                               auto r = k.global_id();
                               return w::when(r < fixed.size(),
                                              w::local(k, 0.f, [&](auto k, auto sum) {
                                                return w::seq(w::for_range(k, 0, 16, [&](auto, auto j) { return sum += a[r * 16 + j]; }),
                                                              fixed[r] = sum);
                                              }),
                                              w::local(k, 0.f, [&](auto k, auto sum) {
                                                return w::seq(w::for_range(k, 0, cols, 2, [&](auto, auto j) { return sum += a[r * cols + j]; }),
                                                              dynamic[r] = sum);
                                              }));
                             }));

TEST_CASE("loops with static and run-time trip counts, and thread-private accumulators", "[kernel][stmt]") {
  const int m = 50, n = 16;
  std::vector<float> a(m * n);
  for (int i = 0; i < m * n; ++i) a[i] = static_cast<float>(i % 11);
  auto da = w::to_device(a);
  w::device_buffer<float> fixed(m), dynamic(m);
  w::launch(row_sum_k, w::grid_for(m), da, fixed, dynamic, n);
  const auto f = w::to_host(fixed);
  const auto d = w::to_host(dynamic);
  for (int r = 0; r < m; ++r) {
    float all = 0.f, even = 0.f;
    for (int j = 0; j < n; ++j) all += a[r * n + j], even += j % 2 == 0 ? a[r * n + j] : 0.f;
    REQUIRE(f[r] == all);
    REQUIRE(d[r] == even);
  }
}

WARDEN_KERNEL(grid_stride_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::grid_stride(k, in.size(), [&](auto, auto i) { return out[i] = in[i] * in[i]; });
}));

TEST_CASE("a grid-stride loop covers every element once with fewer threads than elements", "[kernel][stmt]") {
  const auto in = iota(5000, -2500);
  auto din = w::to_device(in);
  w::device_buffer<int> dout(5000);
  w::launch(grid_stride_k, w::grid(3), din, dout);  // 192 threads for 5000 elements
  const auto out = w::to_host(dout);
  for (int i = 0; i < 5000; ++i) REQUIRE(out[i] == in[i] * in[i]);
}

WARDEN_KERNEL(local_ops_k, w::kernel<w::block<32>, w::out<int>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), w::local<int>(k, i, [&](auto, auto v) {
                   return w::seq(v += 3, v *= 5, v -= 1, v /= 2, v %= 1000, v <<= 2, v >>= 1, v ^= 6, v |= 1, v &= 255,
                                 out[i] = v);
                 }));
}));

TEST_CASE("thread-private variables: assignment and every compound assignment", "[kernel][stmt]") {
  w::device_buffer<int> dout(70);
  w::launch(local_ops_k, w::grid_for(70), dout);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 70; ++i) {
    int v = i;
    v += 3, v *= 5, v -= 1, v /= 2, v %= 1000, v <<= 2, v >>= 1, v ^= 6, v |= 1, v &= 255;
    REQUIRE(out[i] == v);
  }
}

WARDEN_KERNEL(reverse_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t] = in[g], w::sync(), out[g] = tile[63 - t]);
  });
}));

TEST_CASE("a 1-D shared tile and a barrier: reverse within each block", "[kernel][shared]") {
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<float>(i);
  auto din = w::to_device(in);
  w::device_buffer<float> dout(256);
  w::launch(reverse_k, w::grid_for(256), din, dout);
  const auto out = w::to_host(dout);
  for (int i = 0; i < 256; ++i) REQUIRE(out[i] == in[i / 64 * 64 + 63 - i % 64]);
}

// Transpose of an n x n matrix through a 16 x 16 tile padded to 17 columns, on a 2-D grid.
WARDEN_KERNEL(transpose_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>>(
                               [](auto k, auto in, auto out, auto n) {
                                 return w::shared<float, 16, 16, 1>(k, [&](auto k, auto tile) {
                                   auto tx = k.thread_id();
                                   auto ty = k.thread_id_y();
                                   auto bx = k.block_id();
                                   auto by = k.block_id_y();
                                   auto col = bx * 16 + tx;
                                   auto row = by * 16 + ty;
                                   auto out_col = by * 16 + tx;
                                   auto out_row = bx * 16 + ty;
                                   return w::seq(w::when(row < n && col < n, tile(ty, tx) = in[row * n + col]), w::sync(),
                                                 w::when(out_row < n && out_col < n, out[out_row * n + out_col] = tile(tx, ty)));
                                 });
                               }));

TEST_CASE("a padded 2-D tile on a 2-D grid: transpose, with partial edge tiles", "[kernel][shared]") {
  const int n = 40;
  std::vector<float> in(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = static_cast<float>(i);
  auto din = w::to_device(in);
  // grid_for with one extent per block dimension covers the block's shape (issue 16, item 5): the
  // same 3 x 3 blocks as the explicit grid.
  for (const w::launch_config& grid : {w::grid(3, 3), w::grid_for(n, n)}) {
    w::device_buffer<float> dout(n * n);
    w::launch(transpose_k, grid, din, dout, n);
    const auto out = w::to_host(dout);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) REQUIRE(out[c * n + r] == in[r * n + c]);
  }
}

// A 1-D grid_for(n) on a 2-D block used to cover x only, silently; it is refused (E102).
TEST_CASE("grid_for(n) on a 2-D block is refused, extents per dimension are checked", "[kernel][grid]") {
  const int n = 40;
  auto din = w::to_device(std::vector<float>(n * n));
  w::device_buffer<float> dout(n * n);

  try {
    w::launch(w::on_cpu, transpose_k, w::grid_for(n * n), din, dout, n);
    FAIL("grid_for(n) on a 16x16 block launched");
  } catch (const w::grid_error& e) {
    const std::string what = e.what();
    CHECK(what.rfind("E102", 0) == 0);
    CHECK(what.find("grid_for(1600) covers x only, but the block is 16x16") != std::string::npos);
    CHECK(what.find("grid_for(nx, ny)") != std::string::npos);
  }
  // A 3-D extent list on a 2-D block is fine (nz threads along z, one per block); each extent is
  // checked against CUDA's limits like a grid's.
  CHECK(w::grid_for(17, 33, 2).blocks<w::block<16, 16>>().x == 2);
  CHECK(w::grid_for(17, 33, 2).blocks<w::block<16, 16>>().y == 3);
  CHECK(w::grid_for(17, 33, 2).blocks<w::block<16, 16>>().z == 2);
  CHECK(w::grid_for(100).blocks<w::block<32>>().x == 4);
  CHECK(w::grid_for(100, 3).blocks<w::block<32>>().y == 3);
  CHECK_THROWS_AS((w::grid_for(10, 10).blocks<w::block<8, 8, 2>>()), w::grid_error);
  CHECK_THROWS_AS((w::grid_for(10, std::size_t{1} << 30).blocks<w::block<8, 8>>()), w::grid_error);  // above 65535 blocks in y
}

// E102 for the usual mistake, k.thread_id() where k.global_id() was meant (issue 36): the message
// names the store the blocks would repeat and the index each block's part would take; the kernel
// with that index, the message's fix followed literally, launches on the same grid and fills out.
WARDEN_KERNEL(per_thread_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  auto t = k.thread_id();
  return w::when(t < out.size(), out[t] = 7);
}).named("per_thread", "out"));
WARDEN_KERNEL(per_global_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  auto t = k.global_id();
  return w::when(t < out.size(), out[t] = 7);
}).named("per_global", "out"));

TEST_CASE("E102 names the repeated store and the block index the kernel lacks, the fix runs", "[kernel][grid][fix][E102]") {
  w::device_buffer<int> out(256);
  try {
    w::launch(w::on_cpu, per_thread_k, w::grid(4), out);
    FAIL("a grid of 4 blocks launched a kernel that never names its block");
  } catch (const w::grid_error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.rfind("E102", 0) == 0);
    CHECK(what.find("storing out[t] again") != std::string::npos);
    CHECK(what.find("Should each block take its own part? Then index with k.global_id() (block_id.x * block_dim.x + thread_id.x) "
                    "where the kernel uses k.thread_id() (not checked here: the kernel's rules run when it compiles)") != std::string::npos);
    // The grid of one block checked on this launch before it is printed (check_launch.hpp, checked_one_block).
    CHECK(what.find("if one block is meant, launch a grid of one block there (checked: this launch passes its checks with it)") !=
          std::string::npos);
  }
  w::launch(w::on_cpu, per_global_k, w::grid(4), out);
  const auto got = w::to_host(out);
  CHECK(std::count(got.begin(), got.end(), 7) == 256);
}

WARDEN_KERNEL(atomics_k, w::kernel<w::block<64>, w::in<int>, w::atomic<int>, w::atomic<int>, w::atomic<int>>(
                             [](auto k, auto in, auto histogram, auto lowest, auto highest) {
                               auto i = k.global_id();
                               return w::when(i < in.size(), w::atomic_add(histogram[in[i] & 7], 1),
                                              w::atomic_min(lowest[0], in[i]), w::atomic_max(highest[0], in[i]));
                             }));

TEST_CASE("atomic add, min and max", "[kernel][atomic]") {
  std::vector<int> in(1000);
  for (int i = 0; i < 1000; ++i) in[i] = (i * 37) % 1013;
  auto din = w::to_device(in);
  auto hist = w::to_device(std::vector<int>(8, 0));
  auto lowest = w::to_device(std::vector<int>{1 << 30});
  auto highest = w::to_device(std::vector<int>{-1});
  w::launch(atomics_k, w::grid_for(1000), din, hist, lowest, highest);
  std::vector<int> expected(8, 0);
  for (int v : in) ++expected[v & 7];
  CHECK(w::to_host(hist) == expected);
  CHECK(w::to_host(lowest)[0] == *std::min_element(in.begin(), in.end()));
  CHECK(w::to_host(highest)[0] == *std::max_element(in.begin(), in.end()));
}

WARDEN_KERNEL(exchange_k, w::kernel<w::block<32>, w::atomic<int>, w::atomic<int>>([](auto k, auto flag, auto slot) {
  auto i = k.global_id();
  // Only the thread that finds 0 in slot[0] writes its id there; every thread sets flag[0].
  return w::seq(w::atomic_exchange(flag[0], 7), w::atomic_compare_exchange(slot[0], 0, i + 100));
}));

TEST_CASE("atomic exchange and compare-exchange", "[kernel][atomic]") {
  auto flag = w::to_device(std::vector<int>{0});
  auto slot = w::to_device(std::vector<int>{0});
  w::launch(exchange_k, w::grid(2), flag, slot);
  CHECK(w::to_host(flag)[0] == 7);
  const int winner = w::to_host(slot)[0];
  CHECK(winner >= 100);
  CHECK(winner < 164);
}

TEST_CASE("an empty grid launches nothing", "[kernel]") {
  w::device_buffer<float> x(0), y(0);
  w::launch(saxpy_k, w::grid_for(0), x, y, 1.f);
  CHECK(y.empty());
}

TEST_CASE("E100: one buffer bound to a read and a writable parameter, before anything runs", "[kernel][launch]") {
  auto x = w::to_device(std::vector<float>(100, 1.f));
  try {
    w::launch(saxpy_k, w::grid_for(100), x, x, 2.f);
    FAIL("aliasing must throw");
  } catch (const w::aliasing_error& e) {
    CHECK(std::string(e.what()) ==
          "E100 [aliasing] saxpy_k: one buffer is bound to x (parameter 0, in) and to y (parameter 1, inout); a "
          "writable parameter needs a buffer of its own: bind another buffer, or, to work in place, write the kernel "
          "with one inout parameter that it both reads and writes (the checker then checks its in-place races) "
          "(in the program: x is bound to y)");
  }
  CHECK(w::to_host(x) == std::vector<float>(100, 1.f));
}

TEST_CASE("E101: an access that may overrun throws before memory is touched", "[kernel][launch]") {
  auto x = w::to_device(std::vector<float>(100, 1.f));
  auto y = w::to_device(std::vector<float>(50, 2.f));
  try {
    w::launch(saxpy_k, w::grid_for(100), x, y, 2.f);
    FAIL("a possible overrun must throw");
  } catch (const w::bounds_error& e) {
    const std::string what = e.what();
    CHECK(what.rfind("E101 [out-of-bounds] saxpy_k: ", 0) == 0);
    CHECK(what.find("y[i] reaches index 99, but y (parameter 1, inout) has 50 elements; guard it, w::when(i < y.size(), ...), "
                    "or bind y to at least 100 elements") != std::string::npos);
  }
  CHECK(w::to_host(y) == std::vector<float>(50, 2.f));

  // reverse_k has no guard: a grid that is not a whole number of blocks of input would overrun.
  auto in = w::to_device(std::vector<float>(100, 1.f));
  w::device_buffer<float> out(100);
  CHECK_THROWS_AS(w::launch(reverse_k, w::grid_for(100), in, out), w::bounds_error);
}

WARDEN_KERNEL(signed_bins_k, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto histogram) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(histogram[in[i] % 8], 1));
}));

TEST_CASE("E101: a data-dependent index is bounded by the data the launch measures, sign included", "[kernel][launch]") {
  // in is read-only and its loads decide an index: the launch measures its least and greatest
  // element (launch/contents.hpp). All 3: in[i] % 8 is 3, and the kernel runs.
  auto in = w::to_device(std::vector<int>(64, 3));
  auto hist = w::to_device(std::vector<int>(8, 0));
  w::launch(signed_bins_k, w::grid_for(64), in, hist);
  CHECK(w::to_host(hist)[3] == 64);
  // -7 to 7: in[i] % 8 is negative for negative data, and the launch refuses, naming the element.
  std::vector<int> signed_data(64);
  for (int i = 0; i < 64; ++i) signed_data[static_cast<std::size_t>(i)] = i % 15 - 7;
  auto signed_in = w::to_device(signed_data);
  try {
    w::launch(signed_bins_k, w::grid_for(64), signed_in, hist);
    FAIL("a negative index must throw");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()) ==
          "E101 [out-of-bounds] signed_bins_k: atomic update histogram[in[i] % 8] may reach index -7, but histogram "
          "(parameter 1, atomic) has 8 elements; in holds -7 to 7 (-7 at element 0, 7 at element 14); guard it, "
          "w::when(in[i] % 8 >= 0, ...) (in the program: signed_in is bound to in, hist to histogram)");
  }
  CHECK(w::to_host(hist)[3] == 64);
}

// ---- warp shuffles ---------------------------------------------------------------------------

// Each lane's value from another lane, by the four kinds, at a size that leaves the last block
// partly without data (those lanes still take part, with 0).
WARDEN_KERNEL(shuffle_kinds_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::out<int>, w::out<int>, w::out<int>>(
                                   [](auto k, auto in, auto down, auto up, auto flip, auto from) {
                                     auto i = k.global_id();
                                     return w::local(k, 0, [&](auto k, auto v) {
                                       auto keep = [&](auto target) {
                                         return [&, target](auto, auto other) { return w::when(i < target.size(), target[i] = other); };
                                       };
                                       return w::seq(w::when(i < in.size(), v = in[i]),
                                                     w::shuffle_down(k, v, 3, keep(down)), w::shuffle_up(k, v, 5, keep(up)),
                                                     w::shuffle_xor(k, v, 6, keep(flip)), w::shuffle_from(k, v * 2, 7, keep(from)));
                                     });
                                   }));

TEST_CASE("warp shuffles: down, up, xor and from a lane, as CUDA's __shfl_*_sync with width 32", "[kernel][shuffle]") {
  const int n = 200;  // 4 blocks of 64: two warps each, the last block's second warp without data
  const std::vector<int> in = iota(n, 1000);
  auto din = w::to_device(in);
  w::device_buffer<int> down(n), up(n), flip(n), from(n);
  w::launch(shuffle_kinds_k, w::grid_for(n), din, down, up, flip, from);
  auto value = [&](int i) { return i < n ? in[static_cast<std::size_t>(i)] : 0; };
  std::vector<int> want_down(n), want_up(n), want_flip(n), want_from(n);
  for (int i = 0; i < n; ++i) {
    const int lane = i % 32, warp_start = i - lane;
    want_down[static_cast<std::size_t>(i)] = lane + 3 < 32 ? value(i + 3) : value(i);
    want_up[static_cast<std::size_t>(i)] = lane >= 5 ? value(i - 5) : value(i);
    want_flip[static_cast<std::size_t>(i)] = value(warp_start + (lane ^ 6));
    want_from[static_cast<std::size_t>(i)] = 2 * value(warp_start + 7);
  }
  CHECK(w::to_host(down) == want_down);
  CHECK(w::to_host(up) == want_up);
  CHECK(w::to_host(flip) == want_flip);
  CHECK(w::to_host(from) == want_from);
}

// A warp's sum by five shuffles, under t < 32 (a condition every warp takes whole or not at all).
WARDEN_KERNEL(first_warp_sum_k, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::when(t < 32, w::local(k, 0.f, [&](auto k, auto sum) {
                   return w::seq(w::when(i < in.size(), sum = in[i]),
                                 w::for_range(k, 0, 5, [&](auto k, auto step) {
                                   return w::shuffle_down(k, sum, 16 >> step, [&](auto, auto other) { return sum += other; });
                                 }),
                                 w::when(t == 0, out[k.block_id()] = sum));
                 }));
}));

TEST_CASE("warp shuffles: a warp sum in a loop, the first warp of each block", "[kernel][shuffle]") {
  const int n = 300;  // 3 blocks; the last block's first warp is partly without data
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i % 5);
  auto din = w::to_device(in);
  w::device_buffer<float> out(3);
  w::launch(first_warp_sum_k, w::grid_for(n), din, out);
  std::vector<float> want(3, 0.f);
  for (int b = 0; b < 3; ++b)
    for (int i = b * 128; i < b * 128 + 32 && i < n; ++i) want[static_cast<std::size_t>(b)] += in[static_cast<std::size_t>(i)];
  CHECK(w::to_host(out) == want);
}

WARDEN_KERNEL(shuffle_by_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>>([](auto k, auto a, auto delta) {
  auto i = k.global_id();
  return w::shuffle_down(k, a[i], delta, [&](auto, auto other) { return a[i] = other; });
}));

TEST_CASE("E101: a shuffle's lane operand outside lanes 0 to 31 is refused before the launch", "[kernel][shuffle][launch]") {
  auto a = w::to_device(iota(32));
  try {
    w::launch(shuffle_by_k, w::grid_for(32), a, 40);
    FAIL("a lane operand of 40 must throw");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()).find("shuffle_down lane operand delta may reach 40, outside the warp's lanes [0, 32)") !=
          std::string::npos);
  }
  CHECK(w::to_host(a) == iota(32));
  w::launch(shuffle_by_k, w::grid_for(32), a, 1);
  std::vector<int> want = iota(32, 1);
  want[31] = 31;
  CHECK(w::to_host(a) == want);
}

// Element types CUDA has no built-in atomic for take a compare-and-swap loop on the GPU
// (backend/cuda_atomic.hpp): floating-point min and max, 64-bit signed add, double exchange.
WARDEN_KERNEL(wide_atomics_k, w::kernel<w::block<64>, w::in<float>, w::atomic<float>, w::atomic<float>, w::atomic<double>,
                                        w::atomic<long long>, w::atomic<double>>(
                                  [](auto k, auto x, auto lo, auto hi, auto total, auto count, auto last) {
                                    auto i = k.global_id();
                                    return w::when(i < x.size(), w::atomic_min(lo[0], x[i]), w::atomic_max(hi[0], x[i]),
                                                   w::atomic_add(total[0], x[i]), w::atomic_add(count[0], 1),
                                                   w::atomic_exchange(last[0], 2.5));
                                  }));

TEST_CASE("atomics on float, double and long long", "[kernel][atomic]") {
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 101) - 50.25f;
  auto dx = w::to_device(x);
  auto lo = w::to_device(std::vector<float>{1e30f}), hi = w::to_device(std::vector<float>{-1e30f});
  auto total = w::to_device(std::vector<double>{0.0}), last = w::to_device(std::vector<double>{0.0});
  auto count = w::to_device(std::vector<long long>{(1LL << 40)});
  w::launch(wide_atomics_k, w::grid_for(n), dx, lo, hi, total, count, last);
  double sum = 0;
  for (float v : x) sum += v;
  CHECK(w::to_host(lo)[0] == *std::min_element(x.begin(), x.end()));
  CHECK(w::to_host(hi)[0] == *std::max_element(x.begin(), x.end()));
  CHECK(w::to_host(total)[0] == sum);  // quarters: exact in double in any order
  CHECK(w::to_host(count)[0] == (1LL << 40) + n);
  CHECK(w::to_host(last)[0] == 2.5);
}
