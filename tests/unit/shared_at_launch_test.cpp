// The launch decides what the checker cannot (issue 32, items 1 and 4): tile accesses whose
// indices read the launch's numbers are listed again by launch with those numbers written in
// (dsl/obligation.hpp, shared_at_launch; check/launch/shared_races.hpp), and E104 and E101 list an
// index that thread ids, loop counters and launch numbers make, where intervals see a wrap or an
// overrun that no thread reaches (check/launch/integer_wrap.hpp, overrun.hpp). Each case has its
// twin: the launch that does race is refused (E106) naming the two threads and the element, and a
// meeting that reads no launch number is still refused at compile time.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

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
    CHECK(what.find("meet at element 0 in one barrier phase") != std::string::npos);
    CHECK(what.find("store tile0[thread_id.x % m]") != std::string::npos);
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
    CHECK(std::string(e.what()).find("(stride = 3) threads") != std::string::npos);
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
    CHECK(what.find("past its compile-time budget") != std::string::npos);
    CHECK(what.find("(m = 1024) W022: load tile0[thread_id.x + m] reads element 1024 in thread 0") != std::string::npos);
  }
}
