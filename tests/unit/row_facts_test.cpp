// Order facts per row (proposal 0011, piece 1): a B+tree keeps its nodes as rows of n keys, each
// row sorted and padded at its end with INT_MAX, the rows unrelated. A per-row bucket search, one
// block per (key, row), each thread t of a block testing lo[r * n + t] <= key < lo[r * n + t + 1],
// keeps one thread per block when each row is non-decreasing: given(non_decreasing(lo).rows(n)),
// the launch relates the loads of one row by the fact (check/launch/presburger.hpp, relate_load)
// and runs it. The careless twins differ from it only where the proof does, and are refused: the
// fact over the whole buffer (false for such data: E107), a window that crosses the row's end
// (E106), and an equality search, whose repeated keys meet unless the fact is sorted below the
// padding (sorted(lo).rows(n).below(INT_MAX)); sorted without the bound is false for padded rows.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;

namespace {

using B16 = w::block<16>;
using In = w::in<int>;
using Out = w::out<int>;
using N = w::value<int>;

// found[r * keys.size() + q]: the bucket of row r that holds key q.
constexpr auto row_bucket_body = [](auto k, auto lo, auto keys, auto found, auto n) {
  auto t = k.thread_id();
  auto q = k.block_id();
  auto r = k.block_id_y();
  return w::given(w::non_decreasing(lo).rows(n),
                  w::when(t + 1 < n && r * n + n <= lo.size() && q < keys.size() && r * keys.size() + q < found.size(),
                          w::when(lo[r * n + t] <= keys[q] && keys[q] < lo[r * n + t + 1], found[r * keys.size() + q] = t)));
};
WARDEN_KERNEL(row_bucket_k, w::kernel<B16, In, In, Out, N>(row_bucket_body).named("row_bucket", "lo", "keys", "found", "n"));

// The same search with the order stated over the whole buffer.
WARDEN_KERNEL(whole_bucket_k, w::kernel<B16, In, In, Out, N>([](auto k, auto lo, auto keys, auto found, auto n) {
                                auto t = k.thread_id();
                                auto q = k.block_id();
                                auto r = k.block_id_y();
                                return w::given(w::non_decreasing(lo),
                                                w::when(t + 1 < n && r * n + n <= lo.size() && q < keys.size() &&
                                                            r * keys.size() + q < found.size(),
                                                        w::when(lo[r * n + t] <= keys[q] && keys[q] < lo[r * n + t + 1],
                                                                found[r * keys.size() + q] = t)));
                              }).named("whole_bucket", "lo", "keys", "found", "n"));

// Windows per thread t < Last: with Last = n, thread n - 1's window ends at the next row's first
// key, which no fact orders with its row. Still one thread at most: its window is the row's
// highest, and the proof reads only its lower end (threads t < u: key < lo[t + 1] <= lo[u] <= key,
// both in the row). With Last = n + 1, thread n's window lies in the next row altogether, and
// nothing orders it with the others: two threads may pass.
template <int Extra>
constexpr auto crossing_body = [](auto k, auto lo, auto keys, auto found, auto n) {
  auto t = k.thread_id();
  auto q = k.block_id();
  auto r = k.block_id_y();
  return w::given(w::non_decreasing(lo).rows(n),
                  w::when(t < n + Extra && r * n + t + 1 < lo.size() && q < keys.size() && r * keys.size() + q < found.size(),
                          w::when(lo[r * n + t] <= keys[q] && keys[q] < lo[r * n + t + 1], found[r * keys.size() + q] = t)));
};
WARDEN_KERNEL(crossing_k, w::kernel<B16, In, In, Out, N>(crossing_body<0>).named("crossing", "lo", "keys", "found", "n"));
WARDEN_KERNEL(past_end_k, w::kernel<B16, In, In, Out, N>(crossing_body<1>).named("past_end", "lo", "keys", "found", "n"));

// The equality search (b+tree's last step: the key's slot in its leaf), under a fact chosen by
// Fact: 0 non_decreasing per row, 1 sorted per row, 2 sorted per row below INT_MAX.
template <int Fact>
constexpr auto equal_body = [](auto k, auto lo, auto keys, auto found, auto n) {
  auto t = k.thread_id();
  auto q = k.block_id();
  auto r = k.block_id_y();
  auto fact = [&] {
    if constexpr (Fact == 0) return w::non_decreasing(lo).rows(n);
    else if constexpr (Fact == 1) return w::sorted(lo).rows(n);
    else return w::sorted(lo).rows(n).below(INT_MAX);
  }();
  return w::given(fact, w::when(t < n && r * n + n <= lo.size() && q < keys.size() && r * keys.size() + q < found.size() &&
                                    keys[q] < INT_MAX,
                                w::when(lo[r * n + t] == keys[q], found[r * keys.size() + q] = t)));
};
WARDEN_KERNEL(equal_nd_k, w::kernel<B16, In, In, Out, N>(equal_body<0>).named("equal_nd", "lo", "keys", "found", "n"));
WARDEN_KERNEL(equal_sorted_k, w::kernel<B16, In, In, Out, N>(equal_body<1>).named("equal_sorted", "lo", "keys", "found", "n"));
WARDEN_KERNEL(equal_below_k, w::kernel<B16, In, In, Out, N>(equal_body<2>).named("equal_below", "lo", "keys", "found", "n"));

// The bound stated first: below(hi).rows(n) is the same fact.
WARDEN_KERNEL(equal_below_first_k, w::kernel<B16, In, In, Out, N>([](auto k, auto lo, auto keys, auto found, auto n) {
                                     auto t = k.thread_id();
                                     auto q = k.block_id();
                                     auto r = k.block_id_y();
                                     return w::given(w::sorted(lo).below(INT_MAX).rows(n),
                                                     w::when(t < n && r * n + n <= lo.size() && q < keys.size() &&
                                                                 r * keys.size() + q < found.size() && keys[q] < INT_MAX,
                                                             w::when(lo[r * n + t] == keys[q], found[r * keys.size() + q] = t)));
                                   }).named("equal_below_first", "lo", "keys", "found", "n"));

// Three nodes of 6 keys: sorted, padded with INT_MAX, each starting below the last one's end.
std::vector<int> nodes() { return {3, 8, 20, 41, INT_MAX, INT_MAX, 1, 2, 9, 10, 11, 12, 5, INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX}; }
constexpr int row_length = 6;
const std::vector<int> queries{0, 3, 8, 9, 11, 12, 40, 41, 5, 100};

// found as the host computes it: per row r and key q, the thread whose test holds (-1: none).
template <class Test>
std::vector<int> reference(const std::vector<int>& lo, Test test) {
  const int rows = static_cast<int>(lo.size()) / row_length;
  std::vector<int> found(queries.size() * static_cast<std::size_t>(rows), -1);
  for (int r = 0; r < rows; ++r)
    for (std::size_t q = 0; q < queries.size(); ++q)
      for (int t = 0; t < row_length; ++t)
        if (test(lo, r * row_length + t, t, queries[q])) found[static_cast<std::size_t>(r) * queries.size() + q] = t;
  return found;
}

}  // namespace

TEST_CASE("a bucket search per row over rows that are each non-decreasing runs, and finds the host's buckets",
          "[launch][contents][facts][rows]") {
  using code = w::diagnostic::code;
  // At compile time the stores of one block meet unless the data say otherwise. Where the store's
  // element reads no launch number (found[r * 16 + q], at most 16 keys), only the guard over
  // loads of an ordered buffer leaves the pair to the launch (check/rules.hpp,
  // guarded_by_ordered_load): with the fact per row it is left there, without it W010.
  STATIC_REQUIRE(w::testing::code_of<B16, In, In, Out, N>([](auto k, auto lo, auto keys, auto found, auto n) {
                   auto t = k.thread_id();
                   auto q = k.block_id();
                   auto r = k.block_id_y();
                   return w::given(w::non_decreasing(lo).rows(n),
                                   w::when(t + 1 < n && r * n + n <= lo.size() && q < keys.size() && q < 16 && r * 16 + q < found.size(),
                                           w::when(lo[r * n + t] <= keys[q] && keys[q] < lo[r * n + t + 1], found[r * 16 + q] = t)));
                 }) == code::none);
  STATIC_REQUIRE(w::testing::code_of<B16, In, In, Out, N>([](auto k, auto lo, auto keys, auto found, auto n) {
                   auto t = k.thread_id();
                   auto q = k.block_id();
                   auto r = k.block_id_y();
                   return w::when(t + 1 < n && r * n + n <= lo.size() && q < keys.size() && q < 16 && r * 16 + q < found.size(),
                                  w::when(lo[r * n + t] <= keys[q] && keys[q] < lo[r * n + t + 1], found[r * 16 + q] = t));
                 }) == code::W010);
  const std::vector<int> lo = nodes();
  auto l = w::to_device(lo);
  auto k = w::to_device(queries);
  auto found = w::to_device(std::vector<int>(queries.size() * 3, -1));
  const w::recording r = w::record(row_bucket_k, w::grid(static_cast<int>(queries.size()), 3), l, k, found, row_length);
  CHECK(r.clean());
  const std::vector<int> expected = reference(lo, [](const std::vector<int>& v, int e, int t, int key) {
    return t + 1 < row_length && v[static_cast<std::size_t>(e)] <= key && key < v[static_cast<std::size_t>(e) + 1];
  });
  CHECK(w::to_host(found) == expected);
  CHECK(expected[0 * queries.size() + 3] == 1);  // 9 lies in [8, 20) of row 0
  CHECK(expected[1 * queries.size() + 3] == 2);  // and in [9, 10) of row 1
  CHECK(expected[2 * queries.size() + 9] == 0);  // 100 in [5, INT_MAX) of row 2

  // The launch runs it too (no recorder), and refuses it where a row falls, naming the element
  // and its row.
  w::launch(w::on_cpu, row_bucket_k, w::grid(static_cast<int>(queries.size()), 3), l, k, found, row_length);
  std::vector<int> falling = lo;
  falling[10] = 0;
  w::copy(l, w::to_device(falling));
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, row_bucket_k, w::grid(static_cast<int>(queries.size()), 3), l, k, found, row_length); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] row_bucket_k: the stated fact non_decreasing(lo).rows(n) is false for this "
                                         "launch (n = 6, lo[10] is below lo[9] (row 1 of 6 elements))"));
  // Rows of no element: refused before anything is measured.
  w::copy(l, w::to_device(lo));
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, row_bucket_k, w::grid(static_cast<int>(queries.size()), 3), l, k, found, 0); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] row_bucket_k: the stated fact non_decreasing(lo).rows(n) is false for this "
                                         "launch (n = 0, rows(n) = 0: a row holds one element at least)"));
}

TEST_CASE("the careless row searches are refused: the order over the whole buffer, a window past the row's end",
          "[launch][contents][facts][rows]") {
  auto l = w::to_device(nodes());
  auto k = w::to_device(queries);
  auto found = w::to_device(std::vector<int>(queries.size() * 3, -1));
  const std::vector<int> before = w::to_host(found);
  const auto grid = w::grid(static_cast<int>(queries.size()), 3);
  // The rows are not ordered one after another: the whole buffer's fact is false, at row 1's start.
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, whole_bucket_k, grid, l, k, found, row_length); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] whole_bucket_k: the stated fact non_decreasing(lo) is false for this "
                                         "launch (lo[6] is below lo[5])"));
  // Thread 6 searches the next row's first window: it and a thread of the row may both pass.
  const std::string past_end = w::testing::refusal_of([&] { w::launch(w::on_cpu, past_end_k, grid, l, k, found, row_length); });
  CHECK_THAT(past_end, Catch::Matchers::StartsWith("E106"));
  CHECK_THAT(past_end, Catch::Matchers::Contains("found["));
  CHECK(w::to_host(found) == before);  // every refusal came before the kernel
  // The recorder sees the race where row 1 starts inside row 0's bucket [8, 20): the key 8 is in
  // thread 1's window of row 0 and in thread 6's [lo[6], lo[7]) = [8, 9). Each row still holds.
  std::vector<int> overlapping = nodes();
  overlapping[6] = 8, overlapping[7] = 9;
  w::copy(l, w::to_device(overlapping));
  CHECK_FALSE(w::record_anyway(past_end_k, grid, l, k, found, row_length).conflicts().empty());

  // The window whose upper end crosses into the next row keeps one thread: it runs, clean.
  w::copy(l, w::to_device(nodes()));
  const w::recording r = w::record(crossing_k, grid, l, k, found, row_length);
  CHECK(r.clean());
}

TEST_CASE("an equality search per row needs the keys strictly rising below the padding: sorted(lo).rows(n).below(INT_MAX)",
          "[launch][contents][facts][rows]") {
  const std::vector<int> lo = nodes();
  auto l = w::to_device(lo);
  auto k = w::to_device(queries);
  auto found = w::to_device(std::vector<int>(queries.size() * 3, -1));
  const auto grid = w::grid(static_cast<int>(queries.size()), 3);
  // non_decreasing per row: two equal keys of a row would both match.
  const std::string repeats = w::testing::refusal_of([&] { w::launch(w::on_cpu, equal_nd_k, grid, l, k, found, row_length); });
  CHECK_THAT(repeats, Catch::Matchers::StartsWith("E106"));
  // sorted per row: true of no padded row (INT_MAX repeats).
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, equal_sorted_k, grid, l, k, found, row_length); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] equal_sorted_k: the stated fact sorted(lo).rows(n) is false for this "
                                         "launch (n = 6, lo[5] is not above lo[4] (row 0 of 6 elements))"));
  // sorted below INT_MAX per row: runs, clean, and finds the host's slots.
  const auto expected = reference(lo, [](const std::vector<int>& v, int e, int, int key) {
    return key < INT_MAX && v[static_cast<std::size_t>(e)] == key;
  });
  for (int round = 0; round < 2; ++round) {
    w::copy(found, w::to_device(std::vector<int>(queries.size() * 3, -1)));
    const w::recording r = round == 0 ? w::record(equal_below_k, grid, l, k, found, row_length)
                                      : w::record(equal_below_first_k, grid, l, k, found, row_length);
    CHECK(r.clean());
    CHECK(w::to_host(found) == expected);
  }
  CHECK(expected[1] == 0);                       // 3 is row 0's first key
  CHECK(expected[2 * queries.size() + 8] == 0);  // 5 is row 2's
  // A key repeated below the bound: false, naming it.
  std::vector<int> twice = lo;
  twice[9] = 9;
  w::copy(l, w::to_device(twice));
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, equal_below_k, grid, l, k, found, row_length); }),
             Catch::Matchers::StartsWith("E107 [stated-fact] equal_below_k: the stated fact sorted(lo).rows(n).below(2147483647) is "
                                         "false for this launch (n = 6, lo[9] is not above lo[8] (row 1 of 6 elements))"));
  // And the recorder sees the race the fact would have ruled out: two threads of a row store found.
  const w::recording anyway = w::record_anyway(equal_nd_k, grid, l, k, found, row_length);
  CHECK_FALSE(anyway.conflicts().empty());
}

TEST_CASE("the rows are measured for each launch's n: a memo for rows of 6 answers no launch with rows of 9",
          "[launch][contents][facts][rows]") {
  auto l = w::to_device(nodes());
  auto k = w::to_device(queries);
  auto found = w::to_device(std::vector<int>(queries.size() * 3, -1));
  const auto q = static_cast<int>(queries.size());
  const std::uint64_t before = w::detail::contents_measured();
  w::launch(w::on_cpu, row_bucket_k, w::grid(q, 3), l, k, found, 6);
  w::launch(w::on_cpu, row_bucket_k, w::grid(q, 3), l, k, found, 6);
  CHECK(w::detail::contents_measured() == before + 1);  // unchanged data, the same rows: measured once
  // Rows of 9 split the nodes: row 0 holds node 0 and node 1's first three keys, and falls at 6.
  CHECK_THAT(w::testing::refusal_of([&] { w::launch(w::on_cpu, row_bucket_k, w::grid(q, 2), l, k, found, 9); }),
             Catch::Matchers::Contains("(n = 9, lo[6] is below lo[5] (row 0 of 9 elements))"));
  CHECK(w::detail::contents_measured() == before + 2);
  // Rows of 3 hold here too (3 8 20, 41 MAX MAX, 1 2 9, ...): it runs, measured once more.
  w::launch(w::on_cpu, row_bucket_k, w::grid(q, 6), l, k, found, 3);
  CHECK(w::detail::contents_measured() == before + 3);
}
