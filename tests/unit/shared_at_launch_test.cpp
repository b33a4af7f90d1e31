// The launch decides what the checker cannot (issue 32, items 1 and 4): tile accesses whose
// indices read the launch's numbers are listed again by launch with those numbers written in
// (dsl/obligation.hpp, shared_at_launch; check/launch/shared_races.hpp), and E104 and E101 list an
// index that thread ids, loop counters and launch numbers make, where intervals see a wrap or an
// overrun that no thread reaches (check/launch/integer_wrap.hpp, overrun.hpp). Each case has its
// twin: the launch that does race is refused (E106) naming the two threads and the element, and a
// meeting that reads no launch number is still refused at compile time.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/check_only.hpp"
#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

using B64 = w::block<64>;
using V = w::value<int>;

// Each thread stores tile[t % m]: two threads meet when m < 64, none when m >= 64. Only the
// launch knows m.
constexpr auto modulo_store = [](auto k, auto out, auto m) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t % m] = t, w::sync(), out[t] = tile[t % m]);
  });
};
// The same meeting without a launch number: t / 2 meets for every launch.
constexpr auto halved_store = [](auto k, auto out, auto) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t / 2] = t, w::sync(), out[t] = tile[t / 2]);
  });
};
// A block id in the index: no launch lists every block, so it stays the compiler's question.
constexpr auto block_offset_store = [](auto k, auto out, auto m) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[(t + k.block_id() * m) % 64] = t, w::sync(), out[k.global_id()] = tile[t]);
  });
};

}  // namespace

WARDEN_KERNEL(modulo_k, w::kernel<B64, w::out<int>, V>(modulo_store).named("modulo_store", "out", "m"));
WARDEN_KERNEL(modulo_trusted, w::kernel<B64, w::out<int>, V>(w::testing::trusting(modulo_store)));

TEST_CASE("shared_at_launch: a meeting that rests on a launch number is decided by the launch", "[shared_at_launch]") {
  STATIC_REQUIRE(code_of<B64, w::out<int>, V>(modulo_store) == code::none);
  CHECK(w::obligations_of(modulo_k).find("W020 holds on the tiles if no two threads meet") == 0);
  w::device_buffer<int> out(64);
  // m = 64 and m = 100: every thread its own element, clean, and the values are the threads'.
  for (int m : {64, 100}) {
    CAPTURE(m);
    CHECK(w::record(modulo_k, w::grid(1), out, m).clean());
    std::vector<int> want(64);
    for (int t = 0; t < 64; ++t) want[static_cast<std::size_t>(t)] = t;
    CHECK(w::to_host(out) == want);
  }
  // m = 32: threads 0 and 32 both store element 0. Refused before anything runs.
  try {
    w::launch(w::on_cpu, modulo_k, w::grid(1), out, 32);
    FAIL("a launch whose threads meet on the tile ran");
  } catch (const w::obligation_error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.rfind("E106", 0) == 0);
    CHECK(what.find("(m = 32)") != std::string::npos);
    CHECK(what.find("store tile0[thread_id.x % m]") != std::string::npos);
    // The solver's witness: two threads of the block, both at the element it names.
    std::smatch m;
    REQUIRE(std::regex_search(what, m, std::regex("thread (\\d+) of block 0 and thread (\\d+) of block 0 meet at element (\\d+) in one barrier phase")));
    const int first = std::stoi(m[1]), second = std::stoi(m[2]), element = std::stoi(m[3]);
    CHECK(first != second);
    CHECK(first % 32 == element);
    CHECK(second % 32 == element);
    // w::record_anyway runs the launch all the same: the recording shows the race at the
    // solver's element, between the solver's two threads (the only two that store it).
    const w::recording seen = w::record_anyway(modulo_k, w::grid(1), out, 32);
    bool reproduced = false;
    for (const auto& c : seen.conflicts())
      reproduced = reproduced || (c.kind == w::conflict_kind::write_write && c.first.memory == w::dsl::memory_kind::shared &&
                                  c.first.index == element &&
                                  std::min(c.first.thread, c.second.thread) == std::min(first, second) &&
                                  std::max(c.first.thread, c.second.thread) == std::max(first, second));
    CHECK(reproduced);
  }
  // The recording agrees that m = 32 races (the kernel under trusted(...), so that it runs).
  CHECK_FALSE(w::record(modulo_trusted, w::grid(1), out, 32).clean());
}

TEST_CASE("shared_at_launch: a meeting without launch numbers, or with a block id, stays a compile-time error",
          "[shared_at_launch]") {
  STATIC_REQUIRE(code_of<B64, w::out<int>, V>(halved_store) == code::W020);
  STATIC_REQUIRE(code_of<B64, w::out<int>, V>(block_offset_store) == code::W020);
}

namespace {
// A bitonic merge step as cuda-samples' sortingNetworks writes it: pos = 2 * t - (t & (stride - 1)),
// stride a value parameter. The intervals see pos go below 0 (E104) and pos + stride pass the tile
// (E101); no thread does, for stride a power of two up to the block.
constexpr auto merge_step = [](auto k, auto out, auto in, auto stride) {
  return w::shared<unsigned, 128>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto pos = 2u * t - (t & (stride - 1u));
    return w::seq(tile[t] = in[t], tile[t + 64] = in[t + 64], w::sync(),
                  w::local(k, tile[pos], [&](auto k, auto a) {
                    return w::local(k, tile[pos + stride], [&](auto, auto b) {
                      return w::when(a > b, w::seq(tile[pos] = b, tile[pos + stride] = a));
                    });
                  }),
                  w::sync(), out[t] = tile[t], out[t + 64] = tile[t + 64]);
  });
};
}  // namespace

WARDEN_KERNEL(merge_k, w::kernel<B64, w::out<unsigned>, w::in<unsigned>, w::value<unsigned>>(merge_step)
                           .named("merge_step", "out", "in", "stride"));

TEST_CASE("exact at launch: E104 and E101 list an index that only thread ids and launch numbers make",
          "[shared_at_launch][bounds]") {
  STATIC_REQUIRE(code_of<B64, w::out<unsigned>, w::in<unsigned>, w::value<unsigned>>(merge_step) == code::none);
  std::vector<unsigned> in(128);
  for (unsigned i = 0; i < 128; ++i) in[i] = 127 - i;
  auto din = w::to_device(in);
  w::device_buffer<unsigned> out(128);
  for (unsigned stride : {1u, 4u, 64u}) {
    CAPTURE(stride);
    CHECK(w::record(merge_k, w::grid(1), out, din, stride).clean());
    // The reference: each pair (pos, pos + stride) ordered.
    std::vector<unsigned> want = in;
    for (unsigned t = 0; t < 64; ++t) {
      const unsigned pos = 2 * t - (t & (stride - 1));
      if (want[pos] > want[pos + stride]) std::swap(want[pos], want[pos + stride]);
    }
    CHECK(w::to_host(out) == want);
  }
  // stride 3 is no power of two: threads 1 and 2 both take pos = 2 and race. The launch lists it.
  try {
    w::launch(w::on_cpu, merge_k, w::grid(1), out, din, 3u);
    FAIL("a launch whose threads meet on the tile ran");
  } catch (const w::obligation_error& e) {
    CAPTURE(e.what());
    const std::string what = e.what();
    CHECK(what.find("(stride = 3) thread ") != std::string::npos);
    // Two threads whose pos (2t - (t & 2)) or pos + 3 is one element: the witness is one.
    std::smatch m;
    REQUIRE(std::regex_search(what, m, std::regex("thread (\\d+) of block 0 and thread (\\d+) of block 0 meet at element (\\d+)")));
    const auto reaches = [](int t, int e) { const int pos = 2 * t - (t & 2); return pos == e || pos + 3 == e; };
    CHECK(reaches(std::stoi(m[1]), std::stoi(m[3])));
    CHECK(reaches(std::stoi(m[2]), std::stoi(m[3])));
  }
  // stride 128: pos + stride passes the tile. Refused (E101), with the exact index reached.
  try {
    w::launch(w::on_cpu, merge_k, w::grid(1), out, din, 128u);
    FAIL("an overrunning launch ran");
  } catch (const w::bounds_error& e) {
    CAPTURE(e.what());
    CHECK(std::string(e.what()).find("reaches index 191") != std::string::npos);
  }
  // stride 0: stride - 1 wraps (E104), and the listing does not hide it.
  try {
    w::launch(w::on_cpu, merge_k, w::grid(1), out, din, 0u);
    FAIL("a wrapping launch ran");
  } catch (const w::wrap_error& e) {
    CHECK(std::string(e.what()).rfind("E104", 0) == 0);
  }
}

namespace {
// E104 decided with a block id in the operation: 2u * g - (g & 7u), g = b * 64 + t, as a bitonic
// step writes its position over the whole grid. The intervals see it go below 0 (2g from 0, minus
// up to 7); the solver sees that g & 7 never passes g, in every block (the block listing that
// decided this before issue 54 could not read a block id: refused).
constexpr auto previous_element = [](auto k, auto out, auto in) {
  auto g = k.block_id() * 64u + k.thread_id();
  return out[g] = in[2u * g - (g & 7u)];
};
// The twin whose mask passes g: 2u * g - (g | 7u) is below 0 for g < 7 (thread 0: 0 - 7).
constexpr auto previous_unguarded = [](auto k, auto out, auto in) {
  auto g = k.block_id() * 64u + k.thread_id();
  return out[g] = in[2u * g - (g | 7u)];
};
}  // namespace

WARDEN_KERNEL(previous_element_k, w::kernel<B64, w::out<int>, w::in<int>>(previous_element).named("previous_element", "out", "in"));
WARDEN_KERNEL(previous_unguarded_k, w::kernel<B64, w::out<int>, w::in<int>>(previous_unguarded).named("previous_unguarded", "out", "in"));

TEST_CASE("exact at launch: E104 decides an unsigned operation on a block id by solving", "[shared_at_launch][bounds]") {
  std::vector<int> host(512);
  for (int i = 0; i < 512; ++i) host[static_cast<std::size_t>(i)] = 3 * i;
  auto in = w::to_device(host);
  w::device_buffer<int> out(256);
  w::launch(w::on_cpu, previous_element_k, w::grid(4), out, in);
  const std::vector<int> got = w::to_host(out);
  for (int g = 0; g < 256; ++g) CHECK(got[static_cast<std::size_t>(g)] == 3 * (2 * g - (g & 7)));
  try {
    w::launch(w::on_cpu, previous_unguarded_k, w::grid(4), out, in);
    FAIL("a wrapping launch ran");
  } catch (const w::wrap_error& e) {
    CHECK(std::string(e.what()).rfind("E104", 0) == 0);
  }
}

namespace {
// A listing past the compile-time budget (1,024 threads x 300 trips): handed to the launch
// untried, which then judges W022 too. tile[t + m] reads what tile[t] stored for m = 0, and
// elements nothing stored for m = 1024.
constexpr auto offset_reads = [](auto k, auto out, auto m) {
  return w::shared<int, 2048>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t] = t, w::sync(),
                  w::for_range(k, 0, 300, [&](auto, auto) { return out[t] = out[t] + tile[t + m]; }));
  });
};
}  // namespace

WARDEN_KERNEL(offset_reads_k, w::kernel<w::block<1024>, w::inout<int>, V>(offset_reads).named("offset_reads", "out", "m"));

TEST_CASE("shared_at_launch: a listing past the compile-time budget is the launch's, W022 included", "[shared_at_launch]") {
  STATIC_REQUIRE(code_of<w::block<1024>, w::inout<int>, V>(offset_reads) == code::none);
  auto out = w::to_device(std::vector<int>(1024, 0));
  CHECK(w::record(offset_reads_k, w::grid(1), out, 0).clean());
  CHECK(w::to_host(out)[5] == 5 * 300);
  try {
    w::launch(w::on_cpu, offset_reads_k, w::grid(1), out, 1024);
    FAIL("a launch that reads unwritten shared memory ran");
  } catch (const w::obligation_error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("the checker left the tiles to the launch (their indices read the launch's numbers)") != std::string::npos);
    CHECK(what.find("(m = 1024) W022: load tile0[thread_id.x + m] reads element 1024 in thread 0") != std::string::npos);
  }
}

// ---- global_at_launch: pairs of global accesses left to the launch -------------------------------
//
// A pair of global stores or a store and a load that the checker cannot separate for every value,
// whose elements read the launch's numbers, is listed by the launch with its own (dsl/obligation.hpp,
// global_at_launch; check/launch/global_pairs.hpp). A pair that reads no launch number, or reads
// data or a local, is still refused at compile time.

namespace {
using U = w::value<unsigned>;
// HeCBench heat's store: i % n + i / n * n is i, one element per thread, which no algebra here proves.
constexpr auto flattened_store = [](auto k, auto out, auto n) {
  auto i = k.global_id();
  return w::when(i < n * n, out[i % n + i / n * n] = i);
};
// Racy when n is below the grid's threads.
constexpr auto modulo_global = [](auto k, auto out, auto n) { return out[k.global_id() % n] = 1; };
// Racy in every launch of more than one thread: refused here.
constexpr auto halved_global = [](auto k, auto out, auto n) { return w::when(k.global_id() < n, out[k.global_id() / 2] = 1); };
// A load at a modulo held in a local, beside the store: the local holds n there (v = n before it),
// so the pair is io[g] against io[g % n], left to the launch as modulo_global is
// (dsl/local_values.hpp). Where the local holds a value carried from an earlier trip (v = v * n
// is no step), the checker cannot follow it: data, refused at compile time. (A store at such an
// index is W012, a store at a data index, which is never left to the launch.)
constexpr auto modulo_through_local = [](auto k, auto io, auto n) {
  return w::local(k, 0, [&](auto k, auto v) { return w::seq(v = n, io[k.global_id()] = io[k.global_id() % v] + 1); });
};
constexpr auto modulo_through_carried_local = [](auto k, auto io, auto n) {
  return w::local(k, 1, [&](auto k, auto v) {
    return w::for_range(k, 0, 2, [&](auto, auto) { return w::seq(io[k.global_id()] = io[k.global_id() % v] + 1, v = v * n); });
  });
};
// A loop whose trips are a parameter: 64 threads x n trips to list. (t + j) % 64 meets another
// thread from the second trip on; (t * n + j) % m, for m above every element, never does, but
// the checker cannot see that m is that large.
constexpr auto long_rows = [](auto k, auto out, auto n) {
  return w::for_range(k, 0, n, [&](auto, auto j) { return out[(k.thread_id() + j) % 64] = j; });
};
constexpr auto long_rows_apart = [](auto k, auto out, auto n, auto m) {
  return w::for_range(k, 0, n, [&](auto, auto j) { return out[(k.thread_id() * n + j) % m] = j; });
};
}  // namespace

WARDEN_KERNEL(flattened_k, w::kernel<B64, w::out<int>, U>(flattened_store).named("flattened_store", "out", "n"));
WARDEN_KERNEL(modulo_global_k, w::kernel<B64, w::out<int>, V>(modulo_global).named("modulo_global", "out", "n"));
WARDEN_KERNEL(modulo_global_trusted, w::kernel<B64, w::out<int>, V>(w::testing::trusting(modulo_global)));
WARDEN_KERNEL(long_rows_k, w::kernel<B64, w::out<int>, V>(long_rows).named("long_rows", "out", "n"));
WARDEN_KERNEL(long_rows_apart_k, w::kernel<B64, w::out<int>, V, V>(long_rows_apart).named("long_rows_apart", "out", "n", "m"));

TEST_CASE("global_at_launch: a store the algebra cannot separate runs when the launch lists it apart", "[shared_at_launch][global]") {
  STATIC_REQUIRE(w::testing::left_to_launch<B64, w::out<int>, U>(flattened_store));
  CHECK(w::obligations_of(flattened_k).find("W010 holds for out[") == 0);
  CHECK(w::obligations_of(flattened_k).find("if launch lists both with its own values and no two threads reach one element") != std::string::npos);
  for (unsigned n : {5u, 16u, 33u}) {
    CAPTURE(n);
    w::device_buffer<int> out(n * n);
    CHECK(w::record(flattened_k, w::grid(static_cast<int>((n * n + 63) / 64)), out, n).clean());
    const std::vector<int> got = w::to_host(out);
    for (unsigned i = 0; i < n * n; ++i) CHECK(got[i] == static_cast<int>(i));
  }
}

TEST_CASE("global_at_launch: a launch whose threads meet is refused, naming them and the element", "[shared_at_launch][global]") {
  STATIC_REQUIRE(w::testing::left_to_launch<B64, w::out<int>, V>(modulo_global));
  w::device_buffer<int> out(200);
  CHECK(w::record(modulo_global_k, w::grid(1), out, 64).clean());
  CHECK(w::record(modulo_global_k, w::grid(2), out, 128).clean());
  try {
    w::launch(w::on_cpu, modulo_global_k, w::grid(1), out, 63);
    FAIL("threads 0 and 63 both stored out[0]");
  } catch (const w::obligation_error& e) {
    CHECK(std::string(e.what()) ==
          "E106 [launch-obligation] modulo_global_k: W010 for out[global_id.x % n] (one store, two threads): decided with this "
          "launch's numbers (n = 63), thread 0 of block 0 and thread 63 of block 0 both reach element 0 (the checker left "
          "this pair to the launch, w::obligations_of): launch with values for which no two threads reach one element, or "
          "give each thread elements of its own");
  }
  // The oracle agrees: run unchecked, the same launch records the meeting, and n = 64 none.
  CHECK_FALSE(w::record(modulo_global_trusted, w::grid(1), out, 63).clean());
  // Two blocks of 64 with n = 100: thread 36 of block 1 meets thread 0 of block 0.
  try {
    w::launch(w::on_cpu, modulo_global_k, w::grid(2), out, 100);
    FAIL("blocks met");
  } catch (const w::obligation_error& e) {
    CHECK(std::string(e.what()).find("thread 0 of block 0 and thread 36 of block 1 both reach element 0") != std::string::npos);
  }
  // w::record_anyway reproduces the solver's witness: out[0] stored by exactly those two threads.
  const w::recording seen = w::record_anyway(modulo_global_k, w::grid(2), out, 100);
  bool reproduced = false;
  for (const auto& c : seen.conflicts()) {
    const auto& [x, y] = std::minmax(c.first, c.second, [](const auto& a, const auto& b) { return a.block < b.block; });
    reproduced = reproduced || (c.kind == w::conflict_kind::write_write && c.first.index == 0 && x.block == 0 && x.thread == 0 &&
                                y.block == 1 && y.thread == 36);
  }
  CHECK(reproduced);
}

TEST_CASE("global_at_launch: what reads no launch number, or a local not followed, is still refused at compile time", "[shared_at_launch][global]") {
  STATIC_REQUIRE(code_of<B64, w::out<int>, V>(halved_global) == code::W010);
  STATIC_REQUIRE(code_of<B64, w::inout<int>, V>(modulo_through_carried_local) == code::W011);
  STATIC_REQUIRE(w::testing::left_to_launch<B64, w::inout<int>, V>(modulo_through_local));  // v holds n there
}

TEST_CASE("global_at_launch: a launch of any size is decided exactly, apart or meeting", "[shared_at_launch][global]") {
  STATIC_REQUIRE(w::testing::left_to_launch<B64, w::out<int>, V>(long_rows));
  w::device_buffer<int> out(64);
  try {  // (t + j) % 64 meets: thread 63 at its second trip reaches thread 0's first element
    w::launch(w::on_cpu, long_rows_k, w::grid(1), out, 2);
    FAIL("threads met");
  } catch (const w::obligation_error& e) {
    CAPTURE(e.what());
    CHECK(std::string(e.what()).find("thread 0 of block 0 (i0 = 0) and thread 63 of block 0 (i0 = 1) both reach element 0") !=
          std::string::npos);
  }
  w::launch(w::on_cpu, long_rows_k, w::grid(1), out, 1);  // one trip: each thread its own element
  CHECK(w::to_host(out)[63] == 0);
  STATIC_REQUIRE(w::testing::left_to_launch<B64, w::out<int>, V, V>(long_rows_apart));
  // 64 x 65,600 runs and 2^20 x 64 x 16 runs, which a listing could not afford (the launch listed
  // up to 2^22 before issue 54): each thread's row is its own, decided without a run.
  using w::testing::buffer_of;
  using w::testing::value_of;
  w::testing::check_only(long_rows_apart_k, {1, 1, 1}, {buffer_of(64 * 65600), value_of(65600), value_of(1 << 30)});
  // m below the rows' span: rows wrap onto each other (thread 1's row starts at 65600 % 65536 = 64).
  try {
    w::testing::check_only(long_rows_apart_k, {1, 1, 1}, {buffer_of(64 * 65600), value_of(65600), value_of(65536)});
    FAIL("rows met");
  } catch (const w::obligation_error& e) {
    CHECK(std::string(e.what()).find("W010 for out[") != std::string::npos);
    CHECK(std::string(e.what()).find("decided with this launch's numbers (n = 65600, m = 65536)") != std::string::npos);
  }
  // And bounds are decided the same way: every element below m, so a buffer of 64 is overrun at 65599.
  try {
    w::testing::check_only(long_rows_apart_k, {1, 1, 1}, {buffer_of(64), value_of(65600), value_of(1 << 30)});
    FAIL("overran");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()).find("reaches index") != std::string::npos);
  }
}

// ---- every tile rule judged at launch (issue 54, item 0) -----------------------------------------
//
// A box filter of radius r, a launch value: each thread stores the centre tile[t + r] and, under
// t < r, the left halo tile[t]; `forgets_right_halo` leaves out the right halo tile[t + 64 + r].
// With r unknown, the checker cannot place the stores, so it leaves the tiles to the launch; the
// launch used to judge only the meetings then (W020), accepted the forgetful kernel, and 8 of its
// outputs read shared memory nobody wrote. Now the launch judges W022 too.

namespace {
constexpr auto box_filter = [](auto k, auto in, auto out, auto r) {
  return w::given(r >= 0 && r <= 8, w::shared<float, 64 + 16>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t + r] = in[g + r], w::when(t < r, tile[t] = in[g], tile[t + 64 + r] = in[g + 64 + r]), w::sync(),
                  w::local(k, 0.f, [&](auto k, auto sum) {
                    return w::seq(w::for_range(k, 0, 2 * r + 1, [&](auto, auto j) { return sum += tile[t + j]; }), out[g] = sum);
                  }));
  }));
};
constexpr auto forgets_right_halo = [](auto k, auto in, auto out, auto r) {
  return w::given(r >= 0 && r <= 8, w::shared<float, 64 + 16>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t + r] = in[g + r], w::when(t < r, tile[t] = in[g]), w::sync(),
                  w::local(k, 0.f, [&](auto k, auto sum) {
                    return w::seq(w::for_range(k, 0, 2 * r + 1, [&](auto, auto j) { return sum += tile[t + j]; }), out[g] = sum);
                  }));
  }));
};
using F = w::in<float>;
using FO = w::out<float>;
}  // namespace

WARDEN_KERNEL(box_filter_k, w::kernel<B64, F, FO, V>(box_filter).named("box_filter", "in", "out", "r"));
WARDEN_KERNEL(forgets_right_halo_k, w::kernel<B64, F, FO, V>(forgets_right_halo).named("forgets_right_halo", "in", "out", "r"));

TEST_CASE("shared_at_launch: a load of a tile element no store reaches is refused at launch (W022), its twin runs",
          "[shared_at_launch][w022]") {
  STATIC_REQUIRE(code_of<B64, F, FO, V>(forgets_right_halo) == code::none);  // left to the launch
  STATIC_REQUIRE(code_of<B64, F, FO, V>(box_filter) == code::none);
  const int n = 256;
  for (int r : {1, 8}) {
    CAPTURE(r);
    std::vector<float> host(n + 2 * r);
    for (int i = 0; i < n + 2 * r; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
    w::device_buffer<float> in = w::to_device(host), out(n);
    try {
      w::launch(w::on_cpu, forgets_right_halo_k, w::grid(n / 64), in, out, r);
      FAIL("a kernel that reads unwritten shared memory ran");
    } catch (const w::obligation_error& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("W022") != std::string::npos);
      CHECK(what.find("reads element " + std::to_string(64 + r)) != std::string::npos);
      // The solver's reader: a thread whose window t .. t + 2r holds the element.
      std::smatch m;
      REQUIRE(std::regex_search(what, m, std::regex("in thread (\\d+) of block (\\d+)")));
      const int reader = std::stoi(m[1]);
      CHECK(reader <= 64 + r);
      CHECK(reader + 2 * r >= 64 + r);
    }
    // The oracle agrees: recorded anyway, the load of the unwritten element the refusal names shows.
    const w::recording seen = w::record_anyway(forgets_right_halo_k, w::grid(n / 64), in, out, r);
    CHECK_FALSE(seen.refusal().empty());
    bool reproduced = false;
    for (const auto& c : seen.conflicts())
      reproduced = reproduced || (c.kind == w::conflict_kind::uninitialised_shared_load && c.first.index == 64 + r);
    CHECK(reproduced);
    // The twin, right halo stored: runs, and equals the reference.
    w::launch(w::on_cpu, box_filter_k, w::grid(n / 64), in, out, r);
    const std::vector<float> got = w::to_host(out);
    for (int i = 0; i < n; ++i) {
      float want = 0;
      for (int j = 0; j <= 2 * r; ++j) want += host[static_cast<std::size_t>(i + j)];
      CHECK(got[static_cast<std::size_t>(i)] == want);
    }
  }
  // r = 0 reads only the centre: the forgetful kernel needs no halo and runs.
  w::device_buffer<float> in = w::to_device(std::vector<float>(n, 1.f)), out(n);
  w::launch(w::on_cpu, forgets_right_halo_k, w::grid(n / 64), in, out, 0);
  CHECK(w::to_host(out)[5] == 1.f);
}

// The shape of the hole as a family, judged against the recording: a halo filter with either
// halo present or absent and radius r from 0 to 8. The launch must refuse (E106) exactly the
// launches whose run reads a tile element no thread stored; before issue 54 it refused none.
namespace {
template <bool Left, bool Right>
constexpr auto halo_filter = [](auto k, auto in, auto out, auto r) {
  return w::given(r >= 0 && r <= 8, w::shared<float, 64 + 16>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    auto left = [&] {
      if constexpr (Left) return w::when(t < r, tile[t] = in[g]);
      else return w::when(t < 0, tile[t] = in[g]);  // never
    };
    auto right = [&] {
      if constexpr (Right) return w::when(t < r, tile[t + 64 + r] = in[g + 64 + r]);
      else return w::when(t < 0, tile[t + 64 + r] = in[g + 64 + r]);
    };
    return w::seq(tile[t + r] = in[g + r], left(), right(), w::sync(),
                  w::local(k, 0.f, [&](auto k, auto sum) {
                    return w::seq(w::for_range(k, 0, 2 * r + 1, [&](auto, auto j) { return sum += tile[t + j]; }), out[g] = sum);
                  }));
  }));
};
template <bool Left, bool Right>
void judge_halo_family(int& refused, int& unwritten) {
  const auto kernel = w::kernel<B64, F, FO, V>(halo_filter<Left, Right>);
  for (int r = 0; r <= 8; ++r) {
    CAPTURE(Left, Right, r);
    w::device_buffer<float> in = w::to_device(std::vector<float>(128 + 2 * r, 1.f)), out(128);
    const w::recording seen = w::record_anyway(kernel, w::grid(2), in, out, r);
    bool reads_unwritten = false;
    for (const auto& c : seen.conflicts()) reads_unwritten = reads_unwritten || c.kind == w::conflict_kind::uninitialised_shared_load;
    const bool refuses = !seen.refusal().empty();
    CHECK(refuses == reads_unwritten);
    refused += refuses;
    unwritten += reads_unwritten;
  }
}
}  // namespace

TEST_CASE("shared_at_launch: halo filters of every radius, refused exactly where the run reads unwritten shared memory",
          "[shared_at_launch][w022]") {
  int refused = 0, unwritten = 0;
  judge_halo_family<true, true>(refused, unwritten);
  judge_halo_family<true, false>(refused, unwritten);
  judge_halo_family<false, true>(refused, unwritten);
  judge_halo_family<false, false>(refused, unwritten);
  CHECK(unwritten == 3 * 8);  // every radius above 0 without both halos
  CHECK(refused == unwritten);
}
