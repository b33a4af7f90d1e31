// The cpu backend's recording mode is the dynamic oracle: it must see the races planted in these
// kernels and nothing in their fixed twins. The static checker rejects each planted race (the last
// test says with which code), so the racy kernels are defined through trusted(...).
#include <warden/warden.hpp>
#include <warden/picture.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>
#include "../support/kernel_ir_of.hpp"
#include "../support/verdict_probe.hpp"

namespace w = warden;
using w::conflict_kind;

namespace {

bool has(const w::recording& r, conflict_kind kind) {
  for (const auto& c : r.conflicts())
    if (c.kind == kind) return true;
  return false;
}

auto floats(std::size_t n, float v = 1.f) { return w::to_device(std::vector<float>(n, v)); }

// The same body with every statement under trusted(...): compiled, run, never checked.
template <class Body>
constexpr auto trusting(Body) {
  return [](auto... handles) { return w::trusted(Body{}(handles...)); };
}

// What the checker says of a body (without failing the build).
template <class Block, class... Params, class Body>
constexpr w::diagnostic::code code_of(Body body) {
  return w::testing::code_of<Block, Params...>(body);  // one analysis per body, shared with w::kernel's
}

}  // namespace

// out[i / 2]: two threads store each element.
constexpr auto halves_body = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return out[i / 2] = in[i];
};
WARDEN_KERNEL(halves_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>(trusting(halves_body)));
WARDEN_KERNEL(halves_fixed_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i * 2 < in.size(), out[i] = in[i * 2]);
}));

TEST_CASE("recording: a write-write race, and its fix", "[recording]") {
  auto in = floats(128);
  auto out = floats(128);
  const auto racy = w::record(halves_k, w::grid_for(128), in, out);
  REQUIRE(has(racy, conflict_kind::write_write));
  CHECK(racy.report().find("write-write race on parameter 1[") != std::string::npos);
  CHECK(w::record(halves_fixed_k, w::grid_for(128), in, out).clean());
}

// Each thread reads its right neighbour's element, which that neighbour writes in the same phase.
constexpr auto neighbour_body = [](auto k, auto a) {
  auto i = k.global_id();
  return w::when(i + 1 < a.size(), a[i] = a[i + 1] + 1.f);
};
WARDEN_KERNEL(neighbour_k, w::kernel<w::block<64>, w::inout<float>>(trusting(neighbour_body)));

TEST_CASE("recording: a read-write race between neighbours in one phase", "[recording]") {
  auto a = floats(64);
  const auto r = w::record(neighbour_k, w::grid_for(64), a);
  REQUIRE(has(r, conflict_kind::read_write));
}

// Block b reads the first element of block b + 1's slice, which block b + 1 writes; the barrier
// between the phases does not order different blocks.
constexpr auto next_block_body = [](auto k, auto a) {
  auto i = k.global_id();
  auto t = k.thread_id();
  return w::seq(w::when(t == 0 && i + 32 < a.size(), a[i + 1] = a[i + 32]), w::sync(), w::when(t == 0, a[i] = 2.f));
};
WARDEN_KERNEL(next_block_k, w::kernel<w::block<32>, w::inout<float>>(trusting(next_block_body)));

TEST_CASE("recording: blocks are never ordered, barriers or not", "[recording]") {
  auto a = floats(128);
  const auto r = w::record(next_block_k, w::grid_for(128), a);
  REQUIRE(has(r, conflict_kind::read_write));
  bool across_blocks = false;
  for (const auto& c : r.conflicts()) across_blocks = across_blocks || c.first.block != c.second.block;
  CHECK(across_blocks);
}

// Reverse in block without its barrier: a thread loads a tile element another stores in the same phase.
constexpr auto no_sync_body = [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t] = in[g], out[g] = tile[63 - t]);
  });
};
WARDEN_KERNEL(no_sync_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>(trusting(no_sync_body)));
WARDEN_KERNEL(with_sync_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto g = k.global_id();
    return w::seq(tile[t] = in[g], w::sync(), out[g] = tile[63 - t]);
  });
}));

TEST_CASE("recording: a missing barrier between a shared store and a shared load", "[recording]") {
  auto in = floats(128);
  auto out = floats(128);
  const auto racy = w::record(no_sync_k, w::grid_for(128), in, out);
  REQUIRE(has(racy, conflict_kind::read_write));
  CHECK(has(racy, conflict_kind::uninitialised_shared_load));
  CHECK(w::record(with_sync_k, w::grid_for(128), in, out).clean());
}

// The same racy tile kernel and a racy local, built by build_kernel (no checker, no trusted): the
// recording runs whatever build_kernel builds, tiles, locals and register arrays included
// (docs/guide.md, "The cpu backend and its recording").
constexpr auto unchecked_no_sync_k = w::dsl::build_kernel<w::block<64>, w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 64>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto g = k.global_id();
        return w::seq(tile[t] = in[g], out[g] = tile[63 - t]);
      });
    });
constexpr auto unchecked_with_sync_k = w::dsl::build_kernel<w::block<64>, w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 64>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto g = k.global_id();
        return w::seq(tile[t] = in[g], w::sync(), out[g] = tile[63 - t]);
      });
    });
constexpr auto unchecked_locals_k = w::dsl::build_kernel<w::block<64>, w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::local(k, in[k.global_id()], [&](auto k, auto v) {
        return w::registers<float, 2>(k, [&](auto k, auto r) {
          return w::seq(r[0] = v, r[1] = v * 2.f, out[k.global_id() / 2] = r[0] + r[1]);  // two threads per element
        });
      });
    });

// A store through in<T>, built without the checker: it would run as nothing (dsl/handles.hpp), so
// the recorder refuses it rather than record a program other than the one written.
constexpr auto unchecked_store_to_in_k = w::dsl::build_kernel<w::block<32>, w::in<float>>(
    [](auto k, auto data) { return data[k.global_id()] = 1.f; });

TEST_CASE("recording: a build_kernel program with an access its mode forbids is refused, naming the code", "[recording]") {
  auto data = floats(32);
  try {
    (void)w::record(unchecked_store_to_in_k, w::grid(1), data);
    FAIL("a store through in<T> was recorded");
  } catch (const w::error& e) {
    CHECK(std::string(e.what()).rfind("W003", 0) == 0);
  }
}

TEST_CASE("recording: build_kernel programs with tiles, locals and registers run under the recorder", "[recording]") {
  auto big_in = floats(128);
  auto out = floats(128, 0.f);
  const auto racy = w::record(unchecked_no_sync_k, w::grid_for(128), big_in, out);
  CHECK(has(racy, conflict_kind::read_write));
  CHECK(has(racy, conflict_kind::uninitialised_shared_load));
  CHECK(w::record(unchecked_with_sync_k, w::grid_for(128), big_in, out).clean());
  const auto locals = w::record(unchecked_locals_k, w::grid(1), big_in, out);
  CHECK(has(locals, conflict_kind::write_write));
  // The locals hold their values: every out[i] is 3 * in (thread 2i or 2i+1 last; both store 3).
  CHECK(w::to_host(out)[0] == 3.f);
  CHECK(w::to_host(out)[31] == 3.f);
}

// A loop over tiles whose iteration reuses the tile without an end-of-iteration barrier.
constexpr auto loop_reuse_body = [](auto k, auto in, auto out) {
  return w::shared<float, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t]);  // no sync after
                    }),
                    out[t] = sum);
    });
  });
};
WARDEN_KERNEL(loop_reuse_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>(trusting(loop_reuse_body)));
WARDEN_KERNEL(loop_reuse_fixed_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t], w::sync());
                    }),
                    out[t] = sum);
    });
  });
}));

TEST_CASE("recording: a loop-carried shared race, and the end-of-iteration barrier that fixes it", "[recording]") {
  auto in = floats(128);
  auto out = floats(32);
  REQUIRE(has(w::record(loop_reuse_k, w::grid(1), in, out), conflict_kind::read_write));
  CHECK(w::record(loop_reuse_fixed_k, w::grid(1), in, out).clean());
}

// sync() under a thread-dependent condition.
constexpr auto divergent_body = [](auto k, auto a) {
  auto t = k.thread_id();
  return w::when(t < 16, a[t] = 1.f, w::sync());
};
WARDEN_KERNEL(divergent_k, w::kernel<w::block<32>, w::inout<float>>(trusting(divergent_body)));

TEST_CASE("recording: a barrier reached by part of a block", "[recording]") {
  auto a = floats(32);
  const auto r = w::record(divergent_k, w::grid(1), a);
  REQUIRE(has(r, conflict_kind::barrier_divergence));
  CHECK(r.report().find("barrier divergence: block 0, phase 0: 16 threads reached sync()") != std::string::npos);
}

// An atomic add and a plain load of the same element in one phase.
constexpr auto mixed_body = [](auto k, auto counter, auto seen) {
  auto t = k.thread_id();
  return w::seq(w::atomic_add(counter[0], 1), seen[t] = counter[0]);
};
WARDEN_KERNEL(mixed_k, w::kernel<w::block<32>, w::inout<int>, w::out<int>>(trusting(mixed_body)));

TEST_CASE("recording: an atomic and a plain access of one element in one phase", "[recording]") {
  auto counter = w::to_device(std::vector<int>{0});
  auto seen = w::to_device(std::vector<int>(32, 0));
  REQUIRE(has(w::record(mixed_k, w::grid(1), counter, seen), conflict_kind::atomic_plain));
}

// Atomics alone commute: a histogram is clean.
WARDEN_KERNEL(histogram_k, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & 3], 1));
}));

TEST_CASE("recording: atomics to one element from many threads and blocks are not a race", "[recording]") {
  auto in = w::to_device(std::vector<int>(500, 2));
  auto bins = w::to_device(std::vector<int>(4, 0));
  const auto r = w::record(histogram_k, w::grid_for(500), in, bins);
  CHECK(r.clean());
  CHECK(w::to_host(bins)[2] == 500);
  CHECK(r.events().size() == 1000);  // 500 loads and 500 atomic updates
}

TEST_CASE("the value-level description lists every access with its guards, loops and phase", "[recording][ir]") {
  const w::dsl::kernel_ir ir = loop_reuse_fixed_k.describe();
  // in[j * 32 + t] load, tile store, tile load, out store (the local's updates touch no memory).
  REQUIRE(ir.accesses.size() == 4);
  CHECK(ir.syncs.size() == 2);
  CHECK(ir.tiles.size() == 1);
  REQUIRE(ir.loops.size() == 1);
  CHECK(ir.loops[0].has_barrier);
  const auto& tile_load = ir.accesses[2];
  CHECK(tile_load.memory == w::dsl::memory_kind::shared);
  CHECK(tile_load.kind == w::dsl::access_kind::load);
  CHECK(tile_load.phase == 1);
  CHECK(tile_load.loop_end - tile_load.loop_begin == 1);
  CHECK(w::dsl::render(ir, tile_load.index, {}) == "31 - thread_id.x");

  const w::dsl::kernel_ir guarded = halves_fixed_k.describe();
  REQUIRE(guarded.accesses.size() == 2);
  const auto& store = guarded.accesses[1];
  CHECK(store.guard_end - store.guard_begin == 1);
  CHECK(w::dsl::render(guarded, guarded.guard_pool[static_cast<std::size_t>(store.guard_begin)].condition, {}) ==
        "(global_id.x * 2) < p0.size()");
}

TEST_CASE("the description is computed at compile time too", "[recording][ir]") {
  constexpr auto counts = [] {
    const w::dsl::kernel_ir ir = with_sync_k.describe();
    return std::pair{ir.accesses.size(), ir.syncs.size()};
  }();
  STATIC_REQUIRE(counts.first == 4);
  STATIC_REQUIRE(counts.second == 1);
}

// A shuffle that lanes 16-31 of the second warp skip (t < 48), and its fix (t < 32: whole warps).
constexpr auto split_warp_body = [](auto k, auto a) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::when(t < 48, w::shuffle_xor(k, a[i], 1, [&](auto, auto other) { return a[i] = other; }));
};
WARDEN_KERNEL(split_warp_k, w::kernel<w::block<64>, w::inout<int>>(trusting(split_warp_body)));
WARDEN_KERNEL(whole_warp_k, w::kernel<w::block<64>, w::inout<int>>([](auto k, auto a) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::when(t < 32, w::shuffle_xor(k, a[i], 1, [&](auto, auto other) { return a[i] = other; }));
}));

TEST_CASE("recording: a shuffle part of a warp skips, and its fix", "[recording][shuffle]") {
  auto a = w::to_device(std::vector<int>(128, 1));
  const auto split = w::record(split_warp_k, w::grid_for(128), a);
  REQUIRE(has(split, conflict_kind::shuffle_divergence));
  CHECK(split.report().find("shuffle divergence: block 0, phase 0, warp 1: 16 of 32 lanes reached the shuffle") !=
        std::string::npos);
  CHECK(w::record(whole_warp_k, w::grid_for(128), a).clean());
}

// Which controls split a warp: lanes are consecutive linear thread ids, x fastest.
// (The shuffled value lands in a thread-private variable: only the shuffle is under test.)
constexpr auto shuffle_under = [](auto condition) {
  return [](auto k, auto a, auto n) {
    return w::local(k, 0, [&](auto k, auto v) {
      return w::when(decltype(condition)::of(k, a, n),
                     w::shuffle_down(k, k.thread_id(), 1, [&](auto, auto other) { return v = other; }));
    });
  };
};
struct below_32 { static constexpr auto of(auto k, auto, auto) { return k.thread_id() < 32; } };
struct second_warp { static constexpr auto of(auto k, auto, auto) { return k.thread_id() / 32 == 1; } };
struct parameter { static constexpr auto of(auto, auto, auto n) { return n > 0; } };
struct row_below_2 { static constexpr auto of(auto k, auto, auto) { return k.thread_id_y() < 2; } };
struct row_below_1 { static constexpr auto of(auto k, auto, auto) { return k.thread_id_y() < 1; } };
struct below_40 { static constexpr auto of(auto k, auto, auto) { return k.thread_id() < 40; } };
struct in_range { static constexpr auto of(auto k, auto, auto n) { return k.global_id() < n; } };
struct positive_data { static constexpr auto of(auto k, auto a, auto) { return a[k.global_id()] > 0; } };

template <class Condition, class Block>
constexpr w::diagnostic::code shuffle_code() {
  return code_of<Block, w::in<int>, w::value<int>>(shuffle_under(Condition{}));
}

TEST_CASE("W031: a shuffle every lane of each warp reaches, or a diagnostic", "[recording][checker][shuffle]") {
  using w::diagnostic::code;
  // Accepted: conditions each warp takes whole, by enumeration or because the block shares them.
  STATIC_REQUIRE(shuffle_code<below_32, w::block<64>>() == code::none);
  STATIC_REQUIRE(shuffle_code<second_warp, w::block<128>>() == code::none);
  STATIC_REQUIRE(shuffle_code<parameter, w::block<64>>() == code::none);
  STATIC_REQUIRE(shuffle_code<row_below_2, w::block<32, 4>>() == code::none);  // a warp is a row of 32
  STATIC_REQUIRE(shuffle_code<row_below_2, w::block<16, 4>>() == code::none);  // rows 0-1 are warp 0
  // Rejected: a warp split by the thread, the launch or the data, or a partial warp.
  STATIC_REQUIRE(shuffle_code<row_below_1, w::block<16, 4>>() == code::W031);  // warp 0 holds rows 0 and 1
  STATIC_REQUIRE(shuffle_code<below_40, w::block<64>>() == code::W031);
  STATIC_REQUIRE(shuffle_code<in_range, w::block<64>>() == code::W031);
  STATIC_REQUIRE(shuffle_code<positive_data, w::block<64>>() == code::W031);
  STATIC_REQUIRE(shuffle_code<parameter, w::block<48>>() == code::W031);
  // The explanation names the shuffle, the control and two lanes of one warp.
  constexpr auto text = [] {
    const auto v = w::check::verdict_of(w::dsl::build_kernel<w::block<64>, w::in<int>, w::value<int>>(shuffle_under(below_40{})));
    return v.text;
  }();
  CHECK(std::string(text.view()) ==
        "shuffle_down(..., 1) under when(thread_id.x < 40): thread 32 reaches it, thread 40 of the same warp does not; checked fix: "
        "open the shuffle outside the w::when(thread_id.x < 40, ...), with it in the shuffle's body: w::shuffle_down(k, value, 1, "
        "[&](auto, auto v) { return w::when(thread_id.x < 40, ...); })");
}

// Loops around a shuffle: trip counts must agree within each warp, and grid-stride ones do not.
constexpr auto shuffle_in_loop = [](auto trips) {
  return [](auto k, auto a, auto) {
    auto i = k.global_id();
    return w::for_range(k, 0, decltype(trips)::of(k), [&](auto k, auto) {
      return w::shuffle_up(k, a[i], 1, [&](auto, auto other) { return a[i] = other; });
    });
  };
};
struct per_warp { static constexpr auto of(auto k) { return k.thread_id() / 32 + 1; } };
struct per_thread { static constexpr auto of(auto k) { return k.thread_id() % 3; } };

TEST_CASE("W031: loops around a shuffle", "[recording][checker][shuffle]") {
  using w::diagnostic::code;
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(shuffle_in_loop(per_warp{})) == code::none);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>, w::value<int>>(shuffle_in_loop(per_thread{})) == code::W031);
  constexpr auto grid_stride_body = [](auto k, auto a) {
    return w::grid_stride(k, a.size(), [&](auto k, auto i) {
      return w::shuffle_up(k, a[i], 1, [&](auto, auto other) { return a[i] = other; });
    });
  };
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(grid_stride_body) == code::W031);
  // The explanation names the control that splits the warp, not the first thread-dependent one.
  constexpr auto nested_body = [](auto k, auto a) {
    auto t = k.thread_id();
    return w::local(k, 0, [&](auto k, auto v) {
      return w::when(t < 32, w::for_range(k, 0, 5, [&](auto k, auto step) {
                       return w::when(t < (16 >> step), w::shuffle_down(k, v, 16 >> step, [&](auto, auto o) { return v += o; }));
                     }));
    });
  };
  constexpr auto nested = [] {
    return w::check::verdict_of(w::dsl::build_kernel<w::block<64>, w::in<int>>(nested_body)).text;
  }();
  CHECK(std::string(nested.view()) ==
        "shuffle_down(..., 16 >> i1) under when(thread_id.x < (16 >> i1)): thread 0 reaches it, thread 16 of the same "
        "warp does not; checked fix: open the shuffle outside the w::when(thread_id.x < (16 >> i1), ...), with it in the "
        "shuffle's body: w::shuffle_down(k, value, 16 >> i1, [&](auto, auto v) { return w::when(thread_id.x < (16 >> i1), ...); })");
  // trusted(...) is the escape hatch here too.
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<int>>(trusting(split_warp_body)) == code::none);
}

TEST_CASE("the static checker rejects every race the recording mode sees, with its code", "[recording][checker]") {
  using w::diagnostic::code;
  STATIC_REQUIRE(code_of<w::block<64>, w::in<float>, w::out<float>>(halves_body) == code::W010);
  STATIC_REQUIRE(code_of<w::block<64>, w::inout<float>>(neighbour_body) == code::W011);
  STATIC_REQUIRE(code_of<w::block<32>, w::inout<float>>(next_block_body) == code::W011);
  STATIC_REQUIRE(code_of<w::block<64>, w::in<float>, w::out<float>>(no_sync_body) == code::W020);
  STATIC_REQUIRE(code_of<w::block<32>, w::in<float>, w::out<float>>(loop_reuse_body) == code::W021);
  STATIC_REQUIRE(code_of<w::block<32>, w::inout<float>>(divergent_body) == code::W030);
  STATIC_REQUIRE(code_of<w::block<32>, w::inout<int>, w::out<int>>(mixed_body) == code::W040);
  // The same function at run time, as the fuzzer calls it.
  CHECK(code_of<w::block<64>, w::in<float>, w::out<float>>(halves_body) == code::W010);
  CHECK(w::check::verdict_of(halves_fixed_k).finding.code == code::none);
  CHECK(w::check::verdict_of(with_sync_k).finding.code == code::none);
  CHECK(w::check::verdict_of(loop_reuse_fixed_k).finding.code == code::none);
  CHECK(w::check::verdict_of(histogram_k).finding.code == code::none);
}

// ---- pictures of a recorded launch (warden/picture.hpp; issue 34, item 8) ------------------------
// Host code only, and no kernel of its own: not compiled again under nvcc (recording_test_cuda.cu).
#if !defined(__CUDACC__)
// Each broken kernel's picture marks its conflict; its fixed twin's marks none. With
// WARDEN_PICTURES_DIR set, the pictures are written there (scripts/pictures).
namespace {
std::string pictured(const w::recording& r, const std::string& file, const std::string& title, std::vector<std::string> names) {
  w::picture_options options;
  options.title = title;
  options.parameter_names = std::move(names);
  std::string svg = w::picture(r, options);
  if (const char* dir = std::getenv("WARDEN_PICTURES_DIR")) {
    std::ofstream out(std::string(dir) + "/" + file);
    out << svg;
  }
  return svg;
}
std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("pictures: a broken kernel's picture marks its conflicts, its twin's none", "[recording][picture]") {
  auto in = floats(128);
  auto out = floats(128);
  const std::vector<std::string> io{"in", "out"};
  struct pair {
    std::string name;
    w::recording broken, fixed;
  };
  const pair pairs[] = {
      {"halves", w::record(halves_k, w::grid_for(128), in, out), w::record(halves_fixed_k, w::grid_for(128), in, out)},
      {"tile_no_sync", w::record(no_sync_k, w::grid_for(128), in, out), w::record(with_sync_k, w::grid_for(128), in, out)},
      {"tile_loop_reuse", w::record(loop_reuse_k, w::grid(1), in, out), w::record(loop_reuse_fixed_k, w::grid(1), in, out)},
  };
  for (const pair& p : pairs) {
    INFO(p.name);
    const std::string broken = pictured(p.broken, p.name + "_broken.svg", p.name + " (broken)", io);
    const std::string fixed = pictured(p.fixed, p.name + ".svg", p.name, io);
    CHECK(broken.rfind("<svg ", 0) == 0);
    CHECK(count(broken, "class=\"conflict\"") > 0);
    CHECK(broken.find("data-conflicts=\"0\"") == std::string::npos);
    CHECK(count(fixed, "class=\"conflict\"") == 0);
    CHECK(fixed.find("data-conflicts=\"0\"") != std::string::npos);
    CHECK(fixed.find("<rect") != std::string::npos);  // the accesses are drawn
    CHECK(fixed.find(">out</text>") != std::string::npos);
  }
}

// ---- w::record_anyway: the oracle for what launch refuses (issue 36, item 5) ---------------------
// A grid-stride loop stepping by the block instead of the grid (E106: blocks overlap), a kernel
// that never names its block on a grid of 4 (E102), and an index past the buffer (E101): launch
// refuses each; record_anyway runs each in the recorder, keeps the refusal, and shows what it
// predicted: the races, and the overrun as reported accesses that were not made.
WARDEN_KERNEL(block_step_k, w::kernel<w::block<64>, w::out<int>, w::value<int>>([](auto k, auto out, auto n) {
  return w::for_range(k, k.global_id(), n, 64, [&](auto, auto j) { return out[j] = 1; });
}).named("block_step", "out", "n"));
WARDEN_KERNEL(no_block_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  auto t = k.thread_id();
  return w::when(t < out.size(), out[t] = 2);
}).named("no_block", "out"));
WARDEN_KERNEL(past_end_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = in[i + 1]);
}).named("past_end", "in", "out"));

TEST_CASE("record_anyway shows what a refused launch would do: E106, E102, E101", "[recording][anyway]") {
  w::device_buffer<int> out(256);
  CHECK_THROWS_AS(w::launch(w::on_cpu, block_step_k, w::grid(4), out, 256), w::obligation_error);
  const w::recording steps = w::record_anyway(block_step_k, w::grid(4), out, 256);
  CHECK(steps.refusal().rfind("E106", 0) == 0);
  CHECK_FALSE(steps.clean());
  CHECK(steps.report().find("launch refuses it: E106") == 0);
  CHECK(steps.report().find("write-write race on out[") != std::string::npos);  // in the kernel's names
  // The refusal states the race and what to change in the kernel, in the source's names.
  CHECK(steps.refusal().find("two threads may store out[j] at one element (W010 [write-write-race])") != std::string::npos);
  CHECK(steps.refusal().find("the loop over j steps by 64, less than the grid") != std::string::npos);
  // The same kernel on one block: launch takes it, and so does the recording, with no refusal.
  const w::recording one = w::record_anyway(block_step_k, w::grid(1), out, 256);
  CHECK(one.refusal().empty());
  CHECK(one.clean());

  const w::recording blocks = w::record_anyway(no_block_k, w::grid(4), out);
  CHECK(blocks.refusal().rfind("E102", 0) == 0);
  CHECK(blocks.conflicts().front().kind == w::conflict_kind::write_write);
  CHECK(blocks.refusal().find("storing out[t] again") != std::string::npos);

  auto in = w::to_device(std::vector<int>(256, 5));
  auto small = w::to_device(std::vector<int>(256, 0));
  const w::recording past = w::record_anyway(past_end_k, w::grid(4), in, small);
  CHECK(past.refusal().rfind("E101", 0) == 0);
  const auto conflicts = past.conflicts();
  REQUIRE(conflicts.size() == 1);  // thread 63 of block 3 loads in[256]
  CHECK(conflicts[0].kind == w::conflict_kind::out_of_bounds);
  CHECK(conflicts[0].describe().find("outside its 256 elements (not made)") != std::string::npos);
  const auto got = w::to_host(small);
  CHECK(got[254] == 5);
  CHECK(got[255] == 0);  // the overrunning load read nothing and gave 0
  // The report counts each kind before it lists, and labels each entry.
  CHECK(past.report().find("1 conflict(s): 1 out-of-bounds access") != std::string::npos);
  CHECK(past.report().find("out-of-bounds access on in[256]") != std::string::npos);
  CHECK(past.refusal().find("load in[i + 1] reaches index 256") != std::string::npos);
}
#endif  // !__CUDACC__

// recording::meets, which holds a race message to the run (issue 56, item 4): a pair of access
// records of the description meets only where their own runs conflict, not where other accesses
// of the same buffer or element do. Global stores, loads through an element, a tile, vectors.
constexpr auto meeting_body = [](auto k, auto x, auto y) {
  auto t = k.thread_id();
  return w::shared<float, 65>(k, [&](auto, auto s) {
    return w::seq(y[t] = 1.f,                                       // 0: store y[t]
                  y[t + 1] = x[t],                                  // 1: load x[t], 2: store y[t + 1]
                  y[0] = x[0],                                      // 3: load x[0], 4: store y[0]
                  s[t] = x[t],                                      // 5: load x[t], 6: store s[t]
                  y[t + 64] = s[t + 1],                             // 7: load s[t + 1], 8: store y[t + 64]
                  w::vectors<2>(y)[t + 32] = w::vectors<2>(x)[t]);  // 9, 10: load x[2 t + c]; 11, 12: store y[2 t + 64 + c]
  });
};
WARDEN_KERNEL(meeting_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>(trusting(meeting_body)));

TEST_CASE("recording: meets names the two accesses of the description whose runs conflict", "[recording][meets]") {
  using w::dsl::access_kind;
  const auto ir = w::testing::ir_of<w::block<64>, w::in<float>, w::out<float>>(meeting_body);
  REQUIRE(ir.accesses.size() == 13);
  CHECK(ir.accesses[2].kind == access_kind::store);
  CHECK(ir.accesses[7].memory == w::dsl::memory_kind::shared);
  CHECK(ir.accesses[11].vector_bytes == 8);
  auto x = floats(128);
  auto y = floats(256);
  const auto r = w::record(meeting_k, w::grid(1), x, y);
  REQUIRE_FALSE(r.clean());
  CHECK(r.meets(0, 2));  // thread t + 1 stores y[t + 1], which thread t + 1 stores as y[t]
  CHECK(r.meets(2, 0));
  CHECK(r.meets(4, 4));  // every thread stores y[0]
  CHECK(r.meets(0, 4));  // thread 0's y[t] against every other thread's y[0]
  CHECK(r.meets(6, 7));  // s[t + 1], stored by thread t + 1 in the phase thread t loads it
  CHECK(r.meets(8, 11));  // y[t + 64] against lane 0 of thread t / 2's vector store
  CHECK(r.meets(8, 12));  // and lane 1 of thread (t - 1) / 2's
  // Pairs whose own runs never conflict, though other accesses of the same elements do.
  CHECK_FALSE(r.meets(0, 0));  // y[t]: one thread per element
  CHECK_FALSE(r.meets(2, 4));  // y[t + 1] is never y[0]
  CHECK_FALSE(r.meets(1, 3));  // two loads
  CHECK_FALSE(r.meets(1, 2));  // x and y
  CHECK_FALSE(r.meets(6, 6));
  CHECK_FALSE(r.meets(11, 11));  // the lanes of a vector store, one thread's each
  CHECK_FALSE(r.meets(-1, 0));
  CHECK_FALSE(r.meets(0, 99));
}
