#pragma once
// Per-thread evaluation of expressions in constant evaluation. The block shape is static, so a
// thread's ids are numbers; loop counters are numbers where trip counts are static; everything
// else (block ids, parameters, loaded data) is unknown. Shared-memory indices usually depend only
// on the thread and static loops, so the checker can enumerate every thread's footprint exactly.

#include <climits>
#include <vector>

#include "affine.hpp"

namespace warden::check {

struct maybe_value {
  bool known = false;
  long long v = 0;
};

inline constexpr long long unknown_counter = LLONG_MIN;

struct thread_env {
  int t[3] = {0, 0, 0};
  const std::vector<long long>* counters = nullptr;  // by loop; unknown_counter when not enumerated
};

constexpr maybe_value evaluate(const ir_builder& ir, block_shape shape, scope s, int id, const thread_env& env) {
  constexpr maybe_value unknown{};
  if (id < 0) return unknown;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  auto known = [](long long v) { return maybe_value{true, v}; };
  switch (e.op) {
    case ir_op::constant: return e.is_float ? unknown : known(e.value);
    case ir_op::thread_id: return known(env.t[e.value % 3]);
    case ir_op::block_dim: return known(shape.extent(static_cast<int>(e.value % 3)));
    case ir_op::loop_var: {
      int position = 0;
      const int l = loop_of(ir, s, static_cast<int>(e.value), &position);
      if (l < 0 || env.counters == nullptr) return unknown;
      const long long k = (*env.counters)[static_cast<std::size_t>(l)];
      if (k == unknown_counter) return unknown;
      const auto& loop = ir.loops[static_cast<std::size_t>(l)];
      const scope outer{s.loop_begin, position};
      const maybe_value lo = evaluate(ir, shape, outer, loop.lo, env), step = evaluate(ir, shape, outer, loop.step, env);
      return lo.known && step.known ? known(lo.v + step.v * k) : unknown;
    }
    case ir_op::logical_and: case ir_op::logical_or: {
      const bool is_and = e.op == ir_op::logical_and;
      const maybe_value a = evaluate(ir, shape, s, e.a, env);
      if (a.known && (a.v != 0) != is_and) return known(is_and ? 0 : 1);  // short-circuit
      const maybe_value b = evaluate(ir, shape, s, e.b, env);
      if (b.known && (b.v != 0) != is_and) return known(is_and ? 0 : 1);
      return a.known && b.known ? known(is_and ? 1 : 0) : unknown;
    }
    case ir_op::negate: case ir_op::logical_not: case ir_op::bit_not: {
      const maybe_value a = evaluate(ir, shape, s, e.a, env);
      if (!a.known) return unknown;
      return known(e.op == ir_op::negate ? -a.v : e.op == ir_op::logical_not ? (a.v == 0 ? 1 : 0) : ~a.v);
    }
    default: break;
  }
  if (e.op < ir_op::add) return unknown;  // block ids, parameters, data: not known per thread
  const maybe_value a = evaluate(ir, shape, s, e.a, env), b = evaluate(ir, shape, s, e.b, env);
  if (!a.known || !b.known) return unknown;
  const long long x = a.v, y = b.v;
  switch (e.op) {
    case ir_op::add: return known(x + y);
    case ir_op::sub: return known(x - y);
    case ir_op::mul: return known(x * y);
    case ir_op::div: return y == 0 ? unknown : known(x / y);
    case ir_op::mod: return y == 0 ? unknown : known(x % y);
    case ir_op::shl: return y < 0 || y > 62 ? unknown : known(x << y);
    case ir_op::shr: return y < 0 || y > 62 ? unknown : known(x >> y);
    case ir_op::bit_and: return known(x & y);
    case ir_op::bit_or: return known(x | y);
    case ir_op::bit_xor: return known(x ^ y);
    case ir_op::less: return known(x < y);
    case ir_op::less_equal: return known(x <= y);
    case ir_op::greater: return known(x > y);
    case ir_op::greater_equal: return known(x >= y);
    case ir_op::equal: return known(x == y);
    case ir_op::not_equal: return known(x != y);
    case ir_op::min: return known(x < y ? x : y);
    case ir_op::max: return known(x < y ? y : x);
    default: return unknown;
  }
}

// Is the expression the same in every thread of a block (block ids, parameters, constants, and
// variables of loops whose bounds are themselves uniform)?
constexpr bool uniform(const ir_builder& ir, scope s, int id) {
  if (id < 0) return true;
  const auto& e = ir.exprs[static_cast<std::size_t>(id)];
  switch (e.op) {
    case ir_op::thread_id: case ir_op::global_id:
    case ir_op::load: case ir_op::tile_load: case ir_op::local_var: case ir_op::call: return false;
    case ir_op::loop_var: {
      int position = 0;
      const int l = loop_of(ir, s, static_cast<int>(e.value), &position);
      if (l < 0) return false;
      const auto& loop = ir.loops[static_cast<std::size_t>(l)];
      const scope outer{s.loop_begin, position};
      return !loop.grid_stride && uniform(ir, outer, loop.lo) && uniform(ir, outer, loop.hi) && uniform(ir, outer, loop.step);
    }
    default: return uniform(ir, s, e.a) && uniform(ir, s, e.b);
  }
}

}  // namespace warden::check
