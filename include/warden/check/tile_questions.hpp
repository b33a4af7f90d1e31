#pragma once
// Which questions the tile rules ask (W022, W020, W021, W040), in one place for every way of
// answering them: the compile-time listing (tile_listing.hpp), the launch's solver
// (launch/shared_tiles.hpp) and the tests' brute-force oracle (tests/support/tile_listing_oracle.hpp).
//   * W022: a load (or atomic update) of a tile, not trusted, against the stores of that tile
//     that can precede it: earlier in the kernel, or later inside a loop around both;
//   * W020 / W021 / W040: two accesses of one tile, not both loads, not both atomic, not both
//     trusted, at each relation of their common loops' trips (-1: the same iteration of all; d:
//     the same outside common loop d, different in it) that no barrier orders.

#include "../diagnostic/codes.hpp"
#include "../dsl/ir.hpp"
#include "affine.hpp"
#include "footprint.hpp"
#include "order.hpp"

namespace warden::check {

constexpr bool is_shared(const dsl::ir_access& a) { return a.memory == dsl::memory_kind::shared; }

// Can loop number `depth` of the context run two or more iterations?
constexpr bool may_repeat(const dsl::kernel_ir& ir, block_shape shape, const context& c, int depth) {
  const auto trips = static_trip_count(ir, shape, ir.loop_pool[static_cast<std::size_t>(c.loop_begin + depth)]);
  return !trips || *trips >= 2;
}

// Whether access `a` is a load W022 asks about (it reads its element: an atomic update too).
constexpr bool tile_load_asked(const dsl::kernel_ir& ir, const dsl::ir_access& a) {
  return is_shared(a) && a.kind != dsl::access_kind::store && !a.trusted && tile_of(ir, a.target) != nullptr;
}

// Whether `store` (a store or atomic update) can precede `load` on one tile: earlier in the
// kernel, or later inside a loop around both (an earlier iteration's).
constexpr bool store_may_precede(const dsl::kernel_ir& ir, const dsl::ir_access& load, const dsl::ir_access& store) {
  if (!is_shared(store) || store.target != load.target || store.kind == dsl::access_kind::load) return false;
  return store.position < load.position || common_loops(ir, context_of(load), context_of(store)) > 0;
}

// Whether accesses `a` and `c` are a pair the meeting rules ask about.
constexpr bool tile_pair_asked(const dsl::kernel_ir& ir, const dsl::ir_access& a, const dsl::ir_access& c) {
  if (!is_shared(a) || !is_shared(c) || a.target != c.target || (a.trusted && c.trusted)) return false;
  if (a.kind == dsl::access_kind::load && c.kind == dsl::access_kind::load) return false;
  if (a.kind == dsl::access_kind::atomic && c.kind == dsl::access_kind::atomic) return false;  // never race among themselves
  return tile_of(ir, a.target) != nullptr;
}

// Whether the pair (contexts ca, cc) is asked at `relation`: not where a barrier orders it.
constexpr bool tile_relation_asked(const dsl::kernel_ir& ir, block_shape shape, const context& ca, const context& cc, int relation) {
  return relation < 0 ? !ordered_same_iteration(ir, ca, cc)
                      : may_repeat(ir, shape, ca, relation) && !ordered_different_iterations(ir, ca, cc, relation);
}

// The code a meeting of `a` and `c` at `relation` breaks.
constexpr diagnostic::code tile_pair_code(const dsl::ir_access& a, const dsl::ir_access& c, int relation) {
  const bool atomic_a = a.kind == dsl::access_kind::atomic, atomic_c = c.kind == dsl::access_kind::atomic;
  return atomic_a != atomic_c ? diagnostic::code::W040 : relation < 0 ? diagnostic::code::W020 : diagnostic::code::W021;
}

}  // namespace warden::check
