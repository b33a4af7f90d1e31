#pragma once
// The shared-memory rules' listing (W022, W020, W021, W040 on tiles): every thread's footprint of
// every tile access, and two threads that meet in one barrier phase. The static rules run it with
// what the compiler knows (rules.hpp, check_shared); launch runs it again with the launch's
// numbers where the checker handed it the question (launch/shared_races.hpp).

#include <vector>

#include "affine.hpp"
#include "bank_conflicts.hpp"
#include "finding.hpp"
#include "footprint.hpp"
#include "launch_knowledge.hpp"
#include "order.hpp"
#include "tile_questions.hpp"

namespace warden::check {

// ---- shared memory: per-thread footprints (footprint.hpp) -----------------------------------

// `assumed_trips` > 0: loops of run-time trip counts are listed up to that many iterations
// (footprint.hpp); the loops so listed are added to `*assumed`. With `lint`, a listing that finds
// nothing also counts W050's ways on its footprints (bank_conflicts.hpp), built once for both.
// `races_only`: W020, W021 and W040 alone (launch's question), not W022. `merge_unread_loops`:
// the footprints list a loop whose counter the access does not read as one pass (footprint.hpp);
// false only to hold that to the full listing (tests/fuzz, which compares the two).
// How surely a meeting the listing finds without the launch's numbers happens in a run, by what
// the two accesses read: 2, the block alone fixes their indices, guards and loops (it happens in
// every launch); 1, their indices (a guard or a trip count may keep it from running); 0, an
// index reads a launch number or something no launch fixes (it may happen in no launch at all).
// `block_ids_fixed`: a listing of block 0 alone, where block ids are known.
constexpr int meeting_certainty(const kernel_ir& ir, const dsl::ir_access& x, bool block_ids_fixed) {
  if (launch_known(ir, x, block_ids_fixed) == known_here) return 2;
  const bool index = launch_known(ir, x.index, block_ids_fixed) == known_here &&
                     (x.column < 0 || launch_known(ir, x.column, block_ids_fixed) == known_here);
  return index ? 1 : 0;
}
constexpr int meeting_certainty(const kernel_ir& ir, const finding& f, bool block_ids_fixed) {
  if (f.element < 0 || f.first < 0 || f.second < 0) return 0;
  const int a = meeting_certainty(ir, ir.accesses[static_cast<std::size_t>(f.first)], block_ids_fixed);
  const int c = meeting_certainty(ir, ir.accesses[static_cast<std::size_t>(f.second)], block_ids_fixed);
  return a < c ? a : c;
}

constexpr finding check_shared_listing(const kernel_ir& ir, block_shape shape, long long assumed_trips,
                                       unsigned long long* assumed, shared_lint* lint = nullptr,
                                       bool* too_large = nullptr, bool races_only = false, bool merge_unread_loops = true) {
  const int n = static_cast<int>(ir.accesses.size());
  std::vector<footprint> prints(static_cast<std::size_t>(n));
  std::vector<char> done(static_cast<std::size_t>(n), 0);  // (not vector<bool>: clang 14 cannot evaluate it)
  // A listing that grew past its budget proves nothing either way (check_shared keeps the first
  // finding): stop at once rather than list and search every other access (a register-tiled
  // matmul's failing check spent three quarters of its time there).
  bool gave_up = false;  // only where the caller asked to hear of it (`too_large`)
  auto give_up = [&] {
    *too_large = true;
    return finding{};
  };
  auto print = [&](int i) -> const footprint& {
    if (!done[static_cast<std::size_t>(i)]) {
      prints[static_cast<std::size_t>(i)] = footprint_of(ir, shape, ir.accesses[static_cast<std::size_t>(i)], assumed_trips, merge_unread_loops);
      if (assumed != nullptr) *assumed |= prints[static_cast<std::size_t>(i)].assumed_loops;
      gave_up = gave_up || (too_large != nullptr && prints[static_cast<std::size_t>(i)].too_large);
      done[static_cast<std::size_t>(i)] = 1;
    }
    return prints[static_cast<std::size_t>(i)];
  };

  // W022: a load no store can precede. Per tile, the first store position at each element
  // (an unknown index stores everywhere); a load is covered by a store before it, or by one later
  // in a loop around both (an earlier iteration).
  std::vector<int> tiles_done;
  for (int i = 0; i < n && !races_only; ++i) {
    const auto& a = ir.accesses[static_cast<std::size_t>(i)];
    // An atomic update reads its element as a load does (a privatised histogram's bins must be
    // zeroed in an earlier phase).
    if (!is_shared(a) || a.kind == dsl::access_kind::store) continue;
    bool seen = false;
    for (int t : tiles_done) seen = seen || t == a.target;
    if (seen) continue;
    tiles_done.push_back(a.target);
    const dsl::ir_tile* tile = tile_of(ir, a.target);
    if (tile == nullptr) continue;
    constexpr int never = 1 << 30;
    detail::scratch<int> first(static_cast<int>(tile_elements(*tile)), never);
    int first_anywhere = never;
    for (int j = 0; j < n; ++j) {
      const auto& s = ir.accesses[static_cast<std::size_t>(j)];
      if (!is_shared(s) || s.target != a.target || s.kind == dsl::access_kind::load) continue;
      const footprint& stores = print(j);
      if (gave_up) return give_up();
      int* first_at = first.data();
      for (int p = 0; p < stores.passes; ++p) {
        const long long* pass = stores.pass(p);
        for (int t = 0; t < stores.threads; ++t) {
          const long long e = pass[t];
          if (e == no_instance) continue;
          int& slot = e < 0 ? first_anywhere : first_at[e];
          slot = s.position < slot ? s.position : slot;
        }
      }
    }
    for (int l = i; l < n; ++l) {
      const auto& load = ir.accesses[static_cast<std::size_t>(l)];
      if (!is_shared(load) || load.target != a.target || load.kind == dsl::access_kind::store || load.trusted) continue;
      const footprint& loads = print(l);
      if (gave_up) return give_up();
      const int* first_at = first.data();
      if (first_anywhere < load.position) continue;  // an unknown store before it covers every element
      for (int p = 0; p < loads.passes; ++p) {
        const long long* pass = loads.pass(p);  // (not loads.pass(p)[thread]: a call per instance is dear in constant evaluation)
        for (int thread = 0; thread < loads.threads; ++thread) {
          const long long element = pass[thread];
          if (element < 0 || first_at[element] < load.position) continue;
          // A store after the load in program order covers it only from an earlier iteration.
          bool covered = false;
          for (int j = 0; j < n && !covered; ++j) {
            const auto& s = ir.accesses[static_cast<std::size_t>(j)];
            if (!is_shared(s) || s.target != a.target || s.kind == dsl::access_kind::load) continue;
            if (common_loops(ir, context_of(load), context_of(s)) == 0) continue;
            const footprint& later = print(j);
            if (gave_up) return give_up();
            for (int p2 = 0; p2 < later.passes && !covered; ++p2) {
              const long long* pass = later.pass(p2);
              for (int t = 0; t < later.threads && !covered; ++t) covered = pass[t] == unknown_element || pass[t] == element;
            }
          }
          if (covered) continue;
          finding f{diagnostic::code::W022, l};
          f.element = element;
          f.thread1 = thread;
          return f;
        }
      }
    }
  }

  // W020 / W021: two threads, one element, one phase. A trusted access gives up only the pairs
  // of trusted accesses; with the others it takes part at an element not known.
  std::vector<footprint> forgotten(static_cast<std::size_t>(n));
  std::vector<char> forgotten_done(static_cast<std::size_t>(n), 0);
  auto pair_print = [&](int i) -> const footprint& {
    if (!ir.accesses[static_cast<std::size_t>(i)].trusted) return print(i);
    if (!forgotten_done[static_cast<std::size_t>(i)]) {
      // (Built afresh, not copied: a footprint's spare capacity is uninitialised, which constant
      // evaluation refuses to copy.)
      forgotten[static_cast<std::size_t>(i)] = footprint_of(ir, shape, ir.accesses[static_cast<std::size_t>(i)], assumed_trips, merge_unread_loops);
      if (assumed != nullptr) *assumed |= forgotten[static_cast<std::size_t>(i)].assumed_loops;
      gave_up = gave_up || (too_large != nullptr && forgotten[static_cast<std::size_t>(i)].too_large);
      forgotten[static_cast<std::size_t>(i)].forget_elements();
      forgotten_done[static_cast<std::size_t>(i)] = 1;
    }
    return forgotten[static_cast<std::size_t>(i)];
  };
  // The pair a refusal names must be one that meets (issue 56, item 4). Without the launch's
  // numbers, a meeting of indices that read one (`zi0 + tx * zi_width + i` against `tx`) may not
  // happen in any launch the host makes, while another pair's does: the first meeting is kept,
  // and the search goes on, past pairs that could not be surer, for a surer one
  // (meeting_certainty), which is named instead. Only refused kernels search further: an accepted
  // one lists every pair anyway. A listing of block 0 alone (grid_dims 0: every block id is 0)
  // counts block ids as fixed: block 0 runs in every launch.
  const bool prefer_definite = shape.numbers == nullptr;
  const bool block_ids_fixed = shape.grid_dims == 0;
  finding possible{};
  int possible_certainty = -1;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const auto& a = ir.accesses[static_cast<std::size_t>(i)];
      const auto& c = ir.accesses[static_cast<std::size_t>(j)];
      if (possible) {
        const int x = meeting_certainty(ir, a, block_ids_fixed), y = meeting_certainty(ir, c, block_ids_fixed);
        if ((x < y ? x : y) <= possible_certainty) continue;
      }
      // (Atomic updates never race among themselves; an atomic and a plain access of one element
      // in one phase do: W040, as for buffers. tile_questions.hpp.)
      if (!tile_pair_asked(ir, a, c)) continue;
      const dsl::ir_tile* tile = tile_of(ir, a.target);
      const context ca = context_of(a), cc = context_of(c);
      const int common = common_loops(ir, ca, cc);
      for (int relation = -1; relation < common; ++relation) {
        if (!tile_relation_asked(ir, shape, ca, cc, relation)) continue;
        finding f{tile_pair_code(a, c, relation), i, j};
        if (relation >= 0) f.loop = ir.loop_pool[static_cast<std::size_t>(ca.loop_begin + relation)];
        const footprint& print_a = pair_print(i);
        const footprint& print_c = pair_print(j);
        if (gave_up) return give_up();
        // In one iteration of the common loops (relation -1), of an access in loops the other is
        // not in, whose every trip passes a barrier, only the trip next to the other access can
        // meet it: the last where the other comes after the loop, the first where it comes before
        // (order.hpp, barrier_every_trip). (In different iterations of a common loop either may
        // run first: every trip is kept.)
        footprint edge_a, edge_c;
        const footprint* pa = &print_a;
        const footprint* pc = &print_c;
        auto keep_edge = [&](const footprint*& p, footprint& edge, const context& x, bool later_is_other) {
          for (int level = common; level < x.loop_end - x.loop_begin; ++level) {
            const int loop = ir.loop_pool[static_cast<std::size_t>(x.loop_begin + level)];
            if (level >= 64 || loop >= 64 || (p->uneven_levels >> level & 1) != 0 || (p->assumed_loops >> loop & 1) != 0 ||
                !barrier_every_trip(ir, x, level))
              continue;
            edge = edge_trip_passes(*p, level, later_is_other);
            p = &edge;
          }
        };
        if (relation < 0) {
          keep_edge(pa, edge_a, ca, ca.position < cc.position);
          keep_edge(pc, edge_c, cc, cc.position < ca.position);
        }
        if (const meeting m = find_meeting(*pa, *pc, common, relation, tile_elements(*tile))) {
          f.thread1 = m.thread1;
          f.thread2 = m.thread2;
          f.element = m.element;
          if (!prefer_definite) return f;
          const int certainty = meeting_certainty(ir, f, block_ids_fixed);
          if (certainty == 2) return f;
          if (certainty > possible_certainty) possible = f, possible_certainty = certainty;
          break;
        }
      }
    }
  if (possible) {
    // What block ids left unknown (`tile[block_id.x]`, stored by every thread of a block), block 0
    // names: a definite meeting there happens in every launch that runs the accesses.
    if (prefer_definite && !block_ids_fixed && !gave_up && possible_certainty < 2) {
      block_shape first_block = shape;
      first_block.grid_dims = 0;
      const finding at_zero = check_shared_listing(ir, first_block, assumed_trips, nullptr, nullptr, nullptr, true, merge_unread_loops);
      if (at_zero && meeting_certainty(ir, at_zero, true) > possible_certainty) return at_zero;
    }
    return possible;
  }
  if (lint != nullptr) *lint = first_bank_conflict(ir, print);
  if (gave_up) return give_up();
  return {};
}

}  // namespace warden::check
