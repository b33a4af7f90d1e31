// Rodinia's b+tree findK (JuliaParallel/rodinia, cuda/b+tree/kernel/kernel_gpu_cuda.cu at
// 0f47cfc2f35034405973703fbb6d2c77a25439c0), ported as written: one block per query, one thread
// per key slot of a node (threadsPerBlock = order), the tree descended `height` times, the node
// of each level read from currKnodeD[bid], which thread 0 writes between two barriers.
//
// As written it is W011 at compile time: offsetD[bid] is stored by whichever thread's key slot
// holds the query, and nothing tells the checker that one thread at most does. With the facts the
// kernel rests on stated, it runs (issue 56, item 3; proposals/0011-tree-walks.md):
//   * sorted(knode_keys).rows(order + 1).below(INT_MAX): each node's keys rise, up to the INT_MAX
//     padding transform_to_cuda leaves in its unused slots (facts per row, piece 1);
//   * within(keysD, INT_MIN, INT_MAX): no query is the padding itself (a query of INT_MAX matches
//     every padded slot of a leaf, and two threads store ansD[bid]: the kernel does race there).
// The launch then decides the pairs the checker left to it with loads of currKnodeD, which the
// kernel writes, related within one barrier phase (piece 2) and barriers taken into account
// (piece 3), and bounds knode_keys[currKnodeD[bid] * W + t] through the range of what the kernel
// stores into currKnodeD and offsetD (piece 4), with the guard `< knodes_elem` narrowing it.
// Each fact left out, or each careless change, is refused, and every run is recorded against a
// host B+tree search.
//
// The knode struct (keys[order + 1], indices[order + 1]) is split into two buffers of rows of
// order + 1; record is its value alone. An internal node's keys are its children's lower bounds
// (key slot j: keys[j] <= key < keys[j + 1] descends into indices[j]); a leaf's keys are its
// records' keys, indices the records; unused slots hold INT_MAX, as transform_to_cuda pads them.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <climits>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using w::testing::refusal_of;

namespace {

constexpr int order = 8;         // threadsPerBlock = order < 1024 ? order : 1024
constexpr int row = order + 1;   // knode.keys[order + 1]

// The kernel as written. `guarded`: the original's `indices[...] < knodes_elem` test (a careless
// copy drops it); `window`: how many slots a key interval spans (1 as written; 2, overlapping
// intervals, is a careless copy).
template <bool guarded = true, int window = 1>
constexpr auto find_k = [](auto k, auto height, auto knode_keys, auto knode_indices, auto knodes_elem, auto records, auto currKnodeD,
                           auto offsetD, auto keysD, auto ansD) {
  auto thid = k.thread_id();
  auto bid = k.block_id();
  auto descend = [&] {
    if constexpr (guarded)
      return w::when(knode_indices[offsetD[bid] * row + thid] < knodes_elem, offsetD[bid] = knode_indices[offsetD[bid] * row + thid]);
    else
      return offsetD[bid] = knode_indices[offsetD[bid] * row + thid];
  };
  return w::seq(w::for_range(k, 0, height, [&](auto, auto) {
                  return w::seq(w::when(knode_keys[currKnodeD[bid] * row + thid] <= keysD[bid] &&
                                            knode_keys[currKnodeD[bid] * row + thid + window] > keysD[bid],
                                        descend()),
                                w::sync(), w::when(thid == 0, currKnodeD[bid] = offsetD[bid]), w::sync());
                }),
                w::when(knode_keys[currKnodeD[bid] * row + thid] == keysD[bid],
                        ansD[bid] = records[knode_indices[currKnodeD[bid] * row + thid]]));
};

// The facts stated, as a user adds them in front of the body.
template <bool rows = true, bool below = true, bool queries = true, bool guarded = true, int window = 1>
constexpr auto find_k_given = [](auto k, auto height, auto knode_keys, auto knode_indices, auto knodes_elem, auto records,
                                 auto currKnodeD, auto offsetD, auto keysD, auto ansD) {
  auto body = find_k<guarded, window>(k, height, knode_keys, knode_indices, knodes_elem, records, currKnodeD, offsetD, keysD, ansD);
  auto keys_fact = [&] {
    if constexpr (rows && below) return w::sorted(knode_keys).rows(row).below(INT_MAX);
    else if constexpr (rows) return w::sorted(knode_keys).rows(row);
    else return w::sorted(knode_keys).below(INT_MAX);
  }();
  if constexpr (queries) return w::given(keys_fact && w::within(keysD, INT_MIN, INT_MAX), body);
  else return w::given(keys_fact, body);
};

#define FIND_K_KERNEL(...)                                                                                                    \
  w::kernel<w::block<order>, w::value<long>, w::in<int>, w::in<int>, w::value<long>, w::in<int>, w::inout<long>, w::inout<long>, \
            w::in<int>, w::out<int>>(__VA_ARGS__)
#define FIND_K_NAMES "findK", "height", "knode_keys", "knode_indices", "knodes_elem", "records", "currKnodeD", "offsetD", "keysD", "ansD"

// A two-level tree: a root over `leaves` (at most order - 1) leaves of order - 1 keys each, keys
// 3 * r + 1.
struct tree {
  std::vector<int> keys, indices, records, queries;
  long knodes_elem = 0;
  int count = 0;
};
tree two_levels(int leaves = order - 1) {
  tree t;
  const int per_leaf = order - 1, n_records = leaves * per_leaf;
  t.knodes_elem = 1 + leaves;
  t.keys.assign(static_cast<std::size_t>(t.knodes_elem * row), INT_MAX);
  t.indices.assign(static_cast<std::size_t>(t.knodes_elem * row), 0);
  t.records.resize(static_cast<std::size_t>(n_records));
  for (int r = 0; r < n_records; ++r) t.records[static_cast<std::size_t>(r)] = 1000 + r;
  const auto key_of = [](int r) { return 3 * r + 1; };
  for (int leaf = 0; leaf < leaves; ++leaf) {
    t.keys[static_cast<std::size_t>(leaf)] = leaf == 0 ? INT_MIN : key_of(leaf * per_leaf);  // root: the children's lower bounds
    t.indices[static_cast<std::size_t>(leaf)] = 1 + leaf;
    for (int j = 0; j < per_leaf; ++j) {
      const int r = leaf * per_leaf + j;
      t.keys[static_cast<std::size_t>((1 + leaf) * row + j)] = key_of(r);
      t.indices[static_cast<std::size_t>((1 + leaf) * row + j)] = r;  // record numbers: past knodes_elem, as in Rodinia's leaves
    }
  }
  // Queries: every key, and keys between them (not found: ans keeps its -1).
  for (int r = 0; r < n_records; ++r) t.queries.push_back(key_of(r)), t.queries.push_back(key_of(r) + 1);
  t.count = static_cast<int>(t.queries.size());
  return t;
}

// A three-level tree: a root over `internals` internal nodes, each over `fan` leaves of order - 1
// keys (records) each; node ids: root 0, internal nodes 1 .., then the leaves. A leaf's indices
// are record numbers, some below knodes_elem: the walk must stop at the leaves (height 2).
tree three_levels(int internals = 3, int fan = 4) {
  tree t;
  const int per_leaf = order - 1, leaves = internals * fan, n_records = leaves * per_leaf;
  t.knodes_elem = 1 + internals + leaves;
  t.keys.assign(static_cast<std::size_t>(t.knodes_elem * row), INT_MAX);
  t.indices.assign(static_cast<std::size_t>(t.knodes_elem * row), 0);
  t.records.resize(static_cast<std::size_t>(n_records));
  for (int r = 0; r < n_records; ++r) t.records[static_cast<std::size_t>(r)] = 1000 + r;
  const auto key_of = [](int r) { return 3 * r + 1; };
  const auto first_key_of_leaf = [&](int leaf) { return key_of(leaf * per_leaf); };
  const auto at = [&](long node, int slot) { return static_cast<std::size_t>(node * row + slot); };
  for (int i = 0; i < internals; ++i) {
    t.keys[at(0, i)] = i == 0 ? INT_MIN : first_key_of_leaf(i * fan);
    t.indices[at(0, i)] = 1 + i;
    for (int c = 0; c < fan; ++c) {
      const int leaf = i * fan + c;
      t.keys[at(1 + i, c)] = c == 0 && i == 0 ? INT_MIN : first_key_of_leaf(leaf);
      t.indices[at(1 + i, c)] = 1 + internals + leaf;
      for (int j = 0; j < per_leaf; ++j) {
        const int r = leaf * per_leaf + j;
        t.keys[at(1 + internals + leaf, j)] = key_of(r);
        t.indices[at(1 + internals + leaf, j)] = r;
      }
    }
  }
  for (int r = 0; r < n_records; ++r) t.queries.push_back(key_of(r)), t.queries.push_back(key_of(r) + 1);
  t.count = static_cast<int>(t.queries.size());
  return t;
}

// The device buffers of one run, fresh: the walk starts at the root.
struct run_buffers {
  w::device_buffer<int> keys, indices, records, queries, ans;
  w::device_buffer<long> currKnode, offset;
  explicit run_buffers(const tree& t)
      : keys(w::to_device(t.keys)),
        indices(w::to_device(t.indices)),
        records(w::to_device(t.records)),
        queries(w::to_device(t.queries)),
        ans(w::to_device(std::vector<int>(static_cast<std::size_t>(t.count), -1))),
        currKnode(w::to_device(std::vector<long>(static_cast<std::size_t>(t.count), 0))),
        offset(w::to_device(std::vector<long>(static_cast<std::size_t>(t.count), 0))) {}
};

}  // namespace

WARDEN_KERNEL(find_k_k, FIND_K_KERNEL(find_k_given<>).named(FIND_K_NAMES));
WARDEN_KERNEL(find_k_whole_k, FIND_K_KERNEL(find_k_given<false, true>).named(FIND_K_NAMES));
WARDEN_KERNEL(find_k_padded_k, FIND_K_KERNEL(find_k_given<true, false>).named(FIND_K_NAMES));
WARDEN_KERNEL(find_k_any_query_k, FIND_K_KERNEL(find_k_given<true, true, false>).named(FIND_K_NAMES));
WARDEN_KERNEL(find_k_unguarded_k, FIND_K_KERNEL(find_k_given<true, true, true, false>).named(FIND_K_NAMES));
WARDEN_KERNEL(find_k_window_k, FIND_K_KERNEL(find_k_given<true, true, true, true, 2>).named(FIND_K_NAMES));

TEST_CASE("b+tree findK as written: W011 without facts, and with its facts stated it runs and finds every key", "[corpus][btree]") {
  // As written: offsetD[bid] is loaded and stored under guards that read the tree, which the
  // checker cannot show one thread of a block passes without knowing the keys' order.
  STATIC_REQUIRE(code_of<w::block<order>, w::value<long>, w::in<int>, w::in<int>, w::value<long>, w::in<int>, w::inout<long>,
                         w::inout<long>, w::in<int>, w::out<int>>(find_k<>) == code::W011);

  const tree t = two_levels();
  const long height = 1;  // root to leaf: one descent
  run_buffers b(t);
  const w::recording r = w::record(find_k_k, w::grid(t.count), height, b.keys, b.indices, t.knodes_elem, b.records, b.currKnode,
                                   b.offset, b.queries, b.ans);
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(b.ans);
  for (int q = 0; q < t.count; ++q) {
    const int key = t.queries[static_cast<std::size_t>(q)];
    const int expected = (key - 1) % 3 == 0 ? 1000 + (key - 1) / 3 : -1;
    CHECK(got[static_cast<std::size_t>(q)] == expected);
  }
}

TEST_CASE("b+tree findK with its facts descends a three-level tree, two trips of its barriers", "[corpus][btree]") {
  const tree t = three_levels();
  run_buffers b(t);
  const w::recording r = w::record(find_k_k, w::grid(t.count), 2L, b.keys, b.indices, t.knodes_elem, b.records, b.currKnode,
                                   b.offset, b.queries, b.ans);
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(b.ans);
  for (int q = 0; q < t.count; ++q) {
    const int key = t.queries[static_cast<std::size_t>(q)];
    CHECK(got[static_cast<std::size_t>(q)] == ((key - 1) % 3 == 0 ? 1000 + (key - 1) / 3 : -1));
  }
}

TEST_CASE("b+tree findK: each fact left out, a query at the padding, or a careless copy is refused", "[corpus][btree]") {
  const tree t = two_levels();
  const auto refusal = [&](const auto& kernel, const std::vector<int>& queries) {
    run_buffers b(t);
    auto q = w::to_device(queries);
    return refusal_of([&] {
      w::launch(kernel, w::grid(t.count), 1L, b.keys, b.indices, t.knodes_elem, b.records, b.currKnode, b.offset, q, b.ans);
    });
  };
  // Sorted over the whole buffer: false where a row ends (INT_MAX) and the next begins.
  CHECK_THAT(refusal(find_k_whole_k, t.queries), Catch::Matchers::StartsWith("E107"));
  // Sorted within rows, strictly: false in the padding, INT_MAX repeated.
  const std::string padded = refusal(find_k_padded_k, t.queries);
  CHECK_THAT(padded, Catch::Matchers::StartsWith("E107"));
  CHECK_THAT(padded, Catch::Matchers::Contains("row 0 of 9 elements"));
  // No fact on the queries: a query of INT_MAX would match every padded slot of a leaf, and two
  // threads would store ansD[bid] (E106, the pair the launch cannot rule out).
  const std::string any_query = refusal(find_k_any_query_k, t.queries);
  CHECK_THAT(any_query, Catch::Matchers::StartsWith("E106"));
  CHECK_THAT(any_query, Catch::Matchers::Contains("ansD"));
  // The fact stated and broken: a query of INT_MAX itself.
  std::vector<int> with_padding = t.queries;
  with_padding[3] = INT_MAX;
  CHECK_THAT(refusal(find_k_k, with_padding), Catch::Matchers::StartsWith("E107"));
  // Without the original's `< knodes_elem` test, offsetD takes a leaf's record numbers (up to 48)
  // and the next level reads past the nodes (E101, naming what offsetD may hold).
  const std::string unguarded = refusal(find_k_unguarded_k, t.queries);
  CHECK_THAT(unguarded, Catch::Matchers::StartsWith("E101"));
  CHECK_THAT(unguarded, Catch::Matchers::Contains("once the kernel stores into it"));
  // Overlapping key intervals (keys[t] <= q < keys[t + 2]): two threads match and store offsetD.
  const std::string window = refusal(find_k_window_k, t.queries);
  CHECK_THAT(window, Catch::Matchers::StartsWith("E106"));
  CHECK_THAT(window, Catch::Matchers::Contains("offsetD"));
}

TEST_CASE("b+tree findK: the careless copies that are refused do race or overrun when run anyway", "[corpus][btree]") {
  const tree t = two_levels();
  {  // Overlapping intervals: a recorded race on offsetD.
    run_buffers b(t);
    const w::recording r = w::record_anyway(find_k_window_k, w::grid(t.count), 1L, b.keys, b.indices, t.knodes_elem, b.records,
                                            b.currKnode, b.offset, b.queries, b.ans);
    CHECK_FALSE(r.clean());
  }
  {  // A query of INT_MAX over a root of 6 children: it descends nowhere, and the root's padded
     // slots 6 and 7 both match it: two threads store ansD[3].
    const tree t = two_levels(6);
    run_buffers b(t);
    std::vector<int> with_padding = t.queries;
    with_padding[3] = INT_MAX;
    auto q = w::to_device(with_padding);
    const w::recording r = w::record_anyway(find_k_any_query_k, w::grid(t.count), 1L, b.keys, b.indices, t.knodes_elem, b.records,
                                            b.currKnode, b.offset, q, b.ans);
    CHECK_FALSE(r.clean());
  }
}
