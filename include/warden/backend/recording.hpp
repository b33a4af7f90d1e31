#pragma once
// The cpu backend's recording mode: every access of a run (block, thread, barrier phase, buffer or
// tile, index, kind), and the conflicts among them under the CUDA execution model:
//   * two accesses to one location by different threads conflict when at least one stores, or one
//     is atomic and the other plain, unless a barrier orders them: same block and different phases;
//     accesses from different blocks are never ordered;
//   * a load from shared memory that no earlier phase (nor the same thread) stored is reported;
//   * a barrier reached by only part of a block is reported, and so is a warp shuffle reached by
//     only part of a warp;
//   * under w::record_anyway (a launch the launch-time checks refuse, recorded to see why), an
//     access outside its buffer or tile is reported instead of made, and the refusal is kept.
// It is the dynamic oracle the static checker is tested against.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <tuple>
#include <vector>

#include "../dsl/ir.hpp"

namespace warden {

struct access_event {
  int block = 0;   // linear block index
  int thread = 0;  // linear thread index in the block
  int phase = 0;
  dsl::memory_kind memory = dsl::memory_kind::global;
  int target = 0;  // parameter position, or tile level
  long long index = 0;
  dsl::access_kind kind = dsl::access_kind::load;
  // The program node that made it (ir_access::origin), or nullptr where none said.
  const void* site = nullptr;
};

enum class conflict_kind {
  write_write,
  read_write,
  atomic_plain,
  uninitialised_shared_load,
  barrier_divergence,
  shuffle_divergence,
  out_of_bounds,
};

inline const char* to_string(conflict_kind k) {
  switch (k) {
    case conflict_kind::write_write: return "write-write race";
    case conflict_kind::read_write: return "read-write race";
    case conflict_kind::atomic_plain: return "atomic and plain access";
    case conflict_kind::uninitialised_shared_load: return "load of unwritten shared memory";
    case conflict_kind::out_of_bounds: return "out-of-bounds access";
    case conflict_kind::barrier_divergence: return "barrier divergence";
    case conflict_kind::shuffle_divergence: return "shuffle divergence";
  }
  return "?";
}

struct conflict {
  conflict_kind kind;
  access_event first;
  access_event second;  // same as first for one-event reports
  // In the kernel's names where given (`params`, `tiles`: by parameter and by tile id; "" where
  // it has none), else "parameter 1[256]", "tile 0[5]".
  std::string describe(const std::vector<std::string>& params = {}, const std::vector<std::string>& tiles = {}) const {
    auto where = [](const access_event& e) {
      const char* kinds[] = {"load", "store", "atomic"};
      return std::string(kinds[static_cast<int>(e.kind)]) + " by thread " + std::to_string(e.thread) + " of block " +
             std::to_string(e.block) + " in phase " + std::to_string(e.phase);
    };
    const bool global = first.memory == dsl::memory_kind::global;
    const std::vector<std::string>& named = global ? params : tiles;
    const auto t = static_cast<std::size_t>(first.target);
    const std::string location = (first.target >= 0 && t < named.size() && !named[t].empty() ? named[t]
                                                                          : (global ? "parameter " : "tile ") + std::to_string(first.target)) +
                                 "[" + std::to_string(first.index) + "]";
    if (kind == conflict_kind::barrier_divergence)
      return std::string(to_string(kind)) + ": block " + std::to_string(first.block) + ", phase " +
             std::to_string(first.phase) + ": " + std::to_string(first.thread) + " threads reached sync()";
    if (kind == conflict_kind::shuffle_divergence)
      return std::string(to_string(kind)) + ": block " + std::to_string(first.block) + ", phase " +
             std::to_string(first.phase) + ", warp " + std::to_string(first.target) + ": " +
             std::to_string(first.thread) + " of 32 lanes reached the shuffle";
    if (kind == conflict_kind::uninitialised_shared_load) return std::string(to_string(kind)) + ": " + location + ": " + where(first);
    if (kind == conflict_kind::out_of_bounds)  // second.index: the buffer's or tile's extent
      return std::string(to_string(kind)) + " on " + location + ": " + where(first) + ", outside its " +
             std::to_string(second.index) + " elements (not made)";
    return std::string(to_string(kind)) + " on " + location + ": " + where(first) + ", " + where(second);
  }
};

class recording {
 public:
  recording() = default;
  // A recording of a launch the launch-time checks may refuse (w::record_anyway): accesses outside
  // their buffer or tile are reported and not made, and the refusal is kept (refusal()).
  struct anyway_t {};
  explicit recording(anyway_t) : anyway_(true) {}
  bool anyway() const { return anyway_; }

  void record(const access_event& e) { events_.push_back(e); }
  void out_of_bounds(const access_event& e, long long extent) {
    access_event size = e;
    size.index = extent;
    reports_.push_back({conflict_kind::out_of_bounds, e, size});
  }
  // What launch would have thrown for this launch (its E1xx message), or empty.
  const std::string& refusal() const { return refusal_; }
  void refuse(std::string why) { refusal_ = std::move(why); }
  void uninitialised_load(const access_event& e) { reports_.push_back({conflict_kind::uninitialised_shared_load, e, e}); }
  void divergent_barrier(int block, int phase, int arrived) { divergence(conflict_kind::barrier_divergence, block, phase, 0, arrived); }
  void divergent_shuffle(int block, int phase, int warp, int arrived) {
    divergence(conflict_kind::shuffle_divergence, block, phase, warp, arrived);
  }

  const std::vector<access_event>& events() const { return events_; }

  // The names report() gives parameters and tiles (the kernel's, launch_names.hpp): set by the run.
  void name_parts(std::vector<std::string> params, std::vector<std::string> tiles) {
    param_names_ = std::move(params);
    tile_names_ = std::move(tiles);
  }

  // Every conflict observed: at most one witness per location, plus the one-event reports.
  std::vector<conflict> conflicts() const {
    std::vector<conflict> found = reports_;
    std::vector<access_event> sorted = events_;
    std::sort(sorted.begin(), sorted.end(), [](const access_event& a, const access_event& b) { return location(a) < location(b); });
    for (std::size_t begin = 0; begin < sorted.size();) {
      std::size_t end = begin + 1;
      while (end < sorted.size() && location(sorted[end]) == location(sorted[begin])) ++end;
      if (auto c = witness(sorted, begin, end)) found.push_back(*c);
      begin = end;
    }
    return found;
  }

  bool clean() const { return conflicts().empty(); }

  // The program node of each access of the kernel's description, by access id (ir_access::origin,
  // from a description made at run time on the program that ran): set by the run.
  void access_origins(std::vector<const void*> by_access) { origins_ = std::move(by_access); }

  // Whether accesses `first` and `second` of the kernel's description (ids, as a check::finding or
  // an obligation names them; one id for two runs of one access) made a conflicting pair in this
  // run: one element, two threads no barrier orders, a store among them or an atomic and a plain
  // access. What a race message names must meet here (issue 56, item 4).
  bool meets(int first, int second) const {
    const auto site = [&](int id) -> const void* {
      return id >= 0 && static_cast<std::size_t>(id) < origins_.size() ? origins_[static_cast<std::size_t>(id)] : nullptr;
    };
    const void* a = site(first);
    const void* b = site(second);
    if (a == nullptr || b == nullptr) return false;
    std::vector<access_event> made;
    for (const access_event& e : events_)
      if (e.site == a || e.site == b) made.push_back(e);
    std::sort(made.begin(), made.end(), [](const access_event& x, const access_event& y) { return location(x) < location(y); });
    for (std::size_t begin = 0, end = 0; begin < made.size(); begin = end) {
      end = begin + 1;
      while (end < made.size() && location(made[end]) == location(made[begin])) ++end;
      for (std::size_t i = begin; i < end; ++i)
        for (std::size_t j = begin; j < end; ++j) {
          if (made[i].site != a || made[j].site != b || i == j || ordered(made[i], made[j])) continue;
          const bool x_atomic = made[i].kind == dsl::access_kind::atomic, y_atomic = made[j].kind == dsl::access_kind::atomic;
          if (x_atomic != y_atomic || (!x_atomic && (made[i].kind == dsl::access_kind::store || made[j].kind == dsl::access_kind::store)))
            return true;
        }
    }
    return false;
  }

  // The refusal launch would have made, if any; how many conflicts of each kind; then the first
  // `limit` conflicts, each labelled with its kind, taken round-robin over the kinds so that a few
  // of many of one kind do not hide the others.
  std::string report(std::size_t limit = 10) const {
    const auto all = conflicts();
    std::string text;
    if (!refusal_.empty()) text += "launch refuses it: " + refusal_ + "\n";
    text += std::to_string(all.size()) + " conflict(s)";
    constexpr int kinds = static_cast<int>(conflict_kind::out_of_bounds) + 1;
    std::size_t counts[kinds] = {};
    for (const conflict& c : all) ++counts[static_cast<int>(c.kind)];
    std::string summary;
    for (int k = 0; k < kinds; ++k)
      if (counts[k] > 0) summary += (summary.empty() ? "" : ", ") + std::to_string(counts[k]) + " " + to_string(static_cast<conflict_kind>(k));
    if (!summary.empty()) text += ": " + summary;
    std::size_t next[kinds] = {}, shown = 0;
    for (bool any = true; any && shown < limit;) {
      any = false;
      for (int k = 0; k < kinds && shown < limit; ++k) {
        while (next[k] < all.size() && static_cast<int>(all[next[k]].kind) != k) ++next[k];
        if (next[k] < all.size()) {
          text += "\n  " + all[next[k]++].describe(param_names_, tile_names_);
          ++shown;
          any = true;
        }
      }
    }
    return text;
  }

 private:
  // The element an access reaches: shared memory is per block, so its location includes the block.
  static std::tuple<int, int, int, long long> location(const access_event& e) {
    const int block = e.memory == dsl::memory_kind::shared ? e.block : -1;
    return std::make_tuple(static_cast<int>(e.memory), e.target, block, e.index);
  }

  static bool ordered(const access_event& a, const access_event& b) {
    if (a.block != b.block) return false;                    // blocks never synchronise
    if (a.thread == b.thread) return true;                   // program order
    return a.phase != b.phase;                               // a barrier between them
  }

  static std::optional<conflict> witness(const std::vector<access_event>& e, std::size_t begin, std::size_t end) {
    using dsl::access_kind;
    bool any_store = false, any_atomic = false, any_plain = false;
    for (std::size_t i = begin; i < end; ++i) {
      any_store = any_store || e[i].kind == access_kind::store;
      any_atomic = any_atomic || e[i].kind == access_kind::atomic;
      any_plain = any_plain || e[i].kind != access_kind::atomic;
    }
    if (!any_store && !(any_atomic && any_plain)) return std::nullopt;  // only loads, or only atomics
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t j = i + 1; j < end; ++j) {
        const access_event& a = e[i];
        const access_event& b = e[j];
        if (ordered(a, b)) continue;
        const bool a_atomic = a.kind == access_kind::atomic, b_atomic = b.kind == access_kind::atomic;
        if (a_atomic && b_atomic) continue;
        if (a_atomic != b_atomic) return conflict{conflict_kind::atomic_plain, a, b};
        if (a.kind == access_kind::store && b.kind == access_kind::store) return conflict{conflict_kind::write_write, a, b};
        if (a.kind == access_kind::store || b.kind == access_kind::store) return conflict{conflict_kind::read_write, a, b};
      }
    return std::nullopt;
  }

  // A one-event report: `thread` holds how many threads arrived, `target` the warp (shuffles).
  void divergence(conflict_kind kind, int block, int phase, int warp, int arrived) {
    access_event e;
    e.block = block;
    e.phase = phase;
    e.target = warp;
    e.thread = arrived;
    reports_.push_back({kind, e, e});
  }

  std::vector<access_event> events_;
  std::vector<conflict> reports_;
  std::string refusal_;
  std::vector<std::string> param_names_, tile_names_;
  std::vector<const void*> origins_;
  bool anyway_ = false;
};

}  // namespace warden
