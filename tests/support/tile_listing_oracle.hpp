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
#include <warden/check/launch/shared_tiles.hpp>
#include <warden/check/launch/stated_facts.hpp>
#include <warden/dsl/ir.hpp>

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

// Every run of tile access `a` in this launch; nullopt where it cannot list them.
inline std::optional<std::vector<tile_instance>> list_tile_access(const dsl::kernel_ir& ir, const check::launch_facts& facts,
                                                                  const dsl::ir_access& a, bool forget) {
  const dsl::ir_tile* tile = check::tile_of(ir, a.target);
  if (tile == nullptr) return std::nullopt;
  std::vector<tile_instance> out;
  thread_point at;
  at.loop_value.assign(ir.loops.size(), 0);
  at.loop_set.assign(ir.loops.size(), 0);
  std::vector<long long> trip(ir.loops.size(), -1);
  const int depth = a.loop_end - a.loop_begin;
  bool ok = true;
  long long block = 0, thread = 0;
  auto runs = [&] {
    for (int g = a.guard_begin; g < a.guard_end; ++g) {
      const dsl::ir_guard& guard = ir.guard_pool[static_cast<std::size_t>(g)];
      const std::optional<long long> v = exact_value(ir, guard.condition, facts, &at);
      if (v && (*v != 0) == guard.negated) return false;
    }
    return true;
  };
  auto visit = [&](auto&& self, int level) -> void {
    if (!ok) return;
    if (level == depth) {
      if (!runs()) return;
      long long element = forgotten_element;
      if (!forget) {
        const std::optional<long long> row = exact_value(ir, a.index, facts, &at);
        const std::optional<long long> column = a.column >= 0 ? exact_value(ir, a.column, facts, &at) : std::optional<long long>(0);
        if (!row || !column) {
          ok = false;
          return;
        }
        const long long rows = a.column >= 0 ? tile->rows : check::tile_elements(*tile), columns = a.column >= 0 ? tile->cols : 1;
        const long long pitch = a.column >= 0 ? tile->cols + tile->pad : 1;
        element = *row >= 0 && *row < rows && *column >= 0 && *column < columns ? *row * pitch + *column : -1;
      }
      if (element == -1) return;  // outside the tile: E101's, touches nothing shared
      if (static_cast<long long>(out.size()) >= max_tile_instances) {
        ok = false;
        return;
      }
      out.push_back({block, thread, trip, element});
      return;
    }
    const int l = ir.loop_pool[static_cast<std::size_t>(a.loop_begin + level)];
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(l)];
    const std::optional<long long> lo = exact_value(ir, loop.lo, facts, &at), hi = exact_value(ir, loop.hi, facts, &at),
                                   step = exact_value(ir, loop.step, facts, &at);
    if (!lo || !hi || !step || *step < 1) {
      ok = false;
      return;
    }
    at.loop_set[static_cast<std::size_t>(l)] = 1;
    long long k = 0;
    for (long long i = *lo; i < *hi && ok; i += *step, ++k) {
      at.loop_value[static_cast<std::size_t>(l)] = i;
      trip[static_cast<std::size_t>(l)] = k;
      self(self, level + 1);
    }
    at.loop_set[static_cast<std::size_t>(l)] = 0;
    trip[static_cast<std::size_t>(l)] = -1;
  };
  for (long long bz = 0; bz < facts.grid[2] && ok; ++bz)
    for (long long by = 0; by < facts.grid[1] && ok; ++by)
      for (long long bx = 0; bx < facts.grid[0] && ok; ++bx)
        for (long long tz = 0; tz < facts.block[2] && ok; ++tz)
          for (long long ty = 0; ty < facts.block[1] && ok; ++ty)
            for (long long tx = 0; tx < facts.block[0] && ok; ++tx) {
              at.block[0] = bx, at.block[1] = by, at.block[2] = bz;
              at.thread[0] = tx, at.thread[1] = ty, at.thread[2] = tz;
              block = (bz * facts.grid[1] + by) * facts.grid[0] + bx;
              thread = (tz * facts.block[1] + ty) * facts.block[0] + tx;
              visit(visit, 0);
            }
  if (!ok) return std::nullopt;
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
    if (!is_shared(load) || load.kind == dsl::access_kind::store || load.trusted || tile_of(ir, load.target) == nullptr) continue;
    std::vector<int> stores;
    for (int s = 0; s < n; ++s) {
      const dsl::ir_access& store = ir.accesses[static_cast<std::size_t>(s)];
      if (!is_shared(store) || store.target != load.target || store.kind == dsl::access_kind::load) continue;
      if (store.position >= load.position && common_loops(ir, context_of(load), context_of(store)) == 0) continue;
      stores.push_back(s);
    }
    const pair_answer answer = load_not_stored(ir, facts, l, stores);
    if (answer == pair_answer::meet) return answer;
    gave_up = gave_up || answer == pair_answer::undecided;
  }
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
      const dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(j)];
      if (!is_shared(a) || !is_shared(c) || a.target != c.target || (a.trusted && c.trusted)) continue;
      if (a.kind == dsl::access_kind::load && c.kind == dsl::access_kind::load) continue;
      if ((a.kind == dsl::access_kind::atomic && c.kind == dsl::access_kind::atomic) || tile_of(ir, a.target) == nullptr) continue;
      const context ca = context_of(a), cc = context_of(c);
      const int common = common_loops(ir, ca, cc);
      for (int relation = -1; relation < common; ++relation) {
        if (relation < 0 ? ordered_same_iteration(ir, ca, cc)
                         : (!may_repeat(ir, shape, ca, relation) || ordered_different_iterations(ir, ca, cc, relation)))
          continue;
        const pair_answer answer = tile_pair_meeting(ir, facts, i, j, common, relation);
        if (answer == pair_answer::meet) return answer;
        gave_up = gave_up || answer == pair_answer::undecided;
      }
    }
  return gave_up ? pair_answer::undecided : pair_answer::apart;
}

}  // namespace warden::testing::listing
