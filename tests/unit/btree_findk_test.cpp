// Rodinia's b+tree findK (JuliaParallel/rodinia, cuda/b+tree/kernel/kernel_gpu_cuda.cu at
// 0f47cfc2f35034405973703fbb6d2c77a25439c0), ported as written: one block per query, one thread
// per key slot of a node (threadsPerBlock = order), the tree descended `height` times, the node
// of each level read from currKnodeD[bid], which thread 0 writes between two barriers. The one
// kernel issue 56 named that does not run yet (docs/soundness.md, "The seven kernels issue 56
// named": an order per node row, loads of a kernel-written buffer within a barrier phase, a fact
// about the INT_MAX padding, and a range invariant over the kernel's own stores). This test keeps
// the port in CTest: it holds the checker's verdict on the kernel as written (refused at compile
// time), and records the kernel with its tree-walking statements inside `trusted`, which the
// launch refuses in turn (E101: the node index is a value the kernel wrote), with
// w::record_anyway against a host B+tree search: no access leaves its buffer and no two meet. The
// day the checker decides it, the verdicts here change and the port is ready.
//
// The knode struct (keys[order + 1], indices[order + 1]) is split into two buffers of rows of
// order + 1; record is its value alone. An internal node's keys are its children's lower bounds
// (key slot j: keys[j] <= key < keys[j + 1] descends into indices[j]); a leaf's keys are its
// records' keys, indices the records; unused slots hold INT_MAX, as transform_to_cuda pads them.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <climits>
#include <random>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;

namespace {

constexpr int order = 8;         // threadsPerBlock = order < 1024 ? order : 1024
constexpr int row = order + 1;   // knode.keys[order + 1]

// The kernel as written; `wrap` is the identity, or w::trusted around each statement that reads
// or writes the tree walk's buffers (the trusted copy).
template <bool trusted>
constexpr auto find_k = [](auto k, auto height, auto knode_keys, auto knode_indices, auto knodes_elem, auto records,
                           auto currKnodeD, auto offsetD, auto keysD, auto ansD) {
  auto thid = k.thread_id();
  auto bid = k.block_id();
  auto wrap = [&](auto&& statement) {
    if constexpr (trusted) return w::trusted(statement);
    else return statement;
  };
  return w::seq(
      w::for_range(k, 0, height, [&](auto, auto) {
        return w::seq(
            wrap(w::when(knode_keys[currKnodeD[bid] * row + thid] <= keysD[bid] && knode_keys[currKnodeD[bid] * row + thid + 1] > keysD[bid],
                         w::when(knode_indices[offsetD[bid] * row + thid] < knodes_elem,
                                 offsetD[bid] = knode_indices[offsetD[bid] * row + thid]))),
            w::sync(),
            wrap(w::when(thid == 0, currKnodeD[bid] = offsetD[bid])),
            w::sync());
      }),
      wrap(w::when(knode_keys[currKnodeD[bid] * row + thid] == keysD[bid],
                   ansD[bid] = records[knode_indices[currKnodeD[bid] * row + thid]])));
};

}  // namespace

WARDEN_KERNEL(find_k_trusted, w::kernel<w::block<order>, w::value<long>, w::in<int>, w::in<int>, w::value<long>, w::in<int>,
                                        w::inout<long>, w::inout<long>, w::in<int>, w::out<int>>(find_k<true>)
                                  .named("findK", "height", "knode_keys", "knode_indices", "knodes_elem", "records", "currKnodeD",
                                         "offsetD", "keysD", "ansD"));

TEST_CASE("b+tree findK as written: refused today, its trusted copy recorded anyway finds every key without a race", "[corpus][btree]") {
  // The verdict on the kernel as written: offsetD[bid] is loaded and stored under guards that read
  // the tree, which the checker cannot yet show one thread of a block passes (W011).
  STATIC_REQUIRE(code_of<w::block<order>, w::value<long>, w::in<int>, w::in<int>, w::value<long>, w::in<int>, w::inout<long>,
                         w::inout<long>, w::in<int>, w::out<int>>(find_k<false>) == code::W011);

  // A two-level tree: a root over `leaves` leaves of up to order - 1 keys each, keys 3 * r + 1.
  const int leaves = order - 1, per_leaf = order - 1, n_records = leaves * per_leaf;
  const long knodes_elem = 1 + leaves;
  std::vector<int> keys(static_cast<std::size_t>(knodes_elem * row), INT_MAX), indices(static_cast<std::size_t>(knodes_elem * row), 0);
  std::vector<int> records(static_cast<std::size_t>(n_records));
  for (int r = 0; r < n_records; ++r) records[static_cast<std::size_t>(r)] = 1000 + r;
  const auto key_of = [](int r) { return 3 * r + 1; };
  for (int leaf = 0; leaf < leaves; ++leaf) {
    keys[static_cast<std::size_t>(leaf)] = leaf == 0 ? INT_MIN : key_of(leaf * per_leaf);  // root: the children's lower bounds
    indices[static_cast<std::size_t>(leaf)] = 1 + leaf;
    for (int j = 0; j < per_leaf; ++j) {
      const int r = leaf * per_leaf + j;
      keys[static_cast<std::size_t>((1 + leaf) * row + j)] = key_of(r);
      indices[static_cast<std::size_t>((1 + leaf) * row + j)] = r;
    }
  }
  // Queries: every key, and keys between them (not found: ans keeps its -1).
  std::vector<int> queries;
  for (int r = 0; r < n_records; ++r) queries.push_back(key_of(r)), queries.push_back(key_of(r) + 1);
  const int count = static_cast<int>(queries.size());

  auto d_keys = w::to_device(keys);
  auto d_indices = w::to_device(indices);
  auto d_records = w::to_device(records);
  auto currKnode = w::to_device(std::vector<long>(static_cast<std::size_t>(count), 0));
  auto offset = w::to_device(std::vector<long>(static_cast<std::size_t>(count), 0));
  auto d_queries = w::to_device(queries);
  auto ans = w::to_device(std::vector<int>(static_cast<std::size_t>(count), -1));
  // The launch refuses it too: the node index currKnodeD[bid] is a value the kernel wrote, which
  // the launch cannot measure (E101). Recorded anyway: no access leaves its buffer, no two meet.
  const w::recording r = w::record_anyway(find_k_trusted, w::grid(count), 1L, d_keys, d_indices, knodes_elem, d_records, currKnode,
                                          offset, d_queries, ans);
  CHECK_THAT(r.refusal(), Catch::Matchers::StartsWith("E101 [out-of-bounds] find_k_trusted: load knode_keys[(currKnodeD[block_id.x]"));
  CHECK(r.clean());
  const std::vector<int> got = w::to_host(ans);
  for (int q = 0; q < count; ++q) {
    const int key = queries[static_cast<std::size_t>(q)];
    const int expected = (key - 1) % 3 == 0 ? 1000 + (key - 1) / 3 : -1;
    CHECK(got[static_cast<std::size_t>(q)] == expected);
  }
}
