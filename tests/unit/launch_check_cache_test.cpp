// launch/check_cache.hpp: a launch that repeats a signature whose checks passed skips them,
// and the verdict is exactly the check's. A changed size, value, grid, alias or alignment runs the
// checks again (and the error still fires after a hit); a brute-force sweep over small launches
// compares the verdicts of launches that share a key, and every cache hit, with
// check::check_launch called directly.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../support/verdict_probe.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace w = warden;

WARDEN_KERNEL(copy_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = in[i]);
}));

// Each thread sums 0, step, 2 step, ... below `limit` into its own element: E103 for a step below 1,
// E101 when the grid has more threads than `out`.
WARDEN_KERNEL(stepped_k, w::kernel<w::block<32>, w::out<int>, w::value<int>, w::value<int>>([](auto k, auto out, auto step, auto limit) {
  auto t = k.global_id();
  return w::local(k, 0, [&](auto k, auto v) {
    return w::seq(w::for_range(k, 0, limit, step, [&](auto, auto i) { return v += i; }), out[t] = v);
  });
}));

WARDEN_KERNEL(vector_copy_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size() / 4 && i < in.size() / 4, w::vectors<4>(out)[i] = w::vectors<4>(in)[i]);
}));

namespace {

std::uint64_t full_checks() { return w::detail::full_launch_checks(); }

// What a launch did: "" when it ran, the error's first word (its code) when it threw.
template <class F>
std::string verdict(F&& launch) {
  try {
    launch();
    return "";
  } catch (const w::error& e) {
    const std::string what = e.what();
    return what.substr(0, what.find(' '));
  }
}

}  // namespace

TEST_CASE("a repeated launch signature runs the launch-time checks once", "[launch][cache]") {
  w::device_buffer<float> in(100), out(100);
  const auto before = full_checks();
  for (int round = 0; round < 10; ++round) w::launch(w::on_cpu, copy_k, w::grid_for(100), in, out);
  CHECK(full_checks() - before == 1);
}

TEST_CASE("a changed size, value, grid or alias checks again, and its error still fires after a hit", "[launch][cache]") {
  w::device_buffer<int> out(64), small(10);
  w::launch(w::on_cpu, stepped_k, w::grid(2), out, 1, 4);  // warm: this signature passed
  auto before = full_checks();
  w::launch(w::on_cpu, stepped_k, w::grid(2), out, 1, 4);
  CHECK(full_checks() == before);

  // A value: step 0 would never end (E103).
  CHECK_THROWS_AS(w::launch(w::on_cpu, stepped_k, w::grid(2), out, 0, 4), w::loop_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, stepped_k, w::grid(2), out, 0, 4), w::loop_error);  // failures are not cached
  // A size: 64 threads into 10 elements (E101).
  CHECK_THROWS_AS(w::launch(w::on_cpu, stepped_k, w::grid(2), small, 1, 4), w::bounds_error);
  // The grid: three blocks of 32 overrun 64 elements (E101); a grid in y the kernel never names (E102).
  CHECK_THROWS_AS(w::launch(w::on_cpu, stepped_k, w::grid(3), out, 1, 4), w::bounds_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, stepped_k, w::grid(2, 2), out, 1, 4), w::grid_error);
  // And the signature that passed still passes without checking.
  before = full_checks();
  w::launch(w::on_cpu, stepped_k, w::grid(2), out, 1, 4);
  CHECK(full_checks() == before);

  // An alias: the same sizes, but one buffer bound to both parameters (E100).
  w::device_buffer<float> a(100), b(100);
  w::launch(w::on_cpu, copy_k, w::grid_for(100), a, b);
  CHECK_THROWS_AS(w::launch(w::on_cpu, copy_k, w::grid_for(100), a, a), w::aliasing_error);
  CHECK_THROWS_AS(w::launch(w::on_cpu, copy_k, w::grid_for(100), b, b), w::aliasing_error);
}

TEST_CASE("the key tells apart what the checks read and nothing else", "[launch][cache]") {
  const auto key = [](const void* x, long long nx, const void* y, long long ny, std::optional<long long> v,
                      w::detail::dims3 grid = {2, 1, 1}) {
    std::array<w::check::bound_argument, 3> args{};
    args[0] = {"in", true, false, x, nx, {}, {}};
    args[1] = {"out", true, true, y, ny, {}, {}};
    args[2] = {"value", false, false, nullptr, 0, v, {}};
    w::detail::launch_key<3> k;
    k.grid[0] = grid.x;
    k.grid[1] = grid.y;
    k.grid[2] = grid.z;
    for (std::size_t i = 0; i < 3; ++i) k.arguments[i] = w::check::read_argument(args, i);
    return k;
  };
  alignas(64) static float memory[64];
  const auto base = key(memory, 10, memory + 16, 10, 3);
  CHECK(base == key(memory, 10, memory + 16, 10, 3));
  CHECK(base == key(memory + 16, 10, memory + 32, 10, 3));  // other addresses, same alignment and no alias
  CHECK(base != key(memory + 1, 10, memory + 16, 10, 3));   // alignment (a vector access's E101)
  CHECK(base != key(memory, 10, memory, 10, 3));            // an alias (E100)
  CHECK(base != key(memory, 11, memory + 16, 10, 3));       // a size
  CHECK(base != key(memory, 10, memory + 16, 10, 4));       // a value
  CHECK(base != key(memory, 10, memory + 16, 10, std::nullopt));
  CHECK(base != key(memory, 10, memory + 16, 10, 3, {2, 2, 1}));  // the grid
  // Two empty buffers (null addresses) are not an alias: E100 ignores them.
  CHECK(key(nullptr, 0, nullptr, 0, 3) == key(nullptr, 0, nullptr, 0, 3));
  CHECK(key(nullptr, 0, nullptr, 0, 3).arguments[1].same_as == 1);
}

// A misaligned view of a pool's memory: a custom upstream that hands out addresses 4 bytes past a
// 256-byte boundary. The vector kernel is refused there even after the same sizes passed aligned.
struct offset_upstream {
  using memory_space = w::space::device;
  std::vector<std::vector<std::byte>> blocks;
  void* allocate(std::size_t bytes, std::size_t, w::stream_ref) {
    blocks.emplace_back(bytes + 512);
    auto p = reinterpret_cast<std::uintptr_t>(blocks.back().data());
    return reinterpret_cast<void*>((p + 255) / 256 * 256 + 4);
  }
  void deallocate(void*, std::size_t, std::size_t, w::stream_ref) noexcept {}
  std::size_t capacity() const noexcept { return 0; }
  std::string_view name() const noexcept { return "offset_upstream"; }
  std::unique_ptr<w::stream_clock> make_clock() const { return std::make_unique<w::synchronous_clock>(); }
};

TEST_CASE("alignment is part of the signature: a misaligned buffer is refused after an aligned one passed", "[launch][cache]") {
  w::device_buffer<float> in(400), out(400);
  w::launch(w::on_cpu, vector_copy_k, w::grid_for(100), in, out);
  w::memory_pool pool(offset_upstream{});
  w::device_buffer<float> shifted(400, pool);
  REQUIRE(reinterpret_cast<std::uintptr_t>(shifted.data()) % 16 != 0);
  CHECK_THROWS_AS(w::launch(w::on_cpu, vector_copy_k, w::grid_for(100), shifted, out), w::bounds_error);
}

// Brute force over a small domain of launches, with two buffers of each size, so that distinct
// launches share a signature (the key abstracts a buffer's address into its alignment and
// aliases). For every launch, check::check_launch's verdict on its arguments; then every pair of
// launches with equal keys must have equal verdicts, and launching one that passed and then the
// other must hit the cache (no full check) and run, as the direct check says it may.
namespace {

struct stepped_launch {
  w::device_buffer<int>* out;
  int blocks, step, limit;
  std::array<w::check::bound_argument, 3> arguments() const {
    std::array<w::check::bound_argument, 3> args{};
    args[0] = {"out", true, true, out->data(), static_cast<long long>(out->size()), {}, {}};
    args[1] = {"value", false, false, nullptr, 0, step, {}};
    args[2] = {"value", false, false, nullptr, 0, limit, {}};
    return args;
  }
  void launch() const { w::launch(w::on_cpu, stepped_k, w::grid(blocks), *out, step, limit); }
};

// check_launch's verdict, and in `key` the signature it read (launch/check_cache.hpp).
std::string direct_verdict(const stepped_launch& l, const w::dsl::kernel_ir& ir, w::detail::launch_key<3>& key) {
  key.grid[0] = l.blocks;
  key.grid[1] = 1;
  key.grid[2] = 1;
  return verdict([&] {
    const auto args = l.arguments();
    w::check::launch_request request;
    request.kernel = "stepped_k";
    request.param_names = w::dsl::definition_of(stepped_k).param_names;
    request.arguments = args;
    request.ir = &ir;
    request.obligations = &w::dsl::definition_of(stepped_k).obligations;
    request.block = {32, 1, 1};
    request.grid = {l.blocks, 1, 1};
    w::check::check_launch(request, key.arguments);
  });
}

}  // namespace

TEST_CASE("cached verdicts equal the checks' over a sweep of small launches", "[launch][cache]") {
  const w::dsl::kernel_ir ir = w::dsl::definition_of(stepped_k).describe();
  std::vector<w::device_buffer<int>> outs;
  outs.reserve(10);
  for (int n : {0, 31, 32, 64, 96}) {
    outs.emplace_back(n);
    outs.emplace_back(n);
  }
  std::vector<stepped_launch> domain;
  for (auto& out : outs)
    for (int blocks = 0; blocks <= 3; ++blocks)
      for (int step = -1; step <= 2; ++step)
        for (int limit : {0, 4}) domain.push_back({&out, blocks, step, limit});
  REQUIRE(domain.size() == 320);
  std::vector<std::string> direct;
  std::vector<w::detail::launch_key<3>> keys;
  for (const stepped_launch& l : domain) {
    keys.emplace_back();
    direct.push_back(direct_verdict(l, ir, keys.back()));
  }
  int same_key = 0, hits = 0, passed = 0;
  for (std::size_t p = 0; p < domain.size(); ++p) {
    passed += direct[p].empty();
    for (std::size_t q = 0; q < domain.size(); ++q) {
      if (p == q || !(keys[p] == keys[q])) continue;
      ++same_key;
      INFO("out sizes " << domain[p].out->size() << ", " << domain[q].out->size() << "; blocks = " << domain[q].blocks
                        << ", step = " << domain[q].step << ", limit = " << domain[q].limit);
      REQUIRE(direct[p] == direct[q]);  // one key, one verdict
      if (!direct[p].empty()) continue;
      domain[p].launch();
      const auto before = full_checks();
      CHECK(verdict([&] { domain[q].launch(); }) == direct[q]);
      CHECK(full_checks() == before);  // a hit
      ++hits;
    }
  }
  // Every launch pairs with the one on the other buffer of its size.
  CHECK(same_key == 320);
  CHECK(hits > 0);
  CHECK(hits < same_key);  // failing signatures are never cached, and are checked each time
  CHECK(passed > 0);
  CHECK(passed < 320);
  // And every launch through the cache, in sweep order, as the direct check says.
  for (std::size_t i = 0; i < domain.size(); ++i) CHECK(verdict([&] { domain[i].launch(); }) == direct[i]);
}

// ---- measured contents (launch/contents.hpp) ----------------------------------------------------
// A gather: the index buffer's contents decide whether src[idx[i]] stays inside src. The launch
// measures them (the least and greatest element), keeps the measurement with the buffer until the
// buffer is written, and bounds the load by it: never stated, never trusted past a write.

WARDEN_KERNEL(gather_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), dst[i] = src[idx[i]]);
}).named("gather", "idx", "src", "dst"));

// The same gather through an index buffer the kernel also writes: its contents change as it runs.
WARDEN_KERNEL(gather_inout_k, w::kernel<w::block<32>, w::inout<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), w::seq(dst[i] = src[idx[i]], idx[i] = 0));
}).named("gather_inout", "idx", "src", "dst"));

// Its twin that stores an index past src's end: a later read of idx may reach it.
WARDEN_KERNEL(gather_inout_past_k, w::kernel<w::block<32>, w::inout<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src,
                                                                                                         auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), w::seq(dst[i] = src[idx[i]], idx[i] = src.size()));
}).named("gather_inout_past", "idx", "src", "dst"));

WARDEN_KERNEL(fill_k, w::kernel<w::block<32>, w::out<int>, w::value<int>>([](auto k, auto out, auto v) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = v);
}));

namespace {
std::uint64_t measured() { return w::detail::contents_measured(); }
std::vector<int> reversed(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = n - 1 - i;
  return v;
}
}  // namespace

TEST_CASE("a gather runs on measured indices, measured once until the index buffer is written", "[launch][cache][contents]") {
  auto idx = w::to_device(reversed(100));
  auto src = w::to_device(std::vector<float>(100, 2.f));
  w::device_buffer<float> dst(100);
  const auto m0 = measured(), c0 = full_checks();
  w::launch(w::on_cpu, gather_k, w::grid_for(100), idx, src, dst);
  CHECK(measured() - m0 == 1);
  CHECK(w::to_host(dst)[7] == 2.f);
  for (int round = 0; round < 5; ++round) w::launch(w::on_cpu, gather_k, w::grid_for(100), idx, src, dst);
  CHECK(measured() - m0 == 1);     // unchanged data: read once
  // Two checks, both at the first launch: without contents (idx[i] unbounded: refused), then on
  // the measured range; later launches measure first and find the verdict cached under the range.
  CHECK(full_checks() - c0 == 2);

  // A write through warden (a copy into idx) makes the next launch measure again, and a value
  // past src's end is refused before the kernel runs, naming idx's element that holds it.
  std::vector<int> bad = reversed(100);
  bad[41] = 100;
  w::copy(idx, w::to_device(bad));
  auto before = w::to_host(dst);
  try {
    w::launch(w::on_cpu, gather_k, w::grid_for(100), idx, src, dst);
    FAIL("an index past src's end launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("load src[idx[i]] may reach index 100, but src (parameter 1, in) has 100 elements"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("idx holds 0 to 100 (0 at element 99, 100 at element 41)"));
  }
  CHECK(measured() - m0 == 2);
  CHECK(w::to_host(dst) == before);

  // A kernel that writes idx (fill_k, out<int>) is a write too: measured again, now in range.
  w::launch(w::on_cpu, fill_k, w::grid_for(100), idx, 99);
  w::launch(w::on_cpu, gather_k, w::grid_for(100), idx, src, dst);
  CHECK(measured() - m0 == 3);
  // And a negative index, written by a kernel, is refused at its lower end.
  w::launch(w::on_cpu, fill_k, w::grid_for(100), idx, -1);
  CHECK(verdict([&] { w::launch(w::on_cpu, gather_k, w::grid_for(100), idx, src, dst); }) == "E101");
}

// `index_t t = target[i]; ... weights[t]` (HeCBench's nll loss): a local that holds a load of a
// read-only index buffer bounds like the load itself, where nothing assigns it and it keeps the
// load's type; an assigned local, or one converted to a narrower type, is unbounded (E101).
WARDEN_KERNEL(local_gather_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size(), w::local(k, idx[i], [&](auto, auto t) { return dst[i] = src[t]; }));
}).named("local_gather", "idx", "src", "dst"));
WARDEN_KERNEL(assigned_local_gather_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size(), w::local(k, idx[i], [&](auto, auto t) { return w::seq(t += 1, dst[i] = src[t]); }));
}).named("assigned_local_gather", "idx", "src", "dst"));
// A local whose init is int arithmetic that overflows for the launch: read through, it must be
// refused as the same arithmetic written inline is (E104), not bounded by the init's interval.
WARDEN_KERNEL(hashed_local_gather_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < dst.size(), w::local(k, i * 16777619, [&](auto, auto h) { return dst[i] = src[h % src.size()]; }));
}).named("hashed_local_gather", "src", "dst"));
WARDEN_KERNEL(narrowed_local_gather_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size(), w::local<unsigned char>(k, idx[i], [&](auto, auto t) { return dst[i] = src[t]; }));
}).named("narrowed_local_gather", "idx", "src", "dst"));

TEST_CASE("a local holding a measured load bounds like the load, an assigned or converted one does not", "[launch][cache][contents]") {
  auto idx = w::to_device(reversed(100));
  auto src = w::to_device(std::vector<float>(100, 3.f));
  w::device_buffer<float> dst(100);
  w::launch(w::on_cpu, local_gather_k, w::grid_for(100), idx, src, dst);
  CHECK(w::to_host(dst)[5] == 3.f);
  auto shorter = w::to_device(std::vector<float>(99, 3.f));  // idx holds 99: past its end
  CHECK(verdict([&] { w::launch(w::on_cpu, local_gather_k, w::grid_for(100), idx, shorter, dst); }) == "E101");
  // t += 1 after the load: the local no longer holds what was measured.
  CHECK(verdict([&] { w::launch(w::on_cpu, assigned_local_gather_k, w::grid_for(100), idx, src, dst); }) == "E101");
  // A conversion to unsigned char could wrap (the measured range is of ints): not read through.
  CHECK(verdict([&] { w::launch(w::on_cpu, narrowed_local_gather_k, w::grid_for(100), idx, src, dst); }) == "E101");
  // i * 16777619 in int overflows from i = 128: E104, whatever the interval of h % 100 says.
  w::device_buffer<float> wide(1024);
  CHECK(verdict([&] { w::launch(w::on_cpu, hashed_local_gather_k, w::grid_for(1024), src, wide); }) == "E104");
  w::device_buffer<float> narrow(100);  // i < 100: no overflow, h % 100 in range: runs
  w::launch(w::on_cpu, hashed_local_gather_k, w::grid_for(100), src, narrow);
  CHECK(w::to_host(narrow)[99] == 3.f);
}

// A histogram's bins: the index is masked, so its range is known whatever `in` holds.
WARDEN_KERNEL(masked_count_k, w::kernel<w::block<32>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto bins) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(bins[in[i] & 63], 1));
}).named("masked_count", "in", "bins"));

TEST_CASE("contents are not measured where the checks pass without them (a masked index)", "[launch][cache][contents]") {
  // Measuring copies the buffer to the host: on a GPU, 268 ms for 2^26 ints, 4,000 times the
  // histogram kernel itself. `in[i] & 63` lies in [0, 63] for any `in`: nothing is read.
  std::vector<int> values(1000);
  for (int i = 0; i < 1000; ++i) values[static_cast<std::size_t>(i)] = i * 37 - 5000;  // negative ones too
  auto in = w::to_device(values);
  auto bins = w::to_device(std::vector<int>(64, 0));
  const auto m0 = measured(), c0 = full_checks();
  for (int round = 0; round < 3; ++round) w::launch(w::on_cpu, masked_count_k, w::grid_for(1000), in, bins);
  CHECK(measured() == m0);
  CHECK(full_checks() - c0 == 1);
  const auto counts = w::to_host(bins);
  long long total = 0;
  for (int c : counts) total += c;
  CHECK(total == 3000);
  CHECK(counts[static_cast<std::size_t>((0 * 37 - 5000) & 63)] >= 3);
  // Too few bins for the mask: refused (E101), as the mask allows 63 whatever `in` holds.
  auto few = w::to_device(std::vector<int>(32, 0));
  CHECK(verdict([&] { w::launch(w::on_cpu, masked_count_k, w::grid_for(1000), in, few); }) == "E101");
}

TEST_CASE("a launch refused for what contents cannot change (E100) measures nothing", "[launch][cache][contents]") {
  auto idx = w::to_device(reversed(64));
  auto src = w::to_device(std::vector<float>(64, 1.f));
  const auto m0 = measured();
  // src bound as gather_k's source (in) and its destination (out).
  CHECK(verdict([&] { w::launch(w::on_cpu, gather_k, w::grid_for(64), idx, src, src); }) == "E100");
  CHECK(measured() == m0);
}

TEST_CASE("host-visible index buffers are measured at every launch: a kept reference may change them", "[launch][cache][contents]") {
  w::pinned_buffer<int> idx(64);
  for (int i = 0; i < 64; ++i) idx[static_cast<std::size_t>(i)] = i;
  int& kept = idx[5];
  auto src = w::to_device(std::vector<float>(64, 1.f));
  w::device_buffer<float> dst(64);
  const auto m0 = measured();
  w::launch(w::on_cpu, gather_k, w::grid_for(64), idx, src, dst);
  kept = 64;  // no call warden sees
  CHECK(verdict([&] { w::launch(w::on_cpu, gather_k, w::grid_for(64), idx, src, dst); }) == "E101");
  CHECK(measured() - m0 == 2);
}

TEST_CASE("contents are measured only where they can be trusted for the whole run", "[launch][cache][contents]") {
  auto src = w::to_device(std::vector<float>(64, 1.f));
  w::device_buffer<float> dst(64);
  // A buffer the kernel writes changes while it runs: it is measured before each launch, and its
  // loads are bounded by that and by what the kernel stores into it (check/launch/written_ranges.hpp),
  // a measurement never kept past the launch, which writes it.
  auto idx = w::to_device(reversed(64));
  const auto m0 = measured();
  w::launch(w::on_cpu, gather_inout_k, w::grid_for(64), idx, src, dst);  // stores 0: inside
  CHECK(measured() == m0 + 1);
  w::launch(w::on_cpu, gather_inout_k, w::grid_for(64), idx, src, dst);
  CHECK(measured() == m0 + 2);
  try {
    w::launch(w::on_cpu, gather_inout_past_k, w::grid_for(64), idx, src, dst);  // stores 64: past src's end
    FAIL("a gather through an index buffer it fills with src.size() launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("once the kernel stores into it"));
  }
  const auto m1 = measured();
  // A launch being captured runs at each replay, on the contents of then: not measured either.
  w::stream s;
  auto idx2 = w::to_device(reversed(64));
  CHECK(verdict([&] { (void)w::capture(s, [&] { w::launch(gather_k, w::grid_for(64).on(s), idx2, src, dst); }); }) == "E101");
  CHECK(measured() == m1);
  // Only what an index reads: idx, not src (whose loads are stored, not used as an index).
  w::dsl::kernel_ir scratch;
  CHECK(w::check::contents_read_by_indices(w::detail::description_of(gather_k, scratch), 3) == std::vector<char>{1, 0, 0});
}

// ---- a stated fact about contents: distinct(perm) ---------------------------------------------------
// A scatter through a permutation, y[perm[i]] = x[i], as written: the checker judges y's accesses at
// i (every access to y goes through perm, which no two elements repeat), and the launch measures
// perm and refuses one with two equal elements (E107), naming both.

constexpr auto scatter_body = [](auto k, auto perm, auto x, auto y) {
  auto i = k.global_id();
  return w::given(w::distinct(perm), w::when(i < perm.size() && i < x.size(), y[perm[i]] = x[i]));
};
WARDEN_KERNEL(scatter_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>(scatter_body).named("scatter", "perm", "x", "y"));

TEST_CASE("a scatter through a measured permutation runs, a repeat is refused naming both elements", "[launch][contents][distinct]") {
  using code = w::diagnostic::code;
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::in<int>, w::in<float>, w::out<float>>(scatter_body) == code::none);
  // Without the fact, a store at a loaded index (W012); two threads at one i (W010).
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto perm, auto x, auto y) {
                   auto i = k.global_id();
                   return w::when(i < perm.size() && i < x.size(), y[perm[i]] = x[i]);
                 }) == code::W012);
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto perm, auto x, auto y) {
                   auto i = k.global_id();
                   return w::given(w::distinct(perm), w::when(i < x.size(), y[perm[i / 2]] = x[i]));
                 }) == code::W010);

  std::vector<int> order(100);
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = (i * 37 + 11) % 100;
  std::vector<float> xs(100);
  for (int i = 0; i < 100; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>(i);
  auto perm = w::to_device(order);
  auto x = w::to_device(xs);
  auto y = w::to_device(std::vector<float>(100, -1.f));
  const w::recording r = w::record(scatter_k, w::grid_for(100), perm, x, y);
  CHECK(r.clean());
  const std::vector<float> got = w::to_host(y);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] == static_cast<float>(i));

  // perm[60] repeats perm[20]: refused before the kernel, y as it was.
  order[60] = order[20];
  w::copy(perm, w::to_device(order));
  try {
    w::launch(w::on_cpu, scatter_k, w::grid_for(100), perm, x, y);
    FAIL("a scatter through a perm with a repeat launched");
  } catch (const w::fact_error& e) {
    CHECK(std::string(e.what()) ==
          "E107 [stated-fact] scatter_k: the stated fact distinct(perm) is false for this launch (perm[60] repeats perm[20]); the "
          "checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  }
  CHECK(w::to_host(y) == got);

  // A value past y's end: E101, naming the element of perm that holds it.
  order[60] = 100;
  w::copy(perm, w::to_device(order));
  try {
    w::launch(w::on_cpu, scatter_k, w::grid_for(100), perm, x, y);
    FAIL("a scatter past y's end launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("store y[perm[global_id.x]] may reach index 100, but y (parameter 2, out) has 100 elements"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("100 at element 60"));
  }
}

// A pointer kept from data() writes the memory later, uncounted (red-team round of issue 32's item
// 2): a buffer whose address a non-const data() handed out is measured at every launch, so the
// repeat written through the kept pointer is refused, and so is an index past src's end.
TEST_CASE("an index buffer whose address was handed out is measured at every launch", "[launch][contents][distinct]") {
  std::vector<int> order(100);
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = 99 - i;
  auto perm = w::to_device(order);
  auto x = w::to_device(std::vector<float>(100, 1.f));
  w::device_buffer<float> y(100);
  CHECK_FALSE(perm.escaped());  // warden's own writes (the upload) hand nothing out
  int* raw = perm.data();       // kept, as for a CUDA library
  CHECK(perm.escaped());
  const auto m0 = measured();
  w::launch(w::on_cpu, scatter_k, w::grid_for(100), perm, x, y);
  raw[1] = raw[0];  // no call warden sees
  CHECK(verdict([&] { w::launch(w::on_cpu, scatter_k, w::grid_for(100), perm, x, y); }) == "E107");
  CHECK(measured() - m0 == 2);
  raw[1] = 98;
  raw[5] = 1000000;
  CHECK(verdict([&] { w::launch(w::on_cpu, gather_k, w::grid_for(100), perm, x, y); }) == "E101");
}
