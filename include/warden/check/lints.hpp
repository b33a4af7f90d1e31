#pragma once
// The performance lints (proposals/0006-safe-and-fast.md, "Performance lints"): warnings, not
// errors, on kernels the checker accepts.
//
//   W050 [bank-conflict]  a shared access's ways of serialisation: for each warp of the first block
//                         (32 consecutive linear thread ids, x fastest) and each pass of the
//                         access's footprint (footprint.hpp: one per combination of loop counters,
//                         listed exactly where the loops can be), the distinct 4-byte words the
//                         warp's lanes touch, grouped by bank (word % 32); the ways are the most
//                         words in one bank (lanes reading one word are a broadcast, no conflict).
//                         8- and 16-byte elements are served in 2 and 4 phases of 16 and 8 lanes,
//                         each phase counted alone. Fires when the worst warp and pass has more
//                         than 1 way. A pass with an element not known is left out.
//   W051 [uncoalesced]    a global access whose index is linear in the thread ids with constant
//                         coefficients (thread_id.x * 32 + b * 1024, not thread_id.x * n): the
//                         first warp's lanes touch elements base + cx*x + cy*y + cz*z; the distinct
//                         32-byte sectors they touch (base aligned), against the minimum for their
//                         bytes, ceil(lanes * sizeof(T) / 32). Fires above twice the minimum. An
//                         index it cannot count exactly (a coefficient of a value<int>, data,
//                         division) is not judged.
//
// lint_findings(ir, shape) is the analysis (constexpr; tests call it at run time too). For a kernel
// the checker accepts, verdict_of (verdict.hpp) counts W050 on the footprints the shared rules
// built (analyse's `lint`), explains both lints (explain_lints) into verdict::lints, and
// raise_lints<Source>() turns them into warnings (diagnostic/lint_rules.hpp), which warden::kernel
// calls for every kernel it accepts.

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/text_buffer.hpp"
#include "../diagnostic/codes.hpp"
#include "../diagnostic/lint_rules.hpp"
#include "diagnostic.hpp"
#include "explain.hpp"
#include "bank_conflicts.hpp"
#include "rules.hpp"

namespace warden::check {

inline constexpr int sector_bytes = 32;

// ---- W051: uncoalesced global accesses ----------------------------------------------------------

struct coalescing {
  bool judged = false;       // the index was counted exactly
  long long coefficient[3] = {};  // elements per step of thread_id.x, .y, .z
  int lanes = 0;             // the first warp's lanes
  long long sectors = 0;     // distinct 32-byte sectors they touch
  long long minimum = 0;     // ceil(lanes * element_bytes / 32)
};

// The sectors a warp's lanes touch at elements c[0]*x + c[1]*y + c[2]*z of `element_bytes`
// (x fastest over a block of `shape`), the first `lanes` lanes, the base aligned.
constexpr coalescing count_sectors(const long long (&c)[3], block_shape shape, int element_bytes) {
  coalescing out;
  out.judged = true;
  for (int d = 0; d < 3; ++d) out.coefficient[d] = c[d];
  out.lanes = shape.threads() < warp_lanes ? shape.threads() : warp_lanes;
  out.minimum = (static_cast<long long>(out.lanes) * element_bytes + sector_bytes - 1) / sector_bytes;
  long long seen[8 * warp_lanes] = {};
  int n = 0;
  for (int l = 0; l < out.lanes; ++l) {
    const long long x = l % shape.x, y = (l / shape.x) % shape.y, z = l / (shape.x * shape.y);
    const long long lo = (c[0] * x + c[1] * y + c[2] * z) * element_bytes, hi = lo + element_bytes - 1;
    const auto sector = [](long long byte) { return byte >= 0 ? byte / sector_bytes : -((-byte + sector_bytes - 1) / sector_bytes); };
    for (long long s = sector(lo); s <= sector(hi); ++s) {
      bool again = false;
      for (int k = 0; k < n && !again; ++k) again = seen[k] == s;
      if (again) continue;
      if (n == 8 * warp_lanes) {  // elements over 256 bytes: not judged
        out.judged = false;
        return out;
      }
      seen[n++] = s;
    }
  }
  out.sectors = n;
  return out;
}

// W051's count for one global access, or judged = false.
constexpr coalescing coalescing_of(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a) {
  if (a.memory != dsl::memory_kind::global || a.element_bytes <= 0) return {};
  // A vector access (w::vectors<N>(x)[i]) is N element accesses at N i + c: judged once, by its
  // first component (index N i, a product), as lanes moving N elements each at vector index i.
  const int per_lane = a.vector_bytes > 0 ? a.vector_bytes / a.element_bytes : 1;
  if (per_lane > 1 && ir.exprs[static_cast<std::size_t>(a.index)].op != dsl::ir_op::mul) return {};
  const linear_form form = linearise(lower(ir, shape, scope{a.loop_begin, a.loop_end}, a.index));
  if (!form.ok) return {};
  long long c[3] = {};
  const int lanes = shape.threads() < warp_lanes ? shape.threads() : warp_lanes;
  for (int d = 0; d < 3; ++d) {
    // A dimension the first warp does not step through: its coefficient does not matter.
    const int below = d == 0 ? 1 : d == 1 ? shape.x : shape.x * shape.y;
    if (shape.extent(d) == 1 || below >= lanes) continue;
    const polynomial* k = form.coefficient_of(symbol::thread(d));
    if (k == nullptr) continue;
    if (!k->is_constant()) return {};  // a parameter's value, say: not counted
    c[d] = k->constant_part() / per_lane;
  }
  return count_sectors(c, shape, a.element_bytes * per_lane);
}

// ---- both --------------------------------------------------------------------------------------

struct lint_finding {
  diagnostic::code code = diagnostic::code::W050;
  bool found = false;
  int access = -1;
  bank_conflict conflict;  // W050
  padding_advice advice;   // W050, a 2-D tile
  coalescing count;        // W051
  constexpr explicit operator bool() const { return found; }
};

// The first access (in program order) that each lint fires on.
struct lint_report {
  lint_finding bank_conflict, uncoalesced;
};

// The lints of a kernel the checker accepts, its W050 count already made from the shared rules'
// footprints (analyse(ir, shape, &w050): rules.hpp builds every shared footprint anyway).
constexpr lint_report lint_findings(const kernel_ir& ir, block_shape shape, const shared_lint& w050) {
  shape.grid_dims = grid_dims_of(ir);
  lint_report out;
  out.bank_conflict.code = diagnostic::code::W050;
  out.uncoalesced.code = diagnostic::code::W051;
  if (w050.access >= 0) out.bank_conflict = {diagnostic::code::W050, true, w050.access, w050.conflict, w050.advice, {}};
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.trusted || (a.lint_off & 2) != 0 || a.memory != dsl::memory_kind::global) continue;
    const coalescing c = coalescing_of(ir, shape, a);
    if (c.judged && c.sectors > 2 * c.minimum) {
      out.uncoalesced = {diagnostic::code::W051, true, i, {}, {}, c};
      break;
    }
  }
  return out;
}

// The same with footprints of its own: for any program, accepted or not (tests, tools).
constexpr lint_report lint_findings(const kernel_ir& ir, block_shape shape) {
  shape.grid_dims = grid_dims_of(ir);
  const int n = static_cast<int>(ir.accesses.size());
  std::vector<footprint> prints(static_cast<std::size_t>(n));
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  const shared_lint w050 = first_bank_conflict(ir, [&](int i) -> const footprint& {
    if (!done[static_cast<std::size_t>(i)]) {
      prints[static_cast<std::size_t>(i)] = footprint_of(ir, shape, ir.accesses[static_cast<std::size_t>(i)]);
      done[static_cast<std::size_t>(i)] = 1;
    }
    return prints[static_cast<std::size_t>(i)];
  });
  return lint_findings(ir, shape, w050);
}

// ---- explanations ------------------------------------------------------------------------------

template <std::size_t N>
constexpr detail::text_buffer explain_lint(const explainer<N>& say, const lint_finding& f) {
  detail::text_buffer out;
  const kernel_ir& ir = say.ir;
  const auto& a = ir.accesses[static_cast<std::size_t>(f.access)];
  say.access(out, f.access);
  if (const auto s = say.statement(f.access); !s.empty()) say.quote(out, s);
  out << ": ";
  if (f.code == diagnostic::code::W050) {
    const dsl::ir_tile& t = ir.tiles[static_cast<std::size_t>(a.target)];
    const bank_conflict& c = f.conflict;
    out << "lanes " << c.lane1 << " and " << c.lane2 << " of warp " << c.warp << " touch words " << c.word1 << " and "
        << c.word2 << " of bank " << c.bank << ": " << c.ways << " ways (a ";
    if (t.cols == 0) out << t.rows;
    else out << t.rows << " x " << t.cols;
    out << " tile of " << t.element_bytes << "-byte elements";
    if (t.cols != 0) out << ", rows " << (t.cols + t.pad) << " apart";
    out << "); ";
    const padding_advice& p = f.advice;
    if (p.pad >= 0 && p.ways < p.now)
      out << "pad the tile: w::shared<T, " << t.rows << ", " << t.cols << ", " << p.pad << "> (" << p.ways
          << (p.ways == 1 ? " way" : " ways") << " at most over its accesses, " << p.now << " now)";
    else if (p.pad >= 0)
      out << "no padding of the tile gives its accesses fewer than " << p.now << " ways: change the index or the shape of the block";
    else
      out << "change the index so that the lanes of a warp touch words in distinct banks (a skew such as i + i / 32, with a tile 1/32 larger)";
  } else {
    const coalescing& c = f.count;
    out << "the " << c.lanes << " lanes of a warp touch " << c.sectors << " sectors of 32 bytes, where " << c.minimum
        << " hold their " << (static_cast<long long>(c.lanes) * a.element_bytes) << " bytes (" << a.element_bytes
        << "-byte elements";
    const char* dims[] = {"thread_id.x", "thread_id.y", "thread_id.z"};
    bool first = true;
    for (int d = 0; d < 3; ++d) {
      if (c.coefficient[d] == 0) continue;
      out << (first ? ", the index stepping " : ", ") << c.coefficient[d] << " per " << dims[d];
      first = false;
    }
    out << ")";
  }
  return out;
}

// The messages of a report, in the user's names (verdict_of calls it for an accepted kernel).
template <std::size_t N>
constexpr void explain_lints(const explainer<N>& say, const lint_report& r, lint_message (&out)[2]) {
  out[0].code = diagnostic::code::W050;
  out[1].code = diagnostic::code::W051;
  if (r.bank_conflict) {
    out[0].found = true;
    out[0].text = explain_lint(say, r.bank_conflict);
  }
  if (r.uncoalesced) {
    out[1].found = true;
    out[1].text = explain_lint(say, r.uncoalesced);
  }
}

// One lint message of a verdict as a Source for text_of (diagnostic.hpp).
template <class Source, int Which>
struct lint_part {
  static constexpr lint_message value = Source::value.lints[Which];
};

// Calls the [[deprecated]] member of the lint's class: the warning.
template <class Rule>
constexpr int raise_lint() {
  return Rule::raise();
}

template <class Part>
using lint_text = typename text_of<Part, std::make_index_sequence<static_cast<std::size_t>(Part::value.text.size)>>::type;

// Warns once for each lint of `Source::value`, a verdict (verdict_on_body).
template <class Source>
constexpr int raise_lints() {
  if constexpr (Source::value.lints[0].found) (void)raise_lint<diagnostic::W050_bank_conflict<lint_text<lint_part<Source, 0>>>>();
  if constexpr (Source::value.lints[1].found) (void)raise_lint<diagnostic::W051_uncoalesced<lint_text<lint_part<Source, 1>>>>();
  return 0;
}

}  // namespace warden::check
