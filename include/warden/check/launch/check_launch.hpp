#pragma once
// check_launch: every launch-time check over one list of bound arguments (declared with the
// others in launch_checks.hpp). Inline in every file that launches, or compiled once in
// warden::runtime (WARDEN_SEPARATE_RUNTIME).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../../config.hpp"
#include "../../error.hpp"
#include "../affine.hpp"
#include "integer_wrap.hpp"
#include "launch_checks.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "loop_steps.hpp"
#include "obligations.hpp"
#include "overrun.hpp"
#include "row_guards.hpp"
#include "stated_facts.hpp"
#include "written_ranges.hpp"

namespace warden::check {

namespace launch_impl {

// How deep check_launch is in checking its own suggestions (one level: a fix is checked, the
// fix's own message is not).
inline int& checking_a_fix() {
  static thread_local int depth = 0;
  return depth;
}

// The code of the refusal `request` meets (its message's first word), or "" where it passes.
inline std::string refusal_under(const launch_request& request) {
  std::vector<argument_reading> scratch(request.arguments.size());
  ++checking_a_fix();
  struct leave {
    ~leave() { --checking_a_fix(); }
  } on_exit;
  try {
    check_launch(request, scratch);
  } catch (const error& e) {
    const std::string_view text = e.what();
    return std::string(text.substr(0, text.find(' ')));
  }
  return {};
}

// Access `access` of `ir` under one more guard, `condition` (each access keeps its own copy of
// its guards in guard_pool, so the copy is extended, not the shared range).
inline void add_guard(dsl::kernel_ir& ir, int access, int condition) {
  dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(access)];
  const int begin = static_cast<int>(ir.guard_pool.size());
  for (int g = a.guard_begin; g < a.guard_end; ++g) {
    const dsl::ir_guard copy = ir.guard_pool[static_cast<std::size_t>(g)];
    ir.guard_pool.push_back(copy);
  }
  ir.guard_pool.push_back({condition, false});
  a.guard_begin = begin;
  a.guard_end = static_cast<int>(ir.guard_pool.size());
}

// The bound access `access`'s index (or column) leaves in `site`, added to `ir` as a condition
// (`i + 1 < x.size()`, `i >= 0`): the guard E101's message spells.
inline int bound_condition(dsl::kernel_ir& ir, const overrun_site& site, int access) {
  const dsl::ir_access a = ir.accesses[static_cast<std::size_t>(access)];
  const int index = site.column ? a.column : a.index;
  if (site.reached < 0) return ir.node(dsl::ir_op::greater_equal, index, ir.constant(0, false));
  long long extent = 0;
  if (a.memory == dsl::memory_kind::shared)
    if (const dsl::ir_tile* t = tile_of(ir, a.target)) extent = site.column ? t->cols : t->rows;
  const int limit = a.memory == dsl::memory_kind::global ? ir.leaf(dsl::ir_op::param_size, a.target) : ir.constant(extent, false);
  return ir.node(dsl::ir_op::less, index, limit);
}

// `ir` with the bound guard of `site` on access `access` (the same element as site's).
inline dsl::kernel_ir with_bound_guard_on(const dsl::kernel_ir& ir, const overrun_site& site, int access) {
  dsl::kernel_ir out = ir;
  add_guard(out, access, bound_condition(out, site, access));
  return out;
}

// Whether expressions x and y of `ir` are the same tree (two spellings of `y[i]` in one statement).
inline bool same_tree(const dsl::kernel_ir& ir, int x, int y) {
  if (x == y) return true;
  if (x < 0 || y < 0) return false;
  const dsl::ir_expr &a = ir.exprs[static_cast<std::size_t>(x)], &b = ir.exprs[static_cast<std::size_t>(y)];
  return a.op == b.op && a.value == b.value && a.is_float == b.is_float && a.unsigned_bits == b.unsigned_bits &&
         a.signed_bits == b.signed_bits && (a.op == dsl::ir_op::load || a.op == dsl::ir_op::tile_load ? x == y : true) &&
         same_tree(ir, a.a, b.a) && same_tree(ir, a.b, b.b);
}

// Whether accesses a and b sit under the same guards and loops (each access keeps its own copy).
inline bool same_context(const dsl::kernel_ir& ir, const dsl::ir_access& a, const dsl::ir_access& b) {
  if (a.guard_end - a.guard_begin != b.guard_end - b.guard_begin || a.loop_end - a.loop_begin != b.loop_end - b.loop_begin) return false;
  for (int g = 0; g < a.guard_end - a.guard_begin; ++g) {
    const dsl::ir_guard &x = ir.guard_pool[static_cast<std::size_t>(a.guard_begin + g)], &y = ir.guard_pool[static_cast<std::size_t>(b.guard_begin + g)];
    if (x.negated != y.negated || !same_tree(ir, x.condition, y.condition)) return false;
  }
  for (int l = 0; l < a.loop_end - a.loop_begin; ++l)
    if (ir.loop_pool[static_cast<std::size_t>(a.loop_begin + l)] != ir.loop_pool[static_cast<std::size_t>(b.loop_begin + l)]) return false;
  return true;
}

// The accesses of the statement that holds `access`, marked in `marked`: in its context, those
// after the last store, atomic or barrier before it, up to the first store or atomic at or after it
// (the loads a statement makes, then its store), which a w::when around that statement covers.
inline void mark_statement(const dsl::kernel_ir& ir, int access, std::vector<char>& marked) {
  const dsl::ir_access& x = ir.accesses[static_cast<std::size_t>(access)];
  int lo = -1, hi = 1 << 30;
  for (const dsl::ir_access& y : ir.accesses)
    if (y.kind != dsl::access_kind::load && same_context(ir, x, y)) {
      if (y.position < x.position && y.position > lo) lo = y.position;
      if (y.position >= x.position && y.position < hi) hi = y.position;
    }
  for (const dsl::ir_sync& y : ir.syncs)
    if (y.position < x.position && y.position > lo) lo = y.position;
  for (std::size_t i = 0; i < ir.accesses.size(); ++i) {
    const dsl::ir_access& y = ir.accesses[i];
    if (y.position > lo && y.position <= hi && same_context(ir, x, y)) marked[i] = 1;
  }
}

// `ir` with one more guard on access `site.access`: the bound its index (or column) leaves, as the
// fix the message spells (`w::when(i + 1 < x.size(), ...)`). Added to that access and to those of
// the same element in the same context (the load and the store of `y[i] = a * x[i] + y[i]`), the
// accesses any guard around the statement covers; a guard around the whole statement covers more
// and only takes accesses away, so a launch this lets pass, the literal fix lets pass too.
inline dsl::kernel_ir with_bound_guard(const dsl::kernel_ir& ir, const overrun_site& site) {
  dsl::kernel_ir out = with_bound_guard_on(ir, site, site.access);
  const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(site.access)];
  for (std::size_t other = 0; other < ir.accesses.size(); ++other) {
    const dsl::ir_access& b = ir.accesses[other];
    if (static_cast<int>(other) == site.access || b.memory != a.memory || b.target != a.target || b.phase != a.phase ||
        !same_context(ir, a, b) || !same_tree(ir, a.index, b.index) || !same_tree(ir, a.column, b.column))
      continue;
    out = with_bound_guard_on(out, site, static_cast<int>(other));
  }
  return out;
}
// What the guard E101 offers, put around the statement as its words say, would no longer store:
// "out[255] unstored" (an element of a buffer that a store of the statement reached in this launch
// and no longer does: isl decides it, elements past either end aside), "elements of out unstored
// (or may: the checker cannot tell)" where the sets cannot be written or the store is a tile's,
// "" where it stores every one.
inline std::string stored_no_longer(const launch_request& launch, const overrun_site& site, const launch_facts& facts,
                                    const launch_names& names) {
  const dsl::kernel_ir& ir = *launch.ir;
  std::vector<char> statement(ir.accesses.size(), 0);
  mark_statement(ir, site.access, statement);
  dsl::kernel_ir around = ir;
  const int condition = bound_condition(around, site, site.access);
  for (std::size_t i = 0; i < ir.accesses.size(); ++i)
    if (statement[i] != 0) add_guard(around, static_cast<int>(i), condition);
  const dsl::ir_access& o = ir.accesses[static_cast<std::size_t>(site.access)];
  for (std::size_t i = 0; i < ir.accesses.size(); ++i) {
    const dsl::ir_access& a = ir.accesses[i];
    if (statement[i] == 0 || a.kind == dsl::access_kind::load || a.trusted) continue;
    // The overrunning access itself (and its element's other accesses): the guard is its own index's
    // bound, so it drops only what lies past the buffer's end.
    if (static_cast<int>(i) == site.access ||
        (o.memory == a.memory && o.target == a.target && same_tree(ir, o.index, a.index) && same_tree(ir, o.column, a.column)))
      continue;
    // A tile's stores are not compared (the sets are the grid's, a tile is each block's): a guard
    // that leaves one of its elements unstored leaves a later load reading what no one stored,
    // which the launch does not see again. Asked.
    if (a.memory != dsl::memory_kind::global) return "elements of a tile unstored (or may: the checker does not compare a tile's)";
    const std::optional<long long> dropped = element_dropped(ir, around, facts, static_cast<int>(i));
    const std::string buffer = a.target >= 0 && static_cast<std::size_t>(a.target) < names.params.size() ? names[static_cast<std::size_t>(a.target)] : "a buffer";
    if (!dropped) return "elements of " + buffer + " unstored (or may: the checker cannot tell)";
    if (*dropped >= 0) return buffer + "[" + std::to_string(*dropped) + "] unstored";
  }
  return {};
}

// E101's message with each fix it offers checked on this launch before it is printed (issue 57,
// item 1): the guard, by the launch's checks on the kernel with that guard; more room for a
// buffer, by the checks with the buffer that long; for a tile, by the checks with the tile that
// large. A fix the checks still refuse is not offered as one: the message says it would not be
// enough, and with which code.
inline std::string checked_overrun_fixes(const launch_request& launch, const overrun_site& site, std::string message,
                                         const launch_facts& facts, const launch_names& names) {
  if (site.access < 0 || checking_a_fix() > 0) return message;
  const dsl::ir_access& a = launch.ir->accesses[static_cast<std::size_t>(site.access)];
  // The fixes are the message's tail (launch_impl::overrun_fix): "; <guard>[, or <room>]".
  const std::size_t guard_at = message.rfind("; guard ");
  if (guard_at == std::string::npos) return message;
  std::size_t room_at = message.find(", or ", guard_at);
  std::string guard = message.substr(guard_at + 2, (room_at == std::string::npos ? message.size() : room_at) - guard_at - 2);
  std::string room = room_at == std::string::npos ? std::string() : message.substr(room_at + 5);
  // The guard: on the kernel with that guard on the access.
  {
    const dsl::kernel_ir guarded = with_bound_guard(*launch.ir, site);
    launch_request with_guard = launch;
    with_guard.ir = &guarded;
    if (const std::string code = refusal_under(with_guard); !code.empty()) {
      guard = (guard.rfind("guard it, ", 0) == 0 ? "a guard, " + guard.substr(10) + "," : "guarding " + guard.substr(6)) +
              " would not be enough for this launch (" + code + " with it)";
    } else if (const std::string dropped = stored_no_longer(launch, site, facts, names); !dropped.empty()) {
      // The guard the words give covers the whole statement: where that leaves an element of a
      // buffer unstored that the kernel stored (`out[i] = x[i + 1]` guarded: out's last element),
      // the program runs and computes less. Which is meant, only the user knows: asked.
      guard = "should the threads that reach past the end skip the whole statement? " +
              (guard.rfind("guard it, ", 0) == 0 ? "A guard, " + guard.substr(10) + "," : "Guarding " + guard.substr(6)) +
              " would leave " + dropped;
    }
  }
  // More room: "bind x to at least N elements" (a buffer of its own that long) or "give tile at
  // least N rows" (the tile that large). Where N, the first element past the end, is not enough
  // for a buffer (other threads reach further), the least length that is, found by doubling and
  // halving with the checks themselves; said not to be enough where no length up to 2^40 is.
  if (const std::size_t least = room.find(" at least "); least != std::string::npos) {
    const long long wanted = std::stoll(room.substr(least + 10));
    std::vector<bound_argument> arguments(launch.arguments.begin(), launch.arguments.end());
    const auto refused_with = [&](long long n) {
      launch_request larger = launch;
      dsl::kernel_ir resized;
      if (a.memory == dsl::memory_kind::global) {
        // A buffer of its own that long, at an address no other argument's memory reaches (a low
        // one no allocation has), suitably aligned.
        std::vector<bound_argument> args = arguments;
        bound_argument& b = args[static_cast<std::size_t>(a.target)];
        const long long element = b.size > 0 ? b.bytes / b.size : 0;
        b.address = reinterpret_cast<const void*>(std::uintptr_t{256});
        b.bytes = n * element;
        b.size = n;
        larger.arguments = args;
        return refusal_under(larger);
      }
      if (const dsl::ir_tile* t = tile_of(*launch.ir, a.target)) {
        resized = *launch.ir;
        dsl::ir_tile& grown = resized.tiles[static_cast<std::size_t>(t - launch.ir->tiles.data())];
        (site.column ? grown.cols : grown.rows) = static_cast<int>(n);
        larger.ir = &resized;
      }
      return refusal_under(larger);
    };
    if (const std::string code = refused_with(wanted); !code.empty()) {
      long long enough = -1;
      if (a.memory == dsl::memory_kind::global) {
        long long refused = wanted;
        for (long long n = wanted * 2; n > 0 && n <= (1LL << 40); n *= 2) {
          if (refused_with(n).empty()) {
            enough = n;
            break;
          }
          refused = n;
        }
        while (enough > 0 && enough - refused > 1) {
          const long long mid = refused + (enough - refused) / 2;
          (refused_with(mid).empty() ? enough : refused) = mid;
        }
      }
      room = enough > 0 ? room.substr(0, least + 10) + std::to_string(enough) + " elements"
                        : "more room (" + room.substr(least + 10) + ") would not be enough either (" + code + " with it)";
    }
  }
  const bool asked = guard.rfind("should ", 0) == 0;
  return message.substr(0, guard_at) + "; " + guard + (room.empty() ? std::string() : (asked ? "; if they should not, " : ", or ") + room);
}

// E102's fix of a grid of one block, checked on this launch before it is printed (issue 57, item
// 1): the note that follows its words, checked, or not enough and with which code. (The other fix,
// k.global_id() for k.thread_id(), changes what the static rules proved, and the launch never
// runs those rules (scripts/include-graph keeps check/rules.hpp out of check/launch/): the message
// asks it as a question.)
inline std::string checked_one_block(const launch_request& launch, int d) {
  if (checking_a_fix() > 0) return {};
  launch_request one_block = launch;
  (d == 0 ? one_block.grid.x : d == 1 ? one_block.grid.y : one_block.grid.z) = 1;
  const std::string code = refusal_under(one_block);
  return code.empty() ? std::string(" (checked: this launch passes its checks with it)")
                      : " (which would not be enough for this launch: " + code + " with it)";
}

// E104's fix, checked on this launch before it is printed (issue 57, item 1): the operation that
// wraps computed in long long, as `w::convert<long long>(x)` of its first operand makes it, and so
// the arithmetic above it that C++ carries out in long long then: through either operand of + - *
// / % & | ^ min max and the left one of a shift, up to the comparison that ends it (which then
// compares in long long). The checker reasoned about the operation as about integers, which long
// long makes it for any launch's numbers (at most 2^31 threads, int values): the proof stands, and
// the launch's checks on the retyped kernel decide the rest (an index that now reaches -1: E101).
// Where the words could not be followed to that kernel, it is not called checked: an operation
// already 64 bits wide, a conversion or a local read on the way up (their type is the user's), a
// select, or a 64-bit unsigned operand (C++ keeps unsigned long long). A guard, the other fix, is
// a choice of which threads should run: asked.
inline std::string checked_wide_type(const launch_request& launch, int wrapped, const launch_names& names) {
  using dsl::ir_op;
  const dsl::kernel_ir& ir = *launch.ir;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(wrapped)];
  const std::string operand = e.a >= 0 ? render(ir, e.a, names) : std::string();
  const std::string spelled = "w::convert<long long>(" + operand + ")";
  const std::string asked = "should only some threads compute it? Then guard it so that it cannot";
  const std::string guard = "; or " + asked;
  const std::string unchecked = "; compute it in a 64-bit signed type" + (operand.empty() ? std::string() : ", from " + spelled) + guard;
  if (e.signed_bits >= 64 || e.unsigned_bits >= 64) return "; " + asked;  // already as wide as the fix would make it
  const auto arithmetic = [](ir_op op) {
    return op == ir_op::add || op == ir_op::sub || op == ir_op::mul || op == ir_op::div || op == ir_op::mod || op == ir_op::bit_and ||
           op == ir_op::bit_or || op == ir_op::bit_xor || op == ir_op::min || op == ir_op::max || op == ir_op::negate;
  };
  const auto comparison = [](ir_op op) {
    return op == ir_op::less || op == ir_op::less_equal || op == ir_op::greater || op == ir_op::greater_equal || op == ir_op::equal ||
           op == ir_op::not_equal;
  };
  // A conversion (dsl::integer_convert_e: `x + 0` in the conversion's type) looks like an add of a
  // constant 0: its type is the user's, so the rewrite stops being followable there.
  const auto conversion = [&](const dsl::ir_expr& x) {
    return x.op == ir_op::add && x.b >= 0 && ir.exprs[static_cast<std::size_t>(x.b)].op == ir_op::constant &&
           ir.exprs[static_cast<std::size_t>(x.b)].value == 0;
  };
  // The wrap a conversion makes (`w::convert<int>(x)` of a value past int) is the type the user
  // wrote: a wider first operand would not change it.
  if (checking_a_fix() > 0 || operand.empty() || conversion(e)) return unchecked;
  dsl::kernel_ir wide = ir;
  std::vector<char> widened(wide.exprs.size(), 0);  // 1: computed in long long; 2: a comparison that ends it
  widened[static_cast<std::size_t>(wrapped)] = comparison(e.op) ? 2 : 1;
  bool followable = true;
  for (std::size_t i = static_cast<std::size_t>(wrapped) + 1; i < wide.exprs.size(); ++i) {
    const dsl::ir_expr& x = ir.exprs[i];
    const bool from_a = x.a >= 0 && widened[static_cast<std::size_t>(x.a)] == 1, from_b = x.b >= 0 && widened[static_cast<std::size_t>(x.b)] == 1;
    if (!from_a && !from_b) continue;
    if (x.op == ir_op::shl || x.op == ir_op::shr) {
      if (from_a) widened[i] = 1;  // a shift has its left operand's type
    } else if (comparison(x.op)) {
      widened[i] = 2;
    } else if (arithmetic(x.op) && !conversion(x) && !x.is_float && x.unsigned_bits < 64) {
      widened[i] = 1;
    } else {
      followable = false;  // a select, a conversion, a call, a 64-bit unsigned operation: not the words' kernel
    }
  }
  for (const dsl::ir_expr& x : ir.exprs)
    if (x.op == ir_op::local_var && ir.held_value(x) >= 0 && widened[static_cast<std::size_t>(ir.held_value(x))] != 0) followable = false;
  if (!followable) return unchecked;
  for (std::size_t i = 0; i < wide.exprs.size(); ++i) {
    if (widened[i] == 0) continue;
    dsl::ir_expr& x = wide.exprs[i];
    x.unsigned_bits = 0;
    x.signed_bits = 64;
    if (widened[i] == 1) x.is_unsigned = false;
  }
  launch_request retyped = launch;
  retyped.ir = &wide;
  const std::string code = refusal_under(retyped);
  return code.empty() ? "; checked fix: compute it in a 64-bit signed type, from " + spelled + " (this launch passes its checks with it)" +
                            guard
                      : "; computing it in a 64-bit signed type, from " + spelled + ", would not be enough for this launch (" +
                            code + " with it)" + guard;
}

// `ir` with guard `condition` on the statements of accesses `first` and `second`: in each one's
// context, the accesses after the last store, atomic or barrier before it, up to the first store or
// atomic at or after it (the loads a statement makes, then its store), which a w::when around that
// statement covers.
template <class ConditionOf>
inline dsl::kernel_ir with_guard_around(const dsl::kernel_ir& ir, const ConditionOf& condition_of, const row_guard& guard, int first,
                                        int second) {
  dsl::kernel_ir out = ir;
  const int condition = condition_of(out, guard);
  std::vector<char> guarded(ir.accesses.size(), 0);
  for (const int access : {first, second}) mark_statement(ir, access, guarded);
  for (std::size_t i = 0; i < ir.accesses.size(); ++i) {
    if (guarded[i] == 0) continue;
    add_guard(out, static_cast<int>(i), condition);
  }
  return out;
}

// E106's kernel fix checked on this launch before it is printed (issue 57, item 1). For a race
// between two stores or a store and a load whose proof needs a condition on the launch's values:
//   * each row guard of their indices (row_guards.hpp: `x < width` for `out[y * width + x]`) is
//     added around their statements, and offered only where every launch check passes on this
//     launch with it (a guard only takes accesses away, so the static rules' proof and its
//     conditions still hold) and the stores still reach every element they reached (the
//     footprint, decided by isl);
//   * the guard on the failed condition itself is never offered as a fix: the condition fails for
//     this launch, so the accesses would not run at all; the message asks whether the launch's
//     values are the ones the kernel's layout means;
//   * "index by the block" is kept only where an index reads no block: a kernel that already
//     indexes with k.global_id() is asked which thread should store each element.
inline std::string checked_obligation_fixes(const launch_request& launch, const launch_facts& facts, const launch_names& names,
                                            const obligation& o, std::string message) {
  if (checking_a_fix() > 0 || o.first < 0 || o.second < 0) return message;
  const std::size_t fix_at = message.find(". In the kernel: ");
  const std::size_t tail_at = message.rfind("; or launch with values that meet the condition");
  if (fix_at == std::string::npos || tail_at == std::string::npos || tail_at < fix_at) return message;
  const std::string fix = message.substr(fix_at + 2, tail_at - fix_at - 2);
  const dsl::kernel_ir& ir = *launch.ir;
  // The row guard alone first, then with the other coordinate below each integral value parameter.
  std::vector<row_guard> candidates;
  for (const int access : {o.first, o.second})
    for (const row_guard& g : row_guards_of(ir, ir.accesses[static_cast<std::size_t>(access)].index)) {
      bool seen = false;
      for (const row_guard& c : candidates) seen = seen || (same_tree(ir, c.below, g.below) && same_tree(ir, c.limit, g.limit));
      if (seen) continue;
      candidates.push_back({g.below, g.limit, -1, -1});
      for (std::size_t p = 0; p < launch.arguments.size(); ++p)
        if (!launch.arguments[p].is_buffer && launch.arguments[p].value && !reads_op(ir, g.limit, dsl::ir_op::param_value, static_cast<long long>(p)))
          candidates.push_back({g.below, g.limit, g.other, static_cast<int>(p)});
    }
  const auto condition_of = [](dsl::kernel_ir& out, const row_guard& r) {
    const int row = out.node(dsl::ir_op::less, r.below, r.limit);
    if (r.other < 0) return row;
    return out.node(dsl::ir_op::logical_and, row, out.node(dsl::ir_op::less, r.other, out.leaf(dsl::ir_op::param_value, r.other_param)));
  };
  std::string offered, refused;
  // At most four tried: each costs the static rules, a launch's checks and two isl questions.
  if (candidates.size() > 4) candidates.resize(4);
  for (const row_guard& g : candidates) {
    std::string text = "w::when(" + render(ir, g.below, names) + " < " + render(ir, g.limit, names);
    if (g.other >= 0) {
      dsl::kernel_ir spelled = ir;
      text += " && " + render(ir, g.other, names) + " < " + render(spelled, spelled.leaf(dsl::ir_op::param_value, g.other_param), names);
    }
    text += ", ...)";
    if (!spelled_as_written(text)) continue;
    const dsl::kernel_ir guarded = with_guard_around(ir, condition_of, g, o.first, o.second);
    // A guard only takes accesses away, so what the static rules proved of the kernel holds of it
    // too, and their conditions stay sufficient: the launch's checks with the kernel's own
    // obligations decide it (the pair itself asked again of the guarded kernel, global_pairs.hpp).
    launch_request with_guard = launch;
    with_guard.ir = &guarded;
    const std::string code = refusal_under(with_guard);
    // (Only the first refusal is told: the message stays short.)
    if (!code.empty()) {
      if (refused.empty()) refused = text + " would not be enough for this launch (" + code + " with it)";
      continue;
    }
    // The footprint: a guard that keeps the race away by storing less is no fix.
    std::optional<long long> dropped = -1;
    for (const int access : {o.first, o.second})
      if (ir.accesses[static_cast<std::size_t>(access)].kind != dsl::access_kind::load && dropped && *dropped < 0)
        dropped = element_dropped(ir, guarded, facts, access);
    if (!dropped || *dropped >= 0) {
      if (refused.empty())
        refused = text + " would store fewer elements" +
                  (dropped ? " (element " + std::to_string(*dropped) + " no longer)" : std::string(" (or cannot be shown not to)"));
      continue;
    }
    offered = "In the kernel: guard the accesses with " + text + " (checked: this launch runs clean with it, and stores every element it stored)";
    break;
  }
  // "step by the whole grid": the loop the message names steps by k.block_dim() * k.grid_dim()
  // in the kernel checked again, with the same footprint test.
  const std::size_t step_at = fix.find("; step by the whole grid, k.block_dim() * k.grid_dim()");
  if (offered.empty() && step_at != std::string::npos) {
    std::string verdict = " (stepping by the whole grid cannot be checked here)";
    for (const int access : {o.first, o.second}) {
      const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(access)];
      int loop = -1;
      for (int p = a.loop_end - 1; p >= a.loop_begin && loop < 0; --p) {
        const int id = ir.loop_pool[static_cast<std::size_t>(p)];
        const dsl::ir_loop& l = ir.loops[static_cast<std::size_t>(id)];
        if (!l.grid_stride && !reads_op(ir, l.step, dsl::ir_op::grid_dim) && reads_op(ir, l.lo, dsl::ir_op::global_id) &&
            reads_op(ir, a.index, dsl::ir_op::loop_var, id))
          loop = id;
      }
      if (loop < 0) continue;
      // A step of block_dim * grid_dim visits every grid_dim-th trip of a step of block_dim: each
      // thread's accesses are a subset of the kernel's own, so what the static rules proved still
      // holds and the launch's checks with the kernel's obligations decide it. (Not for a loop with
      // a barrier, whose trips the tile rules count.)
      if (ir.loops[static_cast<std::size_t>(loop)].has_barrier || !reads_op(ir, ir.loops[static_cast<std::size_t>(loop)].step, dsl::ir_op::block_dim))
        break;
      dsl::kernel_ir stepped = ir;
      stepped.loops[static_cast<std::size_t>(loop)].step =
          stepped.node(dsl::ir_op::mul, stepped.leaf(dsl::ir_op::block_dim, 0), stepped.leaf(dsl::ir_op::grid_dim, 0));
      launch_request with_step = launch;
      with_step.ir = &stepped;
      const std::string code = refusal_under(with_step);
      std::optional<long long> dropped = -1;
      for (const int store : {o.first, o.second})
        if (code.empty() && ir.accesses[static_cast<std::size_t>(store)].kind != dsl::access_kind::load && dropped && *dropped < 0)
          dropped = element_dropped(ir, stepped, facts, store);
      verdict = !code.empty()          ? " (stepping by the whole grid would not be enough for this launch (" + code + " with it))"
                : !dropped             ? " (stepping by the whole grid cannot be shown to store every element it stored)"
                : *dropped >= 0        ? " (stepping by the whole grid would store fewer elements (element " + std::to_string(*dropped) + " no longer))"
                                       : " (checked: this launch runs clean with it, and stores every element it stored)";
      break;
    }
    offered = fix + verdict;
  }
  std::string kernel_part;
  if (!offered.empty()) {
    kernel_part = offered;
  } else {
    const bool condition_guard = fix.rfind("In the kernel: guard the accesses with the condition", 0) == 0;
    const bool by_block = fix.find("index by the block") != std::string::npos;
    bool reads_blocks = false;
    for (const int access : {o.first, o.second}) {
      const int index = ir.accesses[static_cast<std::size_t>(access)].index;
      reads_blocks = reads_blocks || reads_op(ir, index, dsl::ir_op::global_id) || reads_op(ir, index, dsl::ir_op::block_id);
    }
    if (condition_guard) {
      const std::size_t when = fix.find("w::when(");
      const std::size_t end = fix.find(", ...)", when);
      const std::string condition = when == std::string::npos || end == std::string::npos ? std::string() : fix.substr(when + 8, end - when - 8);
      kernel_part = "In the kernel: a guard on the condition" + (condition.empty() ? std::string() : " (" + condition + ")") +
                    " would keep the accesses from running at all for this launch, where it fails: are these the values the "
                    "kernel's layout means?";
    } else if (by_block && reads_blocks) {
      kernel_part = "In the kernel: the index already reads the block; which thread should store each element?";
    } else {
      kernel_part = fix;
    }
    if (!refused.empty()) kernel_part += " (" + refused + ")";
  }
  return message.substr(0, fix_at + 2) + kernel_part + message.substr(tail_at);
}

}  // namespace launch_impl

inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API void check_launch(const launch_request& launch, std::span<argument_reading> read) {
  const std::size_t arity = launch.arguments.size();
  // The arguments' readings, first: below, an argument's address, size and value are read only
  // through them (its kind, whether it is a buffer and whether it is writable are its
  // parameter's, fixed by the kernel).
  for (std::size_t i = 0; i < arity; ++i) read[i] = read_argument(launch.arguments, i);
  const launch_names names = plain_launch_names(launch.param_names);
  // A refusal's message in the source's names (loops, tiles, thread indices): read only then.
  const auto named = [&] { return launch_names_from_source(launch.param_names, launch.source, *launch.ir); };
  std::vector<std::string> kinds;
  kinds.reserve(arity);
  for (const bound_argument& a : launch.arguments) kinds.emplace_back(a.kind);

  // E100: one buffer, two parameters, one of them writable (two empty buffers share no memory);
  // or two views of one buffer (memory/buffer_view.hpp) whose elements overlap.
  for (std::size_t a = 0; a < arity; ++a)
    for (std::size_t b = a + 1; b < arity; ++b) {
      const bound_argument &x = launch.arguments[a], &y = launch.arguments[b];
      if (!x.is_buffer || !y.is_buffer || !(x.writable || y.writable)) continue;
      const auto parameter = [&](std::size_t i) {
        return names[i] + " (parameter " + std::to_string(i) + ", " + kinds[i] + ")";
      };
      if (read[b].same_as == read[a].same_as && x.size > 0 && y.size > 0)  // an empty view shares nothing
        throw aliasing_error(launch.kernel, "one buffer is bound to " + parameter(a) + " and to " + parameter(b) +
                                                "; a writable parameter needs a buffer of its own: bind another buffer, or, to work in place, "
                                                "write the kernel with one inout parameter that it both reads and writes (the "
                                                "checker then checks its in-place races)");
      if (a < 64 && (read[b].overlaps >> a & 1) != 0)
        throw aliasing_error(launch.kernel, "the memory bound to " + parameter(a) + " and to " + parameter(b) +
                                                " overlaps (views of one buffer that share elements); a writable parameter "
                                                "needs memory of its own: view disjoint ranges, or use another buffer");
    }

  // E101, alignment: a vector access (w::vectors<N>(x)[i]) moves N elements with one instruction,
  // which faults unless the address is a multiple of its width. Pool blocks are 256-byte aligned
  // and buffers bind whole, so this holds unless a user-supplied pool hands out less.
  for (const dsl::ir_access& a : launch.ir->accesses) {
    if (a.vector_bytes == 0 || a.memory != dsl::memory_kind::global) continue;
    // (16 % vector_bytes == 0, so the address modulo 16 decides it.)
    if (read[static_cast<std::size_t>(a.target)].alignment % a.vector_bytes != 0)
      throw bounds_error(launch.kernel, names[static_cast<std::size_t>(a.target)] + " (parameter " + std::to_string(a.target) +
                                            ") starts at an address that is not a multiple of " + std::to_string(a.vector_bytes) +
                                            " bytes, which its vector access needs");
  }

  // E102: the checker proved the kernel race-free for grids that extend only in the dimensions
  // it refers to.
  const dsl::kernel_ir& ir = *launch.ir;
  const int dims = grid_dims_of(ir);
  const int extents[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
  for (int d = 0; d < 3; ++d)
    if ((dims >> d & 1) == 0 && extents[d] > 1) {
      // Which store the blocks would repeat, and the index each block's part would take: the
      // mistake is most often k.thread_id() where k.global_id() was meant.
      std::string store;
      for (const dsl::ir_access& a : ir.accesses)
        if (a.memory == dsl::memory_kind::global && a.kind != dsl::access_kind::load && !a.trusted) {
          store = names[static_cast<std::size_t>(a.target)] + "[" + render(ir, a.index, named()) + "]";
          break;
        }
      const std::string axis(1, "xyz"[d]), call = d == 0 ? "" : d == 1 ? "_y" : "_z";
      throw grid_error(launch.kernel, "the grid has " + std::to_string(extents[d]) + " blocks in dimension " + axis +
                                          ", which the kernel never refers to (no block_id, global_id or grid_dim "
                                          "there): every block would do block 0's work" +
                                          (store.empty() ? std::string() : ", storing " + store + " again,") +
                                          " and race. Should each block take its own part? Then index with k.global_id" + call +
                                          "() (block_id." + axis + " * block_dim." + axis + " + thread_id." + axis +
                                          ") where the kernel uses k.thread_id" + call +
                                          "() (not checked here: the kernel's rules run when it compiles); if one block is meant, "
                                          "launch a grid of one block there" + launch_impl::checked_one_block(launch, d));
    }

  // What the launch fixes, for the interval analysis.
  launch_facts facts;
  facts.block = launch.block;
  facts.grid = launch.grid;
  facts.values.resize(arity);
  facts.beyond.resize(arity);
  facts.sizes.resize(arity);
  facts.contents.resize(arity);
  for (std::size_t i = 0; i < arity; ++i) {
    if (launch.arguments[i].is_buffer) facts.sizes[i] = read[i].number;
    else if (read[i].has_number) facts.values[i] = read[i].number;
    else facts.beyond[i] = read[i].beyond;
    if (read[i].has_contents && !launch.arguments[i].writable) facts.contents[i] = read[i].contents;
  }
  {  // A writable buffer's measured contents, widened by the kernel's stores (written_ranges.hpp).
    std::vector<std::optional<contents_range>> before(arity);
    std::vector<char> writable(arity, 0);
    for (std::size_t i = 0; i < arity; ++i) {
      writable[i] = launch.arguments[i].is_buffer && launch.arguments[i].writable;
      if (writable[i] && read[i].has_contents) before[i] = read[i].contents;
    }
    widen_written_contents(ir, facts, before, writable);
  }
  // Each check again in the source's names when it refuses (the same check, the same verdict).
  // E107: the facts the kernel states (given(...)) hold for this launch.
  if (!first_false_fact(ir, facts, names).empty()) throw fact_error(launch.kernel, first_false_fact(ir, facts, named()));
  // E104: the checker's integers are the kernel's: no unsigned operation wraps, no int one overflows.
  if (!first_integer_wrap(ir, facts, names).empty()) {
    int wrapped = -1;
    std::string why = first_integer_wrap(ir, facts, named(), &wrapped);
    if (wrapped >= 0) why += launch_impl::checked_wide_type(launch, wrapped, named());
    throw wrap_error(launch.kernel, why);
  }
  // E103: every run-time loop ends.
  if (!first_bad_step(ir, facts, names).empty()) throw loop_error(launch.kernel, first_bad_step(ir, facts, named()));
  // E106: the conditions on this launch that the checker's proof rests on.
  if (launch.obligations != nullptr && !first_unmet_obligation(ir, facts, names, *launch.obligations).empty()) {
    int failed = -1;
    std::string why = first_unmet_obligation(ir, facts, named(), *launch.obligations, &failed);
    if (failed >= 0) why = launch_impl::checked_obligation_fixes(launch, facts, named(), launch.obligations->items[failed], std::move(why));
    throw obligation_error(launch.kernel, why);
  }
  // E101: every access within its buffer or tile, for this geometry and these values.
  overrun_site site;
  if (!first_overrun(ir, facts, names, kinds, &site).empty())
    throw bounds_error(launch.kernel, launch_impl::checked_overrun_fixes(launch, site, first_overrun(ir, facts, named(), kinds), facts, named()));
}

// " (in the program: scratch is bound to y, a view of samples to x)": each parameter the message
// mentions (indexed, sized, described or bound: `y[`, `y.size()`, `y (parameter 1`, `bind y to`,
// not an English word that is its name) whose argument has a name of its own (issue 57, item 3).
// The checks know the kernel's parameters; only the launch knows what was bound to them. Called
// only when a launch is refused; a failure to read leaves the refusal as it was.
WARDEN_RUNTIME_API void note_argument_names(error& refused, std::span<const std::string_view> param_names, std::string_view source,
                                            const dsl::kernel_ir& ir, std::span<const argument_name> arguments) noexcept {
  try {
    const std::string_view whole = refused.what();
    // The detail after "CODE [tag] entity: ", where parameters are named.
    const std::size_t colon = whole.find(": ");
    const std::string_view text = colon == std::string_view::npos ? whole : whole.substr(colon + 2);
    const launch_names names = launch_names_from_source(param_names, source, ir);
    const auto mentioned = [&](const std::string& p) {
      for (std::size_t at = text.find(p); at != std::string_view::npos; at = text.find(p, at + 1)) {
        if (at > 0 && (dsl::source_text::ident_char(text[at - 1]) || text[at - 1] == '.')) continue;
        const std::string_view after = text.substr(at + p.size());
        const std::string_view before = text.substr(0, at);
        if (after.starts_with("[") || after.starts_with(".size()") || after.starts_with(" (parameter") || before.ends_with("bind ") ||
            before.ends_with("bound to "))
          return true;
      }
      return false;
    };
    std::string note;
    for (std::size_t i = 0; i < arguments.size() && i < names.params.size(); ++i) {
      const std::string& param = names.params[i];
      const argument_name& a = arguments[i];
      if (a.name.empty() || param.empty() || (a.name == param && !a.view) || !mentioned(param)) continue;
      const std::string what = (a.view ? "a view of " : "") + a.name;
      note += note.empty() ? " (in the program: " + what + " is bound to " + param : ", " + what + " to " + param;
    }
    if (!note.empty()) refused.add_note(note + ")");
  } catch (...) {
  }
}
}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
