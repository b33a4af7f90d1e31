#pragma once
// The checker's entry point: verdict_of(kernel), the first finding of analyse() on the kernel's
// value-level description and its explanation, and for an accepted kernel its lints (W050,
// W051: check/lints.hpp); verdict_on_body, the same for a body's type.
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "diagnostic.hpp"
#include "explain.hpp"
#include "lints.hpp"
#include "rules.hpp"
#include "source_names.hpp"
#include "../dsl/program.hpp"

namespace warden {

namespace check {
// The checker's verdict on a kernel: the first finding of analyse() and its explanation.
template <class K>
constexpr verdict verdict_of(const K& kernel, std::string_view source = {}) {
  const auto& def = definition_of(kernel);
  using D = std::remove_cvref_t<decltype(def)>;
  const dsl::kernel_ir ir = def.describe();
  const block_shape shape{D::block_type::x, D::block_type::y, D::block_type::z};
  const auto kinds = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, D::arity>{D::template param<I>::kind...};
  }(std::make_index_sequence<D::arity>{});
  // A plain access of an atomic<T> parameter has already failed where it was written (W040 in
  // dsl/handles.hpp); a second report of the same mistake would only bury it.
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::global && a.kind != dsl::access_kind::atomic &&
        kinds[static_cast<std::size_t>(a.target)] == "atomic")
      return {};
  shared_lint w050;
  const finding f = analyse(ir, shape, &w050);
  // An accepted kernel's lints (check/lints.hpp): W050 counted on the shared rules' footprints.
  const lint_report lints = f.code == diagnostic::code::none ? lint_findings(ir, shape, w050) : lint_report{};
  if (f.code == diagnostic::code::none && !lints.bank_conflict && !lints.uncoalesced) return {f, {}};
  // A WARDEN_KERNEL's handle carries its source too.
  if constexpr (requires { typename K::holder; })
    if (source.empty()) source = kernel_source_of<typename K::holder>::text;
  const source_names<D::arity> names = names_from_source<D::arity>(source, ir);
  verdict v{f, {}};
  if (f.code == diagnostic::code::none) explain_lints(explainer<D::arity>{ir, kinds, names}, lints, v.lints);
  else v.text = explain(ir, kinds, f, names);
  return v;
}

// The verdict on the kernel whose body has type F (a lambda without captures, so F{} is its body).
template <class Block, class F, class... Params>
struct verdict_on_body {
  static constexpr verdict value = verdict_of(dsl::build_kernel<Block, Params...>(F{}), kernel_source_of<F>::text);
};
}  // namespace check

}  // namespace warden
