#pragma once
// The test oracle of the launch's tile rules (check/launch/shared_tiles.hpp): the same questions,
// answered by listing every block, thread and trip of a small launch, as the kernel computes them
// (launch_impl::exact_value). It reads the rules as the solver does (shared_tiles.hpp's header):
//   * a pair meets where two different threads of one block reach one element inside the tile at
//     trips that are equal in every common loop (relation -1), or equal outside common loop d and
//     different in it (relation d); a trusted access's element is forgotten (meets any);
//   * a load is uncovered where a thread of a block loads an element that no thread of that block
//     reaches through one of the given stores, at any trip.
// Guards it cannot evaluate (data) are taken to hold. It gives up (undecided) where an index or a
// loop bound reads data, a local or a function, or the listing would pass its budget.

#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include <warden/check/footprint.hpp>
#include <warden/check/tile_questions.hpp>
#include <warden/check/launch/shared_tiles.hpp>
#include <warden/check/launch/stated_facts.hpp>
#include <warden/dsl/ir.hpp>

#include "pair_listing.hpp"

namespace warden::testing::listing {

using check::launch_impl::exact_value;
using check::launch_impl::pair_answer;
using check::launch_impl::thread_point;

// One run of a tile access: its block and thread (linear), its trips (by loop id, -1 where not
// around it) and its element (-1 outside the tile, -2 forgotten).
struct tile_instance {
  long long block = 0, thread = 0;
  std::vector<long long> trip;
  long long element = -1;
};

inline constexpr long long forgotten_element = -2;
inline constexpr long long max_tile_instances = 1LL << 18;

// Every run of tile access `a` in this launch (pair_listing.hpp, each_run); nullopt where it
// cannot list them.
inline std::optional<std::vector<tile_instance>> list_tile_access(const dsl::kernel_ir& ir, const check::launch_facts& facts,
                                                                  const dsl::ir_access& a, bool forget) {
  const dsl::ir_tile* tile = check::tile_of(ir, a.target);
  if (tile == nullptr) return std::nullopt;
  const long long rows = a.column >= 0 ? tile->rows : check::tile_elements(*tile), columns = a.column >= 0 ? tile->cols : 1;
  const long long pitch = a.column >= 0 ? tile->cols + tile->pad : 1;
  std::vector<tile_instance> out;
  const bool listed = each_run(ir, facts, a, [&](long long block, long long thread, const thread_point& at, const std::vector<long long>& trip) {
    long long element = forgotten_element;
    if (!forget) {
      const std::optional<long long> row = exact_value(ir, a.index, facts, &at);
      const std::optional<long long> column = a.column >= 0 ? exact_value(ir, a.column, facts, &at) : std::optional<long long>(0);
      if (!row || !column) return run_visit::give_up;
      if (*row < 0 || *row >= rows || *column < 0 || *column >= columns) return run_visit::go_on;  // outside: E101's, touches nothing shared
      element = *row * pitch + *column;
    }
    if (static_cast<long long>(out.size()) >= max_tile_instances) return run_visit::give_up;
    out.push_back({block, thread, trip, element});
    return run_visit::go_on;
  });
  if (!listed) return std::nullopt;
  return out;
}

// Do two different threads of one block meet through tile accesses `first` and `second`, at trips
// related as `relation` says over the `common` loops (shared_tiles.hpp, tile_pair_meeting)?
inline pair_answer tile_pair_meeting(const dsl::kernel_ir& ir, const check::launch_facts& facts, int first, int second, int common,
                                     int relation) {
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  const auto xs = list_tile_access(ir, facts, a, a.trusted);
  const auto ys = list_tile_access(ir, facts, c, c.trusted);
  if (!xs || !ys) return pair_answer::undecided;
  std::vector<int> common_loops;
  for (int d = 0; d < common; ++d) common_loops.push_back(ir.loop_pool[static_cast<std::size_t>(a.loop_begin + d)]);
  const int same_upto = relation < 0 ? common : relation;
  // c's runs by (block, element), forgotten ones by block alone.
  std::map<std::pair<long long, long long>, std::vector<const tile_instance*>> at;
  for (const tile_instance& y : *ys) at[{y.block, y.element}].push_back(&y);
  auto related = [&](const tile_instance& x, const tile_instance& y) {
    if (x.thread == y.thread) return false;
    for (int d = 0; d < same_upto; ++d)
      if (x.trip[static_cast<std::size_t>(common_loops[static_cast<std::size_t>(d)])] !=
          y.trip[static_cast<std::size_t>(common_loops[static_cast<std::size_t>(d)])])
        return false;
    if (relation >= 0) {
      const auto l = static_cast<std::size_t>(common_loops[static_cast<std::size_t>(relation)]);
      if (x.trip[l] == y.trip[l]) return false;
    }
    return true;
  };
  for (const tile_instance& x : *xs) {
    if (x.element == forgotten_element) {
      for (const tile_instance& y : *ys)
        if (y.block == x.block && related(x, y)) return pair_answer::meet;
      continue;
    }
    for (const long long e : {x.element, forgotten_element})
      if (const auto it = at.find({x.block, e}); it != at.end())
        for (const tile_instance* y : it->second)
          if (related(x, *y)) return pair_answer::meet;
  }
  return pair_answer::apart;
}

// Does some thread load, through tile access `l`, an element of its block that none of `stores`
// reaches in that block (shared_tiles.hpp, load_not_stored)? meet: yes.
inline pair_answer load_not_stored(const dsl::kernel_ir& ir, const check::launch_facts& facts, int l, const std::vector<int>& stores) {
  const auto loads = list_tile_access(ir, facts, ir.accesses[static_cast<std::size_t>(l)], false);
  if (!loads) return pair_answer::undecided;
  std::map<std::pair<long long, long long>, char> stored;
  for (const int s : stores) {
    const auto runs = list_tile_access(ir, facts, ir.accesses[static_cast<std::size_t>(s)], false);
    if (!runs) return pair_answer::undecided;
    for (const tile_instance& r : *runs) stored[{r.block, r.element}] = 1;
  }
  for (const tile_instance& x : *loads)
    if (stored.find({x.block, x.element}) == stored.end()) return pair_answer::meet;
  return pair_answer::apart;
}

// The whole launch-time judgement by listing: whether some tile rule is broken for this launch,
// over the pairs and loads check/launch/shared_tiles.hpp asks about (first_tile_finding's loops);
// undecided where a listing gives up.
inline pair_answer any_tile_rule_broken(const dsl::kernel_ir& ir, const check::launch_facts& facts, const check::block_shape& shape) {
  using namespace check;
  const int n = static_cast<int>(ir.accesses.size());
  bool gave_up = false;
  for (int l = 0; l < n; ++l) {
    const dsl::ir_access& load = ir.accesses[static_cast<std::size_t>(l)];
    if (!tile_load_asked(ir, load)) continue;
    std::vector<int> stores;
    for (int s = 0; s < n; ++s)
      if (store_may_precede(ir, load, ir.accesses[static_cast<std::size_t>(s)])) stores.push_back(s);
    const pair_answer answer = load_not_stored(ir, facts, l, stores);
    if (answer == pair_answer::meet) return answer;
    gave_up = gave_up || answer == pair_answer::undecided;
  }
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
      const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(j)];
      if (!tile_pair_asked(ir, a, c)) continue;
      const context ca = context_of(a), cc = context_of(c);
      const int common = common_loops(ir, ca, cc);
      for (int relation = -1; relation < common; ++relation) {
        if (!tile_relation_asked(ir, shape, ca, cc, relation)) continue;
        const pair_answer answer = tile_pair_meeting(ir, facts, i, j, common, relation);
        if (answer == pair_answer::meet) return answer;
        gave_up = gave_up || answer == pair_answer::undecided;
      }
    }
  return gave_up ? pair_answer::undecided : pair_answer::apart;
}

}  // namespace warden::testing::listing
