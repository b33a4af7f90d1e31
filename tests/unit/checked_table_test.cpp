// Check once per file (issue 58, proposals/0008): a kernel's fingerprint tells apart what the
// checker tells apart, and the precheck's row of a kernel gives back its obligations exactly.
// tests/precheck/run_precheck.cmake shows the whole path under nvcc (W006 on a body that differs
// under __CUDA_ARCH__, a stale table, an edited kernel).
#include <catch2/catch.hpp>

#include <array>
#include <set>

#include <warden/warden.hpp>
#include <warden/dsl/checked_table.hpp>
#include <warden/dsl/fingerprint.hpp>

namespace w = warden;

namespace {

constexpr auto copy_body = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = in[i]);
};
constexpr auto copy_body_again = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), out[i] = in[i]);
};
constexpr auto shifted_copy = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i + 1 < in.size(), out[i] = in[i + 1]);
};
constexpr auto guarded_twice = [](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::when(i < out.size(), out[i] = in[i]));
};
// A positive obligation: the rows stay apart if the pitch exceeds the width.
constexpr auto pitched_copy = [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
  auto x = k.global_id();
  auto y = k.global_id_y();
  return w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]);
};
// A trip limit: the halving tree's levels come from a parameter.
constexpr auto tree_levels = [](auto k, auto in, auto out, auto levels) {
  return w::shared<int, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                  w::for_range(k, 0, levels, [&](auto, auto level) {
                    auto s = 128 >> level;
                    return w::seq(w::when(t < s, tile[t] = tile[t] + tile[t + s]), w::sync());
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
};
// A global pair left to the launch.
constexpr auto flattened_store = [](auto k, auto out, auto n) {
  auto i = k.global_id();
  return w::when(i < n * n, out[i % n + i / n * n] = i);
};

using B256 = w::block<256>;
using F = w::in<float>;
using G = w::out<float>;

template <class Block, class Body, class... Params>
constexpr long long fingerprint = w::dsl::fingerprint_of_body<Block, Body, Params...>;

bool same_obligations(const w::dsl::obligation_list& a, const w::dsl::obligation_list& b) {
  if (a.count != b.count || a.pair_count != b.pair_count) return false;
  for (int i = 0; i < a.count; ++i) {
    const w::dsl::obligation& x = a.items[i];
    const w::dsl::obligation& y = b.items[i];
    if (!w::dsl::obligation_list::same(x, y) || x.protects != y.protects || x.most_trips != y.most_trips ||
        x.first != y.first || x.second != y.second || x.term_count != y.term_count)
      return false;
  }
  for (int p = 0; p < a.pair_count; ++p)
    if (a.pairs[p].protects != b.pairs[p].protects || a.pairs[p].first != b.pairs[p].first ||
        a.pairs[p].second != b.pairs[p].second)
      return false;
  return true;
}

// The row the precheck prints for a kernel, read back as nvcc's phases read it.
template <class Block, class Body, class... Params>
w::dsl::obligation_list round_trip() {
  constexpr const w::dsl::obligation_list& obligations =
      w::check::verdict_on_body<Block, Body, Params...>::value.finding.obligations;
  constexpr int length = w::dsl::encoded_size(obligations);
  constexpr auto row = w::dsl::encode_row<length>(fingerprint<Block, Body, Params...>, obligations);
  STATIC_REQUIRE(row[0] == fingerprint<Block, Body, Params...>);
  STATIC_REQUIRE(row[1] == length);
  const w::dsl::obligation_list back = w::dsl::decode_obligations(row.data() + 2);
  CHECK(same_obligations(back, obligations));
  return back;
}

}  // namespace

TEST_CASE("checked table: one body written twice has one fingerprint, and what the checker tells apart, it tells apart",
          "[checked_table]") {
  STATIC_REQUIRE(fingerprint<B256, decltype(copy_body), F, G> == fingerprint<B256, decltype(copy_body_again), F, G>);
  const std::array<long long, 6> kinds = {
      fingerprint<B256, decltype(copy_body), F, G>,
      fingerprint<B256, decltype(shifted_copy), F, G>,                   // another index and guard
      fingerprint<B256, decltype(guarded_twice), F, G>,                  // one more guard
      fingerprint<w::block<128>, decltype(copy_body), F, G>,             // another block
      fingerprint<B256, decltype(copy_body), w::in<int>, w::out<int>>,   // other element types
      fingerprint<B256, decltype(copy_body), F, w::inout<float>>,        // another parameter kind
  };
  CHECK(std::set<long long>(kinds.begin(), kinds.end()).size() == kinds.size());
}

TEST_CASE("checked table: a row gives back the obligations it was written from", "[checked_table][obligation]") {
  const w::dsl::obligation_list positive =
      round_trip<w::block<16, 4>, decltype(pitched_copy), w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>();
  const w::dsl::obligation_list trips = round_trip<B256, decltype(tree_levels), w::in<int>, w::out<int>, w::value<int>>();
  const w::dsl::obligation_list pairs = round_trip<w::block<64>, decltype(flattened_store), w::out<int>, w::value<unsigned>>();
  const w::dsl::obligation_list none = round_trip<B256, decltype(copy_body), F, G>();
  // Each kind of obligation went through a row at least once.
  bool saw_positive = false, saw_trips = false;
  for (const auto& list : {positive, trips})
    for (const w::dsl::obligation& o : list) {
      saw_positive = saw_positive || (o.kind == w::dsl::obligation_kind::positive && o.term_count > 0);
      saw_trips = saw_trips || o.kind == w::dsl::obligation_kind::trip_limit;
    }
  CHECK(saw_positive);
  CHECK(saw_trips);
  CHECK(pairs.pair_count > 0);
  CHECK(none.empty());
}

TEST_CASE("checked table: a fingerprint is found in the rows that hold it, and only there", "[checked_table]") {
  // Two rows, as a generated table holds them: fingerprint, length, obligations.
  constexpr long long rows[] = {11, 2, 0, 0, 22, 2, 0, 0, 0};
  constexpr int size = static_cast<int>(sizeof(rows) / sizeof(rows[0])) - 1;
  STATIC_REQUIRE(w::dsl::find_checked_row(rows, size, 11) == 0);
  STATIC_REQUIRE(w::dsl::find_checked_row(rows, size, 22) == 4);
  STATIC_REQUIRE(w::dsl::find_checked_row(rows, size, 2) == -1);  // a length is not a fingerprint
  STATIC_REQUIRE(w::dsl::find_checked_row(rows, 0, 11) == -1);    // an empty table
}
