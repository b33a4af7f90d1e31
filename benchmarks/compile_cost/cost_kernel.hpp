#pragma once
// The kernel families whose checking the compile-cost benchmark times (compile_cost_bench.cpp).
// Both run `Rounds` rounds over a shared tile of `Threads` elements, one per thread:
//   * shift: tile[t] = in[i]; sync; out[i] = tile[(t + r + 1) % Threads]; sync
//     (4 accesses per round, half of them shared; the `%` index is not affine, so the checker
//     enumerates every thread's footprint);
//   * exchange: tile[t] = in[i]; sync; when((t ^ m) > t, tile[t ^ m] = tile[t]); sync
//     (4 accesses per round; a bitonic-style partner exchange inside one barrier phase, which
//     only enumerating every thread's elements can prove race-free).
#include <warden/warden.hpp>

#include <utility>

namespace cost {
namespace w = warden;

constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }

template <int Threads, int Round>
constexpr auto shift_round(auto k, auto in, auto out, auto tile) {
  auto t = k.thread_id();
  auto i = k.global_id();
  return w::seq(tile[t] = in[i], w::sync(), out[i] = tile[(t + (Round + 1)) % Threads], w::sync());
}

template <int Threads, int Round>
constexpr auto exchange_round(auto k, auto in, auto, auto tile) {
  auto t = k.thread_id();
  auto i = k.global_id();
  constexpr int mask = 1 << (Round % log2_of(Threads));
  return w::seq(tile[t] = in[i], w::sync(), w::when((t ^ mask) > t, tile[t ^ mask] = tile[t]), w::sync());
}

template <bool Exchange, int Threads, int... R>
constexpr auto rounds(auto k, auto in, auto out, auto tile, std::integer_sequence<int, R...>) {
  if constexpr (Exchange) return w::seq(exchange_round<Threads, R>(k, in, out, tile)...);
  else return w::seq(shift_round<Threads, R>(k, in, out, tile)...);
}

// The kernel body (a class rather than a lambda in a variable template, in which nvcc's front end
// does not resolve template parameters).
template <bool Exchange, int Threads, int Rounds>
struct body {
  constexpr auto operator()(auto k, auto in, auto out) const {
    return w::shared<float, Threads>(k, [&](auto k, auto tile) {
      return rounds<Exchange, Threads>(k, in, out, tile, std::make_integer_sequence<int, Rounds>{});
    });
  }
};

}  // namespace cost
