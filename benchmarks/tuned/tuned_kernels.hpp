#pragma once
// Three kernels written once for any block shape, as w::tuned runs them: the fast reduction and
// histogram of examples/ (reduction_fast, histogram_fast) and the tiled matmul of examples/matmul,
// each body reading its block's size from its context (decltype(k)::block_type) where the example
// fixes it. benchmarks/gpu/tuned_gpu_bench.cu times each tuned kernel against each of its candidates
// launched alone; tests/unit/tuned_test.cpp runs them on the cpu backend.
#include <warden/warden.hpp>
#include <warden/tuned.hpp>

namespace tuned_kernels {

namespace w = warden;

inline constexpr int histogram_bins = 256;

// Sum of `in` into one partial sum per block (a second launch with one block sums the partials).
WARDEN_TUNED(reduce, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      constexpr int threads = decltype(k)::block_type::x;
      constexpr int warps = threads / 32;
      constexpr int steps = warps >= 32 ? 5 : warps >= 16 ? 4 : warps >= 8 ? 3 : warps >= 4 ? 2 : warps >= 2 ? 1 : 0;  // log2(warps)
      return w::shared<float, warps>(k, [&](auto k, auto warp_sums) {
        auto t = k.thread_id();
        auto tail = in.size() / 4 * 4 + k.global_id();
        return w::seq(
            w::local(k, 0.f, [&](auto k, auto sum) {
              return w::seq(
                  w::grid_stride(k, in.size() / 4, [&](auto k, auto i) {
                    return w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
                      return sum += (w::get<0>(v) + w::get<1>(v)) + (w::get<2>(v) + w::get<3>(v));
                    });
                  }),
                  w::when(tail < in.size(), sum += in[tail]),
                  w::for_range(k, 0, 5, [&](auto k, auto step) {
                    return w::shuffle_down(k, sum, 16 >> step, [&](auto, auto other) { return sum += other; });
                  }),
                  w::when(t % 32 == 0, warp_sums[t / 32] = sum));
            }),
            w::sync(),
            w::when(t < 32, w::local(k, 0.f, [&](auto k, auto sum) {
              return w::seq(w::when(t < warps, sum = warp_sums[t]),
                            w::for_range(k, 0, steps, [&](auto k, auto step) {
                              return w::shuffle_down(k, sum, (warps / 2) >> step, [&](auto, auto other) { return sum += other; });
                            }),
                            w::when(t == 0, out[k.block_id()] = sum));
            })));
      });
    },
    w::candidates<w::block<128>, w::block<256>, w::block<512>, w::block<1024>>));

// A 256-bin histogram privatised per block; a block of fewer than 256 threads zeroes and merges
// several bins per thread.
WARDEN_TUNED(histogram, w::tuned<w::in<int>, w::atomic<int>>(
    [](auto k, auto in, auto bins) {
      constexpr int threads = decltype(k)::block_type::x;
      constexpr int per_thread = histogram_bins / threads > 0 ? histogram_bins / threads : 1;
      return w::shared<int, histogram_bins>(k, [&](auto k, auto counts) {
        auto t = k.thread_id();
        auto tail = in.size() / 4 * 4 + k.global_id();
        return w::seq(
            w::unroll<per_thread>(k, [&](auto, auto j) {
              return w::when(t + threads * j < histogram_bins, counts[t + threads * j] = 0);
            }),
            w::sync(),
            w::grid_stride(k, in.size() / 4, [&](auto k, auto i) {
              return w::local(k, w::vectors<4>(in)[i], [&](auto, auto v) {
                return w::seq(w::atomic_add(counts[w::get<0>(v) & (histogram_bins - 1)], 1),
                              w::atomic_add(counts[w::get<1>(v) & (histogram_bins - 1)], 1),
                              w::atomic_add(counts[w::get<2>(v) & (histogram_bins - 1)], 1),
                              w::atomic_add(counts[w::get<3>(v) & (histogram_bins - 1)], 1));
              });
            }),
            w::when(tail < in.size(), w::atomic_add(counts[in[tail] & (histogram_bins - 1)], 1)),
            w::sync(),
            w::unroll<per_thread>(k, [&](auto, auto j) {
              auto b = t + threads * j;
              return w::when(b < histogram_bins && counts[b] != 0, w::atomic_add(bins[b], counts[b]));
            }));
      });
    },
    w::candidates<w::block<64>, w::block<128>, w::block<256>, w::block<512>>));

// c = a * b for n x n matrices, one square tile of c per block.
WARDEN_TUNED(matmul, w::tuned<w::in<float>, w::in<float>, w::out<float>, w::value<int>>(
    [](auto k, auto a, auto b, auto c, auto n) {
      constexpr int tile = decltype(k)::block_type::x;
      return w::shared<float, tile, tile>(k, [&](auto k, auto ta) {
        return w::shared<float, tile, tile>(k, [&](auto k, auto tb) {
          auto tx = k.thread_id();
          auto ty = k.thread_id_y();
          auto row = k.global_id_y();
          auto col = k.global_id();
          return w::local(k, 0.f, [&](auto k, auto acc) {
            return w::seq(
                w::for_range(k, 0, (n + tile - 1) / tile, [&](auto k, auto kt) {
                  return w::seq(
                      w::when(row < n && kt * tile + tx < n, ta(ty, tx) = a[row * n + (kt * tile + tx)]).otherwise(ta(ty, tx) = 0.f),
                      w::when(col < n && kt * tile + ty < n, tb(ty, tx) = b[(kt * tile + ty) * n + col]).otherwise(tb(ty, tx) = 0.f),
                      w::sync(),
                      w::for_range(k, 0, tile, [&](auto, auto j) { return acc += ta(ty, j) * tb(j, tx); }),
                      w::sync());
                }),
                w::when(row < n && col < n, c[row * n + col] = acc));
          });
        });
      });
    },
    w::candidates<w::block<8, 8>, w::block<16, 16>, w::block<32, 32>>));

}  // namespace tuned_kernels
