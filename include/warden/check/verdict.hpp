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
#include "modes.hpp"
#include "rules.hpp"
#include "source_names.hpp"
#include "../dsl/program.hpp"

namespace warden {

namespace check {
// What analyse() and the lints decide on a kernel, before any text is built: a literal value, so
// that one analysis serves every question asked of one body (analysis_on_body).
struct analysis {
  check::finding finding;
  lint_report lints;
};


// Each parameter's element type as the source spells it (check/modes.hpp), for the mode rules' fixes.
template <class D>
constexpr std::array<std::string_view, D::arity> param_types() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, D::arity>{type_name<typename D::template param<I>::value_type>()...};
  }(std::make_index_sequence<D::arity>{});
}

template <class K>
constexpr analysis analysis_of(const K& kernel) {
  const auto& def = definition_of(kernel);
  using D = std::remove_cvref_t<decltype(def)>;
  const dsl::kernel_ir ir = def.describe();
  // The parameters' modes first: a store through in<T> is one mistake, whatever else it races with.
  if (const finding mode = mode_finding(ir, param_kinds<D>())) return {mode, {}};
  const block_shape shape{D::block_type::x, D::block_type::y, D::block_type::z};
  shared_lint w050;
  const finding f = analyse(ir, shape, &w050);
  // An accepted kernel's lints (check/lints.hpp): W050 counted on the shared rules' footprints.
  return {f, f.code == diagnostic::code::none ? lint_findings(ir, shape, w050) : lint_report{}};
}

// The verdict that an analysis of `kernel` gives: its finding, explained in the user's names.
template <class K>
constexpr verdict verdict_from(const K& kernel, const analysis& a, std::string_view source = {}) {
  const finding& f = a.finding;
  if (f.code == diagnostic::code::none && !a.lints.bank_conflict && !a.lints.uncoalesced) return {f, {}};
  const auto& def = definition_of(kernel);
  using D = std::remove_cvref_t<decltype(def)>;
  const dsl::kernel_ir ir = def.describe();
  const auto kinds = param_kinds<D>();
  const auto types = param_types<D>();
  // A WARDEN_KERNEL's handle carries its source too.
  if constexpr (requires { typename K::holder; })
    if (source.empty()) source = kernel_source_of<typename K::holder>::text;
  const source_names<D::arity> names = names_from_source<D::arity>(source, ir);
  verdict v{f, {}};
  if (f.code == diagnostic::code::none) {
    explain_lints(explainer<D::arity>{ir, kinds, names}, a.lints, v.lints);
    return v;
  }
  explainer<D::arity> e{ir, kinds, names, &types};
  const block_shape shape{D::block_type::x, D::block_type::y, D::block_type::z};
  // A W020, W021 or W040 within a block offers the barriers the checker accepts the kernel with, or asks
  // (check/suggested_barriers.hpp): the rewritten kernel is checked again here, where the
  // message is built, so that an accepted kernel pays nothing for it.
  barrier_suggestion barriers;
  if (detail_barriers::barrier_race(f)) {
    barriers = suggest_barriers(ir, shape, f, [&](int access) { return e.statement_begin(access); });
    e.barriers = &barriers;
  }
  if (f.code == diagnostic::code::W012 && f.first >= 0 && f.second < 0 && ir.accesses[static_cast<std::size_t>(f.first)].permuted_by < 0)
    e.atomic_accepted = atomic_accepted(ir, shape, kinds, f.first,
                                        e.statement_begin(f.first), e.compound_statement(f.first))
                            ? 1
                            : 0;
  // A race on a compound assignment (`total[0] += in[i]` by every thread) that an atomic update
  // ends, where no barrier does: the same rewrite as W012's, checked the same way.
  const bool race_pair = f.code == diagnostic::code::W010 || f.code == diagnostic::code::W011 ||
                         ((f.code == diagnostic::code::W020 || f.code == diagnostic::code::W021) && barriers.count == 0);
  if (race_pair && f.first >= 0 && f.second >= 0)
    for (const int id : {f.first, f.second}) {
      const auto& a = ir.accesses[static_cast<std::size_t>(id)];
      if (a.kind == dsl::access_kind::store && a.permuted_by < 0 && e.combining_statement(id) &&
          atomic_accepted(ir, shape, kinds, id, e.statement_begin(id), true)) {
        e.combining_store = id;
        break;
      }
    }
  hoisted_shuffle hoisted;
  if (f.code == diagnostic::code::W031 && f.expr >= 0 && f.loop < 0) {
    hoisted = suggest_hoisted_shuffle(ir, shape, f);
    e.hoisted = &hoisted;
  }
  // A block of partial warps (W031): the kernel analysed again with the block's x rounded up to
  // whole warps, which the message asks about with the answer (a 1-D block). Not a checked fix:
  // another block changes what a kernel that reads its block computes.
  if (f.code == diagnostic::code::W031 && f.expr < 0 && shape.y == 1 && shape.z == 1) {
    block_shape whole = shape;
    whole.x = (shape.x + 31) / 32 * 32;
    e.whole_warps = whole.x <= 1024 && analyse(ir, whole).code == diagnostic::code::none ? whole.x : -whole.x;
  }
  moved_barrier moved;
  if (f.code == diagnostic::code::W030) {
    moved = suggest_moved_barrier(ir, shape, f);
    e.moved = &moved;
  }
  v.text = e.explain(f);
  return v;
}

// The checker's verdict on a kernel: the first finding of analyse() and its explanation.
template <class K>
constexpr verdict verdict_of(const K& kernel, std::string_view source = {}) {
  return verdict_from(kernel, analysis_of(kernel), source);
}

// The analysis of the kernel whose body has type F (a lambda without captures, so F{} is its
// body), made once per body: w::kernel's verdict and the tests' code_of both read it (a kernel's
// listing can take seconds of constant evaluation).
template <class Block, class F, class... Params>
struct analysis_on_body {
  static constexpr analysis value = analysis_of(dsl::build_kernel<Block, Params...>(F{}));
};

// The verdict on that kernel.
template <class Block, class F, class... Params>
struct verdict_on_body {
  static constexpr verdict value =
      verdict_from(dsl::build_kernel<Block, Params...>(F{}), analysis_on_body<Block, F, Params...>::value, kernel_source_of<F>::text);
};
}  // namespace check

}  // namespace warden
