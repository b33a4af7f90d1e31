#pragma once
// The W031 fix a message suggests, checked before it is offered (issue 57, item 1): a warp shuffle
// under a w::when that splits a warp is opened outside that w::when, with the w::when inside its
// body, so that every lane of the warp takes part and only the lanes the condition chose use the
// value. In the kernel's IR that is the shuffle (and the loads beside it) without that guard; the
// checker runs again on it,
// and the message offers the rewrite only where that kernel is accepted, and asks otherwise. The
// statements in the shuffle's body keep their guard, so the footprint is unchanged.
#include "../dsl/ir.hpp"
#include "finding.hpp"
#include "rules.hpp"

namespace warden::check {

struct hoisted_shuffle {
  bool found = false;
  int guard = -1;  // the guard_pool entry of the w::when the shuffle is opened outside of
};

constexpr hoisted_shuffle suggest_hoisted_shuffle(const kernel_ir& ir, block_shape shape, const finding& f) {
  if (f.code != diagnostic::code::W031 || f.shuffle < 0 || f.expr < 0 || f.loop >= 0) return {};
  const dsl::ir_shuffle& s = ir.shuffles[static_cast<std::size_t>(f.shuffle)];
  int split = -1;
  for (int g = s.guard_begin; g < s.guard_end && split < 0; ++g)
    if (ir.guard_pool[static_cast<std::size_t>(g)].condition == f.expr) split = g;
  if (split < 0) return {};
  kernel_ir out = ir;
  const int begin = static_cast<int>(out.guard_pool.size());
  for (int g = s.guard_begin; g < s.guard_end; ++g)
    if (g != split) out.guard_pool.push_back(ir.guard_pool[static_cast<std::size_t>(g)]);
  const int end = static_cast<int>(out.guard_pool.size());
  out.shuffles[static_cast<std::size_t>(f.shuffle)].guard_begin = begin;
  out.shuffles[static_cast<std::size_t>(f.shuffle)].guard_end = end;
  // The value and the lane are computed outside the w::when too. The IR does not say which loads
  // are theirs, so every load in the shuffle's own context loses the guard: more loads the checker
  // sees unguarded, never fewer, so a rewrite accepted so is accepted as written.
  for (auto& a : out.accesses) {
    if (a.kind != dsl::access_kind::load || a.guard_end - a.guard_begin != s.guard_end - s.guard_begin ||
        a.loop_end - a.loop_begin != s.loop_end - s.loop_begin)
      continue;
    bool same = true;
    for (int g = 0; g < s.guard_end - s.guard_begin && same; ++g) {
      const auto& x = ir.guard_pool[static_cast<std::size_t>(a.guard_begin + g)];
      const auto& y = ir.guard_pool[static_cast<std::size_t>(s.guard_begin + g)];
      same = x.condition == y.condition && x.negated == y.negated;
    }
    for (int l = 0; l < s.loop_end - s.loop_begin && same; ++l)
      same = ir.loop_pool[static_cast<std::size_t>(a.loop_begin + l)] == ir.loop_pool[static_cast<std::size_t>(s.loop_begin + l)];
    if (!same) continue;
    a.guard_begin = begin;
    a.guard_end = end;
  }
  if (analyse(out, shape)) return {};
  return {true, split};
}

}  // namespace warden::check
