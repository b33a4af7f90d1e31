// Messages name a buffer as the program does (issue 57, item 3): the variable on the line that
// made it (detail/program_names.hpp, buffer::program_name), read when a message is written. One
// case per message kind that names a buffer: a launch's refusal (E100, E101, E107, E110, a view's
// E101), a graph's replay (E109), a view past its buffer's end (E101), a transfer or host index
// of a moved-from buffer (E110), a pinned buffer from a device pool (E105), an observer's refusal
// (E112) and an out-of-memory; then the reader itself on the declarations it names and the lines
// where it must name nothing.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <string>
#include <vector>

namespace w = warden;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

constexpr auto twice_body = [](auto k, auto x, auto y) {
  auto i = k.global_id();
  return w::when(i < x.size(), y[i] = x[i] * 2.f);  // y is not guarded: E101 where it is shorter
};
constexpr auto unsort_names_body = [](auto k, auto perm, auto sums, auto dst) {
  auto ix = k.global_id();
  return w::given(w::permutation(perm), w::when(ix < perm.size() && ix < sums.size(), dst[perm[ix]] = sums[ix]));
};

// What a call throws (a warden error), or "(launched)".
std::string message_of(auto&& f) { return w::testing::refusal_of(f); }

}  // namespace

WARDEN_KERNEL(twice, w::kernel<w::block<32>, w::in<float>, w::out<float>>(twice_body).named("twice", "x", "y"));
WARDEN_KERNEL(unsort_names, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>(unsort_names_body)
                                .named("unsort", "perm", "sums", "dst"));

TEST_CASE("a launch's refusal names the buffers bound to the parameters it mentions", "[names][launch]") {
  auto samples = w::to_device(std::vector<float>(64, 1.f));
  w::device_buffer<float> scratch(32);
  // E101: y (scratch) is shorter than x (samples).
  const std::string overrun = message_of([&] { w::launch(w::on_cpu, twice, w::grid_for(64), samples, scratch); });
  CHECK_THAT(overrun, StartsWith("E101 [out-of-bounds] twice:"));
  CHECK_THAT(overrun, Contains("(in the program: scratch is bound to y)"));
  CHECK_THAT(overrun, !Contains("samples"));  // the message does not mention x (global_id.x is no mention)

  // E100: one buffer bound to both.
  const std::string aliased = message_of([&] { w::launch(w::on_cpu, twice, w::grid_for(64), samples, samples); });
  CHECK_THAT(aliased, StartsWith("E100 [aliasing] twice:"));
  CHECK_THAT(aliased, Contains("(in the program: samples is bound to x, samples to y)"));

  // A view: named by its buffer.
  w::device_buffer<float> wide(64);
  const std::string through_view = message_of([&] { w::launch(w::on_cpu, twice, w::grid_for(64), samples, w::view(wide, 0, 16)); });
  CHECK_THAT(through_view, Contains("(in the program: a view of wide is bound to y)"));

  // E110: a moved-from argument.
  w::device_buffer<float> kept = std::move(scratch);
  const std::string moved = message_of([&] { w::launch(w::on_cpu, twice, w::grid_for(32), samples, scratch); });
  CHECK_THAT(moved, StartsWith("E110 [moved-from] twice:"));
  CHECK_THAT(moved, Contains("(in the program: scratch is bound to y)"));

  // A parameter bound to a buffer of the same name is not named twice.
  auto y = w::to_device(std::vector<float>(8, 0.f));
  CHECK_THAT(message_of([&] { w::launch(w::on_cpu, twice, w::grid_for(64), samples, y); }), !Contains("in the program"));
}

TEST_CASE("a false stated fact names the buffer behind the parameter", "[names][launch][facts]") {
  std::vector<int> order(64);
  for (int i = 0; i < 64; ++i) order[static_cast<std::size_t>(i)] = (i * 5) % 64;
  order[40] = order[3];
  const auto d_perm = w::to_device(order);
  const auto d_sums = w::to_device(std::vector<float>(64, 1.f));
  auto d_out = w::to_device(std::vector<float>(64, 0.f));
  const std::string text = message_of([&] { w::launch(w::on_cpu, unsort_names, w::grid_for(64), d_perm, d_sums, d_out); });
  CHECK_THAT(text, StartsWith("E107 [stated-fact] unsort_names:"));
  CHECK_THAT(text, Contains("perm[40] repeats perm[3]"));
  CHECK_THAT(text, Contains("(in the program: d_perm is bound to perm)"));
}

TEST_CASE("a graph's replay names the freed buffer as the program does (E109)", "[names][graph]") {
  w::stream s;
  auto samples = w::to_device(std::vector<float>(32, 1.f));
  w::graph g;
  {
    w::device_buffer<float> scratch(32);
    g = w::capture(s, [&] { w::launch(twice, w::grid_for(32).on(s), samples, scratch); });
  }
  CHECK_THAT(message_of([&] { g.replay(); }),
             StartsWith("E109 [graph-capture] warden::graph::replay: scratch (bound to y of twice in launch 1 of the capture) was freed"));
}

TEST_CASE("host-side messages name the buffer: a view past its end, a moved-from transfer or index", "[names][host]") {
  w::device_buffer<int> samples(64);
  CHECK_THAT(message_of([&] { (void)w::view(samples, 60, 5); }),
             Contains("a view of elements [60, 60 + 5) of samples, a buffer of 64 elements, reaches past its end"));

  w::device_buffer<int> target(64);
  w::device_buffer<int> taken = std::move(samples);
  CHECK_THAT(message_of([&] { w::copy(target, samples); }),
             StartsWith("E110 [moved-from] warden::copy: the source (samples, a warden::device_buffer) was moved from"));
  CHECK_THAT(message_of([&] { (void)w::to_host(samples); }), Contains("the source (samples, a warden::device_buffer)"));

  w::pinned_buffer<int> staging(4);
  w::pinned_buffer<int> elsewhere = std::move(staging);
  CHECK_THAT(message_of([&] { (void)staging[0]; }), Contains("staging was indexed on the host after it was moved from"));
  CHECK(taken.program_name() == "taken");  // a buffer moved into a declaration takes its name
  CHECK(elsewhere.program_name() == "elsewhere");
}

TEST_CASE("pool messages name what the allocation was for (E105, E112, out of memory)", "[names][pool]") {
  w::host_resource upstream(1 << 20);
  w::memory_pool device_pool(upstream);
  device_pool.stand_for_device_memory();
  const std::string space = message_of([&] { w::pinned_buffer<float> staging(16, device_pool); });
  CHECK_THAT(space, StartsWith("E105 [pool-space] warden::buffer: a pinned buffer (staging) from a pool of device memory"));

  w::memory_pool budgeted(upstream);
  budgeted.observe({.allocated = 1024}, [](const w::pool_event& e) {
    if (e.what == w::pool_event::kind::allocated_above) throw std::runtime_error("over budget");
  });
  const std::string refused = message_of([&] { w::device_buffer<char> frames(4096, budgeted); });
  CHECK_THAT(refused, StartsWith("E112"));
  CHECK_THAT(refused, Contains("allocation of 4096 bytes for frames (over budget)"));

  w::memory_pool small(upstream);
  small.set_limit(1024);
  const std::string oom = message_of([&] { w::device_buffer<char> huge(1 << 16, small); });
  CHECK_THAT(oom, Contains("out of memory allocating"));
  CHECK_THAT(oom, Contains("; the request was for huge"));
}

TEST_CASE("the reader names the variable a line declares or assigns, and nothing else", "[names][reader]") {
  using w::detail::declared_name;
  CHECK(declared_name("  w::device_buffer<float> scratch(n);", 0) == "scratch");
  CHECK(declared_name("  w::device_buffer<float> out{n};", 0) == "out");
  CHECK(declared_name("  auto samples = w::to_device(v);", 0) == "samples");
  CHECK(declared_name("  const auto dx = w::to_device(x, stream);", 0) == "dx");
  CHECK(declared_name("  scratch = w::device_buffer<float>(n);", 0) == "scratch");
  CHECK(declared_name("  std::map<int, w::device_buffer<float>> m; auto& b = m[0];", 0) == "b");  // m is declared without a maker
  CHECK(declared_name("  w::pinned_buffer<int> const& r = p;", 0) == "r");
  CHECK(declared_name("  w::device_buffer<float> x(n); // a comment (with parentheses)", 0) == "x");
  // Not declarations: calls, members, returns, control, comparisons, continuation lines.
  for (const char* line : {"  use(w::to_device(v));", "  member_(n),", "  return w::to_device(v);", "  if (a == b) f(x);",
                           "  for (auto& b : bufs) {", "  obj.resize(n);", "  p->reset(n);", "      n);", "  auto [a, b] = pair();",
                           "  CHECK_THROWS(w::pinned_buffer<float>(16, pool));", "  x == w::to_device(v);"})
    CHECK(declared_name(line, 0).empty());
  // A line of warden's own, a file the program cannot open, a line past the end: no name.
  CHECK(w::detail::inside_warden("/somewhere/include/warden/memory/transfer.hpp"));
  CHECK_FALSE(w::detail::inside_warden("/work/app/main.cpp"));
}

TEST_CASE("without a column the line must declare one variable, with one the buffer must be what it declares", "[names][reader]") {
  using w::detail::declared_name;
  // No column (clang 14's builtins): one declaration on the line, at any depth, or none named.
  CHECK(declared_name("  auto samples = w::to_device(std::vector<float>{1, 2, 3});", 0) == "samples");
  CHECK(declared_name("  check([&] { w::pinned_buffer<float> staging(16, pool); });", 0) == "staging");
  CHECK(declared_name("  const std::string s = message_of([&] { w::pinned_buffer<float> staging(16, pool); });", 0).empty());
  CHECK(declared_name("  std::vector<int> idx(n); auto d_idx = w::to_device(idx);", 0).empty());
  CHECK(declared_name("  w::device_buffer<int> a(n), b(n);", 0).empty());
  // A column picks the declaration (g++: a call's `(` or a constructor's closing bracket; clang:
  // the name's or the callee's start), and the buffer must be the one declared.
  const std::string_view line = "  const std::string s = message_of([&] { w::pinned_buffer<float> staging(16, pool); });";
  CHECK(declared_name(line, static_cast<unsigned>(line.find("staging") + 1)) == "staging");
  CHECK(declared_name(line, static_cast<unsigned>(line.find("pool)") + 5)) == "staging");
  const std::string_view nested = "  auto r = run(w::to_device(v));";
  CHECK(declared_name(nested, static_cast<unsigned>(nested.find("(v") + 1)).empty());       // g++: to_device's (
  CHECK(declared_name(nested, static_cast<unsigned>(nested.find("w::") + 1)).empty());      // clang: its start
  CHECK(declared_name(nested, static_cast<unsigned>(nested.find("run") + 1)) == "r");       // run's own result
  const std::string_view two = "  x = 0; launch(k, g, w::to_device(v));";
  CHECK(declared_name(two, static_cast<unsigned>(two.find("(v") + 1)).empty());
  const std::string_view decls = "  w::device_buffer<int> a(n), b(n);";
  CHECK(declared_name(decls, static_cast<unsigned>(decls.find("b(n)") + 4)) == "b");
  CHECK(declared_name(decls, static_cast<unsigned>(decls.find("a(n)") + 1)) == "a");
  const std::string_view ctor_init = "  explicit workspace(int n) : a(n), b(n) {}";
  CHECK(declared_name(ctor_init, static_cast<unsigned>(ctor_init.find("a(n)") + 4)).empty());
  CHECK(declared_name("  inline ws2(int n) : a(n) {}", 0).empty());
  CHECK(declared_name("  device_buffer<float> make(int n) { return w::device_buffer<float>(n); }", 0).empty());
  // Names reserved to the implementation (std::swap's __tmp) are no program's.
  CHECK(declared_name("      _Tp __tmp = _GLIBCXX_MOVE(__a);", 0).empty());
}

TEST_CASE("a swap or an assignment leaves each variable its own name", "[names][reader]") {
  w::device_buffer<float> front(8);
  w::device_buffer<float> back(8);
  std::swap(front, back);
  CHECK(front.program_name() == "front");
  CHECK(back.program_name() == "back");
  front = std::move(back);
  CHECK(front.program_name() == "front");
  w::device_buffer<float> later;
  later = w::device_buffer<float>(4);
  CHECK(later.program_name() == "later");
}
