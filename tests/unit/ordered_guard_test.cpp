// A guard over a non-decreasing buffer keeps one thread (issue 56, item 3: "sorted ... used by the
// checker"). A B+tree level, a bucket search, a CSR row lookup: each thread t of a block tests
// whether the block's key lies in [lo[t], lo[t + 1]) and the one that finds it writes the block's
// answer. All threads store at one element, so without the fact the checker refuses the store
// (W010). With given(non_decreasing(lo), ...), the launch relates the loads of lo by the fact
// (check/launch/presburger.hpp, relate_load: one element, one value; ordered elements, ordered
// values) and finds that no two threads pass the guard for any data: the launch runs. The careless
// variants below differ from it only where the proof does: each is refused.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;

namespace {

using B64 = w::block<64>;
using In = w::in<int>;
using Out = w::out<int>;

constexpr auto bucket_body = [](auto k, auto lo, auto keys, auto found) {
  auto t = k.thread_id();
  auto b = k.block_id();
  return w::given(w::non_decreasing(lo), w::when(t + 1 < lo.size() && b < keys.size(),
                                                  w::when(lo[t] <= keys[b] && keys[b] < lo[t + 1], found[b] = t)));
};
WARDEN_KERNEL(bucket_k, w::kernel<B64, In, In, Out>(bucket_body).named("bucket", "lo", "keys", "found"));

// Closed at both ends: a key equal to lo[t + 1] is in bucket t and in bucket t + 1.
WARDEN_KERNEL(closed_k, w::kernel<B64, In, In, Out>([](auto k, auto lo, auto keys, auto found) {
                          auto t = k.thread_id();
                          auto b = k.block_id();
                          return w::given(w::non_decreasing(lo),
                                          w::when(t + 1 < lo.size() && b < keys.size(),
                                                  w::when(lo[t] <= keys[b] && keys[b] <= lo[t + 1], found[b] = t)));
                        }).named("closed", "lo", "keys", "found"));

// Overlapping windows: [lo[t], lo[t + 2]) holds keys of two buckets.
WARDEN_KERNEL(wide_k, w::kernel<B64, In, In, Out>([](auto k, auto lo, auto keys, auto found) {
                        auto t = k.thread_id();
                        auto b = k.block_id();
                        return w::given(w::non_decreasing(lo),
                                        w::when(t + 2 < lo.size() && b < keys.size(),
                                                w::when(lo[t] <= keys[b] && keys[b] < lo[t + 2], found[b] = t)));
                      }).named("wide", "lo", "keys", "found"));

// Each thread its own key: two threads find theirs in different buckets and store at one element.
WARDEN_KERNEL(own_key_k, w::kernel<B64, In, In, Out>([](auto k, auto lo, auto keys, auto found) {
                           auto t = k.thread_id();
                           auto b = k.block_id();
                           return w::given(w::non_decreasing(lo),
                                           w::when(t + 1 < lo.size() && b * 64 + t < keys.size() && b < found.size(),
                                                   w::when(lo[t] <= keys[b * 64 + t] && keys[b * 64 + t] < lo[t + 1], found[b] = t)));
                         }).named("own_key", "lo", "keys", "found"));

// The upper end from another buffer that no fact orders.
WARDEN_KERNEL(two_buffers_k, w::kernel<B64, In, In, In, Out>([](auto k, auto lo, auto hi, auto keys, auto found) {
                               auto t = k.thread_id();
                               auto b = k.block_id();
                               return w::given(w::non_decreasing(lo),
                                               w::when(t < lo.size() && t < hi.size() && b < keys.size(),
                                                       w::when(lo[t] <= keys[b] && keys[b] < hi[t], found[b] = t)));
                             }).named("two_buffers", "lo", "hi", "keys", "found"));

std::vector<int> tens() {
  std::vector<int> lo(65);
  for (int i = 0; i < 65; ++i) lo[static_cast<std::size_t>(i)] = i * 10;
  return lo;
}


}  // namespace

TEST_CASE("a half-open bucket over a non-decreasing buffer keeps one thread: the launch runs it", "[launch][contents][facts]") {
  using code = w::diagnostic::code;
  // Without the fact, every thread of a block may store found[b]: refused at compile time.
  STATIC_REQUIRE(w::testing::code_of<B64, In, In, Out>([](auto k, auto lo, auto keys, auto found) {
                   auto t = k.thread_id();
                   auto b = k.block_id();
                   return w::when(t + 1 < lo.size() && b < keys.size(), w::when(lo[t] <= keys[b] && keys[b] < lo[t + 1], found[b] = t));
                 }) == code::W010);

  std::vector<int> lo = tens();
  lo[3] = lo[2] = 20;  // equal neighbours: an empty bucket, still one thread at most
  const std::vector<int> keys{5, 15, 633, 0, 639, 100, 20, 25};
  auto l = w::to_device(lo);
  auto k = w::to_device(keys);
  auto found = w::to_device(std::vector<int>(keys.size(), -1));
  const w::recording r = w::record(bucket_k, w::grid(static_cast<int>(keys.size())), l, k, found);
  CHECK(r.clean());
  std::vector<int> expected;
  for (int key : keys) {
    int at = -1;
    for (int t = 0; t + 1 < 65; ++t)
      if (lo[static_cast<std::size_t>(t)] <= key && key < lo[static_cast<std::size_t>(t) + 1]) at = t;
    expected.push_back(at);
  }
  CHECK(w::to_host(found) == expected);
  CHECK(expected[6] == 3);  // 20 lies in [lo[3], lo[4]) = [20, 40), not in the empty [20, 20)

  // A falling lo: the fact is false, refused before the kernel (E107).
  lo[5] = 0;
  w::copy(l, w::to_device(lo));
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, bucket_k, w::grid(static_cast<int>(keys.size())), l, k, found); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] bucket_k: the stated fact non_decreasing(lo) is false for this launch (lo[5] is below lo[4])"));
}

TEST_CASE("the careless buckets are refused at launch: closed, overlapping, per-thread keys, an unordered upper end", "[launch][contents][facts]") {
  auto l = w::to_device(tens());
  auto k = w::to_device(std::vector<int>(64 * 2, 20));
  auto found = w::to_device(std::vector<int>(2, -1));
  const std::vector<int> before = w::to_host(found);
  for (const std::string& text : {w::testing::refusal_of([&] { w::launch(w::on_cpu, closed_k, w::grid(2), l, k, found); }),
                                  w::testing::refusal_of([&] { w::launch(w::on_cpu, wide_k, w::grid(2), l, k, found); }),
                                  w::testing::refusal_of([&] { w::launch(w::on_cpu, own_key_k, w::grid(2), l, k, found); })}) {
    CHECK_THAT(text, Catch::Matchers::Contains("found["));
    CHECK(text != "(launched)");
  }
  auto hi = w::to_device(tens());
  CHECK(w::testing::refusal_of([&] { w::launch(w::on_cpu, two_buffers_k, w::grid(2), l, hi, k, found); }) != "(launched)");
  CHECK(w::to_host(found) == before);  // every refusal came before the kernel
}

// Brute force against the launch (the lemma's oracle, values not calls): guards
// lo[t + D1] <(=) v <(=) lo[t + D2] over a non-decreasing lo, with v the block's key or a
// thread's own. For random non-decreasing lo (runs of equal values included) and keys, every
// launch the checks let run is recorded, and its recording must show no two threads storing one
// element; the half-open bucket (D1 = 0, D2 = 1, <= then <, the block's key) must run every time.
namespace {

template <int D1, int D2, bool LowStrict, bool HighStrict, bool OwnKey>
constexpr auto variant_body = [](auto k, auto lo, auto keys, auto found) {
  auto t = k.thread_id();
  auto b = k.block_id();
  auto key = [&] {
    if constexpr (OwnKey) return keys[b * 8 + t];
    else return keys[b];
  }();
  auto low = [&] {
    if constexpr (LowStrict) return lo[t + D1] < key;
    else return lo[t + D1] <= key;
  };
  auto high = [&] {
    if constexpr (HighStrict) return key < lo[t + D2];
    else return key <= lo[t + D2];
  };
  return w::given(w::non_decreasing(lo), w::when(t + 2 < lo.size() && b * 8 + t < keys.size() && b < found.size(),
                                                  w::when(low() && high(), found[b] = t)));
};

template <int D1, int D2, bool LowStrict, bool HighStrict, bool OwnKey>
void against_brute_force(std::uint64_t seed, int& ran, int& refused) {
  static constexpr auto kernel = w::kernel<w::block<8>, In, In, Out>(variant_body<D1, D2, LowStrict, HighStrict, OwnKey>).named("variant", "lo", "keys", "found");
  for (int round = 0; round < 12; ++round) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    std::vector<int> lo(10);
    int v = static_cast<int>(seed >> 60) % 3;
    for (std::size_t i = 0; i < lo.size(); ++i) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      v += static_cast<int>((seed >> 61) % 3 == 0 ? 1 : 0);  // mostly equal neighbours
      lo[i] = v;
    }
    std::vector<int> keys(24);
    for (auto& key : keys) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      key = static_cast<int>((seed >> 59) % 6);
    }
    auto l = w::to_device(lo);
    auto k = w::to_device(keys);
    auto found = w::to_device(std::vector<int>(3, -1));
    try {
      const w::recording r = w::record(kernel, w::grid(3), l, k, found);
      ++ran;
      INFO("D1 " << D1 << " D2 " << D2 << " strict " << LowStrict << HighStrict << " own key " << OwnKey);
      CHECK(r.conflicts().empty());
    } catch (const w::error&) {
      ++refused;
    }
  }
}

}  // namespace

TEST_CASE("ordered guards: every launch that runs is free of races, brute force over random non-decreasing data",
          "[launch][contents][facts][lemma]") {
  int ran = 0, refused = 0;
  against_brute_force<0, 1, false, true, false>(1, ran, refused);
  CHECK(refused == 0);  // the bucket itself: always decided apart
  CHECK(ran == 12);
  against_brute_force<0, 1, false, false, false>(2, ran, refused);
  against_brute_force<0, 1, true, true, false>(3, ran, refused);
  against_brute_force<0, 1, true, false, false>(4, ran, refused);
  against_brute_force<0, 2, false, true, false>(5, ran, refused);
  against_brute_force<0, 2, true, true, false>(6, ran, refused);
  against_brute_force<1, 1, false, true, false>(7, ran, refused);
  against_brute_force<1, 2, false, true, false>(8, ran, refused);
  against_brute_force<0, 1, false, true, true>(9, ran, refused);
  against_brute_force<1, 2, true, false, true>(10, ran, refused);
  CHECK(refused > 0);  // the careless variants are refused where they may race
  CHECK(ran > 24);
  WARN("ordered guards: " << ran << " launches ran (none raced), " << refused << " refused");
}
