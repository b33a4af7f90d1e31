#pragma once
// Per-thread footprints of a shared-memory access, and the search for two threads that meet in
// them. A tile index usually depends only on the thread and static loops, so every thread's
// elements can be listed exactly, iteration by iteration.
//
// A footprint is a list of passes: one per combination of loop counters (the same for every
// thread in the pass), each with every thread's element. This runs in constant evaluation, where
// growing a vector element by element costs far more than arithmetic: storage is allocated whole,
// and the searches below are flat loops over it.

#include <climits>
#include <vector>

#include "../detail/scratch.hpp"
#include "affine.hpp"
#include "tape.hpp"

namespace warden::check {

// An element of a pass: the tile element a thread touches, or one of these.
inline constexpr long long no_instance = -2;      // the thread does not run the access in this pass
inline constexpr long long unknown_element = -1;  // it does, at an element not known

struct footprint {
  int threads = 0;
  int depth = 0;   // the loops around the access
  int passes = 0;
  detail::scratch<long long> counters;  // `depth` per pass; unknown_counter: not enumerated
  detail::scratch<long long> elements;  // `threads` per pass
  // Loop levels at which some pass has a known / an unknown counter, as bit masks.
  unsigned long long known_levels = 0, unknown_levels = 0;
  bool some_unknown_element = false;
  // The exact range of the row (1-D: the index) and column over every thread and iteration, when
  // every index was known: launch's E101 uses it for tiles (no interval can follow `t ^ j`).
  bool all_known = true;
  long long row_lo = LLONG_MAX, row_hi = LLONG_MIN, col_lo = LLONG_MAX, col_hi = LLONG_MIN;
  // The loops (bits by index in ir.loops, the first 64) whose run-time trip count was taken to be
  // at most the assumed limit (footprint_of's `assumed_trips`): launch must check it (E106).
  unsigned long long assumed_loops = 0;
  // Levels (bits, the first 64) where some enumeration found threads with different trip counts,
  // or one not static: a trip number there is not the same trip in every thread.
  unsigned long long uneven_levels = 0;
  // Listing run-time loops iteration by iteration would have taken more than max_assumed_elements
  // (a register-tiled matmul: 32 steps x 512 unrolled passes x 256 threads): the listing stopped,
  // and says nothing.
  bool too_large = false;

  constexpr const long long* pass(int p) const { return elements.data() + p * threads; }

  // Every instance at an element not known: what a trusted access promises the accesses around it
  // (docs/soundness.md, "Escape hatches": trusted gives up only the pairs it makes alone).
  constexpr void forget_elements() {
    for (int i = 0; i < passes * threads; ++i)
      if (elements[i] != no_instance) elements[i] = unknown_element;
    some_unknown_element = true;
    all_known = false;
  }
  constexpr long long counter(int p, int level) const { return counters[p * depth + level]; }

  // Room for one more pass (capacity doubles), its counters copied from `at`.
  constexpr long long* add_pass(const long long* at) {
    if ((passes + 1) * threads > elements.size()) {
      const int capacity = passes < 4 ? 8 : 2 * passes;
      elements = elements.resized(capacity * threads);
      counters = counters.resized(capacity * depth);
    }
    long long* c = counters.data() + passes * depth;
    for (int d = 0; d < depth; ++d) {
      c[d] = at[d];
      if (at[d] == unknown_counter) unknown_levels |= 1ULL << d;
      else known_levels |= 1ULL << d;
    }
    return elements.data() + passes++ * threads;
  }
};

inline constexpr long long max_enumerated_trips = 4096;

// A loop whose trip count only the launch knows, but whose start and step are known, may be listed
// iteration by iteration up to this many trips, as if it ran that many; the kernel then carries
// the obligation that it runs no more (dsl/obligation.hpp, E106). 32 covers every level of a
// halving tree over a block (shifts by 32 or more are undefined anyway). At most two such loops
// around one access are listed so.
inline constexpr long long assumed_trip_limit = 32;
inline constexpr int max_assumed_depth = 2;
// The most thread-elements a listing with assumed trip counts may hold (passes x threads): beyond
// it the listing gives up (footprint::too_large), within the compilers' constexpr limits.
inline constexpr long long max_assumed_elements = 1 << 17;

constexpr const dsl::ir_tile* tile_of(const kernel_ir& ir, int tile) {
  if (tile < 0 || tile >= static_cast<int>(ir.tiles.size())) return nullptr;
  return &ir.tiles[static_cast<std::size_t>(tile)];
}
constexpr long long tile_elements(const dsl::ir_tile& t) { return t.cols == 0 ? t.rows : static_cast<long long>(t.rows) * (t.cols + t.pad); }

// Lists one access's passes: loop level by loop level, all threads at once.
class footprint_builder {
 public:
  constexpr footprint_builder(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a, long long assumed_trips = 0,
                              bool merge_unread_loops = false)
      : ir_(ir), a_(a), tape_(ir, shape, scope{a.loop_begin, a.loop_end}), threads_(shape.threads()),
        assumed_trips_(assumed_trips) {
    out_.threads = threads_;
    out_.depth = a.loop_end - a.loop_begin;
    if (const dsl::ir_tile* tile = a.memory == dsl::memory_kind::shared ? tile_of(ir, a.target) : nullptr) {
      rows_ = a.column >= 0 ? tile->rows : tile_elements(*tile);
      cols_ = tile->cols;
      pitch_ = tile->cols + tile->pad;
    }
    std::vector<unsigned long long> bound_reads;  // by level: the counters its bounds read
    for (int d = 0; d < out_.depth; ++d) {
      const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(a.loop_begin + d)])];
      grid_stride_.push_back(loop.grid_stride ? 1 : 0);
      unsigned long long reads = 0;
      for (int e : {loop.lo, loop.hi, loop.step}) {
        const int slot = tape_.compile(e);
        reads |= tape_.reads_counters(slot);
        bounds_.push_back(place(slot));
      }
      bound_reads.push_back(reads);
      tape_.end_section();
    }
    unsigned long long reads = 0;  // what the pass reads: the guards and the index
    for (int g = a.guard_begin; g < a.guard_end; ++g) {
      const int slot = tape_.compile(ir.guard_pool[static_cast<std::size_t>(g)].condition);
      reads |= tape_.reads_counters(slot);
      guards_.push_back(place(slot));
      negated_.push_back(ir.guard_pool[static_cast<std::size_t>(g)].negated ? 1 : 0);
    }
    const int row_slot = tape_.compile(a.index);
    const int column_slot = a.column >= 0 ? tape_.compile(a.column) : 0;
    reads |= tape_.reads_counters(row_slot) | tape_.reads_counters(column_slot);
    row_ = place(row_slot);
    column_ = a.column >= 0 ? place(column_slot) : placed{};
    tape_.end_section();
    // A level whose counter nothing inside it reads (the pass, or the bounds of a deeper loop).
    merged_.resize(static_cast<std::size_t>(out_.depth), 0);
    for (int d = out_.depth - 1; d >= 0; --d) {
      merged_[static_cast<std::size_t>(d)] = merge_unread_loops && d < 64 && (reads >> d & 1) == 0 ? 1 : 0;
      reads |= bound_reads[static_cast<std::size_t>(d)];
    }
    registers_ = tape_.make_registers();
    counters_ = detail::scratch<long long>(out_.depth, unknown_counter);
    // Per level: which threads run it (all at level 0), and each thread's trip count there.
    active_ = detail::scratch<char>((out_.depth + 1) * threads_, 1);
    trips_ = detail::scratch<long long>(out_.depth * threads_);
  }

  constexpr footprint run() {
    enumerate(0);
    return static_cast<footprint&&>(out_);
  }

  // Whether the listing keeps within its budget (max_assumed_elements, with assumed trip counts;
  // without, it has none), its passes counted without the per-thread work of each (every thread's
  // guards and index: most of a listing's cost). For a builder that is not run after.
  constexpr bool fits() {
    if (assumed_trips_ == 0) return true;
    counting_ = true;
    enumerate(0);
    return !out_.too_large;
  }

 private:
  struct placed {  // a slot's place in the register file
    int offset = 0, stride = 0;
  };
  constexpr placed place(int slot) const { return {tape_.offset(slot), tape_.stride(slot)}; }

  constexpr void enumerate(int depth) {
    long long* r = registers_.data();
    if (counting_ && depth == out_.depth) {  // a pass, counted (an upper bound: one may be empty)
      if (++counted_ * threads_ > max_assumed_elements) out_.too_large = true;
      return;
    }
    tape_.run(depth, counters_.data(), r);
    const char* active = active_.data() + depth * threads_;
    if (depth < out_.depth) {
      // Each running thread's trip count; -1 where not static (then one pass, counter unknown).
      long long* trips = trips_.data() + depth * threads_;
      const placed lo = bounds_[static_cast<std::size_t>(3 * depth)], hi = bounds_[static_cast<std::size_t>(3 * depth + 1)],
                   step = bounds_[static_cast<std::size_t>(3 * depth + 2)];
      const bool grid_stride = grid_stride_[static_cast<std::size_t>(depth)] != 0;
      long long most = 0;
      bool some_unknown = false, assumed = false;
      const bool may_assume = assumed_trips_ > 0 && assumed_depth_ < max_assumed_depth && !grid_stride;
      for (int t = 0; t < threads_; ++t) {
        if (!active[t]) continue;
        const long long l = r[lo.offset + t * lo.stride], h = r[hi.offset + t * hi.stride], s = r[step.offset + t * step.stride];
        long long n = -1;
        if (!grid_stride && l != unknown_value && h != unknown_value && s != unknown_value && s > 0) {
          n = h <= l ? 0 : (h - l + s - 1) / s;
          if (n > max_enumerated_trips) n = -1;
        } else if (may_assume && l != unknown_value && h == unknown_value && s != unknown_value && s > 0) {
          n = assumed_trips_;  // iterations 0 .. limit - 1, each one that may run
          assumed = true;
        }
        trips[t] = n;
        some_unknown = some_unknown || n < 0;
        most = n > most ? n : most;
      }
      const int loop = ir_.loop_pool[static_cast<std::size_t>(a_.loop_begin + depth)];
      if (assumed && loop < 64) out_.assumed_loops |= 1ULL << loop;
      for (int t = 0; t < threads_ && depth < 64; ++t)
        if (active[t] && trips[t] != most) out_.uneven_levels |= 1ULL << depth;
      char* next = active_.data() + (depth + 1) * threads_;
      // A loop whose counter nothing below reads, running the same n >= 2 trips in every thread
      // that reaches it, gives n equal passes: one is listed, its counter unknown (any iteration).
      // Exact for the searches (iterations_match): that pass stands for the access in every
      // iteration, so a match in the same iteration, or in a different one, is a real one.
      if (merged_[static_cast<std::size_t>(depth)] && !grid_stride && !assumed && !some_unknown && most >= 2) {
        bool uniform = true;
        for (int t = 0; t < threads_; ++t) {
          next[t] = active[t];
          uniform = uniform && (!active[t] || trips[t] == most);
        }
        if (uniform) {
          counters_[depth] = unknown_counter;
          enumerate(depth + 1);
          return;
        }
      }
      assumed_depth_ += assumed ? 1 : 0;
      for (long long k = 0; k < most && !out_.too_large; ++k) {
        bool any = false;
        for (int t = 0; t < threads_; ++t) {
          next[t] = active[t] && trips[t] > k ? 1 : 0;
          any = any || next[t];
        }
        if (!any) continue;
        counters_[depth] = k;
        enumerate(depth + 1);
      }
      if (some_unknown && !out_.too_large) {  // some iteration, not known which
        for (int t = 0; t < threads_; ++t) next[t] = active[t] && trips[t] < 0 ? 1 : 0;
        counters_[depth] = unknown_counter;
        enumerate(depth + 1);
      }
      counters_[depth] = unknown_counter;
      assumed_depth_ -= assumed ? 1 : 0;
      return;
    }
    // The pass: every thread's element. (No calls per thread: see tape.hpp.)
    footprint& f = out_;
    if (assumed_trips_ > 0 && static_cast<long long>(f.passes + 1) * threads_ > max_assumed_elements) {
      f.too_large = true;
      return;
    }
    long long* element = f.add_pass(counters_.data());
    // Constant evaluation pays for every node it evaluates, and a member read through `this` or
    // `f` is several: the per-thread loop reads locals only, and writes the ranges back once.
    const int threads = threads_, guards = static_cast<int>(guards_.size());
    const placed* guard = guards_.data();
    const char* negated = negated_.data();
    const bool two_d = a_.column >= 0;
    const long long* rows = r + row_.offset;
    const long long* cols = r + (two_d ? column_.offset : 0);
    const int row_stride = row_.stride, col_stride = two_d ? column_.stride : 0;
    // A 1-D access is row `index`, column 0 of a one-column tile.
    const long long row_count = rows_, col_count = two_d ? cols_ : 1, pitch = two_d ? pitch_ : 1;
    long long row_lo = f.row_lo, row_hi = f.row_hi, col_lo = f.col_lo, col_hi = f.col_hi;
    bool any = false, unknown = false;
    for (int t = 0; t < threads; ++t) {
      long long e = no_instance;
      if (active[t]) {
        bool runs = true;
        for (int g = 0; g < guards && runs; ++g) {
          const long long v = r[guard[g].offset + t * guard[g].stride];
          runs = v == unknown_value || (v != 0) != (negated[g] != 0);
        }
        if (runs) {
          const long long row = rows[t * row_stride];
          const long long col = two_d ? cols[t * col_stride] : 0;
          if (row == unknown_value || col == unknown_value) {
            unknown = true;
            e = unknown_element;
          } else {
            if (row < row_lo) row_lo = row;
            if (row > row_hi) row_hi = row;
            if (col < col_lo) col_lo = col;
            if (col > col_hi) col_hi = col;
            // An index outside the tile is E101's business at launch; here it touches nothing shared.
            if (row >= 0 && row < row_count && col >= 0 && col < col_count) e = row * pitch + col;
          }
          any = any || e != no_instance;
        }
      }
      element[t] = e;
    }
    f.row_lo = row_lo;
    f.row_hi = row_hi;
    if (two_d) {
      f.col_lo = col_lo;
      f.col_hi = col_hi;
    }
    if (unknown) {
      f.all_known = false;
      f.some_unknown_element = true;
    }
    if (!any) --f.passes;  // no thread runs it here: drop the pass
  }

  const kernel_ir& ir_;
  const dsl::ir_access& a_;
  tape tape_;
  int threads_;
  long long assumed_trips_ = 0;  // > 0: run-time trip counts taken to be at most this
  int assumed_depth_ = 0;        // loops listed so on the way to the current level
  bool counting_ = false;        // fits(): passes counted, not listed
  long long counted_ = 0;
  long long rows_ = 0, cols_ = 0, pitch_ = 0;  // the tile's rows (1-D: elements), columns, row pitch
  std::vector<char> grid_stride_;              // by level
  std::vector<placed> bounds_;                 // lo, hi, step by level
  std::vector<placed> guards_;
  std::vector<char> negated_;
  std::vector<char> merged_;  // by level: its iterations listed as one pass (merge_unread_loops)
  placed row_, column_;
  detail::scratch<long long> registers_;
  detail::scratch<long long> counters_;  // by level
  detail::scratch<char> active_;         // by level, by thread
  detail::scratch<long long> trips_;     // by level, by thread
  footprint out_;
};

// `merge_unread_loops`: a loop whose counter the access does not read is listed as one pass of an
// unknown counter (footprint_builder::enumerate): for the shared rules' searches, not for a caller
// that reads the counters or the unknown levels themselves.
constexpr footprint footprint_of(const kernel_ir& ir, block_shape shape, const dsl::ir_access& a,
                                 long long assumed_trips = 0, bool merge_unread_loops = false) {
  footprint_builder builder(ir, shape, a, assumed_trips, merge_unread_loops);
  return builder.run();
}

// Whether every shared access's listing with `assumed_trips` keeps within max_assumed_elements: a
// listing stops at the first that does not, having spent its time on the others for nothing.
constexpr bool assumed_listing_fits(const kernel_ir& ir, block_shape shape, long long assumed_trips) {
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::shared && !footprint_builder(ir, shape, a, assumed_trips, true).fits()) return false;
  return true;
}

// ---- two threads that meet --------------------------------------------------------------------

struct meeting {
  int thread1 = -1, thread2 = -1;
  long long element = -1;
  constexpr explicit operator bool() const { return thread1 >= 0; }
};

// Relation between two executions' iterations: -1 = the same iteration of every common loop;
// d >= 0 = the same outside common loop number d, different in it.
constexpr bool iterations_match(const footprint& fa, int pa, const footprint& fc, int pc, int common, int relation) {
  const int same_upto = relation < 0 ? common : relation;
  for (int d = 0; d < same_upto; ++d) {
    const long long x = fa.counter(pa, d), y = fc.counter(pc, d);
    if (x != unknown_counter && y != unknown_counter && x != y) return false;
  }
  if (relation >= 0) {
    const long long x = fa.counter(pa, relation), y = fc.counter(pc, relation);
    if (x != unknown_counter && y != unknown_counter && x == y) return false;
  }
  return true;
}

// The same iteration of the `common` loops, every element known, and each loop level's counter
// known in every pass of both or in none (then it never tells passes apart): a slot per
// (element, counters of the known levels) records the first two threads there, and an instance
// meets another thread exactly when its slot holds one. Returns false when it does not apply.
constexpr bool meet_by_slots(const footprint& fa, const footprint& fc, int common, long long elements, meeting& out) {
  if (fa.some_unknown_element || fc.some_unknown_element) return false;
  long long slots = elements;
  std::vector<long long> radix(static_cast<std::size_t>(common), 0);  // 0: the level is left out
  for (int d = 0; d < common; ++d) {
    const unsigned long long bit = 1ULL << d;
    const bool known = ((fa.known_levels | fc.known_levels) & bit) != 0;
    if (known && ((fa.unknown_levels | fc.unknown_levels) & bit) != 0) return false;
    if (!known) continue;
    long long most = 0;
    for (int p = 0; p < fa.passes; ++p) most = fa.counter(p, d) > most ? fa.counter(p, d) : most;
    for (int p = 0; p < fc.passes; ++p) most = fc.counter(p, d) > most ? fc.counter(p, d) : most;
    radix[static_cast<std::size_t>(d)] = most + 1;
    slots *= most + 1;
    if (slots > (1LL << 22)) return false;
  }
  auto base_of = [&](const footprint& f, int p) {
    long long s = 0;
    for (int d = common - 1; d >= 0; --d)
      if (radix[static_cast<std::size_t>(d)] > 0) s = s * radix[static_cast<std::size_t>(d)] + f.counter(p, d);
    return s * elements;
  };
  detail::scratch<int> first(static_cast<int>(slots), -1), second(static_cast<int>(slots), -1);
  int* first_at = first.data();
  int* second_at = second.data();
  for (int p = 0; p < fc.passes; ++p) {
    const long long base = base_of(fc, p);
    const long long* e = fc.pass(p);
    for (int t = 0; t < fc.threads; ++t) {
      if (e[t] < 0) continue;
      const long long s = base + e[t];
      if (first_at[s] < 0) first_at[s] = t;
      else if (first_at[s] != t && second_at[s] < 0) second_at[s] = t;
    }
  }
  for (int p = 0; p < fa.passes; ++p) {
    const long long base = base_of(fa, p);
    const long long* e = fa.pass(p);
    for (int t = 0; t < fa.threads; ++t) {
      if (e[t] < 0) continue;
      const long long s = base + e[t];
      const int other = first_at[s] >= 0 && first_at[s] != t ? first_at[s] : second_at[s];
      if (other >= 0) {
        out = meeting{t, other, e[t]};
        return true;
      }
    }
  }
  return true;
}

// The general search: c's instances bucketed by element (unknown elements meet every one), each
// of a's compared with its bucket and with every unknown one.
constexpr meeting meet_by_buckets(const footprint& fa, const footprint& fc, int common, int relation, long long elements) {
  // c's instances as (pass, thread), in buckets by element; unknown ones apart.
  detail::scratch<int> start(static_cast<int>(elements + 2), 0);
  int* starts = start.data();
  int count = 0, wild_count = 0;
  for (int p = 0; p < fc.passes; ++p) {
    const long long* pass = fc.pass(p);
    for (int t = 0; t < fc.threads; ++t) {
      if (pass[t] >= 0) ++starts[pass[t] + 1];
      count += pass[t] >= 0 ? 1 : 0;
      wild_count += pass[t] == unknown_element ? 1 : 0;
    }
  }
  for (long long e = 0; e < elements; ++e) starts[e + 1] += starts[e];
  detail::scratch<int> fill(start);
  detail::scratch<int> pass_of(count), thread_of(count), wild_pass(wild_count), wild_thread(wild_count);
  for (int p = 0, w = 0; p < fc.passes; ++p) {
    const long long* pass = fc.pass(p);
    for (int t = 0; t < fc.threads; ++t) {
      if (pass[t] == unknown_element) {
        wild_pass[w] = p;
        wild_thread[w++] = t;
      } else if (pass[t] >= 0) {
        const int k = fill[static_cast<int>(pass[t])]++;
        pass_of[k] = p;
        thread_of[k] = t;
      }
    }
  }
  for (int pa = 0; pa < fa.passes; ++pa) {
    const long long* pass = fa.pass(pa);
    for (int ta = 0; ta < fa.threads; ++ta) {
      const long long e = pass[ta];
      if (e == no_instance) continue;
      auto meets = [&](int pc, int tc) { return ta != tc && iterations_match(fa, pa, fc, pc, common, relation); };
      if (e == unknown_element) {  // meets any instance of another thread
        for (int pc = 0; pc < fc.passes; ++pc) {
          const long long* other = fc.pass(pc);
          for (int tc = 0; tc < fc.threads; ++tc)
            if (other[tc] != no_instance && meets(pc, tc)) return {ta, tc, other[tc]};
        }
        continue;
      }
      for (int k = starts[e]; k < starts[e + 1]; ++k)
        if (meets(pass_of[k], thread_of[k]))
          return {ta, thread_of[k], e};
      for (int w = 0; w < wild_count; ++w)
        if (meets(wild_pass[w], wild_thread[w]))
          return {ta, wild_thread[w], e};
    }
  }
  return {};
}

// Two instances by different threads, related as `relation` says, at one element (or unknown).
// The passes of `f` in the last (or first) trip of loop level `level`, among the passes of each
// trip of the loops outside it: what of an access in a loop whose every trip passes a barrier can
// meet an access after (or before) the loop (tile_listing.hpp). The passes are listed depth first,
// so a run of passes that agree on the outer levels is one trip of the outer loops (where a trip
// were split over two runs, each run's edge would be kept: more passes, never fewer). A pass whose
// counter at `level` is not enumerated is kept.
constexpr footprint edge_trip_passes(const footprint& f, int level, bool last) {
  footprint out;
  out.threads = f.threads;
  out.depth = f.depth;
  out.some_unknown_element = f.some_unknown_element;
  out.all_known = f.all_known;
  out.row_lo = f.row_lo, out.row_hi = f.row_hi, out.col_lo = f.col_lo, out.col_hi = f.col_hi;
  out.assumed_loops = f.assumed_loops;
  out.uneven_levels = f.uneven_levels;
  out.too_large = f.too_large;
  auto same_outer = [&](int p, int q) {
    for (int d = 0; d < level; ++d)
      if (f.counter(p, d) != f.counter(q, d)) return false;
    return true;
  };
  for (int begin = 0; begin < f.passes;) {
    int end = begin + 1;
    while (end < f.passes && same_outer(begin, end)) ++end;
    long long edge = unknown_counter;
    for (int p = begin; p < end; ++p) {
      const long long k = f.counter(p, level);
      if (k == unknown_counter) continue;
      if (edge == unknown_counter || (last ? k > edge : k < edge)) edge = k;
    }
    for (int p = begin; p < end; ++p) {
      const long long k = f.counter(p, level);
      if (k != unknown_counter && k != edge) continue;
      long long* to = out.add_pass(f.counters.data() + p * f.depth);
      const long long* from = f.pass(p);
      for (int t = 0; t < f.threads; ++t) to[t] = from[t];
    }
    begin = end;
  }
  return out;
}

constexpr meeting find_meeting(const footprint& fa, const footprint& fc, int common, int relation, long long elements) {
  meeting m;
  if (relation < 0 && meet_by_slots(fa, fc, common, elements, m)) return m;
  return meet_by_buckets(fa, fc, common, relation, elements);
}

}  // namespace warden::check
