// W012's atomic checked before it is offered (issue 57, item 1; check/suggested_atomics.hpp): the
// checker runs again on the kernel with the store made the atomic the message spells and the
// buffer declared atomic<T>, and offers it only when that kernel is accepted. Each mistaken body
// here is refused; the test reads the fix from the message's words, applies it to the body's
// source (the statement `target op= value` replaced by `w::atomic_op(target, value)`), finds the
// result in a twin WARDEN_KERNEL whose parameter is declared as the message says, and runs the
// twin: clean, and equal to the reference. Where the kernel with the atomic is refused too, the
// message asks instead, and that kernel is indeed refused.
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


// The message's checked atomic applied to the body's source: "" where it offers none.
struct followed {
  std::string body;         // the source with the statement replaced
  std::string buffer;       // the parameter to declare atomic<T> ("" for a tile)
  std::string declaration;  // "atomic<int>"
};
followed follow(std::string source, const std::string& message) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex("; checked fix: if (?:threads may meet|the threads are to combine their values there), write w::(atomic_\\w+)\\((.*), (.*)\\)( with (\\w+) declared (atomic<\\w+>))?$")))
    return {};
  const std::string op = m[1];
  const std::string sign = op == "atomic_add" ? "+=" : op == "atomic_sub" ? "-=" : op == "atomic_and" ? "&=" : op == "atomic_or" ? "|="
                         : op == "atomic_xor" ? "^=" : "=";
  source = squeezed(source);
  const std::string statement = std::string(m[2]) + " " + sign + " " + std::string(m[3]);
  const std::size_t at = source.find(statement);
  REQUIRE(at != std::string::npos);
  REQUIRE(source.find(statement, at + 1) == std::string::npos);
  source.replace(at, statement.size(), "w::" + op + "(" + std::string(m[2]) + ", " + std::string(m[3]) + ")");
  return {source, m[5], m[6]};
}

template <class Twin>
bool twin_follows(const Twin& twin, std::string_view body_source, const std::string& message) {
  const followed f = follow(std::string(body_source), message);
  const std::string twin_source = squeezed(w::dsl::definition_of(twin).source);
  INFO("message: " << message << "\nfixed body: " << f.body << "\ntwin: " << twin_source);
  if (f.body.empty() || twin_source.find(f.body) == std::string::npos) return false;
  // The parameter the message names is declared as it says: the twin's kernel<...> lists it.
  return f.buffer.empty() || twin_source.find("w::" + f.declaration) != std::string::npos;
}

}  // namespace

// 1. A privatised histogram's tile: `bins[v] += 1` at a loaded value.
WARDEN_TEST_BODY(tile_histogram_racy, [](auto k, auto in, auto counts) {
  return w::shared<int, 16>(k, [&](auto k, auto bins) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(t < 16, bins[t] = 0), w::sync(), w::when(i < in.size(), bins[in[i] & 15] += 1), w::sync(),
                  w::when(t < 16, w::atomic_add(counts[t], bins[t])));
  });
});
WARDEN_KERNEL(tile_histogram_fixed, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto counts) {
  return w::shared<int, 16>(k, [&](auto k, auto bins) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(t < 16, bins[t] = 0), w::sync(), w::when(i < in.size(), w::atomic_add(bins[in[i] & 15], 1)), w::sync(),
                  w::when(t < 16, w::atomic_add(counts[t], bins[t])));
  });
}));

// 2. A global histogram: `hist[in[i]] += 1` into inout<int>.
WARDEN_TEST_BODY(histogram_racy, [](auto k, auto in, auto hist) {
  auto i = k.global_id();
  return w::when(i < in.size(), hist[in[i]] += 1);
});
WARDEN_KERNEL(histogram_fixed, w::kernel<w::block<128>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto hist) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(hist[in[i]], 1));
}));

// 3. A scatter of flags: `seen[idx[i]] = 1` into out<int>.
WARDEN_TEST_BODY(flags_racy, [](auto k, auto idx, auto seen) {
  auto i = k.global_id();
  return w::when(i < idx.size(), seen[idx[i]] = 1);
});
WARDEN_KERNEL(flags_fixed, w::kernel<w::block<128>, w::in<int>, w::atomic<int>>([](auto k, auto idx, auto seen) {
  auto i = k.global_id();
  return w::when(i < idx.size(), w::atomic_exchange(seen[idx[i]], 1));
}));

// 4. The histogram also read back plainly in the same kernel: atomic<int> would refuse the plain
// load (W040), so the message asks.
WARDEN_TEST_BODY(read_back_racy, [](auto k, auto in, auto hist, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::seq(hist[in[i]] += 1, out[i] = hist[i]));
});
constexpr auto read_back_atomic = [](auto k, auto in, auto hist, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::seq(w::atomic_add(hist[in[i]], 1), out[i] = hist[i]));
};

std::vector<int> sevens(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i * 7 % 16;
  return v;
}

TEST_CASE("W012's checked atomic on a tile, followed, counts the histogram", "[fix][W012][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::atomic<int>>(tile_histogram_racy) == code::W012);
  const std::string message = w::testing::message_of<B, w::in<int>, w::atomic<int>>(tile_histogram_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: if threads may meet, write w::atomic_add(bins[in[i] & 15], 1)"));
  CHECK(twin_follows(tile_histogram_fixed, tile_histogram_racy_warden_source::text, message));
  auto in = w::to_device(sevens(256));
  auto counts = w::to_device(std::vector<int>(16, 0));
  w::launch(w::on_cpu, tile_histogram_fixed, w::grid(4), in, counts);
  CHECK(w::to_host(counts) == std::vector<int>(16, 16));
  CHECK(w::record(tile_histogram_fixed, w::grid(4), in, counts).clean());
}

TEST_CASE("W012's checked atomic on a buffer, declared atomic<int> as the message says, counts the histogram", "[fix][W012][checked]") {
  using B = w::block<128>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::inout<int>>(histogram_racy) == code::W012);
  const std::string message = w::testing::message_of<B, w::in<int>, w::inout<int>>(histogram_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: if threads may meet, write w::atomic_add(hist[in[i]], 1) with hist declared atomic<int>"));
  CHECK(twin_follows(histogram_fixed, histogram_racy_warden_source::text, message));
  auto in = w::to_device(sevens(300));
  auto hist = w::to_device(std::vector<int>(16, 0));
  w::launch(w::on_cpu, histogram_fixed, w::grid_for(300), in, hist);
  std::vector<int> expected(16, 0);
  for (const int v : sevens(300)) ++expected[static_cast<std::size_t>(v)];
  CHECK(w::to_host(hist) == expected);
  CHECK(w::record(histogram_fixed, w::grid_for(300), in, hist).clean());
}

TEST_CASE("W012's checked atomic_exchange for a plain scatter, followed, sets every flag", "[fix][W012][checked]") {
  using B = w::block<128>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::out<int>>(flags_racy) == code::W012);
  const std::string message = w::testing::message_of<B, w::in<int>, w::out<int>>(flags_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("write w::atomic_exchange(seen[idx[i]], 1) with seen declared atomic<int>"));
  CHECK(twin_follows(flags_fixed, flags_racy_warden_source::text, message));
  auto idx = w::to_device(sevens(200));
  auto seen = w::to_device(std::vector<int>(16, 0));
  w::launch(w::on_cpu, flags_fixed, w::grid_for(200), idx, seen);
  CHECK(w::to_host(seen) == std::vector<int>(16, 1));
  CHECK(w::record(flags_fixed, w::grid_for(200), idx, seen).clean());
}

TEST_CASE("W012 whose atomic would be refused asks instead, and the kernel with it is refused", "[fix][W012][checked]") {
  using B = w::block<128>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::inout<int>, w::out<int>>(read_back_racy) == code::W012);
  const std::string message = w::testing::message_of<B, w::in<int>, w::inout<int>, w::out<int>>(read_back_racy);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::Contains("; may threads meet here? (write w::atomic_add(hist[in[i]], 1) with hist declared atomic<int> is not accepted either)"));
  CHECK(w::testing::code_of<B, w::in<int>, w::atomic<int>, w::out<int>>(read_back_atomic) != code::none);
}

// The same rewrite for a race on a compound assignment (W011 across blocks, W010, W020 on a tile):
// every thread adding into one element is a sum, and the atomic update the message checks is the
// fix; a plain `=` or a `*=`, which no atomic combines, is offered none.
WARDEN_TEST_BODY(total_racy, [](auto k, auto in, auto total) {
  auto i = k.global_id();
  return w::when(i < in.size(), total[0] += in[i]);
});
WARDEN_KERNEL(total_fixed, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto total) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(total[0], in[i]));
}));

WARDEN_TEST_BODY(pair_sums_racy, [](auto k, auto in, auto sums) {
  auto i = k.global_id();
  return w::when(i < in.size(), sums[i / 2] += in[i]);
});
WARDEN_KERNEL(pair_sums_fixed, w::kernel<w::block<64>, w::in<int>, w::atomic<int>>([](auto k, auto in, auto sums) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::atomic_add(sums[i / 2], in[i]));
}));

WARDEN_TEST_BODY(tile_total_racy, [](auto k, auto in, auto totals) {
  return w::shared<int, 1>(k, [&](auto k, auto acc) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(t == 0, acc[0] = 0), w::sync(), w::when(i < in.size(), acc[0] ^= in[i]), w::sync(),
                  w::when(t == 0, totals[k.block_id()] = acc[0]));
  });
});
WARDEN_KERNEL(tile_total_fixed, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto totals) {
  return w::shared<int, 1>(k, [&](auto k, auto acc) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(t == 0, acc[0] = 0), w::sync(), w::when(i < in.size(), w::atomic_xor(acc[0], in[i])), w::sync(),
                  w::when(t == 0, totals[k.block_id()] = acc[0]));
  });
}));

constexpr auto last_wins_racy = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[0] = in[i]);
};
constexpr auto product_racy = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[0] *= in[i]);
};

TEST_CASE("A race on a sum into one element, W011 across blocks, offers the checked atomic_add, which followed adds up", "[fix][W011][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::inout<int>>(total_racy) == code::W011);
  const std::string message = w::testing::message_of<B, w::in<int>, w::inout<int>>(total_racy);
  CHECK_THAT(message, Catch::Matchers::EndsWith(
                          "; checked fix: if the threads are to combine their values there, write w::atomic_add(total[0], in[i]) with total declared atomic<int>"));
  CHECK(twin_follows(total_fixed, total_racy_warden_source::text, message));
  auto in = w::to_device(sevens(300));
  auto total = w::to_device(std::vector<int>(1, 0));
  w::launch(w::on_cpu, total_fixed, w::grid_for(300), in, total);
  int expected = 0;
  for (const int v : sevens(300)) expected += v;
  CHECK(w::to_host(total)[0] == expected);
  CHECK(w::record(total_fixed, w::grid_for(300), in, total).clean());
}

TEST_CASE("A race between neighbours summing into one element offers the checked atomic_add, which followed adds the pairs", "[fix][W010][checked]") {
  using B = w::block<64>;
  const code c = w::testing::code_of<B, w::in<int>, w::inout<int>>(pair_sums_racy);
  CHECK(c == code::W011);  // the load of the pair's element by the other thread, first
  const std::string message = w::testing::message_of<B, w::in<int>, w::inout<int>>(pair_sums_racy);
  CHECK(twin_follows(pair_sums_fixed, pair_sums_racy_warden_source::text, message));
  auto in = w::to_device(sevens(200));
  auto sums = w::to_device(std::vector<int>(100, 0));
  w::launch(w::on_cpu, pair_sums_fixed, w::grid_for(200), in, sums);
  std::vector<int> expected(100, 0);
  for (int i = 0; i < 200; ++i) expected[static_cast<std::size_t>(i / 2)] += sevens(200)[static_cast<std::size_t>(i)];
  CHECK(w::to_host(sums) == expected);
  CHECK(w::record(pair_sums_fixed, w::grid_for(200), in, sums).clean());
}

TEST_CASE("A race on a tile's one element that no barrier ends (W020) offers the checked atomic, which followed combines the block", "[fix][W020][checked]") {
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::out<int>>(tile_total_racy) == code::W020);
  const std::string message = w::testing::message_of<B, w::in<int>, w::out<int>>(tile_total_racy);
  CHECK_THAT(message, Catch::Matchers::EndsWith("; checked fix: if the threads are to combine their values there, write w::atomic_xor(acc[0], in[i])"));
  CHECK(twin_follows(tile_total_fixed, tile_total_racy_warden_source::text, message));
  auto in = w::to_device(sevens(256));
  auto totals = w::to_device(std::vector<int>(4, -1));
  w::launch(w::on_cpu, tile_total_fixed, w::grid(4), in, totals);
  std::vector<int> expected(4, 0);
  for (int i = 0; i < 256; ++i) expected[static_cast<std::size_t>(i / 64)] ^= sevens(256)[static_cast<std::size_t>(i)];
  CHECK(w::to_host(totals) == expected);
  CHECK(w::record(tile_total_fixed, w::grid(4), in, totals).clean());
}

// A sum into a short: the GPU's atomics take 4- or 8-byte elements, so no atomic is offered.
constexpr auto short_total_racy = [](auto k, auto in, auto total) {
  auto i = k.global_id();
  return w::when(i < in.size(), total[0] += in[i]);
};

TEST_CASE("A race on a plain store, a product, or a sum into a short is offered no atomic", "[fix][W010][checked]") {
  REQUIRE(w::testing::code_of<w::block<64>, w::in<short>, w::inout<short>>(short_total_racy) == code::W011);
  CHECK(w::testing::message_of<w::block<64>, w::in<short>, w::inout<short>>(short_total_racy).find("checked fix") == std::string::npos);
  using B = w::block<64>;
  REQUIRE(w::testing::code_of<B, w::in<int>, w::out<int>>(last_wins_racy) == code::W010);
  CHECK(w::testing::message_of<B, w::in<int>, w::out<int>>(last_wins_racy).find("checked fix") == std::string::npos);
  REQUIRE(w::testing::code_of<B, w::in<int>, w::inout<int>>(product_racy) != code::none);
  CHECK(w::testing::message_of<B, w::in<int>, w::inout<int>>(product_racy).find("checked fix") == std::string::npos);
}
