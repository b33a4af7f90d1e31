// The pieces real kernels used that the language lacked (issue 21, item 5), each checked like the
// rest: select, math functions, the atomic family, bool buffers to and from the host, and bounds
// from narrow loaded types. Each runs on the cpu backend against plain C++, records clean, and,
// where a piece could hide a race or an overrun, its racy or overrunning twin is refused.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

// ---- select(c, x, y) ---------------------------------------------------------------------------

// A grid that overhangs `in`: the load on the chosen side runs only where the condition holds, so
// E101 sees it under i < in.size().
constexpr auto relu_padded = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = w::select(i < in.size(), w::max(in[i], 0), -1));
};
// The condition is read as data: a select on loaded data in a store index is W012, as any data.
constexpr auto select_index_from_data = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[w::select(in[i] > 0, i, 0)] = 1);
};
// A select on thread ids in a loop bound with a barrier is thread-dependent (W030): the condition
// takes part in uniformity.
constexpr auto select_trip_count_by_thread = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::seq(w::for_range(k, 0, w::select(t < 32, 2, 3), [&](auto, auto) { return w::seq(tile[t] = t, w::sync()); }),
                  out[k.global_id()] = tile[t]);
  });
};
WARDEN_KERNEL(relu_padded_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>(relu_padded));

TEST_CASE("language: select evaluates one side, and its condition counts as data and for uniformity", "[language][select]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(relu_padded) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(select_index_from_data) == code::W012);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(select_trip_count_by_thread) == code::W030);
  std::vector<int> host(100);
  for (int i = 0; i < 100; ++i) host[static_cast<std::size_t>(i)] = i % 7 - 3;
  auto in = w::to_device(host);
  w::device_buffer<int> out(120);
  CHECK(w::record(relu_padded_k, w::grid(2), in, out).clean());
  const std::vector<int> got = w::to_host(out);
  for (std::size_t i = 0; i < 120; ++i) CHECK(got[i] == (i < 100 ? std::max(host[i], 0) : -1));
}

// ---- math functions ------------------------------------------------------------------------------

constexpr auto gaussian = [](auto k, auto x, auto y, auto sigma) {
  auto i = k.global_id();
  return w::when(i < x.size(), y[i] = w::exp(-(x[i] * x[i]) / (2.0f * sigma * sigma)) / w::sqrt(2.0f * 3.14159265f * sigma * sigma) +
                                      w::pow(w::fabs(x[i]), 0.5f) + w::fast::exp(0.0f * x[i]) +
                                      w::fast::rsqrt(4.0f + x[i] * x[i]) + w::fast::divide(x[i], 8.0f));
};
WARDEN_KERNEL(gaussian_k, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::value<float>>(gaussian));

TEST_CASE("language: math functions are values like any other", "[language][math]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<float>, w::out<float>, w::value<float>>(gaussian) == code::none);
  std::vector<float> host(90);
  for (int i = 0; i < 90; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i - 45) * 0.1f;
  auto x = w::to_device(host);
  w::device_buffer<float> y(90);
  CHECK(w::record(gaussian_k, w::grid(2), x, y, 1.5f).clean());
  const std::vector<float> got = w::to_host(y);
  for (std::size_t i = 0; i < 90; ++i) {
    const float v = host[i];
    const float want = std::exp(-(v * v) / (2.0f * 1.5f * 1.5f)) / std::sqrt(2.0f * 3.14159265f * 1.5f * 1.5f) + std::pow(std::fabs(v), 0.5f) + 1.0f +
                       1.0f / std::sqrt(4.0f + v * v) + v / 8.0f;
    CHECK(got[i] == Approx(want).epsilon(1e-5));
  }
}

// ---- the atomic family -----------------------------------------------------------------------------

constexpr auto counters = [](auto k, auto in, auto c, auto bits) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_inc(c[0], 9u), w::atomic_dec(c[1], 5u), w::atomic_sub(c[2], 1u),
                 w::atomic_or(bits[in[i] & 3], 1 << (i % 8)), w::atomic_xor(bits[4], 1), w::atomic_and(bits[5], ~(1 << (i % 8))));
};
// An atomic and a plain store to one element in one phase: still W040, whatever the operation.
constexpr auto xor_then_plain_store = [](auto k, auto bits) {  // bits: inout<int>
  auto i = k.global_id();
  return w::seq(w::atomic_xor(bits[0], i), w::when(i == 0, bits[0] = 0));
};
WARDEN_KERNEL(counters_k, w::kernel<w::block<64>, w::in<int>, w::atomic<unsigned>, w::atomic<int>>(counters));

TEST_CASE("language: inc/dec wrap as CUDA's, sub and the bitwise updates", "[language][atomic]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::atomic<unsigned>, w::atomic<int>>(counters) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(xor_then_plain_store) == code::W040);
  auto in = w::to_device(std::vector<int>(100, 1));
  auto c = w::to_device(std::vector<unsigned>{0, 3, 1000});
  auto bits = w::to_device(std::vector<int>{0, 0, 0, 0, 0, -1});
  CHECK(w::record(counters_k, w::grid(2), in, c, bits).clean());
  // 100 increments below 9 wrap to 0 ten times; 100 decrements from 3 with limit 5 cycle through 6
  // values and end at 5.
  CHECK(w::to_host(c) == std::vector<unsigned>{0, 5, 900});
  CHECK(w::to_host(bits) == std::vector<int>{0, 255, 0, 0, 0, -256});
  STATIC_REQUIRE(w::dsl::atomic_result<w::dsl::atomic_op::inc>(9u, 9u) == 0u);
  STATIC_REQUIRE(w::dsl::atomic_result<w::dsl::atomic_op::dec>(0u, 5u) == 5u);
  STATIC_REQUIRE(w::dsl::atomic_result<w::dsl::atomic_op::dec>(7u, 5u) == 5u);
}

// ---- bool buffers ------------------------------------------------------------------------------------

constexpr auto flag_large = [](auto k, auto in, auto flags) {
  auto i = k.global_id();
  return w::when(i < in.size(), flags[i] = in[i] > 2);
};
WARDEN_KERNEL(flag_large_k, w::kernel<w::block<64>, w::in<int>, w::out<bool>>(flag_large));

TEST_CASE("language: bool buffers go to and from the host as std::vector<bool>", "[language][bool]") {
  auto in = w::to_device(std::vector<int>{1, 2, 3, 4});
  auto flags = w::to_device(std::vector<bool>{true, true, false, false});
  CHECK(w::to_host(flags) == std::vector<bool>{true, true, false, false});
  w::launch(w::on_cpu, flag_large_k, w::grid(1), in, flags);
  CHECK(w::to_host(flags) == std::vector<bool>{false, false, true, true});
}

// ---- bounds from narrow loaded types ----------------------------------------------------------------

// A byte histogram: bins[in[i]] with in of uint8_t stays in 256 bins whatever the data (E101 used
// to refuse it: "the index cannot be bounded"). A signed byte may be negative: refused where the
// data hold one (launch measures them), run where they do not.
constexpr auto byte_histogram = [](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i]], 1));
};
WARDEN_KERNEL(byte_histogram_k, w::kernel<w::block<64>, w::in<std::uint8_t>, w::atomic<int>>(byte_histogram));
WARDEN_KERNEL(signed_byte_histogram_k, w::kernel<w::block<64>, w::in<std::int8_t>, w::atomic<int>>(byte_histogram));

TEST_CASE("language: a narrow loaded type bounds the index it gives (E101)", "[language][bounds]") {
  std::vector<std::uint8_t> host(1000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint8_t>(i * 7);
  auto in = w::to_device(host);
  auto bins = w::to_device(std::vector<int>(256, 0));  // counts start at 0 (debug pools fill new memory)
  CHECK(w::record(byte_histogram_k, w::grid_for(1000), in, bins).clean());
  std::vector<int> want(256, 0);
  for (std::uint8_t v : host) ++want[v];
  CHECK(w::to_host(bins) == want);
  w::device_buffer<int> too_few(255);
  CHECK_THROWS_AS(w::launch(w::on_cpu, byte_histogram_k, w::grid_for(1000), in, too_few), w::bounds_error);
  auto signed_in = w::to_device(std::vector<std::int8_t>{1, 2, 3, 4, 5, -3, 7, 8, 9, 10});
  CHECK_THROWS_WITH(w::launch(w::on_cpu, signed_byte_histogram_k, w::grid_for(10), signed_in, bins),
                    Catch::Matchers::Contains("may reach index -3") && Catch::Matchers::Contains("-3 at element 5"));
  auto positive_in = w::to_device(std::vector<std::int8_t>(10, 1));
  w::launch(w::on_cpu, signed_byte_histogram_k, w::grid_for(10), positive_in, bins);
  CHECK(w::to_host(bins)[1] == want[1] + 10);
}

// ---- a refusal's reason is never cut off ------------------------------------------------------------

// Two long indices (a 3-D stencil's flattened offsets) used to fill the 240-character explanation
// before "threads of different blocks may meet" was printed. Indices are now cut at 64 characters
// each, and the reason always follows.
// (The extents are constants: with extents from the launch, the launch would list the pair instead.)
constexpr auto long_indices = [](auto k, auto a, auto nx, auto ny) {
  auto x = k.global_id();
  auto y = k.global_id_y();
  auto z = k.global_id_z();
  return w::when(x < nx && y < ny, a[(z + 1) * 70 * 90 + (y + 1) * 70 + x + 1] = a[(z + 1) * 70 * 90 + (y + 1) * 70 + x] + a[z * 70 * 90 + y * 70 + x + 1]);
};

TEST_CASE("language: a refusal's explanation ends with its reason", "[language][diagnostics]") {
  constexpr auto v = w::check::verdict_of(w::dsl::build_kernel<w::block<8, 8, 4>, w::inout<int>, w::value<int>, w::value<int>>(long_indices));
  STATIC_REQUIRE(v.finding.code == code::W011);
  const std::string text(v.text.view());
  CAPTURE(text);
  CHECK(text.size() < static_cast<std::size_t>(w::detail::text_buffer::capacity));
  CHECK(text.find("...") != std::string::npos);  // an index was cut
  CHECK(text.substr(text.size() - std::string("may meet").size()) == "may meet");
}

// ---- loops that count down or halve ------------------------------------------------------------------

// A block-wide tree reduction written as the CUDA samples write it, `for (s = 128; s > 0; s >>= 1)`.
constexpr auto tree_sum = [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_halving(k, 128, [&](auto, auto s) { return w::seq(w::when(t < s, tile[t] = tile[t] + tile[t + s]), w::sync()); }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
// Its racy twin: the guard lets thread s read what thread 0 stores in the same phase.
constexpr auto tree_sum_racy = [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_halving(k, 128, [&](auto, auto s) { return w::seq(w::when(t <= s && t + s < 256, tile[t] = tile[t] + tile[t + s]), w::sync()); }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
// A suffix sum per row, counting down: row[j] += row[j + 1] from the end, one thread per row of
// `cols`. The load at j + 1 next to the store at j is one thread's program order: rows `cols`
// apart, the counter spanning cols - 2 and the offset 1 leave threads apart (rules.hpp,
// offset_apart).
constexpr auto suffix_rows = [](auto k, auto a, auto cols, auto rows) {
  auto r = k.global_id();
  return w::when(r < rows, w::for_down(k, cols - 1, 0, [&](auto, auto j) { return a[r * cols + j] = a[r * cols + j] + a[r * cols + j + 1]; }));
};
// Racy twins: rows cols - 1 apart, so row r's last load (j + 1 = cols - 1) is row r + 1's first
// store; and the same with constant rows of 8 and a loop of 8.
constexpr auto suffix_rows_overlapping = [](auto k, auto a, auto cols, auto rows) {
  auto r = k.global_id();
  return w::when(r < rows, w::for_down(k, cols - 1, 0, [&](auto, auto j) { return a[r * (cols - 1) + j] = a[r * (cols - 1) + j] + a[r * (cols - 1) + j + 1]; }));
};
constexpr auto suffix_rows_of_8_overlapping = [](auto k, auto a, auto, auto rows) {
  auto r = k.global_id();
  return w::when(r < rows, w::for_range(k, 0, 8, [&](auto, auto j) { return a[r * 8 + j] = a[r * 8 + j] + a[r * 8 + j + 1]; }));
};
WARDEN_KERNEL(suffix_rows_racy_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(w::testing::trusting(suffix_rows_overlapping)));
WARDEN_KERNEL(suffix_rows_overlapping_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(suffix_rows_overlapping)
                                           .named("suffix_rows_overlapping", "a", "cols", "rows"));
WARDEN_KERNEL(tree_sum_k, w::kernel<w::block<256>, w::in<int>, w::out<int>>(tree_sum));
WARDEN_KERNEL(suffix_rows_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(suffix_rows));

TEST_CASE("language: for_halving and for_down", "[language][loops]") {
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>>(tree_sum) == code::none);
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>>(tree_sum_racy) == code::W020);
  std::vector<int> host(600);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 13);
  auto in = w::to_device(host);
  w::device_buffer<int> out(3);
  CHECK(w::record(tree_sum_k, w::grid(3), in, out).clean());
  const std::vector<int> sums = w::to_host(out);
  for (std::size_t b = 0; b < 3; ++b) {
    int want = 0;
    for (std::size_t i = 256 * b; i < std::min<std::size_t>(256 * (b + 1), host.size()); ++i) want += host[i];
    CHECK(sums[b] == want);
  }

  STATIC_REQUIRE(code_of<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(suffix_rows) == code::none);
  // Rows of cols - 1 elements, each thread reading one past its own: where rows meet depends on
  // cols, so the launch lists it (E106 below), while rows of a constant 8 are refused here.
  STATIC_REQUIRE(w::testing::left_to_launch<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(suffix_rows_overlapping));
  STATIC_REQUIRE(code_of<w::block<32>, w::inout<int>, w::value<int>, w::value<int>>(suffix_rows_of_8_overlapping) == code::W011);
  {
    auto scratch = w::to_device(std::vector<int>(400, 0));  // defined: the racy sums must not overflow
    CHECK_FALSE(w::record(suffix_rows_racy_k, w::grid(1), scratch, 9, 40).clean());
    try {
      w::launch(w::on_cpu, suffix_rows_overlapping_k, w::grid(1), scratch, 9, 40);
      FAIL("overlapping rows ran");
    } catch (const w::obligation_error& e) {
      const std::string m = e.what();
      CHECK(m.find("E106 [launch-obligation] suffix_rows_overlapping_k: W011 for a[") == 0);
      CHECK(m.find("decided with this launch's numbers (cols = 9)") != std::string::npos);
    }
  }
  const int rows = 40, cols = 9;
  std::vector<int> grid(rows * cols);
  for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = static_cast<int>(i % 5);
  auto a = w::to_device(grid);
  CHECK(w::record(suffix_rows_k, w::grid(2), a, cols, rows).clean());
  for (int r = 0; r < rows; ++r)
    for (int j = cols - 2; j >= 0; --j) grid[static_cast<std::size_t>(r * cols + j)] += grid[static_cast<std::size_t>(r * cols + j + 1)];
  CHECK(w::to_host(a) == grid);
}

// ---- loops that shift by more than one bit, or double ---------------------------------------------------

// A 4-ary tree reduction, `for (s = 64; s > 0; s >>= 2)`: each of the first s threads adds three
// partners s, 2s and 3s away.
constexpr auto quad_tree_sum = [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_shift_down<2>(k, 64, [&](auto, auto s) {
                    return w::seq(w::when(t < s, tile[t] += tile[t + s] + tile[t + 2 * s] + tile[t + 3 * s]), w::sync());
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
// An inclusive scan per block (Hillis-Steele), `for (offset = 1; offset < n; offset <<= 1)`, the
// limit a value parameter: each step reads the partner into a local, then all store.
constexpr auto doubling_scan = [](auto k, auto in, auto out, auto n) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_doubling(k, 1, n, [&](auto k, auto offset) {
                    return w::local(k, 0, [&](auto, auto partner) {
                      return w::seq(w::when(t >= offset, partner = tile[t - offset]), w::sync(), tile[t] += partner, w::sync());
                    });
                  }),
                  w::when(i < out.size(), out[i] = tile[t]));
  });
};
// Its racy twin: the partner is read in the phase where it is stored.
constexpr auto doubling_scan_racy = [](auto k, auto in, auto out, auto n) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_doubling(k, 1, n, [&](auto, auto offset) { return w::seq(w::when(t >= offset, tile[t] += tile[t - offset]), w::sync()); }),
                  w::when(i < out.size(), out[i] = tile[t]));
  });
};
WARDEN_KERNEL(quad_tree_sum_k, w::kernel<w::block<256>, w::in<int>, w::out<int>>(quad_tree_sum));
WARDEN_KERNEL(doubling_scan_k, w::kernel<w::block<128>, w::in<int>, w::out<int>, w::value<int>>(doubling_scan));

TEST_CASE("language: for_shift_down and for_doubling", "[language][loops]") {
  STATIC_REQUIRE(code_of<w::block<256>, w::in<int>, w::out<int>>(quad_tree_sum) == code::none);
  std::vector<int> host(700);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i % 17);
  auto in = w::to_device(host);
  w::device_buffer<int> out(3);
  CHECK(w::record(quad_tree_sum_k, w::grid(3), in, out).clean());
  const std::vector<int> sums = w::to_host(out);
  for (std::size_t b = 0; b < 3; ++b) {
    int want = 0;
    for (std::size_t i = 256 * b; i < std::min<std::size_t>(256 * (b + 1), host.size()); ++i) want += host[i];
    CHECK(sums[b] == want);
  }

  STATIC_REQUIRE(code_of<w::block<128>, w::in<int>, w::out<int>, w::value<int>>(doubling_scan) == code::none);
  STATIC_REQUIRE(code_of<w::block<128>, w::in<int>, w::out<int>, w::value<int>>(doubling_scan_racy) == code::W020);
  w::device_buffer<int> scanned(host.size());
  for (int n : {128, 37, 1, 0}) {  // n: the scan's span; offsets 1, 2, 4, ... below n
    INFO("n = " << n);
    CHECK(w::record(doubling_scan_k, w::grid(6), in, scanned, n).clean());
    const std::vector<int> got = w::to_host(scanned);
    for (std::size_t i = 0; i < host.size(); ++i) {
      // Hillis-Steele with offsets below n: element t sums the 2^levels elements ending at t.
      int levels = 0;
      while (levels < 31 && (1 << levels) < n) ++levels;
      const std::size_t t = i % 128, span = std::size_t{1} << levels;
      int want = 0;
      for (std::size_t j = t + 1 > span ? t + 1 - span : 0; j <= t; ++j) want += host[i - t + j];
      REQUIRE(got[i] == want);
    }
  }
}

// ---- several locals in one scope --------------------------------------------------------------------

// The sum and the largest of the four elements a thread owns: two locals of one scope (a register
// pipeline, without nesting w::local).
constexpr auto sum_and_max = [](auto k, auto in, auto sums, auto maxes) {
  auto i = k.global_id();
  return w::when(i < sums.size(), w::locals(k, 0, in[4 * i], [&](auto k, auto sum, auto most) {
                   return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
                                   return w::seq(sum += in[4 * i + j], w::when(in[4 * i + j] > most, most = in[4 * i + j]));
                                 }),
                                 sums[i] = sum, maxes[i] = most);
                 }));
};
WARDEN_KERNEL(sum_and_max_k, w::kernel<w::block<32>, w::in<int>, w::out<int>, w::out<int>>(sum_and_max));

TEST_CASE("language: several locals in one scope (w::locals)", "[language][local]") {
  STATIC_REQUIRE(code_of<w::block<32>, w::in<int>, w::out<int>, w::out<int>>(sum_and_max) == code::none);
  std::vector<int> host(256);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 37) % 101) - 50;
  auto in = w::to_device(host);
  w::device_buffer<int> sums(64), maxes(64);
  CHECK(w::record(sum_and_max_k, w::grid(2), in, sums, maxes).clean());
  const std::vector<int> s = w::to_host(sums), m = w::to_host(maxes);
  for (std::size_t i = 0; i < 64; ++i) {
    int sum = 0, most = host[4 * i];
    for (std::size_t j = 0; j < 4; ++j) sum += host[4 * i + j], most = std::max(most, host[4 * i + j]);
    REQUIRE(s[i] == sum);
    REQUIRE(m[i] == most);
  }
}

// ---- struct fields and early exit ---------------------------------------------------------------------

struct particle {
  float x, v;
};
constexpr auto advance = [](auto k, auto p, auto dt) {
  auto i = k.global_id();
  return w::when(i < p.size(), p[i] = w::with_field<&particle::x>(p[i], w::field<&particle::x>(p[i]) + dt * w::field<&particle::v>(p[i])));
};
// Racy twin: each thread moves its neighbour's particle too.
constexpr auto advance_neighbour = [](auto k, auto p, auto dt) {
  auto i = k.global_id();
  return w::when(i + 1 < p.size(), p[i + 1] = w::with_field<&particle::x>(p[i + 1], w::field<&particle::x>(p[i]) + dt));
};
// How many elements of each row of 16 come before the first above `limit` (a `break`).
constexpr auto count_before = [](auto k, auto a, auto out, auto limit) {
  auto r = k.global_id();
  return w::when(r < out.size(), out[r] = 0,
                 w::for_until(k, 0, 16, [&](auto, auto j) { return a[r * 16 + j] > limit; }, [&](auto, auto j) { return out[r] = j + 1; }));
};
// An early exit before a barrier splits the block: W030.
constexpr auto break_before_barrier = [](auto k, auto a, auto out) {
  auto t = k.thread_id();
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    return w::seq(w::for_until(k, 0, 4, [&](auto, auto j) { return a[t * 4 + j] < 0; }, [&](auto, auto j) { return w::seq(tile[t] = j, w::sync()); }),
                  out[t] = tile[t]);
  });
};
WARDEN_KERNEL(advance_k, w::kernel<w::block<64>, w::inout<particle>, w::value<float>>(advance));
WARDEN_KERNEL(count_before_k, w::kernel<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(count_before));

TEST_CASE("language: struct fields, and for_until's break", "[language][struct][loops]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<particle>, w::value<float>>(advance) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<particle>, w::value<float>>(advance_neighbour) == code::W011);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>, w::value<int>>(count_before) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(break_before_barrier) == code::W030);

  std::vector<particle> host(100);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = {static_cast<float>(i), 2.0f};
  auto p = w::to_device(host);
  CHECK(w::record(advance_k, w::grid(2), p, 0.5f).clean());
  const std::vector<particle> moved = w::to_host(p);
  for (std::size_t i = 0; i < host.size(); ++i) {
    CHECK(moved[i].x == host[i].x + 1.0f);
    CHECK(moved[i].v == 2.0f);
  }

  std::vector<int> rows(16 * 10);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>((i % 16) * (i / 16));
  auto a = w::to_device(rows);
  w::device_buffer<int> out(10);
  CHECK(w::record(count_before_k, w::grid(1), a, out, 20).clean());
  const std::vector<int> got = w::to_host(out);
  for (std::size_t r = 0; r < 10; ++r) {
    int want = 0;
    while (want < 16 && rows[r * 16 + static_cast<std::size_t>(want)] <= 20) ++want;
    CHECK(got[r] == want);
  }
}
