#pragma once
// What a launch gives the expressions of a kernel's description, in the user's names: the value
// parameters and buffer sizes an expression reads ("n = 40, m = 3"), for the messages of the
// launch-time checks.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../affine.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"

namespace warden::check {

namespace launch_impl {
// The parameters whose `op` node (param_value: a value; param_size: a buffer's size) expression
// `id` reads, each once, in the order first read.
inline void parameters_read(const dsl::kernel_ir& ir, int id, dsl::ir_op op, std::vector<std::size_t>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == op && std::find(out.begin(), out.end(), static_cast<std::size_t>(e.value)) == out.end())
    out.push_back(static_cast<std::size_t>(e.value));
  parameters_read(ir, e.a, op, out);
  parameters_read(ir, e.b, op, out);
}
// Whether expression `id` reads a node of kind `op` (with `value`, where that is not -1).
inline bool reads_op(const dsl::kernel_ir& ir, int id, dsl::ir_op op, long long value = -1) {
  if (id < 0) return false;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == op && (value < 0 || e.value == value)) return true;
  return reads_op(ir, e.a, op, value) || reads_op(ir, e.b, op, value);
}
// The value of parameter p as the kernel receives it, for a message: "40", "18446744073709551615"
// (launch_facts::beyond), or "(not an integer)".
inline std::string value_text(const launch_facts& facts, std::size_t p) {
  if (p < facts.values.size() && facts.values[p]) return std::to_string(*facts.values[p]);
  if (p < facts.beyond.size() && facts.beyond[p] != 0) return std::to_string(facts.beyond[p]);
  return "(not an integer)";
}
// "n = 40, m = 3": the value parameters expression `id` reads, with the values the kernel receives.
inline std::string values_read(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                               const launch_names& names) {
  std::vector<std::size_t> params;
  parameters_read(ir, id, dsl::ir_op::param_value, params);
  std::string out;
  for (std::size_t p : params) out += (out.empty() ? "" : ", ") + names[p] + " = " + value_text(facts, p);
  return out;
}
// Every number a launch fixes, as the listing reads them (affine.hpp, launch_numbers).
inline launch_numbers numbers_of(const launch_facts& facts) {
  launch_numbers n;
  n.values.reserve(facts.values.size());
  for (const auto& v : facts.values) n.values.push_back(v ? *v : absent_number);
  n.sizes = facts.sizes;
  n.grid[0] = facts.grid.x;
  n.grid[1] = facts.grid.y;
  n.grid[2] = facts.grid.z;
  return n;
}

}  // namespace launch_impl

}  // namespace warden::check
