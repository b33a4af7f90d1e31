// W031's fix checked before it is offered (issue 57, item 1; check/suggested_shuffles.hpp): a warp
// shuffle under a w::when that splits a warp is opened outside it, with the w::when in its body, and
// the message offers that only where the checker accepts the kernel so rewritten. The test applies
// the message's rewrite to the body's source text mechanically (the w::when and the shuffle trade
// places), finds the result in a twin WARDEN_KERNEL's source, and runs the twin: clean, and equal to
// the reference. Where the rewritten kernel would still be refused, the message asks.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/refused_body.hpp"
#include "../support/verdict_probe.hpp"

#include <regex>
#include <string>
#include <vector>

namespace w = warden;
using code = w::diagnostic::code;

namespace {

using w::testing::call_end;
using w::testing::squeezed;


// The message's rewrite applied: `w::when(G, w::shuffle_X(k, V, L, [&](auto, auto N) { return B; }))`
// becomes `w::shuffle_X(k, V, L, [&](auto, auto N) { return w::when(G, B); })`; "" where the message
// offers none.
std::string hoisted(std::string source, const std::string& message) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex("; checked fix: open the shuffle outside the w::when\\((.*), \\.\\.\\.\\), with it in the "
                                                "shuffle's body: w::(shuffle_\\w+)\\(k, value, ")))
    return "";
  source = squeezed(source);
  const std::string when = "w::when(" + std::string(m[1]) + ", ";
  const std::size_t at = source.find(when);
  REQUIRE(at != std::string::npos);
  const std::size_t end = call_end(source, at);
  REQUIRE(end != std::string::npos);
  const std::string shuffle = source.substr(at + when.size(), end - 1 - at - when.size());  // the w::when's body
  REQUIRE(shuffle.rfind("w::" + std::string(m[2]) + "(k, ", 0) == 0);
  const std::size_t body = shuffle.find("{ return ");
  const std::size_t body_end = shuffle.rfind("; })");
  REQUIRE(body != std::string::npos);
  REQUIRE(body_end != std::string::npos);
  const std::string statement = shuffle.substr(body + 9, body_end - body - 9);
  const std::string rewritten = shuffle.substr(0, body + 9) + "w::when(" + std::string(m[1]) + ", " + statement + ")" + shuffle.substr(body_end);
  return source.replace(at, end - at, rewritten);
}

}  // namespace

// Pairs of neighbours under t < 48: the second warp's lanes 16-31 skip the shuffle.
WARDEN_TEST_BODY(pairs_racy, [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::when(t < 48, w::shuffle_down(k, in[i], 1, [&](auto, auto right) { return out[i] = in[i] + right; }));
});
WARDEN_KERNEL(pairs_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::shuffle_down(k, in[i], 1, [&](auto, auto right) { return w::when(t < 48, out[i] = in[i] + right); });
}));

// Every lane under the condition stores one element: opened outside, the stores still race, so
// the message asks.
WARDEN_TEST_BODY(one_slot_racy, [](auto k, auto in, auto out) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::when(t < 48, w::shuffle_down(k, in[i], 1, [&](auto, auto right) { return out[0] = in[i] + right; }));
});

TEST_CASE("W031's checked fix opens the shuffle outside the w::when, and followed adds the right neighbours", "[fix][W031][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<float>, w::out<float>>(pairs_racy) == code::W031);
  const std::string message = w::testing::message_of<B, w::in<float>, w::out<float>>(pairs_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: open the shuffle outside the w::when(t < 48, ...)"));
  const std::string fixed = hoisted(std::string(pairs_racy_warden_source::text), message);
  INFO("message: " << message << "\nfixed: " << fixed);
  CHECK(!fixed.empty());
  CHECK(squeezed(w::dsl::definition_of(pairs_fixed).source).find(fixed) != std::string::npos);
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i * i);
  auto in = w::to_device(values);
  auto out = w::to_device(std::vector<float>(64, -1.f));
  w::launch(w::on_cpu, pairs_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) {
    const bool last_lane = i % 32 == 31;  // shuffle_down past the warp's end gives the lane its own value
    const float expected = i < 48 ? values[static_cast<std::size_t>(i)] + values[static_cast<std::size_t>(last_lane ? i : i + 1)] : -1.f;
    CHECK(got[static_cast<std::size_t>(i)] == expected);
  }
  CHECK(w::record(pairs_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W031 whose rewrite would still race asks which lanes should take part", "[fix][W031][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<float>, w::out<float>>(one_slot_racy) == code::W031);
  const std::string message = w::testing::message_of<B, w::in<float>, w::out<float>>(one_slot_racy);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::Contains("which lanes should take part?"));
  constexpr auto opened = [](auto k, auto in, auto out) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::shuffle_down(k, in[i], 1, [&](auto, auto right) { return w::when(t < 48, out[0] = in[i] + right); });
  };
  CHECK(w::testing::code_of<B, w::in<float>, w::out<float>>(opened) != code::none);
}

// A block of partial warps: the checker runs again on a block of whole warps (its x rounded up to
// 32) and asks whether it would do, with its answer (a question: another block changes what a
// kernel that reads its block computes); followed, the twin declares that block. (Under a
// guard on the grid's end, `w::when(i < in.size(), ...)`, the larger block would split a warp
// there: that kernel is asked, below.)
WARDEN_TEST_BODY(swap_pairs_racy, [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::shuffle_xor(k, in[i], 1, [&](auto, auto partner) { return out[i] = partner; });
});
WARDEN_KERNEL(swap_pairs_fixed, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::shuffle_xor(k, in[i], 1, [&](auto, auto partner) { return out[i] = partner; });
}));

TEST_CASE("W031 in a block of partial warps asks about the block of whole warps the checker accepts, and followed swaps the pairs", "[fix][W031][checked]") {
  using B48 = w::block<48>;
  REQUIRE(w::testing::code_of<B48, w::in<int>, w::out<int>>(swap_pairs_racy) == code::W031);
  const std::string message = w::testing::message_of<B48, w::in<int>, w::out<int>>(swap_pairs_racy);
  INFO(message);
  std::smatch m;
  CHECK(message.find("checked fix") == std::string::npos);
  REQUIRE(std::regex_search(message, m, std::regex("; would a block of whole warps do, (w::block<\\d+>)\\? \\(the checker accepts the kernel with it; it changes which threads make up each block\\)$")));
  // Followed: the block the message names declares the twin, whose body is the mistaken one's.
  const std::string twin = squeezed(w::dsl::definition_of(swap_pairs_fixed).source);
  CHECK(twin.rfind("w::kernel<" + std::string(m[1]) + ", w::in<int>, w::out<int>>(" + squeezed(swap_pairs_racy_warden_source::text), 0) == 0);
  std::vector<int> values(192);
  for (int i = 0; i < 192; ++i) values[static_cast<std::size_t>(i)] = i * 3;
  auto in = w::to_device(values);
  w::device_buffer<int> out(192);
  w::launch(w::on_cpu, swap_pairs_fixed, w::grid_for(192), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 192; ++i) CHECK(got[static_cast<std::size_t>(i)] == (i ^ 1) * 3);
  CHECK(w::record(swap_pairs_fixed, w::grid_for(192), in, out).clean());
}

WARDEN_TEST_BODY(swap_guarded_racy, [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::shuffle_xor(k, in[i], 1, [&](auto, auto partner) { return out[i] = partner; }));
});

TEST_CASE("W031 in a block of partial warps whose whole-warp block would still split a warp asks", "[fix][W031][checked]") {
  using B48 = w::block<48>;
  REQUIRE(w::testing::code_of<B48, w::in<int>, w::out<int>>(swap_guarded_racy) == code::W031);
  const std::string message = w::testing::message_of<B48, w::in<int>, w::out<int>>(swap_guarded_racy);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::EndsWith("; which lanes should take part? (a block of whole warps, w::block<64>, is not accepted either)"));
  CHECK(w::testing::code_of<w::block<64>, w::in<int>, w::out<int>>(swap_guarded_racy) == code::W031);
}

// A shuffle in a loop whose trips differ within a warp: which trips each lane takes is the
// kernel's meaning, so the message asks.
WARDEN_TEST_BODY(uneven_trips_racy, [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::local(k, 0, [&](auto k, auto sum) {
    return w::seq(w::for_range(k, 0, i % 4, [&](auto k, auto j) {
                    return w::shuffle_xor(k, in[i] + j, 1, [&](auto, auto partner) { return sum += partner; });
                  }),
                  out[i] = sum);
  });
});

TEST_CASE("W031 in a loop whose trips differ within a warp asks which lanes take part", "[fix][W031][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::out<int>>(uneven_trips_racy) == code::W031);
  const std::string message = w::testing::message_of<B, w::in<int>, w::out<int>>(uneven_trips_racy);
  INFO(message);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::EndsWith("; which lanes should take part on each trip? (every lane of the warp must reach the shuffle)"));
}
