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
#include "launch_request.hpp"

namespace warden::check {

namespace launch_impl {
inline void params_read(const dsl::kernel_ir& ir, int id, std::vector<std::size_t>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::param_value && std::find(out.begin(), out.end(), static_cast<std::size_t>(e.value)) == out.end())
    out.push_back(static_cast<std::size_t>(e.value));
  params_read(ir, e.a, out);
  params_read(ir, e.b, out);
}
// "n = 40, m = 3": the value parameters expression `id` reads, with the values the kernel receives.
inline std::string values_read(const dsl::kernel_ir& ir, int id, const launch_facts& facts,
                               const std::vector<std::string>& names) {
  std::vector<std::size_t> params;
  params_read(ir, id, params);
  std::string out;
  for (std::size_t p : params) {
    const std::optional<long long> v = p < facts.values.size() ? facts.values[p] : std::nullopt;
    out += (out.empty() ? "" : ", ") + names[p] + " = " + (v ? std::to_string(*v) : std::string("(not an integer)"));
  }
  return out;
}

inline void sizes_read(const dsl::kernel_ir& ir, int id, std::vector<std::size_t>& out) {
  if (id < 0) return;
  const dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == dsl::ir_op::param_size && std::find(out.begin(), out.end(), static_cast<std::size_t>(e.value)) == out.end())
    out.push_back(static_cast<std::size_t>(e.value));
  sizes_read(ir, e.a, out);
  sizes_read(ir, e.b, out);
}
}  // namespace launch_impl

}  // namespace warden::check
