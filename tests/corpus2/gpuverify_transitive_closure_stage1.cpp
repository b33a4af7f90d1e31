// GPUVerifyBenchmarks: mc-imperial/GPUVerifyBenchmarks, C++AMP/TransitiveClosure/stage1/kernel.cu,
// kernel transitive_closure_stage1_kernel (Microsoft's C++ AMP TransitiveClosure sample, translated
// to CUDA by the GPUVerify authors; marked `//pass`, run with --blockDim=[8,8] --gridDim=[1,1]; the
// same kernel is testsuite/CUDA/transitiveclosure in mc-imperial/gpuverify). Ported by hand.
// TILE_SIZE (8), num_vertices (64) and the connection states (UNCONNECTED 0, INDIRECTLY_CONNECTED
// 2) are #defines; passnum is the kernel's int parameter. One 8 x 8 block loads the diagonal tile
// passnum of the 64 x 64 adjacency matrix into shared memory, runs Floyd-Warshall on it (a loop over
// k with a barrier at the end of each iteration: an unconnected pair (y, x) becomes connected
// through k when (y, k) and (k, x) are), and stores the tile back. Launch as the benchmark: grid
// (1, 1), block (8, 8), for passnum 0, 3 and 7.
//
// RACE-FREE (the suite's //pass): in iteration k thread (y, x) may store tile[y][x] while threads
// (y, x') load tile[y][k] and threads (y', x) load tile[k][x]; the only thread that could store
// tile[y][k] is (y, k), and it stores only when tile[y][k] == UNCONNECTED and
// tile[y][k] != UNCONNECTED, which never holds (likewise for tile[k][x]). The absence of the race
// rests on the tile's values, not on its indices.
// VERDICT: refused at compile time, W020 [shared-race]: "load tile(thread_id.y, k) vs store
// tile(thread_id.y, thread_id.x): threads 1 and 0 meet at element 0 in one phase". The checker
// judges indices and guards, and the guard that keeps thread (y, k) from storing tile[y][k] in
// iteration k is a condition on loaded data (tile[y][k] == 0 && tile[y][k] != 0), which it treats
// as unknown. The trusting() copy of the same body runs clean on the benchmark's launch and equals
// the reference.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int TILE_SIZE = 8, num_vertices = 64;
constexpr unsigned UNCONNECTED = 0;
constexpr int INDIRECTLY_CONNECTED = 2;

// __global__ void transitive_closure_stage1_kernel(unsigned int* graph, int passnum)
constexpr auto stage1 = [](auto k, auto graph, auto passnum) {
  return w::shared<unsigned, TILE_SIZE, TILE_SIZE, 0>(k, [&](auto k, auto primary_block_buffer) {
    auto idxY = passnum * TILE_SIZE + k.thread_id_y();
    auto idxX = passnum * TILE_SIZE + k.thread_id();
    auto ty = k.thread_id_y();
    auto tx = k.thread_id();
    return w::seq(primary_block_buffer(ty, tx) = graph[idxY * num_vertices + idxX],  // _2D_ACCESS(graph, idxY, idxX, num_vertices)
                  w::sync(),
                  w::for_range(k, 0, TILE_SIZE, [&](auto, auto kk) {  // for (unsigned int k = 0; k < TILE_SIZE; ++k)
                    return w::seq(w::when(primary_block_buffer(ty, tx) == UNCONNECTED,
                                          w::when(primary_block_buffer(ty, kk) != UNCONNECTED && primary_block_buffer(kk, tx) != UNCONNECTED,
                                                  primary_block_buffer(ty, tx) = w::convert<unsigned>(passnum * TILE_SIZE + kk + INDIRECTLY_CONNECTED))),
                                  w::sync());
                  }),
                  graph[idxY * num_vertices + idxX] = primary_block_buffer(ty, tx));
  });
};

using Blk = w::block<TILE_SIZE, TILE_SIZE>;
using V = w::value<int>;

// The same pass on the host.
void reference(std::vector<unsigned>& g, int passnum) {
  const int base = passnum * TILE_SIZE;
  auto at2 = [&](int y, int x) -> unsigned& { return g[at((base + y) * num_vertices + base + x)]; };
  for (int kk = 0; kk < TILE_SIZE; ++kk)
    for (int y = 0; y < TILE_SIZE; ++y)
      for (int x = 0; x < TILE_SIZE; ++x)
        if (at2(y, x) == UNCONNECTED && at2(y, kk) != UNCONNECTED && at2(kk, x) != UNCONNECTED)
          at2(y, x) = static_cast<unsigned>(base + kk + INDIRECTLY_CONNECTED);
}

std::vector<unsigned> sparse_graph() {
  std::vector<unsigned> g(num_vertices * num_vertices, UNCONNECTED);
  for (int y = 0; y < num_vertices; ++y)
    for (int x = 0; x < num_vertices; ++x)
      if (y == x || (y * 7 + x * 13) % 11 == 0) g[at(y * num_vertices + x)] = 1;  // DIRECTLY_CONNECTED
  return g;
}

}  // namespace

WARDEN_KERNEL(stage1_trusting_k, w::kernel<Blk, w::inout<unsigned>, V>(w::testing::trusting(stage1))
                                     .named("transitive_closure_stage1_kernel", "graph", "passnum"));

TEST_CASE("corpus2 gpuverify C++AMP TransitiveClosure stage1: race-free, refused W020 (data-guarded store), trusting() runs clean",
          "[corpus2][gpuverify]") {
  // Thread (y, x) may store tile(y, x) in the phase where (y, x') loads tile(y, k): only the tile's
  // values keep (y, k) from storing, which the checker cannot see.
  STATIC_REQUIRE(code_of<Blk, w::inout<unsigned>, V>(stage1) == code::W020);
  for (int passnum : {0, 3, 7}) {
    CAPTURE(passnum);
    std::vector<unsigned> g = sparse_graph(), ref = g;
    reference(ref, passnum);
    auto dg = w::to_device(g);
    CHECK(w::record(stage1_trusting_k, w::grid(1, 1), dg, passnum).clean());
    CHECK(w::to_host(dg) == ref);
    CHECK(ref != g);  // the pass connects something
  }
}
