// warden/tuned.hpp on the cpu backend, the tuner's host side (also under asan and tsan): candidates
// the checker rejects are dropped (and never run), the caller sees exactly one launch (writable arguments are restored between the timed runs), launch
// refusals skip a candidate, and the cache on disk is read back, never trusted.
#include <warden/warden.hpp>
#include <warden/tuned.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/tuning_cache_folder.hpp"

namespace w = warden;
namespace fs = std::filesystem;

namespace {

// y += x: run twice, it would add twice; the test checks the tuned launch adds once.
WARDEN_TUNED(accumulate, w::tuned<w::in<float>, w::inout<float>>(
    [](auto k, auto x, auto y) {
      auto i = k.global_id();
      return w::when(i < x.size(), y[i] = y[i] + x[i]);
    },
    w::candidates<w::block<32>, w::block<64>, w::block<128>>));

// Thread t of block b writes element 64 b + t: its global id on 64 threads, but on 128 threads
// thread 64 of block 0 and thread 0 of block 1 store one element (W010): block<128> is dropped.
WARDEN_TUNED(fold64, w::tuned<w::out<int>>(
    [](auto k, auto out) {
      auto i = k.block_id() * 64 + k.thread_id();
      return w::when(i < out.size(), out[i] = i);
    },
    w::candidates<w::block<128>, w::block<64>>));

// An unguarded load: on a grid that covers more threads than x has elements, launch refuses the
// candidate (E101) and tuning skips it.
WARDEN_TUNED(copy_unguarded, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto x, auto y) {
      auto i = k.global_id();
      return w::when(i < y.size(), y[i] = x[i]);
    },
    w::candidates<w::block<128>, w::block<64>>));

// Candidates with a compile-time constant: each thread handles Items consecutive elements.
WARDEN_TUNED(triple, w::tuned<w::in<int>, w::out<int>>(
    []<int Items>(auto k, auto x, auto y) {
      return w::unroll<Items>(k, [&](auto, auto j) {
        auto i = k.global_id() * Items + j;
        return w::when(i < x.size(), y[i] = 3 * x[i]);
      });
    },
    w::candidates<w::candidate<w::block<64>, 2>, w::candidate<w::block<64>, 4>, w::candidate<w::block<32>, 2>>)
    .keyed([](const auto& x, const auto&) { return w::tune_key{static_cast<long long>(x.size())}; }));

using cache_folder = w::testing::tuning_cache_folder;

// A tuned kernel's definition whose every candidate races (two threads store y[i / 2]), not
// declared with WARDEN_TUNED (which would not compile: tests/compile_fail/
// tuned_every_candidate_rejected.fail.cpp), to read the one error that declaring it raises.
constexpr auto halves = w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto x, auto y) {
      auto i = k.global_id();
      return w::when(i < x.size(), y[i / 2] = x[i]);
    },
    w::candidates<w::block<16, 4>, w::block<32>>);
constexpr auto halves_items = w::tuned<w::in<float>, w::out<float>>(
    []<int Items>(auto k, auto x, auto y) {
      auto i = k.global_id() * Items;
      return w::when(i < x.size(), y[i / (2 * Items)] = x[i]);
    },
    w::candidates<w::candidate<w::block<32>, 2>>);
struct halves_tag {
  static constexpr std::string_view kernel = "halves";
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a candidate the checker rejects is dropped, named, and never launched", "[tuned]") {
  CHECK(fold64.candidates() == std::vector<std::string>{"block<64>"});
  REQUIRE(fold64.dropped().size() == 1);
  CHECK(fold64.dropped()[0] == "block<128>: W010");

  cache_folder cache("dropped");
  w::device_buffer<int> out(640);
  w::launch(w::on_cpu, fold64, w::grid_for(640), out);
  std::vector<int> want(640);
  std::iota(want.begin(), want.end(), 0);
  CHECK(w::to_host(out) == want);
  const std::string report = fold64.report();
  INFO(report);
  CHECK(report.find("measured on cpu reference backend") != std::string::npos);
  CHECK(report.find("block<128> dropped at compile time (W010)") != std::string::npos);
  CHECK(report.find("block<128> ") == report.find("block<128> dropped"));  // listed once: never timed
}

TEST_CASE("every candidate rejected: one error, the first candidate's diagnostic, opened by the kernel and the candidate", "[tuned]") {
  using definition = std::remove_cvref_t<decltype(halves)>;
  using first = w::candidate<w::block<16, 4>>;
  using second = w::candidate<w::block<32>>;
  STATIC_REQUIRE(definition::verdict<first> == w::diagnostic::code::W010);
  STATIC_REQUIRE(definition::verdict<second> == w::diagnostic::code::W010);
  using with_items = std::remove_cvref_t<decltype(halves_items)>;
  using items = w::candidate<w::block<32>, 2>;
  STATIC_REQUIRE(with_items::verdict<items> == w::diagnostic::code::W010);
  constexpr auto& error = w::detail::every_candidate_rejected<halves_tag, first, definition::verdict_source<first>>::value;
  STATIC_REQUIRE(error.finding.code == w::diagnostic::code::W010);
  const std::string text(error.text.data, static_cast<std::size_t>(error.text.size));
  CAPTURE(text);
  CHECK(text.rfind("halves, candidate block<16, 4> (every candidate is rejected; the first): ", 0) == 0);
  // The first candidate's own explanation follows (no source text here, so its parameters' places).
  const auto& own = definition::verdict_source<first>::value.text;
  CHECK(text.substr(text.find("the first): ") + 12) == std::string(own.data, static_cast<std::size_t>(own.size)));
  constexpr auto& with_constants = w::detail::every_candidate_rejected<halves_tag, items, with_items::verdict_source<items>>::value;
  const std::string text2(with_constants.text.data, static_cast<std::size_t>(with_constants.text.size));
  CHECK(text2.rfind("halves, candidate block<32> and its constants (every candidate is rejected; the first): ", 0) == 0);
}

TEST_CASE("the caller sees one launch: writable arguments are restored between timed runs", "[tuned]") {
  cache_folder cache("one_launch");
  std::vector<float> x(1000, 1.f), y(1000);
  std::iota(y.begin(), y.end(), 0.f);
  auto dx = w::to_device(x), dy = w::to_device(y);
  w::launch(w::on_cpu, accumulate, w::grid_for(1000), dx, dy);  // measured: 3 candidates x 6 runs
  std::vector<float> want(1000);
  std::iota(want.begin(), want.end(), 1.f);
  CHECK(w::to_host(dy) == want);
  w::launch(w::on_cpu, accumulate, w::grid_for(1000), dx, dy);  // the choice: one run
  std::iota(want.begin(), want.end(), 2.f);
  CHECK(w::to_host(dy) == want);
}

TEST_CASE("a candidate that launch refuses for this launch is skipped, with the refusal", "[tuned]") {
  cache_folder cache("refused");
  auto x = w::to_device(std::vector<float>(192, 2.f));
  w::device_buffer<float> y(1000);
  // 192 elements: 64-thread blocks cover them exactly; 128-thread blocks reach x[255] (E101).
  w::launch(w::on_cpu, copy_unguarded, w::grid_for(192), x, y);
  const std::string report = copy_unguarded.report();
  INFO(report);
  CHECK(report.find("block<128> skipped: ") != std::string::npos);
  CHECK(report.find("E101") != std::string::npos);
  CHECK(report.find("block<64> ") != std::string::npos);
  CHECK(copy_unguarded.choice(x, y) == std::string("block<64>"));
  const std::vector<float> got = w::to_host(y);
  CHECK(std::all_of(got.begin(), got.begin() + 192, [](float v) { return v == 2.f; }));
}

TEST_CASE("every candidate refused: the launch throws the first candidate's refusal", "[tuned]") {
  cache_folder cache("all_refused");
  auto x = w::to_device(std::vector<float>(100, 2.f));
  w::device_buffer<float> y(1000);
  CHECK_THROWS_AS(w::launch(w::on_cpu, copy_unguarded, w::grid_for(100), x, y), w::bounds_error);
  CHECK_FALSE(copy_unguarded.choice(x, y).has_value());
}

TEST_CASE("candidates with compile-time constants, keyed by the user's key", "[tuned]") {
  cache_folder cache("constants");
  CHECK(triple.candidates() == std::vector<std::string>{"block<64> with 2", "block<64> with 4", "block<32> with 2"});
  std::vector<int> h(1000);
  std::iota(h.begin(), h.end(), 0);
  auto x = w::to_device(h);
  w::device_buffer<int> y(1000);
  w::launch(w::on_cpu, triple, w::grid_for(1000), x, y);
  for (int i = 0; i < 1000; ++i) REQUIRE(w::to_host(y)[static_cast<std::size_t>(i)] == 3 * i);
  CHECK(triple.key_of(x, y).text() == "1000");  // the user's key, not the default buckets
  CHECK(triple.choice(x, y).has_value());
}

TEST_CASE("tuning off: the first candidate, nothing timed or cached", "[tuned]") {
  cache_folder cache("off");
  w::tuning::set_enabled(false);
  auto x = w::to_device(std::vector<float>(1000, 1.f));
  auto y = w::to_device(std::vector<float>(1000, 0.f));
  w::launch(w::on_cpu, accumulate, w::grid_for(1000), x, y);
  CHECK(accumulate.report().find("block<32> (the first candidate): tuning is off") != std::string::npos);
  CHECK_FALSE(accumulate.choice(x, y).has_value());
  CHECK(cache.files().empty());
  CHECK(w::to_host(y) == std::vector<float>(1000, 1.f));
  w::tuning::set_enabled(true);
}

TEST_CASE("choices persist through the cache, and a bad cache is never trusted", "[tuned][cache]") {
  cache_folder cache("persist");
  auto x = w::to_device(std::vector<float>(4096, 1.f));
  auto y = w::to_device(std::vector<float>(4096, 0.f));
  w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
  const std::string chosen = *accumulate.choice(x, y);
  REQUIRE(cache.files().size() == 1);
  const fs::path file = cache.files()[0];
  const std::string text = read_file(file);
  CHECK(text.find("\nkernel accumulate (source ") != std::string::npos);
  CHECK(text.find("\ncandidates block<32> | block<64> | block<128>\nkey 4096,4096 -> " + chosen + "\n") != std::string::npos);

  SECTION("another process (a fresh table) reads the choice and times nothing") {
    // Another process starts with an empty table: forget() is that start.
    accumulate.forget();
    w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
    CHECK(accumulate.report().find(", read from " + file.string()) != std::string::npos);
    CHECK(accumulate.choice(x, y) == chosen);
  }
  SECTION("an entry naming a candidate the list no longer has is dropped and rewritten") {
    std::ofstream(file, std::ios::trunc) << text.substr(0, text.find("key ")) << "key 4096,4096 -> block<2048>\n";
    accumulate.forget();
    w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
    CHECK(accumulate.report().find("measured on") != std::string::npos);
    CHECK(read_file(file).find("block<2048>") == std::string::npos);
  }
  SECTION("a corrupt file is ignored and replaced") {
    for (const std::string& bad : {std::string("\x01\x02garbage"), text.substr(0, text.size() / 2), std::string()}) {
      std::ofstream(file, std::ios::trunc | std::ios::binary) << bad;
      accumulate.forget();
      w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
      CHECK(accumulate.report().find("measured on") != std::string::npos);
      CHECK(read_file(file).rfind("warden-tuning 1\n", 0) == 0);
      CHECK(read_file(file).find(" -> ") != std::string::npos);
    }
  }
  SECTION("a file from another device or warden version is not read") {
    std::string other = text;
    other.replace(other.find("device cpu reference backend"), 28, "device NVIDIA H100, sm_90, driver 1");
    std::ofstream(file, std::ios::trunc) << other;
    accumulate.forget();
    w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
    CHECK(accumulate.report().find("measured on") != std::string::npos);
  }
  SECTION("clear_cache removes the files and this process's choices") {
    w::tuning::clear_cache();
    CHECK(cache.files().empty());
    CHECK_FALSE(accumulate.choice(x, y).has_value());
  }
}

// Run by the next test in a process of its own: the cache folder comes from the environment.
TEST_CASE("the second process: reads the first one's choice", "[.second_process]") {
  auto x = w::to_device(std::vector<float>(4096, 1.f));
  auto y = w::to_device(std::vector<float>(4096, 0.f));
  w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
  INFO(accumulate.report());
  REQUIRE(accumulate.report().find(", read from ") != std::string::npos);
  REQUIRE(w::to_host(y) == std::vector<float>(4096, 1.f));
}

TEST_CASE("a choice is reused by another process, through the cache", "[tuned][cache]") {
  cache_folder cache("second_process");
  auto x = w::to_device(std::vector<float>(4096, 1.f));
  auto y = w::to_device(std::vector<float>(4096, 0.f));
  w::launch(w::on_cpu, accumulate, w::grid_for(4096), x, y);
  REQUIRE(accumulate.report().find("measured on") != std::string::npos);
  // This test binary again, in a new process that knows nothing but the cache folder.
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string command = "WARDEN_TUNING_CACHE='" + cache.path.string() + "' '" + self +
                              "' '[.second_process]' > '" + (cache.path / "second.log").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  INFO(read_file(cache.path / "second.log"));
  CHECK(status == 0);
}

TEST_CASE("writers racing on one cache file each leave a whole file", "[tuned][cache]") {
  cache_folder cache("race");
  const w::detail::tuning_cache_file file(cache.path, "k", "its source", "cpu reference backend", {"block<32>", "block<64>"});
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0}, reads{0};
  std::thread reader([&] {
    while (!stop) {
      // Once written, the file is only ever replaced whole (rename), never removed: a file there
      // before the read is there during it, and must read whole.
      const bool there = fs::exists(file.path());
      bool whole = false;
      (void)file.read(&whole);
      if (there && !whole) ++torn;
      ++reads;
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) CHECK(file.write(w::tune_key{t, i}, (t + i) % 2).empty());
    });
  for (auto& t : writers) t.join();
  stop = true;
  reader.join();
  CHECK(torn == 0);
  bool whole = false;
  const auto entries = file.read(&whole);
  CHECK(whole);
  CHECK_FALSE(entries.empty());  // the last rename's entries; others may be lost, never half-written
  for (const auto& p : cache.files()) CHECK(p.string().find(".tmp-") == std::string::npos);
}
