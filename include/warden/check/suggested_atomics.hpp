#pragma once
// The atomic a W012 message suggests, checked before it is offered (issue 57, item 1): the store
// at a data-dependent index becomes an atomic update in the kernel's IR (with the load a compound
// assignment makes of the same element, which the atomic's own read replaces), its parameter is
// declared atomic<T>, and the mode rules and the checker run again. The message offers the atomic
// only where that kernel is accepted; where it is not (the kernel also loads the buffer plainly in
// the same phase, say: W040), it asks whether threads may meet there at all. The update touches
// the elements the store touched, so the footprint is unchanged.
#include <array>
#include <string_view>

#include "../dsl/ir.hpp"
#include "finding.hpp"
#include "modes.hpp"
#include "order.hpp"
#include "rules.hpp"

namespace warden::check {

// Whether expressions x and y compute one value in one thread: the same tree, whose loads read
// the same element of a buffer no access stores to between them (`hist[in[i]] += 1` describes
// in[i] twice, for the load and for the store).
constexpr bool same_value(const kernel_ir& ir, int x, int y) {
  if (x == y) return true;
  if (x < 0 || y < 0) return false;
  const dsl::ir_expr &u = ir.exprs[static_cast<std::size_t>(x)], &v = ir.exprs[static_cast<std::size_t>(y)];
  if (u.op != v.op || u.is_float != v.is_float || u.unsigned_bits != v.unsigned_bits || u.signed_bits != v.signed_bits) return false;
  if (u.op != dsl::ir_op::load) return u.value == v.value && same_value(ir, u.a, v.a) && same_value(ir, u.b, v.b);
  const dsl::ir_access &p = ir.accesses[static_cast<std::size_t>(u.value)], &q = ir.accesses[static_cast<std::size_t>(v.value)];
  if (p.memory != q.memory || p.target != q.target || p.vector_bytes != q.vector_bytes || !same_value(ir, p.index, q.index) ||
      !same_value(ir, p.column, q.column))
    return false;
  const int lo = p.position < q.position ? p.position : q.position, hi = p.position < q.position ? q.position : p.position;
  for (const auto& z : ir.accesses)
    if (z.kind != dsl::access_kind::load && z.memory == p.memory && z.target == p.target && z.position > lo && z.position < hi) return false;
  return !separated_in_program(ir, p, q, false);
}

// Whether the kernel is accepted with access `store` made atomic, the loads of the same element in
// its statement made part of the update where the statement is a compound assignment (`compound`;
// from position `statement_begin` on, the statement's first access), and a global
// store's parameter declared atomic<T>.
template <std::size_t N>
constexpr bool atomic_accepted(const kernel_ir& ir, block_shape shape, std::array<std::string_view, N> kinds, int store,
                               int statement_begin, bool compound) {
  kernel_ir rewritten = ir;
  dsl::ir_access& a = rewritten.accesses[static_cast<std::size_t>(store)];
  if (a.kind != dsl::access_kind::store || a.vector_bytes != 0) return false;
  // The GPU's atomics take elements of 4 or 8 bytes (backend/cuda_atomic.hpp): an atomic on a
  // short or a char would not compile for the device, so it is no fix to offer.
  int bytes = a.element_bytes;
  if (a.memory == dsl::memory_kind::shared) bytes = a.target >= 0 && a.target < static_cast<int>(ir.tiles.size()) ? ir.tiles[static_cast<std::size_t>(a.target)].element_bytes : 0;
  if (bytes != 0 && bytes != 4 && bytes != 8) return false;
  // The compound assignment's own load: the same element (the same index expression), in the
  // same context, with no other access of the buffer between it and the store.
  const context at = context_of(a);
  for (auto& z : rewritten.accesses) {
    if (!compound) break;  // `x = x + 1` keeps its plain load: the atomic_exchange the words give does too
    if (z.kind != dsl::access_kind::load || z.memory != a.memory || z.target != a.target || !same_value(ir, z.index, a.index) ||
        !same_value(ir, z.column, a.column) || z.position >= a.position || z.position < statement_begin)
      continue;
    bool between = false;
    for (const auto& y : ir.accesses)
      between = between || (y.memory == a.memory && y.target == a.target && y.position > z.position && y.position < a.position);
    if (!between && encloses(rewritten, context_of(z), at) && encloses(rewritten, at, context_of(z))) z.kind = dsl::access_kind::atomic;
  }
  a.kind = dsl::access_kind::atomic;
  if (a.memory == dsl::memory_kind::global) {
    if (a.target < 0 || static_cast<std::size_t>(a.target) >= N) return false;
    kinds[static_cast<std::size_t>(a.target)] = "atomic";
  }
  if (mode_finding(rewritten, kinds)) return false;
  return analyse(rewritten, shape).code == diagnostic::code::none;
}

}  // namespace warden::check
