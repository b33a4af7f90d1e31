// NVIDIA cuda-samples, sortingNetworks: NVIDIA/cuda-samples, Samples/2_Concepts_and_Techniques/
// sortingNetworks/bitonicSort.cu, kernel bitonicSortShared (keys and values, each block sorting its
// SHARED_SIZE_LIMIT = 1024 elements as arrayLength-long arrays in shared memory), ported by hand.
// The stage bounds are the kernel's uint parameters: `for (size = 2; size < arrayLength; size <<= 1)`
// (written over the exponent, size = 2^e, for e < 11, with the sample's own `size < arrayLength`
// as the guard: warden has no doubling loop) and `for (stride = size / 2; stride > 0; stride >>= 1)`
// (for_halving). The comparator's pairs are pos = 2 * t - (t & (stride - 1)) and pos + stride.
// Launch as the sample: blocks = batch * arrayLength / 1024, 512 threads.
//
// ACCEPTED (issue 32, items 1 and 4) with the tiles left to the launch: the pairs meet or not
// depending on arrayLength, which only the launch knows. Launch lists every thread's footprint
// with arrayLength written in (check/launch/shared_races.hpp), and E104 and E101 list pos exactly
// (the intervals see `2 * t - (t & m)` go below 0). Before, the checker listed 10 x 32 passes of
// 512 threads at compile time with the parameter unknown: 249 s and 7.5 GB of g++ for a W020 "at
// element -1". The racy twin without the merge's barrier is refused at launch (E106).
#include "corpus.hpp"

#include <algorithm>
#include <random>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr unsigned SHARED_SIZE_LIMIT = 1024;

// __device__ Comparator(keyA, valA, keyB, valB, dir): if ((keyA > keyB) == dir) swap both pairs.
template <class K, class Keys, class Vals, class Pos, class Stride, class Dir>
constexpr auto comparator(K k, Keys s_key, Vals s_val, Pos pos, Stride stride, Dir dir) {
  return w::local(k, s_key[pos], [&](auto k, auto keyA) {
    return w::local(k, s_key[pos + stride], [&](auto k, auto keyB) {
      return w::local(k, s_val[pos], [&](auto k, auto valA) {
        return w::local(k, s_val[pos + stride], [&](auto, auto valB) {
          return w::when((keyA > keyB) == (dir != 0u),
                         w::seq(s_key[pos] = keyB, s_key[pos + stride] = keyA, s_val[pos] = valB, s_val[pos + stride] = valA));
        });
      });
    });
  });
}

template <bool Barrier>
constexpr auto bitonic_sort_shared = [](auto k, auto d_DstKey, auto d_DstVal, auto d_SrcKey, auto d_SrcVal, auto arrayLength, auto dir) {
  return w::shared<unsigned, SHARED_SIZE_LIMIT>(k, [&](auto k, auto s_key) {
    return w::shared<unsigned, SHARED_SIZE_LIMIT>(k, [&](auto k, auto s_val) {
      auto t = k.thread_id();
      auto base = k.block_id() * SHARED_SIZE_LIMIT + t;  // d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x
      auto step = [&](auto k, auto stride, auto ddd) {
        auto pos = 2u * t - (t & (stride - 1u));
        if constexpr (Barrier) return w::seq(w::sync(), comparator(k, s_key, s_val, pos, stride, ddd));
        else return comparator(k, s_key, s_val, pos, stride, ddd);
      };
      return w::seq(s_key[t] = d_SrcKey[base], s_val[t] = d_SrcVal[base],
                    s_key[t + SHARED_SIZE_LIMIT / 2] = d_SrcKey[base + SHARED_SIZE_LIMIT / 2],
                    s_val[t + SHARED_SIZE_LIMIT / 2] = d_SrcVal[base + SHARED_SIZE_LIMIT / 2],
                    w::for_range(k, 1, 11, [&](auto k, auto e) {
                      auto size = 1u << e;
                      return w::when(size < arrayLength, w::for_halving(k, size / 2u, [&](auto k, auto stride) {
                                       return step(k, stride, dir ^ ((t & (size / 2u)) != 0u));  // ddd
                                     }));
                    }),
                    w::for_halving(k, arrayLength / 2u, [&](auto k, auto stride) { return step(k, stride, dir); }),
                    w::sync(), d_DstKey[base] = s_key[t], d_DstVal[base] = s_val[t],
                    d_DstKey[base + SHARED_SIZE_LIMIT / 2] = s_key[t + SHARED_SIZE_LIMIT / 2],
                    d_DstVal[base + SHARED_SIZE_LIMIT / 2] = s_val[t + SHARED_SIZE_LIMIT / 2]);
    });
  });
};

using Blk = w::block<SHARED_SIZE_LIMIT / 2>;
using U = w::value<unsigned>;
using Out = w::out<unsigned>;
using In = w::in<unsigned>;

}  // namespace

WARDEN_KERNEL(sort_k, w::kernel<Blk, Out, Out, In, In, U, U>(bitonic_sort_shared<true>)
                          .named("bitonicSortShared", "d_DstKey", "d_DstVal", "d_SrcKey", "d_SrcVal", "arrayLength", "dir"));

WARDEN_KERNEL(racy_k, w::kernel<Blk, Out, Out, In, In, U, U>(bitonic_sort_shared<false>)
                          .named("bitonicSortShared", "d_DstKey", "d_DstVal", "d_SrcKey", "d_SrcVal", "arrayLength", "dir"));

TEST_CASE("corpus cuda-samples bitonicSortShared: stage bounds from parameters, decided at launch", "[corpus][cuda-samples]") {
  STATIC_REQUIRE(code_of<Blk, Out, Out, In, In, U, U>(bitonic_sort_shared<true>) == code::none);
  CHECK(w::obligations_of(sort_k).find("holds on the tiles if no two threads meet in one barrier phase, listed by launch") !=
        std::string::npos);
  std::mt19937 random(7);
  for (auto [arrayLength, batch, dir] : {std::tuple{1024u, 2u, 1u}, std::tuple{256u, 8u, 0u}, std::tuple{64u, 16u, 1u}}) {
    CAPTURE(arrayLength, batch, dir);
    const unsigned n = arrayLength * batch;
    std::vector<unsigned> keys(n), vals(n);
    for (unsigned i = 0; i < n; ++i) {
      keys[i] = random() % 500;
      vals[i] = i;
    }
    auto dkeys = w::to_device(keys), dvals = w::to_device(vals);
    w::device_buffer<unsigned> out_keys(n), out_vals(n);
    const auto grid = w::grid(static_cast<int>(n / SHARED_SIZE_LIMIT));
    CHECK(w::record(sort_k, grid, out_keys, out_vals, dkeys, dvals, arrayLength, dir).clean());
    const std::vector<unsigned> got_keys = w::to_host(out_keys), got_vals = w::to_host(out_vals);
    // The reference: each arrayLength-long array sorted in dir's order, each value beside its key.
    for (unsigned a = 0; a < batch; ++a) {
      std::vector<unsigned> want(keys.begin() + a * arrayLength, keys.begin() + (a + 1) * arrayLength);
      if (dir) std::sort(want.begin(), want.end());
      else std::sort(want.begin(), want.end(), std::greater<>());
      CHECK(std::equal(want.begin(), want.end(), got_keys.begin() + a * arrayLength));
    }
    for (unsigned i = 0; i < n; ++i) CHECK(keys[got_vals[i]] == got_keys[i]);
  }
  // An arrayLength of 2048 (the sample sorts those with its global kernels): pos + stride passes
  // the tile. Refused before anything runs (E101).
  auto dkeys = w::to_device(std::vector<unsigned>(2048, 1u)), dvals = w::to_device(std::vector<unsigned>(2048, 1u));
  w::device_buffer<unsigned> out_keys(2048), out_vals(2048);
  try {
    w::launch(w::on_cpu, sort_k, w::grid(2), out_keys, out_vals, dkeys, dvals, 2048u, 1u);
    FAIL("an overrunning launch ran");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
  }
}

TEST_CASE("corpus cuda-samples bitonicSortShared without the merge's barrier: refused at launch", "[corpus][cuda-samples]") {
  // The comparator of one stride reads what the previous stride's comparators store: without the
  // sync() the steps race (the sample's cg::sync(cta) at the top of each step).
  STATIC_REQUIRE(code_of<Blk, Out, Out, In, In, U, U>(bitonic_sort_shared<false>) == code::none);
  auto dkeys = w::to_device(std::vector<unsigned>(1024, 1u)), dvals = w::to_device(std::vector<unsigned>(1024, 1u));
  w::device_buffer<unsigned> out_keys(1024), out_vals(1024);
  const std::string e106 = corpus::e106_of([&] { w::launch(w::on_cpu, racy_k, w::grid(1), out_keys, out_vals, dkeys, dvals, 1024u, 1u); });
  CAPTURE(e106);
  CHECK(e106.rfind("E106", 0) == 0);
  CHECK(e106.find("(arrayLength = 1024) threads") != std::string::npos);
  // The pair the message names is a race the launch, recorded all the same, makes.
  const auto r = w::record_anyway(racy_k, w::grid(1), out_keys, out_vals, dkeys, dvals, 1024u, 1u);
  CHECK(w::testing::launch_tile_pair_meets(racy_k, e106, r));
}
