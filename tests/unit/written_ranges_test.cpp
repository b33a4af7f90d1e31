// Loads of a buffer the kernel writes, bounded by what it holds before the launch and what the
// kernel stores into it (check/launch/written_ranges.hpp; proposals/0011-tree-walks.md, piece 4).
// Before, an index through such a load was unbounded and every launch was E101. Each kernel here
// is launched, recorded clean and compared with a host reference; each careless twin stores a
// value that does leave the buffer, or one the intervals cannot follow, and is refused with E101
// naming what the buffer may hold. A brute force compares the range with every value the buffer
// held in runs of the cpu backend.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <random>
#include <string>
#include <vector>

namespace w = warden;
using w::testing::refusal_of;

namespace {

using B8 = w::block<8>;
using In = w::in<int>;
using InOut = w::inout<int>;
using Out = w::out<int>;

// Thread 0 picks the block's slot from a table, the block reads that slot's row: `slot[b]` is a
// value the kernel wrote.
WARDEN_KERNEL(lookup_k, w::kernel<B8, In, InOut, In, Out>([](auto k, auto table, auto slot, auto data, auto out) {
                          auto t = k.thread_id();
                          auto b = k.block_id();
                          return w::seq(w::when(t == 0, slot[b] = table[b] % 8), w::sync(), out[b * 8 + t] = data[slot[b] * 8 + t]);
                        }).named("lookup", "table", "slot", "data", "out"));

// The careless twin: the table's value itself, which may be past the data's rows.
WARDEN_KERNEL(lookup_unclamped_k, w::kernel<B8, In, InOut, In, Out>([](auto k, auto table, auto slot, auto data, auto out) {
                                    auto t = k.thread_id();
                                    auto b = k.block_id();
                                    return w::seq(w::when(t == 0, slot[b] = table[b]), w::sync(), out[b * 8 + t] = data[slot[b] * 8 + t]);
                                  }).named("lookup_unclamped", "table", "slot", "data", "out"));

// A walk through two written buffers, as a B+tree descends: `off[b]` from a table of children,
// `cur[b]` from `off[b]`, each trip between barriers; the block then reads the node it reached.
WARDEN_KERNEL(walk_k, w::kernel<B8, w::value<int>, In, InOut, InOut, In, Out>([](auto k, auto levels, auto child, auto off, auto cur,
                                                                                auto data, auto out) {
                        auto t = k.thread_id();
                        auto b = k.block_id();
                        return w::seq(w::for_range(k, 0, levels, [&](auto, auto) {
                                        return w::seq(w::when(t == 0, off[b] = child[cur[b] * 2 + b % 2]), w::sync(),
                                                      w::when(t == 0, cur[b] = off[b]), w::sync());
                                      }),
                                      out[b * 8 + t] = data[cur[b] * 8 + t]);
                      }).named("walk", "levels", "child", "off", "cur", "data", "out"));

// A counter that grows with each trip: no range holds it (the intervals do not count trips).
WARDEN_KERNEL(counter_k, w::kernel<B8, w::value<int>, InOut, In, Out>([](auto k, auto trips, auto cur, auto data, auto out) {
                           auto t = k.thread_id();
                           auto b = k.block_id();
                           return w::seq(w::for_range(k, 0, trips, [&](auto, auto) { return w::seq(w::when(t == 0, cur[b] = cur[b] + 1), w::sync()); }),
                                         out[b * 8 + t] = data[cur[b] * 8 + t]);
                         }).named("counter", "trips", "cur", "data", "out"));

// A value wider than the element: what a store into an int keeps of a long long past int is not followed.
WARDEN_KERNEL(narrowed_k, w::kernel<B8, w::in<long long>, InOut, In, Out>([](auto k, auto wide, auto slot, auto data, auto out) {
                            auto t = k.thread_id();
                            auto b = k.block_id();
                            return w::seq(w::when(t == 0, slot[b] = wide[b]), w::sync(), out[b * 8 + t] = data[slot[b] * 8 + t]);
                          }).named("narrowed", "wide", "slot", "data", "out"));

// A guard over a written slot, then the thread's own store into it, then a load through it: the
// guard says nothing of the value after the store (interval_evaluator.hpp, same_value_at).
WARDEN_KERNEL(restored_k, w::kernel<w::block<1>, InOut, In, Out>([](auto k, auto slot, auto data, auto out) {
                            auto b = k.block_id();
                            return w::when(slot[b] < 8, w::seq(slot[b] = 9, out[b] = data[slot[b] * 8]));
                          }).named("restored", "slot", "data", "out"));
// Its twin that loads before the store: the guard bounds that load.
WARDEN_KERNEL(loaded_first_k, w::kernel<w::block<1>, InOut, In, Out>([](auto k, auto slot, auto data, auto out) {
                                auto b = k.block_id();
                                return w::when(slot[b] < 8, w::seq(out[b] = data[slot[b] * 8], slot[b] = 9));
                              }).named("loaded_first", "slot", "data", "out"));

std::vector<int> iota_data(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 3 * i + 1;
  return v;
}

}  // namespace

TEST_CASE("a slot the kernel stores from a clamped table bounds the loads through it", "[launch][written]") {
  const int blocks = 12;
  std::vector<int> table(blocks);
  for (int b = 0; b < blocks; ++b) table[static_cast<std::size_t>(b)] = (b * 5 + 3) % 100;
  auto d_table = w::to_device(table);
  auto slot = w::to_device(std::vector<int>(blocks, 0));
  auto data = w::to_device(iota_data(64));
  auto out = w::to_device(std::vector<int>(blocks * 8, -1));
  const w::recording r = w::record(lookup_k, w::grid(blocks), d_table, slot, data, out);
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(out);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 8; ++t)
      CHECK(got[static_cast<std::size_t>(b * 8 + t)] == 3 * ((table[static_cast<std::size_t>(b)] % 8) * 8 + t) + 1);

  // A slot that held a value past the rows before the launch: its range starts there (E101).
  auto stale = w::to_device(std::vector<int>(blocks, 9));
  const std::string refused = refusal_of([&] { w::launch(lookup_k, w::grid(blocks), d_table, stale, data, out); });
  CHECK_THAT(refused, Catch::Matchers::StartsWith("E101"));
  CHECK_THAT(refused, Catch::Matchers::Contains("slot holds 9 to 9 before the launch"));
  CHECK_THAT(refused, Catch::Matchers::Contains("may hold 0 to 9 once the kernel stores into it"));
}

TEST_CASE("a slot stored from an unclamped table is refused where the table reaches past the rows", "[launch][written]") {
  const int blocks = 4;
  auto slot = w::to_device(std::vector<int>(blocks, 0));
  auto data = w::to_device(iota_data(64));
  auto out = w::to_device(std::vector<int>(blocks * 8, -1));
  // Values 0 .. 7: every slot a row; it runs.
  auto small = w::to_device(std::vector<int>{7, 0, 3, 5});
  CHECK(w::record(lookup_unclamped_k, w::grid(blocks), small, slot, data, out).clean());
  // A value of 8: one row past the end.
  auto large = w::to_device(std::vector<int>{7, 0, 8, 5});
  const std::string refused = refusal_of([&] { w::launch(lookup_unclamped_k, w::grid(blocks), large, slot, data, out); });
  CHECK_THAT(refused, Catch::Matchers::StartsWith("E101 [out-of-bounds] lookup_unclamped_k: load data[slot[b] * 8 + t] may reach index 71"));
  CHECK_THAT(refused, Catch::Matchers::Contains("may hold 0 to 8 once the kernel stores into it"));
}

TEST_CASE("a walk through two written buffers is bounded by the table it reads", "[launch][written]") {
  // A complete binary tree of 8 nodes in the child table: node v's children at 2v and 2v + 1,
  // kept inside by wrapping (2v + c) % 8, so every value stored is a node.
  std::vector<int> child(16);
  for (int v = 0; v < 8; ++v)
    for (int c = 0; c < 2; ++c) child[static_cast<std::size_t>(v * 2 + c)] = (2 * v + c) % 8;
  const int blocks = 6, levels = 3;
  auto d_child = w::to_device(child);
  auto off = w::to_device(std::vector<int>(blocks, 0));
  auto cur = w::to_device(std::vector<int>(blocks, 1));
  auto data = w::to_device(iota_data(64));
  auto out = w::to_device(std::vector<int>(blocks * 8, -1));
  const w::recording r = w::record(walk_k, w::grid(blocks), levels, d_child, off, cur, data, out);
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(out);
  for (int b = 0; b < blocks; ++b) {
    int node = 1;
    for (int l = 0; l < levels; ++l) node = child[static_cast<std::size_t>(node * 2 + b % 2)];
    for (int t = 0; t < 8; ++t) CHECK(got[static_cast<std::size_t>(b * 8 + t)] == 3 * (node * 8 + t) + 1);
  }
  // A child table with one entry past the nodes: the walk may reach it (E101 on the child table
  // itself, through cur, or on data).
  child[5] = 8;
  auto bad_child = w::to_device(child);
  CHECK_THAT(refusal_of([&] { w::launch(walk_k, w::grid(blocks), levels, bad_child, off, cur, data, out); }),
             Catch::Matchers::StartsWith("E101"));
}

TEST_CASE("a buffer whose range keeps growing, or whose stores the intervals cannot follow, stays unbounded", "[launch][written]") {
  const int blocks = 2;
  auto cur = w::to_device(std::vector<int>(blocks, 0));
  auto data = w::to_device(iota_data(64));
  auto out = w::to_device(std::vector<int>(blocks * 8, -1));
  // Two trips end at row 2, inside; the intervals cannot count them: refused, as before.
  CHECK_THAT(refusal_of([&] { w::launch(counter_k, w::grid(blocks), 2, cur, data, out); }), Catch::Matchers::StartsWith("E101"));
  // An int slot stored from a long long: followed where every value fits an int; where one does
  // not, the store cuts it on the way in (2^32 + 1 becomes 1), which the intervals do not follow:
  // refused, though the device would store a row inside.
  auto fits = w::to_device(std::vector<long long>{1, 2});
  auto slot = w::to_device(std::vector<int>(blocks, 0));
  CHECK(w::record(narrowed_k, w::grid(blocks), fits, slot, data, out).clean());
  CHECK(w::to_host(slot) == std::vector<int>{1, 2});
  auto cut = w::to_device(std::vector<long long>{1, (1LL << 32) + 1});
  CHECK_THAT(refusal_of([&] { w::launch(narrowed_k, w::grid(blocks), cut, slot, data, out); }), Catch::Matchers::StartsWith("E101"));
}

TEST_CASE("brute force: the range holds every value the written buffer holds in runs", "[launch][written]") {
  // The lookup kernel on random tables: the launch runs exactly where every slot value stays
  // inside the rows, which the host computes; where it runs, the slots stored lie in the range
  // the message would give (table % 8, with the starting slots).
  std::mt19937 rng(56);
  int ran = 0, refused = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int blocks = 1 + static_cast<int>(rng() % 6);
    std::vector<int> table(static_cast<std::size_t>(blocks)), start(static_cast<std::size_t>(blocks));
    for (int& v : table) v = static_cast<int>(rng() % 40) - (trial % 5 == 0 ? 20 : 0);  // some negative
    for (int& v : start) v = static_cast<int>(rng() % 9);                                 // 8: one past
    auto d_table = w::to_device(table);
    auto slot = w::to_device(start);
    auto data = w::to_device(iota_data(64));
    auto out = w::to_device(std::vector<int>(static_cast<std::size_t>(blocks * 8), -1));
    // The range the launch reasons with: the starting slots' and table % 8's, together.
    int lo = start[0], hi = start[0];
    for (int v : start) lo = std::min(lo, v), hi = std::max(hi, v);
    int tlo = table[0], thi = table[0];
    for (int v : table) tlo = std::min(tlo, v), thi = std::max(thi, v);
    lo = std::min(lo, tlo >= 0 ? 0 : -7);
    hi = std::max(hi, 7);
    const bool inside = lo >= 0 && hi <= 7;
    const std::string answer = refusal_of([&] { w::launch(lookup_k, w::grid(blocks), d_table, slot, data, out); });
    CHECK((answer == "(launched)") == inside);
    if (answer == "(launched)") {
      ++ran;
      const std::vector<int> held = w::to_host(slot);
      for (int v : held) CHECK((v >= lo && v <= hi));
    } else {
      ++refused;
      CHECK_THAT(answer, Catch::Matchers::StartsWith("E101"));
    }
  }
  CHECK(ran > 10);
  CHECK(refused > 10);
}

TEST_CASE("a guard on a written slot bounds its loads only until the thread stores into it", "[launch][written]") {
  auto data = w::to_device(iota_data(64));
  auto out = w::to_device(std::vector<int>(4, -1));
  // Loaded before the store: the guard slot[b] < 8 bounds the index by 56: it runs.
  auto slot = w::to_device(std::vector<int>{0, 7, 3, 5});
  CHECK(w::record(loaded_first_k, w::grid(4), slot, data, out).clean());
  CHECK(w::to_host(out) == std::vector<int>{1, 3 * 56 + 1, 3 * 24 + 1, 3 * 40 + 1});
  // Loaded after the store of 9: index 72, past data's end. Refused, and it does overrun when run anyway.
  auto again = w::to_device(std::vector<int>{0, 7, 3, 5});
  const w::recording r = w::record_anyway(restored_k, w::grid(4), again, data, out);
  CHECK_THAT(r.refusal(), Catch::Matchers::StartsWith("E101"));
  CHECK_FALSE(r.clean());
}
