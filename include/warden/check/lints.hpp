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
// lint_findings(ir, shape) is the analysis (constexpr; tests call it at run time too);
// lints_of(kernel) adds the explanations; raise_lints<Source>() turns them into warnings
// (diagnostic/lint_rules.hpp), which warden::kernel calls for every kernel it accepts.

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/text_buffer.hpp"
#include "../diagnostic/codes.hpp"
#include "../diagnostic/lint_rules.hpp"
#include "../dsl/program.hpp"
#include "diagnostic.hpp"
#include "explain.hpp"
#include "footprint.hpp"
#include "rules.hpp"
#include "source_names.hpp"

namespace warden::check {

inline constexpr int banks = 32;
inline constexpr int sector_bytes = 32;
using dsl::warp_lanes;

// ---- W050: bank conflicts ---------------------------------------------------------------------

// The worst group of lanes found so far: its ways, where, and two lanes in its fullest bank.
struct bank_conflict {
  int ways = 0;  // 0: nothing counted (no known element)
  int pass = -1, warp = -1;
  int lane1 = -1, lane2 = -1;  // two lanes (of the warp) at distinct words of bank `bank`
  long long word1 = -1, word2 = -1;
  int bank = -1;
};

// Lanes served together for elements of `element_bytes`: a warp (32) up to 4 bytes, then 16 lanes
// for 8, 8 for 16 (a request moves at most 128 bytes); 0 for elements too large to judge.
constexpr int lanes_per_phase(int element_bytes) {
  const int words = (element_bytes + 3) / 4;
  if (words <= 1) return warp_lanes;
  int round = 1;
  while (round < words) round *= 2;
  return round > warp_lanes ? 0 : warp_lanes / round;
}

// The ways of one group of lanes: `elements[i]` is lane first + i's element (no_instance: the lane
// does not run it; unknown_element: the group is not judged, 0 returned). `out` gets the group's
// fullest bank when it is worse than out.ways.
constexpr int group_ways(const long long* elements, int count, int element_bytes, int first_lane, bank_conflict* out) {
  long long word[2 * warp_lanes] = {};
  int lane[2 * warp_lanes] = {};
  int next[2 * warp_lanes] = {};
  int head[banks], ways[banks] = {};
  for (int b = 0; b < banks; ++b) head[b] = -1;
  int n = 0, worst = 0, worst_bank = -1;
  for (int i = 0; i < count; ++i) {
    const long long e = elements[i];
    if (e == no_instance) continue;
    if (e < 0) return 0;
    const long long lo = e * element_bytes / 4, hi = (e * element_bytes + element_bytes - 1) / 4;
    for (long long w = lo; w <= hi && n < 2 * warp_lanes; ++w) {
      const int b = static_cast<int>(w % banks);
      bool seen = false;
      for (int k = head[b]; k >= 0 && !seen; k = next[k]) seen = word[k] == w;
      if (seen) continue;  // a broadcast
      word[n] = w;
      lane[n] = first_lane + i;
      next[n] = head[b];
      head[b] = n++;
      if (++ways[b] > worst) {
        worst = ways[b];
        worst_bank = b;
      }
    }
  }
  if (out != nullptr && worst > out->ways) {
    out->ways = worst;
    out->bank = worst_bank;
    // The two most recent words of the bank (the list is newest first).
    const int k1 = head[worst_bank], k2 = k1 >= 0 ? next[k1] : -1;
    out->lane1 = k2 >= 0 ? lane[k2] : lane[k1];
    out->lane2 = lane[k1];
    out->word1 = k2 >= 0 ? word[k2] : word[k1];
    out->word2 = word[k1];
  }
  return worst;
}

// The worst ways of a footprint over its passes and warps (threads numbered linearly, x fastest).
// With `pitch` > 0, a 2-D tile's elements row * pitch + col are judged as if its rows were
// `new_pitch` apart (another padding).
constexpr bank_conflict worst_ways(const footprint& f, int element_bytes, long long pitch = 0, long long new_pitch = 0) {
  bank_conflict worst;
  const int group = lanes_per_phase(element_bytes);
  if (group == 0 || element_bytes <= 0) return worst;
  long long moved[warp_lanes] = {};
  for (int p = 0; p < f.passes; ++p) {
    const long long* pass = f.pass(p);
    for (int first = 0; first < f.threads; first += warp_lanes) {
      const int end = first + warp_lanes < f.threads ? first + warp_lanes : f.threads;
      for (int g = first; g < end; g += group) {
        const int before = worst.ways, count = end - g < group ? end - g : group;
        const long long* elements = pass + g;
        if (pitch > 0) {
          for (int i = 0; i < count; ++i)
            moved[i] = elements[i] < 0 ? elements[i] : elements[i] / pitch * new_pitch + elements[i] % pitch;
          elements = moved;
        }
        group_ways(elements, count, element_bytes, g - first, &worst);
        if (worst.ways > before) {
          worst.pass = p;
          worst.warp = first / warp_lanes;
        }
        if (worst.ways >= banks) return worst;
      }
    }
  }
  return worst;
}

// The padding of a 2-D tile that leaves the fewest ways over all its (untrusted) accesses: the
// smallest pad in 0..31 reaching the least worst case, and that worst case.
struct padding_advice {
  int pad = -1;   // -1: not a 2-D tile
  int ways = 0;   // the worst ways over the tile's accesses with that pad
  int now = 0;    // ... and with the tile's own pad
};
constexpr padding_advice best_padding(const ir_builder& ir, block_shape shape, int tile_id) {
  padding_advice out;
  const dsl::ir_tile* tile = tile_of(ir, tile_id);
  if (tile == nullptr || tile->cols == 0 || tile->element_bytes <= 0) return out;
  std::vector<footprint> prints;
  for (const dsl::ir_access& a : ir.accesses)
    if (a.memory == dsl::memory_kind::shared && a.target == tile_id && !a.trusted) prints.push_back(footprint_of(ir, shape, a));
  const long long pitch = tile->cols + tile->pad;
  for (int pad = 0; pad < banks; ++pad) {
    int ways = 0;
    for (const footprint& f : prints) {
      const int w = worst_ways(f, tile->element_bytes, pitch, tile->cols + pad).ways;
      ways = w > ways ? w : ways;
    }
    if (pad == tile->pad) out.now = ways;
    if (out.pad < 0 || ways < out.ways) {
      out.pad = pad;
      out.ways = ways;
    }
  }
  return out;
}

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
constexpr coalescing coalescing_of(const ir_builder& ir, block_shape shape, const dsl::ir_access& a) {
  if (a.memory != dsl::memory_kind::global || a.element_bytes <= 0) return {};
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
    c[d] = k->constant_part();
  }
  return count_sectors(c, shape, a.element_bytes);
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

constexpr lint_report lint_findings(const ir_builder& ir, block_shape shape) {
  shape.grid_dims = grid_dims_of(ir);
  lint_report out;
  out.bank_conflict.code = diagnostic::code::W050;
  out.uncoalesced.code = diagnostic::code::W051;
  for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
    const dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
    if (a.trusted) continue;
    if (a.memory == dsl::memory_kind::shared && !out.bank_conflict) {
      const dsl::ir_tile* tile = tile_of(ir, a.target);
      if (tile == nullptr || tile->element_bytes <= 0) continue;
      const footprint f = footprint_of(ir, shape, a);
      const bank_conflict c = worst_ways(f, tile->element_bytes);
      if (c.ways > 1) out.bank_conflict = {diagnostic::code::W050, true, i, c, best_padding(ir, shape, a.target), {}};
    } else if (a.memory == dsl::memory_kind::global && !out.uncoalesced) {
      const coalescing c = coalescing_of(ir, shape, a);
      if (c.judged && c.sectors > 2 * c.minimum) out.uncoalesced = {diagnostic::code::W051, true, i, {}, {}, c};
    }
    if (out.bank_conflict && out.uncoalesced) break;
  }
  return out;
}

// ---- explanations ------------------------------------------------------------------------------

struct lint_message {
  diagnostic::code code = diagnostic::code::W050;
  bool found = false;
  detail::text_buffer text;
};

struct lint_verdict {
  lint_message messages[2];  // W050, W051
};

template <std::size_t N>
constexpr detail::text_buffer explain_lint(const explainer<N>& say, const lint_finding& f) {
  detail::text_buffer out;
  const ir_builder& ir = say.ir;
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
      out << "give a warp's lanes words in distinct banks";
  } else {
    const coalescing& c = f.count;
    out << "the " << c.lanes << " lanes of a warp touch " << c.sectors << " sectors of 32 bytes, where " << c.minimum
        << " hold their " << (static_cast<long long>(c.lanes) * a.element_bytes) << " bytes (" << a.element_bytes
        << "-byte elements " << c.coefficient[0] << " apart along thread_id.x)";
  }
  return out;
}

// The lints of a kernel, with explanations in the user's names (as verdict_of gives the checker's).
template <class K>
constexpr lint_verdict lints_of(const K& kernel, std::string_view source = {}) {
  const auto& def = definition_of(kernel);
  using D = std::remove_cvref_t<decltype(def)>;
  const dsl::ir_builder ir = def.describe();
  const block_shape shape{D::block_type::x, D::block_type::y, D::block_type::z};
  lint_verdict v;
  v.messages[0].code = diagnostic::code::W050;
  v.messages[1].code = diagnostic::code::W051;
  const auto kinds = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, D::arity>{D::template param<I>::kind...};
  }(std::make_index_sequence<D::arity>{});
  // A plain access of an atomic<T> parameter has failed where it was written (W040): no lints then.
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::global && a.kind != dsl::access_kind::atomic &&
        kinds[static_cast<std::size_t>(a.target)] == "atomic")
      return v;
  const lint_report r = lint_findings(ir, shape);
  if (!r.bank_conflict && !r.uncoalesced) return v;
  if constexpr (requires { typename K::holder; })
    if (source.empty()) source = kernel_source_of<typename K::holder>::text;
  const source_names<D::arity> names = names_from_source<D::arity>(source, ir);
  const explainer<D::arity> say{ir, kinds, names};
  if (r.bank_conflict) {
    v.messages[0].found = true;
    v.messages[0].text = explain_lint(say, r.bank_conflict);
  }
  if (r.uncoalesced) {
    v.messages[1].found = true;
    v.messages[1].text = explain_lint(say, r.uncoalesced);
  }
  return v;
}

// The lints of the kernel whose body has type F.
template <class Block, class F, class... Params>
struct lints_on_body {
  static constexpr lint_verdict value = lints_of(dsl::build_kernel<Block, Params...>(F{}), kernel_source_of<F>::text);
};

// One message of a lint_verdict as a Source for text_of (diagnostic.hpp).
template <class Lints, int Which>
struct lint_part {
  static constexpr lint_message value = Lints::value.messages[Which];
};

// Calls the [[deprecated]] member of the lint's class: the warning.
template <class Rule>
constexpr int raise_lint() {
  return Rule::raise();
}

template <class Part>
using lint_text = typename text_of<Part, std::make_index_sequence<static_cast<std::size_t>(Part::value.text.size)>>::type;

// Warns once for each lint the kernel whose lints are `Lints` (a lints_on_body) triggers.
template <class Lints>
constexpr int raise_lints() {
  if constexpr (Lints::value.messages[0].found) (void)raise_lint<diagnostic::W050_bank_conflict<lint_text<lint_part<Lints, 0>>>>();
  if constexpr (Lints::value.messages[1].found) (void)raise_lint<diagnostic::W051_uncoalesced<lint_text<lint_part<Lints, 1>>>>();
  return 0;
}

}  // namespace warden::check
