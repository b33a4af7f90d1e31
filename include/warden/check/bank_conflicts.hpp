#pragma once
// W050 [bank-conflict]'s count (check/lints.hpp has the rule): the ways in which a warp's lanes
// serialise on a shared access, from the access's footprint (footprint.hpp). Kept apart from the
// rest of the lints so that the shared-memory rules (rules.hpp), which build every footprint
// anyway, count the ways of an accepted kernel on the footprints they already have.

#include <vector>

#include "footprint.hpp"

namespace warden::check {

inline constexpr int banks = 32;
using dsl::warp_lanes;

// ---- W050: bank conflicts ---------------------------------------------------------------------

// The worst group of lanes found so far: its ways, where, and two lanes in its fullest bank.
struct bank_conflict {
  int ways = 0;  // 0: nothing counted (no known element)
  int pass = -1, warp = -1;
  int lane1 = -1, lane2 = -1;  // two lanes (of the warp) at distinct words of bank `bank`
  long long word1 = -1, word2 = -1;
  int bank = -1;
};

// Lanes served together for elements of `element_bytes`: a warp (32) up to 4 bytes, then 16 lanes
// for 8, 8 for 16 (a request moves at most 128 bytes); 0 for elements too large to judge.
constexpr int lanes_per_phase(int element_bytes) {
  const int words = (element_bytes + 3) / 4;
  if (words <= 1) return warp_lanes;
  int round = 1;
  while (round < words) round *= 2;
  return round > warp_lanes ? 0 : warp_lanes / round;
}

// The ways of one group of lanes: `elements[i]` is lane first + i's element (no_instance: the lane
// does not run it; unknown_element: the group is not judged, 0 returned). `out` gets the group's
// fullest bank when it is worse than out.ways.
constexpr int group_ways(const long long* elements, int count, int element_bytes, int first_lane, bank_conflict* out) {
  // (Left uninitialised: entries are read only once written; filling them cost more than the count.)
  long long word[2 * warp_lanes];
  int lane[2 * warp_lanes];
  int next[2 * warp_lanes];
  int head[banks], ways[banks];
  for (int b = 0; b < banks; ++b) {
    head[b] = -1;
    ways[b] = 0;
  }
  int n = 0, worst = 0, worst_bank = -1;
  for (int i = 0; i < count; ++i) {
    const long long e = elements[i];
    if (e == no_instance) continue;
    if (e < 0) return 0;
    const long long lo = e * element_bytes / 4, hi = (e * element_bytes + element_bytes - 1) / 4;
    for (long long w = lo; w <= hi && n < 2 * warp_lanes; ++w) {
      const int b = static_cast<int>(w % banks);
      bool seen = false;
      for (int k = head[b]; k >= 0 && !seen; k = next[k]) seen = word[k] == w;
      if (seen) continue;  // a broadcast
      word[n] = w;
      lane[n] = first_lane + i;
      next[n] = head[b];
      head[b] = n++;
      if (++ways[b] > worst) {
        worst = ways[b];
        worst_bank = b;
      }
    }
  }
  if (out != nullptr && worst > out->ways) {
    out->ways = worst;
    out->bank = worst_bank;
    // The two most recent words of the bank (the list is newest first).
    const int k1 = head[worst_bank], k2 = k1 >= 0 ? next[k1] : -1;
    out->lane1 = k2 >= 0 ? lane[k2] : lane[k1];
    out->lane2 = lane[k1];
    out->word1 = k2 >= 0 ? word[k2] : word[k1];
    out->word2 = word[k1];
  }
  return worst;
}

// Whether a group of lanes is served in one way without counting it: every lane that runs reads
// one element (a broadcast), or 4-byte elements at consecutive addresses (one bank each). Most
// groups are one of the two, and counting costs constant evaluation a pass over 32 banks.
constexpr bool plainly_one_way(const long long* elements, int count, int element_bytes) {
  long long first = 0;
  int first_lane = -1;
  bool same = true, consecutive = element_bytes == 4;
  for (int i = 0; i < count; ++i) {
    const long long e = elements[i];
    if (e == no_instance) continue;
    if (e < 0) return false;  // not judged (group_ways)
    if (first_lane < 0) {
      first = e;
      first_lane = i;
      continue;
    }
    same = same && e == first;
    consecutive = consecutive && e - first == i - first_lane;
  }
  return same || consecutive;
}

// The worst ways of a footprint over its passes and warps (threads numbered linearly, x fastest).
// With `pitch` > 0, a 2-D tile's elements row * pitch + col are judged as if its rows were
// `new_pitch` apart (another padding). It stops once `enough` ways are found.
constexpr bank_conflict worst_ways(const footprint& f, int element_bytes, long long pitch = 0, long long new_pitch = 0,
                                   int enough = banks) {
  bank_conflict worst;
  const int group = lanes_per_phase(element_bytes);
  if (group == 0 || element_bytes <= 0) return worst;
  long long moved[warp_lanes];
  for (int p = 0; p < f.passes; ++p) {
    const long long* pass = f.pass(p);
    for (int first = 0; first < f.threads; first += warp_lanes) {
      const int end = first + warp_lanes < f.threads ? first + warp_lanes : f.threads;
      for (int g = first; g < end; g += group) {
        const int before = worst.ways, count = end - g < group ? end - g : group;
        const long long* elements = pass + g;
        if (pitch > 0) {
          for (int i = 0; i < count; ++i)
            moved[i] = elements[i] < 0 ? elements[i] : elements[i] / pitch * new_pitch + elements[i] % pitch;
          elements = moved;
        }
        // (Once a way is counted, a group served in one changes nothing.)
        if (worst.ways < 1 || !plainly_one_way(elements, count, element_bytes))
          group_ways(elements, count, element_bytes, g - first, &worst);
        if (worst.ways > before) {
          worst.pass = p;
          worst.warp = first / warp_lanes;
        }
        if (worst.ways >= enough) return worst;
      }
    }
  }
  return worst;
}

// The padding of a 2-D tile that leaves the fewest ways over all its (untrusted) accesses: the
// smallest pad in 0..31 reaching the least worst case, and that worst case.
struct padding_advice {
  int pad = -1;   // -1: not a 2-D tile
  int ways = 0;   // the worst ways over the tile's accesses with that pad
  int now = 0;    // ... and with the tile's own pad
};
template <class Print>
constexpr padding_advice best_padding(const kernel_ir& ir, int tile_id, Print&& print) {
  padding_advice out;
  const dsl::ir_tile* tile = tile_of(ir, tile_id);
  if (tile == nullptr || tile->cols == 0 || tile->element_bytes <= 0) return out;
  const long long pitch = tile->cols + tile->pad;
  // The worst over the tile's accesses with rows `new_pitch` apart, counted only up to `enough`.
  const auto worst_with = [&](long long new_pitch, int enough) {
    int ways = 0;
    for (int i = 0; i < static_cast<int>(ir.accesses.size()) && ways < enough; ++i) {
      const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
      if (a.memory != dsl::memory_kind::shared || a.target != tile_id || a.trusted || (a.lint_off & 1) != 0) continue;
      const int w = worst_ways(print(i), tile->element_bytes, pitch, new_pitch, enough).ways;
      ways = w > ways ? w : ways;
    }
    return ways;
  };
  out.now = worst_with(pitch, banks);
  out.pad = tile->pad;
  out.ways = out.now;
  // The smallest pad below the best so far: a pad stops being counted once it is no better.
  for (int pad = 0; pad < banks && out.ways > 1; ++pad) {
    if (pad == tile->pad) continue;
    const int ways = worst_with(tile->cols + pad, pad < out.pad ? out.ways + 1 : out.ways);
    if (ways < out.ways || (ways == out.ways && pad < out.pad)) {
      out.pad = pad;
      out.ways = ways;
    }
  }
  return out;
}

// The first untrusted shared access (in program order) whose ways exceed 1, and the padding
// advice for its tile; `print(i)` gives access i's footprint (built, or kept by the caller).
struct shared_lint {
  int access = -1;  // -1: none
  bank_conflict conflict;
  padding_advice advice;
};
template <class Print>
constexpr shared_lint first_bank_conflict(const kernel_ir& ir, Print&& print) {
  shared_lint out;
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.trusted || (a.lint_off & 1) != 0 || a.memory != dsl::memory_kind::shared) continue;
    const dsl::ir_tile* tile = tile_of(ir, a.target);
    if (tile == nullptr || tile->element_bytes <= 0) continue;
    const bank_conflict c = worst_ways(print(i), tile->element_bytes);
    if (c.ways <= 1) continue;
    out.access = i;
    out.conflict = c;
    out.advice = best_padding(ir, a.target, print);
    return out;
  }
  return out;
}

}  // namespace warden::check
