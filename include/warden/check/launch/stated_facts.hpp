#pragma once
// E107: the facts a kernel states with given(...), computed exactly for this launch, as the kernel
// computes them.

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "../../config.hpp"
#include "../../dsl/ir.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"
#include "launch_values.hpp"

namespace warden::check {

namespace launch_impl {
// One thread at one point of its loops: what an expression that is not launch-uniform reads.
struct thread_point {
  long long thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  std::vector<long long> loop_value;  // by loop (index in ir.loops)
  std::vector<char> loop_set;         // 1 where loop_value holds the loop's current value
};

inline std::optional<long long> exact_value(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                                            const thread_point* at = nullptr, int local_depth = 0);

// The order that stated order fact `id` (sorted or non_decreasing, with its rows(n) and
// below(hi)) asks of its buffer in this launch, n and hi computed as the kernel computes them;
// nullopt where one cannot be. A row length below 1 is kept as given: the fact is false then.
inline std::optional<detail::contents_order> stated_order_of(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                                                             const thread_point* at = nullptr, int local_depth = 0) {
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  detail::contents_order order;
  order.wanted = true;
  if (e.a >= 0) {
    const std::optional<long long> n = exact_value(ir, e.a, facts, at, local_depth);
    if (!n) return std::nullopt;
    order.row = *n;
  }
  if (e.b >= 0) {
    const std::optional<long long> hi = exact_value(ir, e.b, facts, at, local_depth);
    if (!hi) return std::nullopt;
    order.bounded = true;
    order.below = *hi;
  }
  return order;
}

// Whether fact `id`'s rows(n) has n below 1 in this launch: no element would be in any row.
inline bool rows_empty(const dsl::kernel_ir& ir, int id, const std::optional<detail::contents_order>& order) {
  return order && ir.exprs[static_cast<std::size_t>(id)].a >= 0 && order->row <= 0;
}

// Whether what the launch measured (`measured`) answers order fact `op` stated as `stated`: the
// same rows, and for sorted, the same bound (where the elements fall does not depend on it).
inline bool order_answers(dsl::ir_op op, const detail::contents_order& measured, const detail::contents_order& stated) {
  if (op == dsl::ir_op::contents_non_decreasing) return measured.wanted && measured.row == stated.row;
  return measured == stated;
}

// The exact value of a launch-uniform expression (dsl::launch_uniform) for this launch, computed as
// the kernel computes it; nullopt where it cannot be: a division by zero, a shift outside the
// type, a signed result outside int (undefined behaviour in the kernel), or a node that is not
// launch-uniform. Given a thread point, also of thread and block ids and loop variables (never of
// data or calls). A read of a local is the value it holds there (dsl/local_values.hpp), through
// at most dsl::max_local_read_depth reads in a row (`local_depth` counts them).
inline std::optional<long long> exact_value(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                                            const thread_point* at, int local_depth) {
  using dsl::ir_op;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.is_float) return std::nullopt;
  if (const int held = ir.held_value(e); held >= 0)
    return local_depth < dsl::max_local_read_depth ? exact_value(ir, held, facts, at, local_depth + 1) : std::nullopt;
  if (at != nullptr) {
    const int d = static_cast<int>(e.value % 3);
    switch (e.op) {
      case ir_op::thread_id: return at->thread[d];
      case ir_op::block_id: return at->block[d];
      case ir_op::global_id: return at->block[d] * facts.block[d] + at->thread[d];
      case ir_op::loop_var: {
        const auto l = static_cast<std::size_t>(e.value);
        if (l < at->loop_set.size() && at->loop_set[l]) return at->loop_value[l];
        return std::nullopt;
      }
      default: break;
    }
  }
  switch (e.op) {
    case ir_op::constant: return e.value;
    case ir_op::block_dim: return facts.block[static_cast<int>(e.value)];
    case ir_op::grid_dim: return facts.grid[static_cast<int>(e.value)];
    case ir_op::param_value: {
      const auto p = static_cast<std::size_t>(e.value);
      return p < facts.values.size() ? facts.values[p] : std::nullopt;
    }
    case ir_op::param_size: return facts.sizes[static_cast<std::size_t>(e.value)];
    case ir_op::contents_distinct: {  // what the launch measured: no two elements equal
      const auto p = static_cast<std::size_t>(e.value);
      if (p >= facts.contents.size() || !facts.contents[p] || !facts.contents[p]->distinct_known) return std::nullopt;
      return facts.contents[p]->distinct ? 1 : 0;
    }
    case ir_op::contents_sorted:  // what the launch measured: where the elements of a row stop rising
    case ir_op::contents_non_decreasing: {
      const auto p = static_cast<std::size_t>(e.value);
      const std::optional<detail::contents_order> order = stated_order_of(ir, id, facts, at, local_depth);
      if (!order) return std::nullopt;
      if (rows_empty(ir, id, order)) return 0;
      if (p >= facts.contents.size() || !facts.contents[p] || !facts.contents[p]->order_known) return std::nullopt;
      const contents_range& c = *facts.contents[p];
      if (!order_answers(e.op, c.order, *order)) return std::nullopt;  // another order of it was measured
      return (e.op == ir_op::contents_sorted ? c.not_rising_at : c.falling_at) < 0 ? 1 : 0;
    }
    case ir_op::contents_within: {  // the least and greatest element the launch measured, against lo and hi
      const auto p = static_cast<std::size_t>(e.value);
      if (p >= facts.contents.size() || !facts.contents[p]) return std::nullopt;
      const std::optional<long long> lo = exact_value(ir, e.a, facts, at, local_depth);
      const std::optional<long long> hi = exact_value(ir, e.b, facts, at, local_depth);
      if (!lo || !hi) return std::nullopt;
      return facts.contents[p]->lo >= *lo && facts.contents[p]->hi < *hi ? 1 : 0;
    }
    default: break;
  }
  if (e.op < ir_op::add) return std::nullopt;  // thread ids, loop variables, locals, loads, calls
  if (e.op == ir_op::select) {  // the side chosen, alone
    const std::optional<long long> c = exact_value(ir, e.a, facts, at, local_depth);
    if (!c) return std::nullopt;
    const dsl::ir_expr& sides = ir.exprs[static_cast<std::size_t>(e.b)];
    const std::optional<long long> v = exact_value(ir, *c != 0 ? sides.a : sides.b, facts, at, local_depth);
    if (!v || e.unsigned_bits == 0 || e.unsigned_bits >= 64) return v;
    return static_cast<long long>(static_cast<unsigned long long>(*v) & ((1ULL << e.unsigned_bits) - 1));  // converted
  }
  const std::optional<long long> a = exact_value(ir, e.a, facts, at, local_depth);
  if (!a) return std::nullopt;
  // && and || as C++ evaluates them: the right side only when the left decides nothing.
  if (e.op == ir_op::logical_and && *a == 0) return 0;
  if (e.op == ir_op::logical_or && *a != 0) return 1;
  std::optional<long long> b;
  if (e.b >= 0) {
    b = exact_value(ir, e.b, facts, at, local_depth);
    if (!b) return std::nullopt;
  }
  const long long x = *a, y = b.value_or(0);
  if (e.unsigned_bits > 0) {  // computed in an unsigned type: operands converted, results wrap
    const unsigned long long mask = e.unsigned_bits >= 64 ? ~0ULL : (1ULL << e.unsigned_bits) - 1;
    const unsigned long long u = static_cast<unsigned long long>(x) & mask;
    const unsigned long long v = static_cast<unsigned long long>(y) & mask;
    unsigned long long r = 0;
    switch (e.op) {
      case ir_op::add: r = u + v; break;
      case ir_op::sub: r = u - v; break;
      case ir_op::mul: r = u * v; break;
      case ir_op::div: if (v == 0) return std::nullopt; r = u / v; break;
      case ir_op::mod: if (v == 0) return std::nullopt; r = u % v; break;
      case ir_op::shl: if (v >= e.unsigned_bits) return std::nullopt; r = u << v; break;
      case ir_op::shr: if (v >= e.unsigned_bits) return std::nullopt; r = u >> v; break;
      case ir_op::bit_and: r = u & v; break;
      case ir_op::bit_or: r = u | v; break;
      case ir_op::bit_xor: r = u ^ v; break;
      case ir_op::less: return u < v;
      case ir_op::less_equal: return u <= v;
      case ir_op::greater: return u > v;
      case ir_op::greater_equal: return u >= v;
      case ir_op::equal: return u == v;
      case ir_op::not_equal: return u != v;
      case ir_op::min: r = u < v ? u : v; break;
      case ir_op::max: r = u < v ? v : u; break;
      case ir_op::negate: r = 0 - u; break;
      case ir_op::bit_not: r = ~u; break;
      default: return std::nullopt;
    }
    return static_cast<long long>(r & mask);
  }
  // Signed: computed exactly in long double (64-bit significand: exact wherever the result fits in
  // int, the only results kept).
  const long double lx = static_cast<long double>(x), ly = static_cast<long double>(y);
  long double r = 0;
  switch (e.op) {
    case ir_op::add: r = lx + ly; break;
    case ir_op::sub: r = lx - ly; break;
    case ir_op::mul: r = lx * ly; break;
    case ir_op::div: if (y == 0) return std::nullopt; r = static_cast<long double>(x / y); break;
    case ir_op::mod: if (y == 0) return std::nullopt; r = static_cast<long double>(x % y); break;
    case ir_op::shl: if (y < 0 || y >= 31 || x < 0) return std::nullopt; r = lx * static_cast<long double>(1LL << y); break;
    case ir_op::shr: if (y < 0 || y >= 32) return std::nullopt; r = static_cast<long double>(x >> y); break;
    case ir_op::bit_and: r = static_cast<long double>(x & y); break;
    case ir_op::bit_or: r = static_cast<long double>(x | y); break;
    case ir_op::bit_xor: r = static_cast<long double>(x ^ y); break;
    case ir_op::less: return x < y;
    case ir_op::less_equal: return x <= y;
    case ir_op::greater: return x > y;
    case ir_op::greater_equal: return x >= y;
    case ir_op::equal: return x == y;
    case ir_op::not_equal: return x != y;
    case ir_op::logical_and:
    case ir_op::logical_or: return y != 0;
    case ir_op::logical_not: return x == 0;
    case ir_op::min: r = static_cast<long double>(x < y ? x : y); break;
    case ir_op::max: r = static_cast<long double>(x < y ? y : x); break;
    case ir_op::negate: r = -lx; break;
    case ir_op::bit_not: r = static_cast<long double>(~x); break;
    default: return std::nullopt;
  }
  if (r < std::numeric_limits<int>::min() || r > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<long long>(r);
}

// The nodes of kind `op` under expression `id`, each once.
inline void nodes_of(const dsl::kernel_ir& ir, int id, dsl::ir_op op, std::vector<int>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == op && std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  nodes_of(ir, e.a, op, out);
  nodes_of(ir, e.b, op, out);
}

}  // namespace launch_impl


// The first fact stated with given(...) that is false, or cannot be computed, for this launch,
// described for an E107 message; empty if all hold.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API std::string first_false_fact(const dsl::kernel_ir& ir, const launch_facts& facts, const launch_names& names) {
  for (int fact : ir.stated) {
    const std::optional<long long> v = launch_impl::exact_value(ir, fact, facts);
    if (v && *v != 0) continue;
    std::string values = launch_impl::values_read(ir, fact, facts, names);
    std::vector<std::size_t> sizes;
    launch_impl::parameters_read(ir, fact, dsl::ir_op::param_size, sizes);
    for (std::size_t p : sizes)
      values += (values.empty() ? "" : ", ") + names[p] + ".size() = " + std::to_string(facts.sizes[p]);
    // Each contents fact the launch measured: the element that breaks it, or why x was not measured.
    const auto contents_at = [&](std::size_t p) { return p < facts.contents.size() ? facts.contents[p] : std::nullopt; };
    const auto not_measured = [&](std::size_t p) {
      return names[p] + " was not measured (empty, being captured into a graph, or elements long long cannot hold)";
    };
    const auto note = [&](const std::string& what) {
      if (!what.empty()) values += (values.empty() ? "" : ", ") + what;
    };
    // distinct(x): the first element that repeats an earlier one.
    std::vector<std::size_t> distinct;
    launch_impl::parameters_read(ir, fact, dsl::ir_op::contents_distinct, distinct);
    for (std::size_t p : distinct) {
      const std::optional<contents_range> c = contents_at(p);
      if (!c || !c->distinct_known) note(not_measured(p));
      else if (!c->distinct)
        note(names[p] + "[" + std::to_string(c->repeat_at) + "] repeats " + names[p] + "[" + std::to_string(c->repeat_of) + "]");
    }
    // sorted(x), non_decreasing(x), with rows and a bound: the first element that breaks the
    // order, and its row.
    for (const dsl::ir_op op : {dsl::ir_op::contents_sorted, dsl::ir_op::contents_non_decreasing}) {
      std::vector<int> about;
      launch_impl::nodes_of(ir, fact, op, about);
      for (int id : about) {
        const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
        const auto p = static_cast<std::size_t>(e.value);
        const std::optional<detail::contents_order> order = launch_impl::stated_order_of(ir, id, facts);
        const std::optional<contents_range> c = contents_at(p);
        if (!order) continue;  // n or hi cannot be computed: the message says so
        if (launch_impl::rows_empty(ir, id, order))
          note("rows(" + render(ir, e.a, names) + ") = " + std::to_string(order->row) + ": a row holds one element at least");
        else if (!c || !c->order_known)
          note(not_measured(p));
        else if (!launch_impl::order_answers(op, c->order, *order))
          note(names[p] + " was measured for another order the kernel states of it: state one order of a buffer (its rows and bound)");
        else if (const long long at = op == dsl::ir_op::contents_sorted ? c->not_rising_at : c->falling_at; at >= 0)
          note(names[p] + "[" + std::to_string(at) + "] is " + (op == dsl::ir_op::contents_sorted ? "not above " : "below ") + names[p] +
               "[" + std::to_string(at - 1) + "]" +
               (order->row > 0 ? " (row " + std::to_string(at / order->row) + " of " + std::to_string(order->row) + " elements)" : ""));
      }
    }
    // within(x, lo, hi) that is false: the least (greatest) element, where it first occurs, and
    // the bound it passes.
    std::vector<int> ranges;
    launch_impl::nodes_of(ir, fact, dsl::ir_op::contents_within, ranges);
    for (int id : ranges) {
      const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
      const auto p = static_cast<std::size_t>(e.value);
      const std::optional<contents_range> c = contents_at(p);
      const std::optional<long long> lo = launch_impl::exact_value(ir, e.a, facts), hi = launch_impl::exact_value(ir, e.b, facts);
      if (!c)
        note(not_measured(p));
      else if (lo && c->lo < *lo)
        note(names[p] + "[" + std::to_string(c->lo_at) + "] = " + std::to_string(c->lo) + " (its least, first there) is below " +
             render(ir, e.a, names));
      else if (hi && c->hi >= *hi)
        note(names[p] + "[" + std::to_string(c->hi_at) + "] = " + std::to_string(c->hi) + " (its greatest, first there) is not below " +
             render(ir, e.b, names));
    }
    return "the stated fact " + render(ir, fact, names) + (v ? " is false" : " cannot be computed without overflow or division by zero") +
           " for this launch" + (values.empty() ? std::string() : " (" + values + ")") +
           "; the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)";
  }
  return {};
}

// By parameter position: the order the stated facts ask the launch to measure of each buffer
// (launch/contents.hpp), for this launch's row lengths and bounds. One order per buffer: a sorted
// fact's, else a non_decreasing one's (a sorted fact's measurement answers a non_decreasing fact
// over the same rows too); a second, different order of one buffer is left unmeasured, and the
// fact that states it refused (E107, first_false_fact).
WARDEN_RUNTIME_API std::vector<detail::contents_order> stated_orders(const dsl::kernel_ir& ir, const launch_facts& facts, std::size_t arity) {
  std::vector<detail::contents_order> orders(arity);
  for (const dsl::ir_op op : {dsl::ir_op::contents_sorted, dsl::ir_op::contents_non_decreasing})
    for (int fact : ir.stated) {
      std::vector<int> nodes;
      launch_impl::nodes_of(ir, fact, op, nodes);
      for (int id : nodes) {
        const auto p = static_cast<std::size_t>(ir.exprs[static_cast<std::size_t>(id)].value);
        const std::optional<detail::contents_order> order = launch_impl::stated_order_of(ir, id, facts);
        if (p < arity && order && !launch_impl::rows_empty(ir, id, order) && !orders[p].wanted) orders[p] = *order;
      }
    }
  return orders;
}

}  // inline namespace WARDEN_RUNTIME_ABI

}  // namespace warden::check
