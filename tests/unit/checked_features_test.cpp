// Checked suggestions on the newer features (issue 57, item 1): a tuned kernel whose every
// candidate is refused, a launch captured into a graph, and a buffer bound through a view. Each
// mistake here is refused; the test reads the fix from the message's own words, applies it
// mechanically (the barrier inserted into the body's source text, found in a twin's source; the
// room bound as the message gives it, to a buffer or to a view) and checks the result: it
// compiles, runs on the cpu backend (or replays), and matches the reference. (`w::given`'s E107 and
// E104 are followed in fix_followed_launch_test; the rules' own sets are checked_barriers_test,
// checked_atomics_test, checked_shuffles_test and checked_fixes_test.)
#include <warden/tuned.hpp>
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/followed_barriers.hpp"
#include "../support/refused_body.hpp"
#include "../support/verdict_probe.hpp"

#include <regex>
#include <string>
#include <vector>

namespace w = warden;
using Catch::Matchers::Contains;

// A tuned definition as WARDEN_TUNED declares it, without the kernel object that raises the error
// of a definition whose every candidate is refused: the test reads that error's text instead.
#define WARDEN_TEST_TUNED(name, ...)                                 \
  struct name##_warden_source {                                      \
    static constexpr ::std::string_view text = #__VA_ARGS__;         \
    static constexpr ::std::string_view kernel = #name;              \
  };                                                                 \
  struct name {                                                      \
    friend name##_warden_source warden_kernel_source(auto);          \
    static constexpr auto definition = (__VA_ARGS__);                \
    static constexpr ::std::string_view kernel = #name;              \
  }

namespace {

// The one error a tuned kernel whose every candidate is refused raises (tuned.hpp,
// every_candidate_rejected): the first candidate's diagnostic, opened by the kernel and candidate.
template <class Tag>
std::string tuned_refusal() {
  using D = std::remove_cvref_t<decltype(Tag::definition)>;
  using first = typename std::remove_cvref_t<decltype(boost::hana::front(typename D::candidate_list{}))>::type;
  return std::string(w::detail::every_candidate_rejected<Tag, first, typename D::template verdict_source<first>>::value.text.view());
}

std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}

// "bind y to at least N elements": the buffer and N, or N = -1 where the message offers none.
std::pair<std::string, long long> room_in(const std::string& message) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex(", or bind (\\w+) to at least (\\d+) elements"))) return {"", -1};
  return {m[1], std::stoll(m[2])};
}

}  // namespace

// 1. A tuned kernel: neighbours swapped through a tile without the barrier, for every candidate.
WARDEN_TEST_TUNED(swap_racy, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 256>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto i = k.global_id();
        return w::seq(tile[t] = in[i], out[i] = tile[t ^ 1]);
      });
    },
    w::candidates<w::block<64>, w::block<128>>));
WARDEN_TUNED(swap_fixed, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 256>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto i = k.global_id();
        return w::seq(tile[t] = in[i], w::sync(), out[i] = tile[t ^ 1]);
      });
    },
    w::candidates<w::block<64>, w::block<128>>));
// The same swap under a guard on the grid's end: no barrier inside the w::when is reached by every
// thread, so the message asks, and the barrier a user would put there first is refused (W030).
WARDEN_TEST_TUNED(swap_guarded_racy, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 256>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto i = k.global_id();
        return w::when(i < in.size(), w::seq(tile[t] = in[i], out[i] = tile[t ^ 1]));
      });
    },
    w::candidates<w::block<64>, w::block<128>>));
constexpr auto swap_guarded_tried = [](auto k, auto in, auto out) {
  return w::shared<float, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::when(i < in.size(), w::seq(tile[t] = in[i], w::sync(), out[i] = tile[t ^ 1]));
  });
};

TEST_CASE("A tuned kernel whose every candidate races gives the first candidate's checked barrier, whole, and followed every candidate is accepted", "[fix][W020][checked][tuned]") {
  const std::string message = tuned_refusal<swap_racy>();
  INFO(message);
  CHECK_THAT(message, Catch::Matchers::StartsWith("swap_racy, candidate block<64> (every candidate is rejected; the first): "));
  CHECK_THAT(message, Catch::Matchers::EndsWith("; checked fix: add sync() before `out[i] = tile[t ^ 1]`"));
  const std::string followed = w::testing::applied(std::string(swap_racy_warden_source::text), message);
  CHECK(w::testing::squeezed(swap_fixed_warden_source::text) == followed);
  STATIC_REQUIRE(std::remove_cvref_t<decltype(swap_fixed)>::size == 2);  // the twin: both candidates accepted
  auto in = w::to_device(iota_floats(256));
  w::device_buffer<float> out(256);
  w::launch(w::on_cpu, swap_fixed, w::grid_for(256), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 256; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(i ^ 1));
}

// The same mistake under a name long enough that the opening leaves no room for the fix: the error
// carries the candidate's diagnostic without its fix rather than the fix cut short.
WARDEN_TEST_TUNED(swap_racy_under_a_name_long_enough_that_the_opening_of_the_tuned_error_leaves_no_room_for_the_candidates_whole_fix_even_though_it_is_short_and_then_some_more_words_x,
                  w::tuned<w::in<float>, w::out<float>>(
                      [](auto k, auto in, auto out) {
                        return w::shared<float, 256>(k, [&](auto k, auto tile) {
                          auto t = k.thread_id();
                          auto i = k.global_id();
                          return w::seq(tile[t] = in[i], out[i] = tile[t ^ 1]);
                        });
                      },
                      w::candidates<w::block<64>, w::block<128>>));

TEST_CASE("A tuned kernel's error that cannot hold the candidate's checked fix whole leaves it out, never cut", "[fix][W020][checked][tuned]") {
  const std::string whole = tuned_refusal<swap_racy>();
  const std::string message =
      tuned_refusal<swap_racy_under_a_name_long_enough_that_the_opening_of_the_tuned_error_leaves_no_room_for_the_candidates_whole_fix_even_though_it_is_short_and_then_some_more_words_x>();
  INFO(message);
  REQUIRE(whole.find("; checked fix: ") != std::string::npos);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK(message.size() < static_cast<std::size_t>(w::detail::text_buffer::capacity));
  CHECK_THAT(message, Catch::Matchers::EndsWith("threads 0 and 1 meet at element 0 in one phase"));
}

TEST_CASE("A tuned kernel whose race no barrier inside its guard ends asks, and that barrier is refused", "[fix][W020][checked][tuned]") {
  const std::string message = tuned_refusal<swap_guarded_racy>();
  INFO(message);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Contains("where could a sync() between them go that every thread of the block reaches?"));
  CHECK(w::testing::code_of<w::block<64>, w::in<float>, w::out<float>>(swap_guarded_tried) == w::diagnostic::code::W030);
}

// 2. and 3. saxpy over n threads whose y is too short: bound to a buffer in a graph's capture, and
// through a view.
WARDEN_KERNEL(saxpy_k, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<float>>([](auto k, auto x, auto y, auto a) {
  auto i = k.global_id();
  return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
}));

TEST_CASE("A launch refused while it is captured offers room, checked, and the capture with it replays right", "[fix][E101][checked][graph]") {
  w::stream s;
  auto x = w::to_device(iota_floats(100));
  auto short_y = w::to_device(std::vector<float>(60, 1.f));
  std::string message;
  try {
    w::graph g = w::capture(s, [&] { w::launch(saxpy_k, w::grid_for(100).on(s), x, short_y, 2.f); });
    FAIL("the capture took a launch that overruns y");
  } catch (const w::bounds_error& e) {
    message = e.what();
  }
  INFO(message);
  const auto [buffer, room] = room_in(message);
  REQUIRE(buffer == "y");
  CHECK(room == 100);
  CHECK_THAT(message, Contains("(in the program: short_y is bound to y"));
  auto y = w::to_device(std::vector<float>(static_cast<std::size_t>(room), 1.f));  // the fix, as worded
  w::graph g = w::capture(s, [&] { w::launch(saxpy_k, w::grid_for(100).on(s), x, y, 2.f); });
  g.replay();
  g.replay();
  const auto got = w::to_host(y);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(i)] == 1.f + 4.f * static_cast<float>(i));
}

TEST_CASE("A view too short for the launch is offered the room, checked, and a view that long runs", "[fix][E101][checked][view]") {
  auto x = w::to_device(iota_floats(100));
  auto samples = w::to_device(std::vector<float>(300, 1.f));
  const std::string message = w::testing::refusal_of<w::bounds_error>(
      [&] { w::launch(w::on_cpu, saxpy_k, w::grid_for(100), x, w::view(samples, 50, 40), 2.f); });
  INFO(message);
  const auto [buffer, room] = room_in(message);
  REQUIRE(buffer == "y");
  CHECK(room == 100);
  CHECK_THAT(message, Contains("(in the program: a view of samples is bound to y)"));
  w::launch(w::on_cpu, saxpy_k, w::grid_for(100), x, w::view(samples, 50, static_cast<std::size_t>(room)), 2.f);  // as worded
  const auto got = w::to_host(samples);
  for (int i = 0; i < 300; ++i)
    CHECK(got[static_cast<std::size_t>(i)] == (i >= 50 && i < 150 ? 1.f + 2.f * static_cast<float>(i - 50) : 1.f));
}
