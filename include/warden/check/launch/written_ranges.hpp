#pragma once
// What a buffer the kernel writes can hold while it runs, for the launch's intervals: a B+tree's
// `node[b]`, stored by the kernel from a table and then read in an index (proposals/0011, piece
// 4). A load of such a buffer is no longer unbounded where every value the buffer can hold lies in
// one range: what the launch measured of it before the kernel runs, widened by the interval of
// every value the kernel stores into it (under the store's guards, with the loads of written
// buffers read through the ranges found so far), again until nothing grows. Each range then
// contains every value its buffer holds at any point of any run: an induction over the stores, in
// the order any run makes them, since each stores a value computed from loads that, by the
// induction, lie in their ranges (an interval abstract interpretation with the buffers as
// variables). A store the intervals cannot follow (an atomic update, a vector store, a value the
// element type cannot hold) leaves its buffer unknown; so does a range still growing after
// max_widenings rounds (`cur[b] = cur[b] + 1` in a loop).

#include <cstddef>
#include <optional>
#include <vector>

#include "../../dsl/ir.hpp"
#include "interval_evaluator.hpp"
#include "launch_request.hpp"

namespace warden::check {

namespace launch_impl {

inline constexpr int max_widenings = 8;

// The values an element of `a`'s buffer can hold, from a load of it: its type's range (the bytes
// the access reads, the load's signedness), or nullopt for a floating-point element.
inline std::optional<interval> element_type_range(const dsl::kernel_ir& ir, const dsl::ir_access& a) {
  for (const dsl::ir_expr& e : ir.exprs) {
    if (e.op != dsl::ir_op::load || ir.accesses[static_cast<std::size_t>(e.value)].target != a.target ||
        ir.accesses[static_cast<std::size_t>(e.value)].memory != dsl::memory_kind::global)
      continue;
    if (e.is_float) return std::nullopt;
    const int bits = a.element_bytes > 0 ? 8 * a.element_bytes : 64;
    if (bits >= 64) return e.is_unsigned ? interval{0, interval::top().hi} : interval::top();
    const long long span = 1LL << bits;
    return e.is_unsigned ? interval{0, span - 1} : interval{-span / 2, span / 2 - 1};
  }
  return std::nullopt;  // never loaded: nothing reads its range
}

}  // namespace launch_impl

// `facts.contents[p]`, for each buffer p the kernel writes whose contents the launch measured
// (`initial`, by parameter position), replaced by the range every value it holds while the kernel
// runs lies in; nullopt where that cannot be bounded. Read-only buffers are left as they are.
inline void widen_written_contents(const dsl::kernel_ir& ir, launch_facts& facts, const std::vector<std::optional<contents_range>>& initial,
                                   const std::vector<char>& writable) {
  const std::size_t arity = facts.contents.size();
  std::vector<char> widened(arity, 0);
  for (std::size_t p = 0; p < arity; ++p) {
    if (p >= writable.size() || !writable[p]) continue;
    facts.contents[p].reset();
    if (p >= initial.size() || !initial[p]) continue;
    contents_range start;
    start.lo = start.measured_lo = initial[p]->lo;
    start.hi = start.measured_hi = initial[p]->hi;
    start.lo_at = initial[p]->lo_at;
    start.hi_at = initial[p]->hi_at;
    start.widened = true;
    facts.contents[p] = start;
    widened[p] = 1;
  }
  const auto forget = [&](std::size_t p) {
    facts.contents[p].reset();
    widened[p] = 0;
  };
  bool growing = true;
  for (int round = 0; round <= launch_impl::max_widenings && growing; ++round) {
    growing = false;
    for (const dsl::ir_access& a : ir.accesses) {
      const auto p = static_cast<std::size_t>(a.target);
      if (a.memory != dsl::memory_kind::global || a.kind == dsl::access_kind::load || p >= arity || !widened[p]) continue;
      const std::optional<interval> type = launch_impl::element_type_range(ir, a);
      if (a.kind != dsl::access_kind::store || a.vector_bytes != 0 || a.value < 0 || !type) {
        forget(p);  // an atomic update or a vector store: the intervals do not follow it
        growing = true;
        continue;
      }
      interval_evaluator evaluator(ir, facts);
      const interval v = evaluator.index_interval(a.value, a.guard_begin, a.guard_end);
      if (!v.bounded() || v.lo < type->lo || v.hi > type->hi) {  // unbounded, or converted into the type with a wrap
        forget(p);
        growing = true;
        continue;
      }
      contents_range& r = *facts.contents[p];
      if (v.lo < r.lo || v.hi > r.hi) {
        r.lo = std::min(r.lo, v.lo);
        r.hi = std::max(r.hi, v.hi);
        growing = true;
      }
    }
  }
  if (growing)  // still growing: no range found
    for (std::size_t p = 0; p < arity; ++p)
      if (widened[p]) forget(p);
}

}  // namespace warden::check
