// Adversarial classes against the checker (docs/soundness.md, "Attacks and what stops them"): for
// each, the racy kernel a careless user would write is rejected with its code, its correct twin is
// accepted, and the recording (the dynamic oracle) agrees: the racy one races, the twin does not.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace w = warden;
using w::diagnostic::code;

using w::testing::code_of;
using w::testing::trusting;

// ---- 1. Negated terms: a guard must bound the expression it guards, signs included -------------

// Each block reverses the order of its four 32-element chunks.
constexpr auto reversed_chunks_forward_guard = [](auto k, auto out, auto n) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 4, [&](auto, auto i) { return w::when(t + 32 * i < n, out[b * n + (3 - i) * 32 + t] = 1); });
};
constexpr auto reversed_chunks_own_guard = [](auto k, auto out, auto n) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::for_range(k, 0, 4, [&](auto, auto i) { return w::when(t + 32 * (3 - i) < n, out[b * n + (3 - i) * 32 + t] = 1); });
};
WARDEN_KERNEL(reversed_chunks_racy_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>(trusting(reversed_chunks_forward_guard)));
WARDEN_KERNEL(reversed_chunks_checked_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>(reversed_chunks_forward_guard));
WARDEN_KERNEL(reversed_chunks_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>(reversed_chunks_own_guard));

// The forward guard is proved only when segments hold all four chunks (n >= 128): the checker
// accepts it with that launch obligation (proposals/0005), and a launch with shorter segments,
// where the reversed chunks really spill into the next block's, is refused with E106.
TEST_CASE("negated terms: the guard of the forward order does not bound the reversed index", "[soundness][negation]") {
  STATIC_REQUIRE(code_of<w::block<32>, w::out<int>, w::value<int>>(reversed_chunks_forward_guard) == code::none);
  STATIC_REQUIRE(code_of<w::block<32>, w::out<int>, w::value<int>>(reversed_chunks_own_guard) == code::none);
  CHECK(w::obligations_of(reversed_chunks_checked_k).find("if p1 >= 128") != std::string::npos);
  CHECK(w::obligations_of(reversed_chunks_k).empty());
  for (int n : {100, 37}) {  // segments shorter than four chunks: the reversed ones spill into the next
    w::device_buffer<int> out(static_cast<std::size_t>(4 * n + 128));
    CAPTURE(n);
    CHECK_FALSE(w::record(reversed_chunks_racy_k, w::grid(4), out, n).clean());
    CHECK_THROWS_AS(w::record(reversed_chunks_checked_k, w::grid(4), out, n), w::obligation_error);
    CHECK(w::record(reversed_chunks_k, w::grid(4), out, n).clean());
  }
  for (int n : {128, 200}) {  // the obligation met: clean
    w::device_buffer<int> out(static_cast<std::size_t>(4 * n + 128));
    CAPTURE(n);
    CHECK(w::record(reversed_chunks_checked_k, w::grid(4), out, n).clean());
  }
}

// ---- 4. Sibling scopes: a tile or a loop variable is its declaration, not its nesting level -----

// Two sibling tiles at one nesting level: the second is read where only the first was stored.
constexpr auto sibling_tile_never_stored = [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto g = k.global_id();
  return w::seq(w::shared<int, 64>(k, [&](auto, auto a) { return w::seq(a[t] = in[g], w::sync(), out[g] = a[63 - t]); }),
                w::sync(),
                w::shared<int, 64>(k, [&](auto, auto c) { return out[g] = c[t]; }));
};
constexpr auto sibling_tile_stored = [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto g = k.global_id();
  return w::seq(w::shared<int, 64>(k, [&](auto, auto a) { return w::seq(a[t] = in[g], w::sync(), out[g] = a[63 - t]); }),
                w::sync(),
                w::shared<int, 64>(k, [&](auto, auto c) { return w::seq(c[t] = in[g], w::sync(), out[g] = c[63 - t]); }));
};

TEST_CASE("sibling scopes: a sibling tile is another tile", "[soundness][scopes]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(sibling_tile_never_stored) == code::W022);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<int>, w::out<int>>(sibling_tile_stored) == code::none);
}

// Launch-time bounds (E101) of kernels with sibling scopes of different sizes.
template <class Block, class... Params, class Body>
std::string overrun_of(Body body, std::vector<long long> sizes, int blocks = 1) {
  const auto ir = w::dsl::build_kernel<Block, Params...>(body).describe();
  w::check::launch_facts facts;
  facts.block = {Block::x, Block::y, Block::z};
  facts.grid = {blocks, 1, 1};
  facts.values.resize(sizes.size());
  facts.sizes = std::move(sizes);
  const std::vector<std::string> names(facts.sizes.size(), "p"), kinds(facts.sizes.size(), "buffer");
  return w::check::first_overrun(ir, facts, names, kinds);
}

TEST_CASE("sibling scopes: each tile and each loop variable is bounded by its own declaration", "[soundness][scopes]") {
  // A 32-element tile, then a 64-element sibling: t reaches 63 in the first.
  constexpr auto small_then_big = [](auto k, auto out) {
    auto t = k.thread_id();
    return w::seq(w::shared<int, 32>(k, [&](auto, auto a) { return a[t] = 1; }),
                  w::shared<int, 64>(k, [&](auto, auto c) { return c[t] = 2; }), out[t] = 0);
  };
  constexpr auto big_then_small = [](auto k, auto out) {
    auto t = k.thread_id();
    return w::seq(w::shared<int, 64>(k, [&](auto, auto a) { return a[t] = 1; }),
                  w::shared<int, 32>(k, [&](auto, auto c) { return c[t] = 2; }), out[t] = 0);
  };
  CHECK(overrun_of<w::block<64>, w::out<int>>(small_then_big, {64}).find("tile0") != std::string::npos);
  CHECK(overrun_of<w::block<64>, w::out<int>>(big_then_small, {64}).find("tile1") != std::string::npos);

  // An 8-trip loop, then a 2-trip sibling at the same level: out[8 * t + i] reaches 8 * t + 7.
  constexpr auto long_then_short = [](auto k, auto out) {
    auto t = k.thread_id();
    return w::seq(w::for_range(k, 0, 8, [&](auto, auto i) { return out[8 * t + i] = 1; }),
                  w::for_range(k, 0, 2, [&](auto, auto j) { return out[8 * t + j] = 2; }));
  };
  CHECK(overrun_of<w::block<4>, w::out<int>>(long_then_short, {30}).find("reaches index 31") != std::string::npos);
  CHECK(overrun_of<w::block<4>, w::out<int>>(long_then_short, {32}).empty());
}

// ---- Scopes opened with an enclosing scope's context (red team, issue 32, item 0) ---------------
//
// `[&](auto, auto r)` leaves the loop's own context unnamed, so the inner loop is opened with the
// outer `k`: both bind one level, `r` and `c` share a type, and the inner one hides the outer one
// wherever both are meant. Refused (W032), whatever the scopes: loops, locals, tiles, unrolls.
constexpr auto loop_in_loop_outer_k = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::for_range(k, 0, 4, [&](auto, auto r) {
    return w::when(r < 2, w::for_range(k, 0, 16, [&](auto, auto c) { return out[t * 16 + c] = 1; }));
  });
};
constexpr auto loop_in_loop = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::for_range(k, 0, 4, [&](auto k_row, auto r) {
    return w::when(r < 2, w::for_range(k_row, 0, 16, [&](auto, auto c) { return out[t * 16 + c] = 1; }));
  });
};
constexpr auto tile_in_tile_outer_k = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::shared<int, 64>(k, [&](auto, auto a) {
    return w::shared<int, 8, 8>(k, [&](auto, auto b) { return w::seq(a[t] = 1, b(t / 8, t % 8) = 2, w::sync(), out[t] = a[63 - t]); });
  });
};
constexpr auto tile_in_tile = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::shared<int, 64>(k, [&](auto k_a, auto a) {
    return w::shared<int, 8, 8>(k_a, [&](auto, auto b) { return w::seq(a[t] = 1, b(t / 8, t % 8) = 2, w::sync(), out[t] = a[63 - t]); });
  });
};
constexpr auto local_in_loop_outer_k = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::for_range(k, 0, 2, [&](auto, auto r) { return w::local(k, t, [&](auto, auto v) { return out[t] = v + r; }); });
};
constexpr auto unroll_in_local_outer_k = [](auto k, auto out) {
  auto t = k.thread_id();
  return w::local(k, t, [&](auto, auto v) { return w::unroll<2>(k, [&](auto, auto u) { return out[t] = v + u; }); });
};

TEST_CASE("outer context: a scope opened with an enclosing scope's context is refused (W032)", "[soundness][scopes]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(loop_in_loop_outer_k) == code::W032);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(loop_in_loop) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(tile_in_tile_outer_k) == code::W032);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(tile_in_tile) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(local_in_loop_outer_k) == code::W032);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(unroll_in_local_outer_k) == code::W032);
  // The explanation names both scopes and the level.
  constexpr auto text = w::check::verdict_of(w::dsl::build_kernel<w::block<64>, w::out<int>>(tile_in_tile_outer_k)).text;
  CHECK(std::string_view(text.data, text.size) ==
        "shared opened with the context of the enclosing shared: both bind nesting level 0, so the inner one's variable hides "
        "the outer one's");
}

TEST_CASE("outer context: launch's bounds never take one loop's guard for another's (E101, by identity)", "[soundness][scopes]") {
  // The hole W032 closes at compile time, at launch: `r < 2` bounds the outer loop only, so the
  // inner c reaches 15 and out[t * 16 + c] runs past 64 elements. (When facts were keyed by an
  // expression's text, both variables read `i0` and c was taken to stay below 2.)
  CHECK(overrun_of<w::block<4>, w::out<int>>(loop_in_loop_outer_k, {50}).find("reaches index 63") != std::string::npos);
  CHECK(overrun_of<w::block<4>, w::out<int>>(loop_in_loop, {50}).find("reaches index 63") != std::string::npos);
  CHECK(overrun_of<w::block<4>, w::out<int>>(loop_in_loop, {64}).empty());
}

// A block-uniform count in a local next to a per-thread local at the same level: each local is its
// own declaration, so the barrier in the loop up to `count` is uniform (it was W030 when locals
// were told apart by level only). Assigning the count per thread makes it W030 again.
constexpr auto sibling_locals = [](auto k, auto a, auto n) {
  auto t = k.thread_id();
  return w::seq(w::local(k, t * 2, [&](auto, auto mine) { return a[t] = mine; }),
                w::local(k, n % 4, [&](auto k_count, auto count) {
                  return w::for_range(k_count, 0, count, [&](auto, auto j) { return w::seq(a[t] = a[t] + j, w::sync()); });
                }));
};
constexpr auto sibling_locals_count_per_thread = [](auto k, auto a, auto n) {
  auto t = k.thread_id();
  return w::seq(w::local(k, t * 2, [&](auto, auto mine) { return a[t] = mine; }),
                w::local(k, n % 4, [&](auto k_count, auto count) {
                  return w::seq(w::when(t == 0, count = 1),
                                w::for_range(k_count, 0, count, [&](auto, auto j) { return w::seq(a[t] = a[t] + j, w::sync()); }));
                }));
};
WARDEN_KERNEL(sibling_locals_k, w::kernel<w::block<64>, w::inout<int>, w::value<int>>(sibling_locals));

TEST_CASE("sibling scopes: each local is its own declaration (W030)", "[soundness][scopes]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(sibling_locals) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(sibling_locals_count_per_thread) == code::W030);
  auto a = w::to_device(std::vector<int>(64, 0));
  CHECK(w::record(sibling_locals_k, w::grid(1), a, 7).clean());
  w::launch(w::on_cpu, sibling_locals_k, w::grid(1), a, 7);
  const std::vector<int> out = w::to_host(a);
  CHECK(out[5] == 10 + 0 + 1 + 2);  // mine = 10, then j = 0, 1, 2 (7 % 4 = 3 trips)
}

// ---- 6. Launch inputs: what the kernel cannot know is checked before anything runs -------------

WARDEN_KERNEL(fill_k, w::kernel<w::block<256>, w::out<int>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = 1);
}));
TEST_CASE("launch inputs: grids that CUDA or warden's int ids cannot take are refused (E102)", "[soundness][launch]") {
  w::device_buffer<int> out(1000);
  auto message = [&](auto&& launch) -> std::string {
    try {
      launch();
    } catch (const w::grid_error& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(message([&] { w::launch(w::on_cpu, fill_k, w::grid(-1), out); }).find("E102 [grid-shape] fill_k: grid(-1, 1, 1) has a negative extent in x") == 0);
  CHECK(message([&] { w::launch(w::on_cpu, fill_k, w::grid_for(std::size_t{1} << 37), out); }).find("threads in x") != std::string::npos);
  CHECK(message([&] { w::launch(w::on_cpu, fill_k, w::grid_for(static_cast<std::size_t>(-5)), out); }).find("above CUDA's limit") != std::string::npos);
  CHECK(message([&] { w::launch(w::on_cpu, fill_k, w::grid(1, 70000), out); }).find("above CUDA's limit of 65535") != std::string::npos);
  CHECK(message([&] { w::launch(w::on_cpu, fill_k, w::grid(8388608), out); }).find("int") != std::string::npos);  // 2^31 threads
  // An empty grid is an empty launch, not an error.
  w::launch(w::on_cpu, fill_k, w::grid_for(0), out);
  w::launch(w::on_cpu, fill_k, w::grid(0), out);
  CHECK(w::record(fill_k, w::grid_for(1000), out).clean());
}

// Each thread sums 0, step, 2 * step, ... below 4 into its own element.
constexpr auto strided_sum = [](auto k, auto out, auto step) {
  auto t = k.thread_id();
  return w::local(k, 0, [&](auto k, auto v) {
    return w::seq(w::for_range(k, 0, 4, step, [&](auto, auto i) { return v += i; }), out[t] = v);
  });
};
WARDEN_KERNEL(strided_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>(strided_sum));
WARDEN_KERNEL(strided_guarded_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>([](auto k, auto out, auto step) {
  return w::when(step > 0, strided_sum(k, out, step));
}));

// A loop from a value<unsigned> start: a host's `center - radius` that wrapped gives 4294967295,
// which the loop's int counter receives as -1. Launch reasons on the bound's own value, so a bound
// an int cannot hold is refused (E104) rather than judged as a loop that never runs.
WARDEN_KERNEL(window_from_k, w::kernel<w::block<1>, w::inout<int>, w::value<unsigned>>([](auto k, auto a, auto start) {
  return w::for_range(k, start, 4, [&](auto, auto j) { return a[j] = 1; });
}));

// A bound read from data is no launch's choice: `counts[t] + 1u` may reach 2^32 - 1 whatever the
// launch, so it is not E104's; launch's intervals take such a loop's variable as unknown instead.
WARDEN_KERNEL(count_loop_k, w::kernel<w::block<4>, w::in<unsigned>, w::inout<int>>([](auto k, auto counts, auto a) {
  auto t = k.thread_id();
  return w::when(t < counts.size() && t < a.size(),
                 w::for_range(k, 0, counts[t] + 1u, [&](auto, auto) { return a[t] = a[t] + 1; }));
}));

TEST_CASE("launch inputs: loop bounds are judged as the loop's int counter receives them (E104)", "[soundness][launch]") {
  auto counts = w::to_device(std::vector<unsigned>{0, 1, 2, 3});
  auto b = w::to_device(std::vector<int>(4, 0));
  w::launch(w::on_cpu, count_loop_k, w::grid(1), counts, b);  // data bounds: not refused
  CHECK(w::to_host(b) == std::vector<int>{1, 2, 3, 4});

  auto a = w::to_device(std::vector<int>(4, 0));
  CHECK_THROWS_WITH(w::launch(w::on_cpu, window_from_k, w::grid(1), a, 4294967295u),
                    Catch::Matchers::StartsWith("E104 [integer-wrap] window_from_k: the loop over j starts at start, which is "
                                                "4294967295 for this launch: its int counter receives -1 instead"));
  CHECK_THROWS_AS(w::launch(w::on_cpu, window_from_k, w::grid(1), a, 2147483648u), w::wrap_error);
  CHECK(std::vector<int>(w::to_host(a)) == std::vector<int>(4, 0));  // refused before anything ran
  w::launch(w::on_cpu, window_from_k, w::grid(1), a, 1u);
  CHECK(w::to_host(a) == std::vector<int>{0, 1, 1, 1});
  CHECK(w::record(window_from_k, w::grid(1), a, 2147483647u).clean());  // the largest start an int holds: no trip
}

TEST_CASE("launch inputs: a run-time loop step below 1 is refused before the loop could hang (E103)", "[soundness][launch]") {
  w::device_buffer<int> out(32);
  CHECK_THROWS_WITH(w::launch(w::on_cpu, strided_k, w::grid(1), out, 0),
                    Catch::Matchers::StartsWith("E103 [loop-step] strided_k: the loop over i") &&
                        Catch::Matchers::Contains("which may be 0"));
  CHECK_THROWS_AS(w::launch(w::on_cpu, strided_k, w::grid(1), out, -2), w::loop_error);
  CHECK(w::record(strided_k, w::grid(1), out, 1).clean());
  CHECK(w::record(strided_k, w::grid(1), out, 3).clean());
  CHECK(w::to_host(out)[31] == 0 + 3);
  w::launch(w::on_cpu, strided_guarded_k, w::grid(1), out, 0);  // the guard keeps the loop from running
}

WARDEN_KERNEL(below_limit_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto limit) {
  auto i = k.global_id();
  return w::when(i < limit, out[i] = 1);
}));

TEST_CASE("launch inputs: the bounds check sees the value the kernel receives, after conversion", "[soundness][launch]") {
  w::device_buffer<int> out(64);
  w::launch(w::on_cpu, below_limit_k, w::grid(1), out, 64);
  // -1 as "no limit": the kernel receives 4294967295, so every thread stores, past out's end.
  CHECK_THROWS_AS(w::launch(w::on_cpu, below_limit_k, w::grid(2), out, -1), w::bounds_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, below_limit_k, w::grid(2), out, 100), w::bounds_error);
  w::launch(w::on_cpu, below_limit_k, w::grid(2), out, 64);
}

// Narrowing and sign-changing conversions (issue 20, class 2): each launch is judged on the value
// the kernel receives, and the stores counted show that value is the one that ran.
WARDEN_KERNEL(below_short_limit_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned short>>([](auto k, auto out, auto limit) {
  auto i = k.global_id();
  return w::when(i < limit, out[i] = 1);
}));
WARDEN_KERNEL(below_int_limit_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>([](auto k, auto out, auto limit) {
  auto i = k.global_id();
  return w::when(i < limit, out[i] = 1);
}));
WARDEN_KERNEL(first_if_k, w::kernel<w::block<64>, w::out<int>, w::value<bool>>([](auto k, auto out, auto flag) {
  auto i = k.global_id();
  return w::when(i < flag, out[i] = 1);
}));

TEST_CASE("launch inputs: narrowing and sign-changing conversions are judged as the kernel receives them",
          "[soundness][launch]") {
  auto stores = [](const auto& out) {
    const std::vector<int> h = w::to_host(out);
    int n = 0;
    for (int v : h) n += v;
    return n;
  };
  // 65600 as unsigned short is 64: within a buffer of 64, though 65600 itself is not.
  auto out = w::to_device(std::vector<int>(64, 0));
  w::launch(w::on_cpu, below_short_limit_k, w::grid(2), out, 65600);
  CHECK(stores(out) == 64);
  // 65535 stays 65535: 128 threads store, past the end of 64.
  CHECK_THROWS_AS(w::launch(w::on_cpu, below_short_limit_k, w::grid(2), out, 65535), w::bounds_error);
  // 3000000000u as int is negative: no thread stores, so nothing can overrun.
  auto untouched = w::to_device(std::vector<int>(1, 0));
  w::launch(w::on_cpu, below_int_limit_k, w::grid(2), untouched, 3000000000u);
  CHECK(stores(untouched) == 0);
  // 2 as bool is true (1): one thread stores.
  auto one = w::to_device(std::vector<int>(1, 0));
  w::launch(w::on_cpu, first_if_k, w::grid(2), one, 2);
  CHECK(stores(one) == 1);
}

TEST_CASE("launch inputs: a buffer whose byte count would wrap is out of memory, not small", "[soundness][memory]") {
  CHECK_THROWS_AS(w::managed_buffer<int>(std::size_t{1} << 62), w::out_of_memory);
  CHECK_THROWS_AS(w::device_buffer<double>(static_cast<std::size_t>(-1) / 4), w::out_of_memory);
  w::memory_pool pool(w::host_resource{});
  CHECK_THROWS_AS(pool.allocate(static_cast<std::size_t>(-1) - 10), w::out_of_memory);
  CHECK(pool.stats().reserved_bytes == 0);
}

// ---- 3. Floating-point parameters are no integer symbols ---------------------------------------

constexpr auto window_per_block = [](auto k, auto out, auto p) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::when(t < p && b * p + t >= 0 && b * p + t < out.size(), out[b * p + t] = 1);
};
WARDEN_KERNEL(float_window_racy_k, w::kernel<w::block<4>, w::out<int>, w::value<float>>(trusting(window_per_block)));
WARDEN_KERNEL(int_window_k, w::kernel<w::block<4>, w::out<int>, w::value<int>>(window_per_block));

TEST_CASE("floating-point parameters: t < 2.5 lets t = 2 run, b * 2.5 + t meets another block", "[soundness][float]") {
  STATIC_REQUIRE(code_of<w::block<4>, w::out<int>, w::value<float>>(window_per_block) == code::W010);
  STATIC_REQUIRE(code_of<w::block<4>, w::out<int>, w::value<double>>(window_per_block) == code::W010);
  STATIC_REQUIRE(code_of<w::block<4>, w::out<int>, w::value<int>>(window_per_block) == code::none);
  w::device_buffer<int> out(64);
  // Trusted past W010, the floating-point index still cannot be launched: launch's bounds do not
  // reason about reals (E101), where they once narrowed `t < p` as if p were an integer.
  try {
    (void)w::record(float_window_racy_k, w::grid(4), out, 2.5f);
    FAIL("a floating-point index passed E101");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("E101") && Catch::Matchers::Contains("floating point"));
  }
  CHECK(w::record(int_window_k, w::grid(4), out, 2).clean());
  CHECK(w::record(int_window_k, w::grid(4), out, 3).clean());
}

// ---- 5. Escape hatches are the listed ones --------------------------------------------------------

TEST_CASE("escape hatches: build_kernel's kernels are recorded but never launched, call() is stateless", "[soundness][escape]") {
  constexpr auto two_threads_per_element = [](auto k, auto out) { return out[k.global_id() / 2] = 1; };
  constexpr auto unchecked = w::dsl::build_kernel<w::block<64>, w::out<int>>(two_threads_per_element);
  STATIC_REQUIRE(w::dsl::is_unchecked<decltype(unchecked)::program_type>);
  STATIC_REQUIRE(w::check::verdict_of(unchecked).finding.code == code::W010);
  w::device_buffer<int> out(256);
  CHECK_FALSE(w::record(unchecked, w::grid(2), out).clean());  // the oracle still runs it
  // A checked kernel's program is its own type, not the unchecked wrapper.
  STATIC_REQUIRE_FALSE(w::dsl::is_unchecked<decltype(reversed_chunks_k)::program_type>);
  struct stateless {
    int operator()(int x) const { return x + 1; }
  };
  STATIC_REQUIRE(std::is_empty_v<stateless>);
}

// ---- 2. Unsigned arithmetic: the checker's integers are the kernel's, or launch refuses (E104) ----

// `col < cols - 1u`: with cols == 0, cols - 1u is 4294967295 on the device, not -1.
WARDEN_KERNEL(all_but_last_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto col = k.global_id();
  return w::when(col < cols - 1u && col < out.size(), out[col] = 1);
}));
WARDEN_KERNEL(all_but_last_guarded_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto col = k.global_id();
  return w::when(cols > 0u, w::when(col < cols - 1u && col < out.size(), out[col] = 1));
}));
// The shuffle guard `t - 1u < 31u`: lanes 1..31 on the device (t = 0 wraps), lanes 0..31 in
// integers: W031 sees a whole warp where the device has a split one.
WARDEN_KERNEL(wrapped_lane_guard_k, w::kernel<w::block<64>, w::inout<int>>([](auto k, auto a) {
  auto t = k.thread_id();
  return w::when(t - 1u < 31u, w::shuffle_down(k, a[t], 1, [&](auto, auto other) { return a[t] = other; }));
}));
WARDEN_KERNEL(lane_guard_k, w::kernel<w::block<64>, w::inout<int>>([](auto k, auto a) {
  auto t = k.thread_id();
  return w::when(t < 32, w::shuffle_down(k, a[t], 1, [&](auto, auto other) { return a[t] = other; }));
}));
// Unsigned arithmetic on loaded data is data: a hash of the input picks a bin, atomically.
WARDEN_KERNEL(hash_bins_k, w::kernel<w::block<64>, w::in<unsigned>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[((in[i] * 2654435761u) >> 29) & 7u], 1));
}));

TEST_CASE("unsigned arithmetic: a wrap the checker cannot see is refused at launch (E104)", "[soundness][unsigned]") {
  w::device_buffer<int> out(64);
  CHECK_THROWS_WITH(w::launch(w::on_cpu, all_but_last_k, w::grid(1), out, 0u),
                    Catch::Matchers::StartsWith("E104 [integer-wrap] all_but_last_k: cols - 1 is computed in a 32-bit unsigned type and may go below 0 (reaching -1)"));
  w::launch(w::on_cpu, all_but_last_k, w::grid(1), out, 10u);
  w::launch(w::on_cpu, all_but_last_guarded_k, w::grid(1), out, 0u);  // the guard rules the wrap out
  CHECK(w::record(all_but_last_k, w::grid(1), out, 64u).clean());

  auto a = w::to_device(std::vector<int>(64, 1));
  CHECK_THROWS_AS(w::launch(w::on_cpu, wrapped_lane_guard_k, w::grid(1), a), w::wrap_error);
  CHECK(w::record(lane_guard_k, w::grid(1), a).clean());

  auto in = w::to_device(std::vector<unsigned>(256, 12345u));
  w::device_buffer<int> bins(8);
  CHECK(w::record(hash_bins_k, w::grid(4), in, bins).clean());  // data: no obligation
}

TEST_CASE("unsigned arithmetic: operators record the type they compute in", "[soundness][unsigned]") {
  constexpr auto body = [](auto k, auto out, auto n) {
    auto t = k.thread_id();
    return w::when(t - 1u < n && t + 1 < 2 * n, out[t] = 1);
  };
  const auto ir = w::dsl::build_kernel<w::block<32>, w::out<int>, w::value<unsigned>>(body).describe();
  int unsigned_nodes = 0, signed_nodes = 0;
  for (const auto& e : ir.exprs) {
    if (e.op < w::dsl::ir_op::add) continue;
    (e.unsigned_bits == 32 ? unsigned_nodes : signed_nodes) += 1;
  }
  // t - 1u, (t - 1u) < n, t + 1 (int, then compared with 2 * n: unsigned), 2 * n, and the && (bool).
  CHECK(unsigned_nodes == 4);
  CHECK(signed_nodes == 2);
}

// ---- signed overflow (red team, issue 21): int arithmetic that wraps on the device ----------------
//
// The checker pins i to 0 under `i * 65536 == 0`, so only thread 0 stores out[0]; in int, thread
// 65536 computes 2^32, which wraps to 0 on the device, and stores out[0] too: a race between
// blocks 0 and 1024 of a grid of 1025.
constexpr auto scaled_pin = [](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i * 65536 == 0, out[0] = i);
};
WARDEN_KERNEL(scaled_pin_k, w::kernel<w::block<64>, w::out<int>>(scaled_pin).named("scaled_pin", "out"));
// The twin whose guard keeps the product inside int for every grid.
WARDEN_KERNEL(scaled_pin_guarded_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  auto i = k.global_id();
  return w::when(i < 1000, w::when(i * 65536 == 0, out[0] = i));
}));
// A parameter pushed to INT_MAX: `i + n` overflows.
WARDEN_KERNEL(offset_by_n_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>([](auto k, auto out, auto n) {
  auto i = k.global_id();
  return w::when(i + n < 64 + n, out[i] = 1);
}).named("offset_by_n", "out", "n"));

TEST_CASE("signed arithmetic: an int overflow the checker cannot see is refused at launch (E104)", "[soundness][signed]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(scaled_pin) == code::none);
  w::device_buffer<int> out(64);
  try {
    w::launch(w::on_cpu, scaled_pin_k, w::grid(1025), out);
    FAIL("a grid whose ids overflow i * 65536 launched");
  } catch (const w::wrap_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E104 [integer-wrap] scaled_pin_k: global_id.x * 65536 is computed in a 32-bit signed type and "
                                                     "may overflow it (reaching 4299096064)"));
  }
  CHECK(w::record(scaled_pin_k, w::grid(512), out).clean());  // ids below 32768: no overflow
  CHECK_THROWS_AS(w::launch(w::on_cpu, scaled_pin_k, w::grid(513), out), w::wrap_error);  // 32768 * 65536 = 2^31
  CHECK(w::record(scaled_pin_guarded_k, w::grid(1025), out).clean());
  CHECK_THROWS_WITH(w::launch(w::on_cpu, offset_by_n_k, w::grid(1), out, std::numeric_limits<int>::max()),
                    Catch::Matchers::StartsWith("E104 [integer-wrap] offset_by_n_k: i + n is computed in a 32-bit signed type"));
  CHECK(w::record(offset_by_n_k, w::grid(1), out, 1000).clean());
}

// The bound of a loop that data sets: `(t + j) * 65536 == 0` pins t and j to 0 in integers, but
// with j from the input reaching 65536 - t it holds in other threads too (a wrap), and they all
// store out[0]. Launch measures the input (in is read-only and the loop bound reads it:
// launch/contents.hpp), so j stays below 70000 and (t + j) * 65536 may leave int: E104. With an
// input of 100 it cannot, and the kernel runs; a guard that bounds j, `j < 1000`, lets it run on
// any input.
WARDEN_KERNEL(data_bound_pin_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  return w::for_range(k, 0, in[0], [&](auto, auto j) { return w::when((t + j) * 65536 == 0, out[0] = 1); });
}));

TEST_CASE("signed arithmetic: a product over a loop that data bounds is refused at launch (E104)", "[soundness][signed]") {
  auto in = w::to_device(std::vector<int>{70000});
  w::device_buffer<int> out(1);
  CHECK_THROWS_WITH(w::launch(w::on_cpu, data_bound_pin_k, w::grid(1), in, out),
                    Catch::Matchers::StartsWith("E104 [integer-wrap] data_bound_pin_k: (t + j) * 65536 is computed in a 32-bit "
                                                "signed type and may overflow it (reaching 4591583232)"));
  auto small = w::to_device(std::vector<int>{100});
  CHECK(w::record(data_bound_pin_k, w::grid(1), small, out).clean());
}
WARDEN_KERNEL(data_bound_pin_guarded_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  return w::for_range(k, 0, in[0], [&](auto, auto j) { return w::when(j < 1000, w::when((t + j) * 65536 == 0, out[0] = 1)); });
}));
TEST_CASE("signed arithmetic: a guard that bounds the data loop's variable lets it run", "[soundness][signed]") {
  auto in = w::to_device(std::vector<int>{70000});
  w::device_buffer<int> out(1);
  CHECK(w::record(data_bound_pin_guarded_k, w::grid(1), in, out).clean());
  CHECK(w::to_host(out)[0] == 1);
}

// ---- red team, int overflow round two (issue 21) -------------------------------------------------
//
// Intervals that gave up (a shift of a value that may be negative, `|` with a negative operand)
// hid overflows that the polynomials (x << c as 2^c * x) and the footprints (exact in long long)
// reason past; a loop's increment i += step could pass INT_MAX. Each was accepted and launched,
// and raced or overran on the cpu backend.
constexpr auto shifted_rows = [](auto k, auto out) {  // ty = 0 and ty = 32 meet in int
  auto tx = k.thread_id();
  auto ty = k.thread_id_y();
  auto x = ((ty - 32) << 27) + tx;
  return w::when(x >= 0 && x < out.size(), out[x] = ty);
};
WARDEN_KERNEL(shifted_rows_k, w::kernel<w::block<16, 64>, w::out<int>>(shifted_rows));
constexpr auto shifted_tile = [](auto k, auto out) {  // (((t - 32) << 27) >> 27) + 32 is t in integers only
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto idx = (((t - 32) << 27) >> 27) + 32;
    return w::seq(tile[idx] = t, w::sync(), out[t] = tile[idx]);
  });
};
constexpr auto or_tile = [](auto k, auto out) {  // `| 0` of a negative value, then a product past int
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto idx = (((t - 64) | 0) * 67108864) / 67108864 + 64;
    return w::seq(tile[idx] = t, w::sync(), out[t] = tile[idx]);
  });
};
constexpr auto wrapped_guard = [](auto k, auto out) {  // t = 0: x wraps to INT_MAX, and x + 5 wraps too
  auto t = k.thread_id();
  auto x = ((t - 2) << 30) - 1;
  return w::when(x >= 0 && x + 5 < 10, out[x] = t);
};
WARDEN_KERNEL(wrapped_guard_k, w::kernel<w::block<64>, w::out<int>>(wrapped_guard));
WARDEN_KERNEL(big_step_k, w::kernel<w::block<1>, w::out<int>, w::value<int>>([](auto k, auto out, auto n) {
  return w::for_range(k, 0, n, 1 << 30, [&](auto, auto i) { return w::when(i < 64, out[i] = 1); });
}));
WARDEN_KERNEL(big_step_data_k, w::kernel<w::block<1>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::for_range(k, 0, in[0], 1 << 30, [&](auto, auto i) { return w::when(i < 64, out[i] = 1); });
}));
WARDEN_KERNEL(stride_all_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>([](auto k, auto out, auto n) {
  return w::grid_stride(k, n, [&](auto, auto i) { return w::when(i < out.size(), out[i] = 1); });
}));

TEST_CASE("signed arithmetic: overflows behind lossy intervals and loop increments are refused", "[soundness][signed]") {
  STATIC_REQUIRE(code_of<w::block<16, 64>, w::out<int>>(shifted_rows) == code::none);  // proved in integers...
  w::device_buffer<int> out(64);
  CHECK_THROWS_WITH(w::launch(w::on_cpu, shifted_rows_k, w::grid(1), out),  // ...and refused where int differs
                    Catch::Matchers::StartsWith("E104 [integer-wrap] shifted_rows_k: (thread_id.y - 32) << 27 is computed in a 32-bit signed type "
                                                "and may overflow it (reaching -4294967296)"));
  // The footprints take a result outside int as unknown: two threads may meet (W020).
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(shifted_tile) == code::W020);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(or_tile) == code::W020);
  CHECK_THROWS_AS(w::launch(w::on_cpu, wrapped_guard_k, w::grid(1), out), w::wrap_error);

  CHECK_THROWS_WITH(w::launch(w::on_cpu, big_step_k, w::grid(1), out, std::numeric_limits<int>::max()),
                    Catch::Matchers::StartsWith("E104 [integer-wrap] big_step_k: the loop over i up to n steps by 1073741824, and i + step may "
                                                "reach 3221225470"));
  CHECK(w::record(big_step_k, w::grid(1), out, 1 << 30).clean());  // i = 0 only: i + step = 2^30
  auto in = w::to_device(std::vector<int>{std::numeric_limits<int>::max()});
  CHECK_THROWS_AS(w::launch(w::on_cpu, big_step_data_k, w::grid(1), in, out), w::wrap_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, stride_all_k, w::grid(65536), out, std::numeric_limits<int>::max()), w::wrap_error);
  CHECK(w::record(stride_all_k, w::grid(4), out, 1 << 20).clean());
}

// ---- the red-team round of the launch's listings (issue 32, item 1) --------------------------------

namespace {
// Two stores of one index and one guard list, one in a loop of n trips: one separation, proved under
// n >= 1. With n = 0 the loop runs no trip, so the first pair is apart while the second (every
// thread at out[0]) meets: each pair keeps its own obligation, listed on its own.
constexpr auto loop_then_store = [](auto k, auto out, auto n) {
  auto i = k.global_id();
  return w::seq(w::for_range(k, 0, n, [&](auto, auto) { return out[i * n] = 0; }), out[i * n] = 1);
};
// A tile index through a floating-point select: x equals t in every thread, but
// (x + 2^24) - 2^24 rounds odd t to even in float; the footprints' tape must not compute it in
// integers. The twin selects between integers.
constexpr auto float_select_tile = [](auto k, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto x = w::select(t < 64, t, 0.5f);
    return w::seq(w::when(t < 60, tile[(x + 16777216) - 16777216] = t), w::sync(), out[k.global_id()] = t);
  });
};
constexpr auto int_select_tile = [](auto k, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto x = w::select(t < 64, t, 0);
    return w::seq(w::when(t < 60, tile[(x + 16777216) - 16777216] = t), w::sync(), out[k.global_id()] = t);
  });
};
#if defined(__SIZEOF_INT128__)
// A parameter wider than long long: the checks must not see it cut to its low 64 bits.
constexpr auto wide_value = [](auto k, auto out, auto n) { return out[k.global_id() * (n < 10)] = 1; };
#endif
}  // namespace

WARDEN_KERNEL(loop_then_store_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>(loop_then_store).named("loop_then_store", "out", "n"));
#if defined(__SIZEOF_INT128__)
WARDEN_KERNEL(wide_value_k, w::kernel<w::block<64>, w::out<int>, w::value<__int128>>(wide_value).named("wide_value", "out", "n"));
#endif

TEST_CASE("listings: pairs that share one separation each keep their obligation", "[soundness][listing]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>, w::value<int>>(loop_then_store) == code::none);
  w::device_buffer<int> out(200);
  CHECK(w::record(loop_then_store_k, w::grid(1), out, 1).clean());
  try {
    w::launch(w::on_cpu, loop_then_store_k, w::grid(1), out, 0);
    FAIL("every thread stored out[0]");
  } catch (const w::obligation_error& e) {
    CHECK(std::string(e.what()).find("both reach element 0") != std::string::npos);
  }
}

TEST_CASE("listings: a floating-point select is unknown to the footprints' tape", "[soundness][listing][float]") {
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(float_select_tile) == code::W020);
  STATIC_REQUIRE(code_of<w::block<64>, w::out<int>>(int_select_tile) == code::none);
}

#if defined(__SIZEOF_INT128__)
TEST_CASE("listings: a value wider than long long is not cut for the checks", "[soundness][listing]") {
  if constexpr (std::is_integral_v<__int128>) {  // gnu++20: the checks see no integer, and refuse
    w::device_buffer<int> out(64);
    const __int128 n = (static_cast<__int128>(1) << 64) + 5;  // cut to 64 bits it would be 5
    CHECK_THROWS_AS(w::launch(w::on_cpu, wide_value_k, w::grid(1), out, n), w::obligation_error);
  }
}
#endif
