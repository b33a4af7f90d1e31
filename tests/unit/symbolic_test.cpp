// Real kernels accepted (issue 21, items 1 and 2): value parameters as symbols, and what only the
// launch knows as launch obligations. Each shape is one that public kernels use and the checker
// refused: a stride that is a parameter, a row pitch, a window whose width a parameter sets, a grid
// laid out along y, a fixed element next to stores above it. Each is accepted, records clean on
// the cpu backend, and matches plain C++; its racy twin is refused; where the proof rests on the
// launch's values, w::obligations_of shows the condition and a launch that breaks it is refused
// with E106 before anything runs.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <numeric>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {
template <class F>
std::string e106_of(F launch) {
  try {
    launch();
  } catch (const w::obligation_error& e) {
    return e.what();
  }
  return {};
}
}  // namespace

// ---- a stride that is a parameter (Gaussian elimination's row update, as in Parboil-style LU) --
//
// m[size * (x + t + 1) + t] under x < size - 1 - t: rows x + t + 1 differ for different x when
// size != 0, and when size <= 0 the guard lets no thread run. Proved under size >= 1, which
// launch checks, unless no thread passes the guard.

constexpr auto column_update = [](auto k, auto m, auto size, auto t) {
  auto x = k.global_id();
  return w::when(x < size - 1 - t, m[size * (x + t + 1) + t] = m[size * (x + t + 1) + t] * 2);
};
// Racy: the stride forgotten, every thread updates the same element of one row.
constexpr auto column_update_no_stride = [](auto k, auto m, auto size, auto t) {
  auto x = k.global_id();
  return w::when(x < size - 1 - t, m[size * (t + 1) + t] = m[size * (t + 1) + t] * 2 + x);
};
WARDEN_KERNEL(column_update_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>, w::value<int>>(column_update));
WARDEN_KERNEL(column_update_no_stride_k,
              w::kernel<w::block<64>, w::inout<int>, w::value<int>, w::value<int>>(column_update_no_stride).named("no_stride", "m", "size", "t"));

TEST_CASE("symbolic: a stride that is a parameter separates rows (size >= 1, or no thread runs)", "[symbolic][obligation]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>, w::value<int>>(column_update) == code::none);
  // The racy twin's element reads the launch's numbers: left to the launch, which lists it and
  // finds every thread on one element (E106).
  STATIC_REQUIRE(w::testing::left_to_launch<w::block<64>, w::inout<int>, w::value<int>, w::value<int>>(column_update_no_stride));
  {
    auto racy = w::to_device(std::vector<int>(100 * 100));
    const std::string m = e106_of([&] { w::launch(w::on_cpu, column_update_no_stride_k, w::grid(2), racy, 100, 3); });
    CHECK(m.find("E106 [launch-obligation] column_update_no_stride_k: W011 for m[") == 0);
    CHECK(m.find("decided with this launch's numbers (size = 100, t = 3)") != std::string::npos);
    CHECK(m.find("both reach element 403") != std::string::npos);
  }
  CHECK(w::obligations_of(column_update_k).find("if p1 >= 1 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)") != std::string::npos);
  const int size = 100, t = 3;
  std::vector<int> host(size * size);
  std::iota(host.begin(), host.end(), 0);
  auto m = w::to_device(host);
  CHECK(w::record(column_update_k, w::grid(2), m, size, t).clean());
  const std::vector<int> got = w::to_host(m);
  for (int x = 0; x < size - 1 - t; ++x) {
    const auto at = static_cast<std::size_t>(size * (x + t + 1) + t);
    CHECK(got[at] == 2 * host[at]);
  }
  // size == 0: no thread passes the guard, so the obligation does not apply; the launch runs.
  CHECK(w::record(column_update_k, w::grid(2), m, 0, 0).clean());
}

// ---- a row pitch (cuda-samples' pitched copies, cudaMallocPitch layouts) ------------------------
//
// dst[pitch * y + x] under x < width, y < height: rows do not overlap when pitch >= width.

constexpr auto pitched_copy = [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
  auto x = k.global_id();
  auto y = k.global_id_y();
  return w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x] + 1);
};
// x not bounded by the row: rows stay apart only while the grid's threads along x fit in the
// pitch, a condition on the launch shape that launch checks.
constexpr auto pitched_copy_unbounded = [](auto k, auto src, auto dst, auto height, auto pitch) {
  auto x = k.global_id();
  auto y = k.global_id_y();
  return w::when(y < height, dst[pitch * y + x] = src[pitch * y + x] + 1);
};
WARDEN_KERNEL(pitched_copy_unbounded_k,
              w::kernel<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>>(pitched_copy_unbounded)
                  .named("pitched_copy_unbounded", "src", "dst", "height", "pitch"));
WARDEN_KERNEL(pitched_copy_k, w::kernel<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                                  pitched_copy)
                                  .named("pitched_copy", "src", "dst", "width", "height", "pitch"));

TEST_CASE("symbolic: a row pitch separates rows when pitch >= width, which launch checks (E106)", "[symbolic][obligation]") {
  STATIC_REQUIRE(code_of<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(pitched_copy) ==
                 code::none);
  STATIC_REQUIRE(code_of<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>>(pitched_copy_unbounded) ==
                 code::none);
  CHECK(w::obligations_of(pitched_copy_k) ==
        "W010 holds for dst[(pitch * global_id.y) + global_id.x] and dst[(pitch * global_id.y) + global_id.x] if pitch - width "
        ">= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n");
  const int width = 30, height = 7, pitch = 32;
  std::vector<int> host(pitch * height);
  std::iota(host.begin(), host.end(), 0);
  auto src = w::to_device(host);
  auto dst = w::to_device(std::vector<int>(pitch * height, -1));
  CHECK(w::record(pitched_copy_k, w::grid(2, 2), src, dst, width, height, pitch).clean());
  const std::vector<int> got = w::to_host(dst);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < pitch; ++x) {
      const auto at = static_cast<std::size_t>(y * pitch + x);
      CHECK(got[at] == (x < width ? host[at] + 1 : -1));
    }
  // A pitch below the width: rows overlap, and launch says so before anything runs.
  const std::string m = e106_of([&] { w::launch(w::on_cpu, pitched_copy_k, w::grid(2, 2), src, dst, 30, 7, 29); });
  CHECK(m.find("E106 [launch-obligation] pitched_copy_k: two threads may store dst[") == 0);
  CHECK(m.find("the checker ruled that out only where pitch - width >= 0, and this launch has pitch = 29, width = 30") !=
        std::string::npos);
  // Its guard would store nothing for this launch, and the row guard would drop the last row's end:
  // the message asks about the values instead (check_launch.hpp, checked_obligation_fixes).
  CHECK(m.find("In the kernel: a guard on the condition (pitch >= width) would keep the accesses from running at all for this "
               "launch, where it fails: are these the values the kernel's layout means?") != std::string::npos);
  // The condition is sufficient only: launch listed the pair, and names the two threads it found.
  CHECK(m.find("width = 30: thread (") != std::string::npos);
  CHECK(w::to_host(dst) == got);  // nothing ran
  // Without the column guard: 2 blocks of 16 along x fit a pitch of 32, 3 do not.
  CHECK(w::obligations_of(pitched_copy_unbounded_k).find("if pitch - 16 * grid_dim.x >= 0") != std::string::npos);
  CHECK(w::record(pitched_copy_unbounded_k, w::grid(2, 2), src, dst, height, pitch).clean());
  const std::string wide = e106_of([&] { w::launch(w::on_cpu, pitched_copy_unbounded_k, w::grid(3, 2), src, dst, height, pitch); });
  CHECK(wide.find("only where pitch - 16 * grid_dim.x >= 0, and this launch has pitch = 32, grid_dim.x = 3") !=
        std::string::npos);
}

// ---- a window per block whose width a parameter sets (stencils with a halo of `border`) --------
//
// Every block stores out[W * b + t - border] under border <= t < 64 - border, W = 64 - 2 * border:
// the windows are disjoint for every border (the guard's lower bound counts).

constexpr auto halo_window = [](auto k, auto in, auto out, auto border) {
  auto t = k.thread_id();
  auto b = k.block_id();
  auto at = (64 - 2 * border) * b + t - border;
  return w::when(border <= t && t < 64 - border && at < out.size(), out[at] = in[at] * 3);
};
// One element wider than its stride (t <= 64 - border): windows overlap unless border <= 0. It is
// accepted under a condition that implies that (border <= -1: the checker keeps one sufficient
// condition, not always the weakest), and a launch with a border is refused.
constexpr auto halo_window_wide = [](auto k, auto in, auto out, auto border) {
  auto t = k.thread_id();
  auto b = k.block_id();
  auto at = (64 - 2 * border) * b + t - border;
  return w::when(border <= t && t <= 64 - border && at < out.size(), out[at] = in[at] * 3);
};
WARDEN_KERNEL(halo_window_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(halo_window));
WARDEN_KERNEL(halo_window_wide_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(halo_window_wide));

TEST_CASE("symbolic: a window whose width a parameter sets is bounded by guards of that width", "[symbolic]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(halo_window) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(halo_window_wide) == code::none);
  CHECK(w::obligations_of(halo_window_k).empty());
  CHECK(w::obligations_of(halo_window_wide_k).find("if p2 <= -1") != std::string::npos);
  std::vector<int> host(200);
  std::iota(host.begin(), host.end(), 0);
  auto in = w::to_device(host);
  w::device_buffer<int> out(200);
  CHECK(w::record(halo_window_k, w::grid(4), in, out, 3).clean());  // windows of 58: 232 >= 200
  const std::vector<int> got = w::to_host(out);
  for (int i = 0; i < 200; ++i) CHECK(got[static_cast<std::size_t>(i)] == 3 * i);
  CHECK(e106_of([&] { w::launch(w::on_cpu, halo_window_wide_k, w::grid(4), in, out, 3); }).find("E106") == 0);
  CHECK(w::record(halo_window_wide_k, w::grid(4), in, out, -1).clean());
}

// ---- a grid laid out along y alone -------------------------------------------------------------

constexpr auto along_y = [](auto k, auto a) {
  auto y = k.global_id_y();
  return w::when(y < a.size(), a[y] = a[y] + 1);
};
constexpr auto along_y_shifted = [](auto k, auto a) {  // racy: reads the next thread's element
  auto y = k.global_id_y();
  return w::when(y + 1 < a.size(), a[y] = a[y + 1] + 1);
};
WARDEN_KERNEL(along_y_k, w::kernel<w::block<1, 16>, w::inout<int>>(along_y));

TEST_CASE("symbolic: a grid along y is judged as one along x (E102 keeps x at one block)", "[symbolic][grid]") {
  STATIC_REQUIRE(code_of<w::block<1, 16>, w::inout<int>>(along_y) == code::none);
  STATIC_REQUIRE(code_of<w::block<1, 16>, w::inout<int>>(along_y_shifted) == code::W011);
  auto a = w::to_device(std::vector<int>(40, 1));
  CHECK(w::record(along_y_k, w::grid(1, 3), a).clean());
  CHECK(w::to_host(a) == std::vector<int>(40, 2));
  // Blocks along x would all redo the same rows: refused.
  CHECK_THROWS_AS(w::launch(w::on_cpu, along_y_k, w::grid(2, 3), a), w::grid_error);
}

// ---- a fixed element next to stores above it (a pivot row read while the rows below change) ----

constexpr auto below_pivot = [](auto k, auto b, auto t) {
  auto x = k.global_id();
  return w::when(x + 1 + t < b.size(), b[x + 1 + t] = b[x + 1 + t] - b[t]);
};
constexpr auto at_and_below_pivot = [](auto k, auto b, auto t) {  // racy: thread 0 stores b[t] itself
  auto x = k.global_id();
  return w::when(x + t < b.size(), b[x + t] = b[x + t] - b[t]);
};
WARDEN_KERNEL(below_pivot_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>>(below_pivot));
WARDEN_KERNEL(at_and_below_pivot_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>>(at_and_below_pivot).named("pivot", "b", "t"));

TEST_CASE("symbolic: a fixed element is apart from stores strictly above it", "[symbolic]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(below_pivot) == code::none);
  // The racy twin: which element thread 0 stores is the launch's t, so the launch decides (E106).
  STATIC_REQUIRE(w::testing::left_to_launch<w::block<64>, w::inout<int>, w::value<int>>(at_and_below_pivot));
  {
    auto racy = w::to_device(std::vector<int>(100));
    CHECK(e106_of([&] { w::launch(w::on_cpu, at_and_below_pivot_k, w::grid(2), racy, 5); }).find("W011 for b[") != std::string::npos);
  }
  std::vector<int> host(100);
  std::iota(host.begin(), host.end(), 0);
  auto b = w::to_device(host);
  CHECK(w::record(below_pivot_k, w::grid(2), b, 5).clean());
  const std::vector<int> got = w::to_host(b);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(i)] == (i > 5 ? i - 5 : i));
}

// ---- facts the user states (issue 21, item 3): used by the checker, checked by every launch ------
//
// given(fact, ...) reads only what the launch fixes (W007 otherwise: given_fact_on_thread_id). The
// checker reasons with the fact as with a guard, so the pitched copy needs no obligation of its
// own; launch evaluates the fact first and refuses a launch where it is false (E107), naming the
// fact and the values.

constexpr auto pitched_copy_stated = [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
  auto x = k.global_id();
  auto y = k.global_id_y();
  return w::given(pitch >= width, w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x] + 1));
};
// A fact that does not cover the index: rows of 17 elements laid `cols` apart, stated cols >= 16.
constexpr auto rows_of_17_weak = [](auto k, auto a, auto cols, auto rows) {
  auto r = k.global_id();
  return w::given(cols >= 16, w::when(r < rows, w::for_range(k, 0, 17, [&](auto, auto j) { return a[r * cols + j] = j; })));
};
constexpr auto rows_of_17 = [](auto k, auto a, auto cols, auto rows) {
  auto r = k.global_id();
  return w::given(cols >= 17, w::when(r < rows, w::for_range(k, 0, 17, [&](auto, auto j) { return a[r * cols + j] = j; })));
};
// Facts as the kernel computes them: in unsigned arithmetic (n - 1u wraps for n == 0), and with
// int overflow (undefined in the kernel: refused as undecidable).
constexpr auto unsigned_fact = [](auto k, auto a, auto n) {
  auto i = k.global_id();
  return w::given(n - 1u < 64u, w::when(i < 64, a[i] = 1));
};
constexpr auto squared_fact = [](auto k, auto a, auto n) {
  auto i = k.global_id();
  return w::given(n * n >= 0, w::when(i < n, a[i] = 1));
};
WARDEN_KERNEL(pitched_stated_k, w::kernel<w::block<16, 16>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                                    pitched_copy_stated)
                                    .named("pitched_copy", "src", "dst", "width", "height", "pitch"));
WARDEN_KERNEL(rows_of_17_k, w::kernel<w::block<64>, w::out<int>, w::value<int>, w::value<int>>(rows_of_17).named("rows", "a", "cols", "rows"));
WARDEN_KERNEL(unsigned_fact_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>(unsigned_fact).named("first_n", "a", "n"));
WARDEN_KERNEL(weak_k, w::kernel<w::block<64>, w::out<int>, w::value<int>, w::value<int>>(rows_of_17_weak).named("rows", "a", "cols", "rows"));
WARDEN_KERNEL(weak_racy_k, w::kernel<w::block<64>, w::out<int>, w::value<int>, w::value<int>>(w::testing::trusting(rows_of_17_weak)));
WARDEN_KERNEL(squared_fact_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>(squared_fact).named("first_n", "a", "n"));

namespace {
template <class F>
std::string e107_of(F launch) {
  try {
    launch();
  } catch (const w::fact_error& e) {
    return e.what();
  }
  return {};
}
}  // namespace

TEST_CASE("stated facts: the checker uses them, launch checks them first (E107)", "[symbolic][given]") {
  STATIC_REQUIRE(code_of<w::block<16, 16>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(pitched_copy_stated) ==
                 code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>, w::value<int>, w::value<int>>(rows_of_17) == code::none);
  // The fact is the condition itself: no obligation of the checker's own beside it.
  CHECK(w::obligations_of(pitched_stated_k) == "given pitch >= width (stated; launch checks it, E107)\n");
  CHECK(w::obligations_of(rows_of_17_k) == "given cols >= 17 (stated; launch checks it, E107)\n");

  const int width = 20, height = 6, pitch = 24;
  std::vector<int> host(static_cast<std::size_t>(pitch * height));
  std::iota(host.begin(), host.end(), 0);
  auto src = w::to_device(host);
  auto dst = w::to_device(std::vector<int>(host.size(), -1));
  CHECK(w::record(pitched_stated_k, w::grid(2, 1), src, dst, width, height, pitch).clean());
  const std::vector<int> got = w::to_host(dst);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < pitch; ++x) CHECK(got[static_cast<std::size_t>(pitch * y + x)] == (x < width ? host[static_cast<std::size_t>(pitch * y + x)] + 1 : -1));

  // A launch that breaks the fact: refused before anything runs, with the fact and the values.
  dst = w::to_device(std::vector<int>(host.size(), -1));
  CHECK(e107_of([&] { w::launch(w::on_cpu, pitched_stated_k, w::grid(2, 1), src, dst, width, height, 16); }) ==
        "E107 [stated-fact] pitched_stated_k: the stated fact pitch >= width is false for this launch (pitch = 16, width = 20); "
        "the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  CHECK(w::to_host(dst) == std::vector<int>(host.size(), -1));

  w::device_buffer<int> a(17 * 40);
  CHECK(w::record(rows_of_17_k, w::grid(1), a, 17, 40).clean());
  CHECK_THROWS_AS(w::record(rows_of_17_k, w::grid(1), a, 16, 40), w::fact_error);
}

TEST_CASE("stated facts: a fact too weak for the index is no proof", "[symbolic][given]") {
  // cols >= 16 leaves rows of 17 overlapping at cols == 16: the checker keeps its own obligation
  // (cols >= 17) beside the stated fact, and both are checked.
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>, w::value<int>, w::value<int>>(rows_of_17_weak) == code::none);
  const std::string listed = w::obligations_of(weak_k);
  CHECK(listed.find("given cols >= 16") != std::string::npos);
  CHECK(listed.find("if cols >= 17") != std::string::npos);
  w::device_buffer<int> a(17 * 40);
  CHECK_FALSE(w::record(weak_racy_k, w::grid(1), a, 16, 40).clean());
  CHECK_THROWS_AS(w::record(weak_k, w::grid(1), a, 16, 40), w::obligation_error);
  CHECK(w::record(weak_k, w::grid(1), a, 17, 40).clean());
}

TEST_CASE("stated facts are computed as the kernel computes them", "[symbolic][given]") {
  w::device_buffer<int> a(64);
  CHECK(w::record(unsigned_fact_k, w::grid(1), a, 64u).clean());
  // n - 1u wraps for n == 0: the fact is false in the kernel's arithmetic, and launch says so.
  const std::string wrapped = e107_of([&] { w::launch(w::on_cpu, unsigned_fact_k, w::grid(1), a, 0u); });
  CAPTURE(wrapped);
  CHECK(wrapped.find("(n - 1) < 64 is false for this launch (n = 0)") != std::string::npos);
  CHECK(w::record(squared_fact_k, w::grid(1), a, 64).clean());
  // 70000 * 70000 overflows int: undefined in the kernel, so undecidable here.
  CHECK(e107_of([&] { w::launch(w::on_cpu, squared_fact_k, w::grid(1), a, 70000); }).find("cannot be computed") != std::string::npos);
}
