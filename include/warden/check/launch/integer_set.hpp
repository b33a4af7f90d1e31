#pragma once
// The one place warden calls isl (the integer set library: libisl, MIT licence; PPCG, Polly and
// GCC's Graphite decide dependences with it): is a set of integer points, written in isl's
// syntax, empty, and if not, one of its points. The launch-time checks write their questions as
// such sets (presburger.hpp) with the launch's numbers in them, so that the answer is exact and
// costs the same whatever the grid's size (docs/soundness.md, "What the launch decides").
//
// isl is a real dependency of the launch-time checks: scripts/setup installs it (Debian
// libisl-dev), CMake finds it with pkg-config and warden::warden links it; a build without CMake
// adds -lisl (README, "Using warden in your project").

#if !__has_include(<isl/set.h>)
#error "warden: the launch-time checks decide with isl, the integer set library, whose headers were not found: install it (Debian/Ubuntu: apt-get install libisl-dev; Fedora: isl-devel; Homebrew: isl) and link -lisl (CMake's warden::warden does both)"
#endif

#include <isl/ctx.h>
#include <isl/ilp.h>
#include <isl/mat.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "linear_set_text.hpp"

namespace warden::check::launch_impl {

enum class set_answer : unsigned char { empty, has_point, unknown };

struct set_decision {
  set_answer answer = set_answer::unknown;
  std::vector<long long> point;  // has_point: one point of the set, a coordinate per dimension
};

// The most elementary operations isl may spend on one question before the launch gives up on it
// (unknown, which the caller refuses, naming why). The launch's questions take a few thousand;
// the budget bounds a pathological index (dozens of divisions in one expression) to about a
// second instead of letting it run on.
inline constexpr unsigned long isl_operation_budget = 20'000'000;

namespace integer_set_detail {
// One context per thread, kept: allocating one costs about as much as a small question. Each
// question starts with its error state cleared and its operation budget full.
inline isl_ctx* fresh_context() {
  struct context_owner {
    isl_ctx* ctx = isl_ctx_alloc();
    context_owner() {
      if (ctx == nullptr) return;
      isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
    }
    ~context_owner() {
      if (ctx != nullptr) isl_ctx_free(ctx);
    }
  };
  static thread_local context_owner owner;
  if (owner.ctx == nullptr) return nullptr;
  isl_ctx_reset_error(owner.ctx);
  isl_ctx_reset_operations(owner.ctx);
  isl_ctx_set_max_operations(owner.ctx, isl_operation_budget);
  return owner.ctx;
}

// Empty, or one point of `set` (taken); unknown where isl gave up.
inline set_decision sample(isl_set* set, std::size_t dims) {
  set_decision out;
  if (set == nullptr) return out;
  isl_point* p = isl_set_sample_point(set);
  if (p == nullptr) return out;
  if (isl_point_is_void(p) == isl_bool_true) {
    isl_point_free(p);
    out.answer = set_answer::empty;
    return out;
  }
  out.point.resize(dims);
  bool read = true;
  for (std::size_t d = 0; d < dims && read; ++d) {
    isl_val* v = isl_point_get_coordinate_val(p, isl_dim_set, static_cast<int>(d));
    read = v != nullptr && isl_val_is_int(v) == isl_bool_true;
    if (read) out.point[d] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_point_free(p);
  out.answer = read ? set_answer::has_point : set_answer::unknown;
  return out;
}

// Case `row` of `s` as isl's basic set: its constraints and the floors' definitions, over
// s.variables dimensions (the named ones first, as `sample` reads them), handed over as the two
// matrices of equalities and inequalities (adding them one by one intersects each time).
inline isl_basic_set* basic_set_of(isl_ctx* ctx, const linear_set& s, const std::vector<linear_constraint>& row) {
  const unsigned columns = 1 + static_cast<unsigned>(s.variables);  // the constant, then the variables
  unsigned equalities = 0, inequalities = 0;
  for (const std::vector<linear_constraint>* part : {&s.definitions, &row})
    for (const linear_constraint& c : *part) (c.equality ? equalities : inequalities) += 1;
  isl_mat* eq = isl_mat_alloc(ctx, equalities, columns);
  isl_mat* ineq = isl_mat_alloc(ctx, inequalities, columns);
  auto set = [&](isl_mat* m, unsigned r, unsigned c, long long v) {
    if (v >= -2147483647LL && v <= 2147483647LL) return isl_mat_set_element_si(m, static_cast<int>(r), static_cast<int>(c), static_cast<int>(v));
    return isl_mat_set_element_val(m, static_cast<int>(r), static_cast<int>(c), isl_val_int_from_si(ctx, v));
  };
  unsigned e = 0, i = 0;
  for (const std::vector<linear_constraint>* part : {&s.definitions, &row})
    for (const linear_constraint& c : *part) {
      isl_mat*& m = c.equality ? eq : ineq;
      const unsigned r = c.equality ? e++ : i++;
      m = set(m, r, 0, c.constant);
      for (std::size_t v = 0; v < c.coefficient.size(); ++v) m = set(m, r, 1 + static_cast<unsigned>(v), c.coefficient[v]);
    }
  return isl_basic_set_from_constraint_matrices(isl_space_set_alloc(ctx, 0, static_cast<unsigned>(s.variables)), eq, ineq,
                                                isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div);
}

// `s` as isl's set: the union of its cases.
inline isl_set* set_of(isl_ctx* ctx, const linear_set& s) {
  isl_set* out = isl_set_empty(isl_space_set_alloc(ctx, 0, static_cast<unsigned>(s.variables)));
  for (const std::vector<linear_constraint>& row : s.cases) out = isl_set_union(out, isl_set_from_basic_set(basic_set_of(ctx, s, row)));
  return out;
}

// The set `text`, built from its constraints where linear_set_text.hpp reads it, else by isl's
// reader (the same set: linear_set_text_test).
inline isl_set* read_set(isl_ctx* ctx, const std::string& text) {
  if (const std::optional<linear_set> s = read_linear_set(text)) return set_of(ctx, *s);
  return isl_set_read_from_str(ctx, text.c_str());
}

// Decides `text` case by case where linear_set_text.hpp reads it: the first case with a point
// gives it, and no union is built.
inline set_decision decide_text(isl_ctx* ctx, const std::string& text, std::size_t dims) {
  const std::optional<linear_set> s = read_linear_set(text);
  if (!s) return sample(isl_set_read_from_str(ctx, text.c_str()), dims);
  set_decision out;
  out.answer = set_answer::empty;
  for (const std::vector<linear_constraint>& row : s->cases) {
    isl_basic_set* b = basic_set_of(ctx, *s, row);
    if (b == nullptr) return {};
    set_decision d = sample(isl_set_from_basic_set(b), dims);
    if (d.answer != set_answer::empty) return d;  // a point, or unknown: isl gave up
  }
  return out;
}
}  // namespace integer_set_detail

// While one is alive on a thread, a question asked twice there is answered once: one launch's
// checks ask the same set for two pairs whose accesses have one index form (a load and the
// store back to it). Scoped to one launch (launch/obligations.hpp), so a later launch, whose
// numbers make other sets anyway, is answered afresh; nested scopes share the outermost.
class integer_set_memo {
 public:
  integer_set_memo() : owner_(active() == nullptr) {
    if (owner_) active() = this;
  }
  ~integer_set_memo() {
    if (owner_) active() = nullptr;
  }
  integer_set_memo(const integer_set_memo&) = delete;
  integer_set_memo& operator=(const integer_set_memo&) = delete;

  static integer_set_memo*& active() {
    static thread_local integer_set_memo* scope = nullptr;
    return scope;
  }
  std::unordered_map<std::string, set_decision> answers;

 private:
  bool owner_;
};

namespace integer_set_detail {
// `decide`'s answer to `key`, from the live memo where it has it.
template <class Decide>
set_decision remembered(const std::string& key, Decide&& decide) {
  integer_set_memo* memo = integer_set_memo::active();
  if (memo == nullptr) return decide();
  if (const auto it = memo->answers.find(key); it != memo->answers.end()) return it->second;
  set_decision d = decide();
  memo->answers.emplace(key, d);
  return d;
}
}  // namespace integer_set_detail

// Decides the set `text` (isl's notation: "{ [x, y] : 0 <= x < 4 and y = 2x }") of `dims`
// dimensions. unknown: isl could not read it or passed its budget.
inline set_decision decide_integer_set(const std::string& text, std::size_t dims) {
  return integer_set_detail::remembered(text, [&]() -> set_decision {
    isl_ctx* ctx = integer_set_detail::fresh_context();
    if (ctx == nullptr) return {};
    return integer_set_detail::decide_text(ctx, text, dims);
  });
}

// The largest (`largest`) or smallest value that dimension `d` takes over the set `text`; nullopt
// where it is unbounded, the set is empty, or isl gave up. For a message that names an extreme (E101's
// "reaches index 99 ... bind y to at least 100 elements"), which a sampled point need not be.
inline std::optional<long long> extreme_of_dimension(const std::string& text, std::size_t d, bool largest) {
  isl_ctx* ctx = integer_set_detail::fresh_context();
  if (ctx == nullptr) return std::nullopt;
  isl_set* set = integer_set_detail::read_set(ctx, text);
  if (set == nullptr) return std::nullopt;
  isl_val* v = largest ? isl_set_dim_max_val(set, static_cast<int>(d)) : isl_set_dim_min_val(set, static_cast<int>(d));  // takes set
  if (v == nullptr) return std::nullopt;
  std::optional<long long> out;
  if (isl_val_is_int(v) == isl_bool_true) out = isl_val_get_num_si(v);
  isl_val_free(v);
  return out;
}

namespace integer_set_detail {
inline set_decision subtract_and_sample(const std::string& from, const std::vector<std::string>& taken, std::size_t dims) {
  isl_ctx* ctx = fresh_context();
  if (ctx == nullptr) return {};
  isl_set* rest = read_set(ctx, from);
  for (const std::string& t : taken) {
    if (rest == nullptr) break;
    isl_set* other = read_set(ctx, t);
    if (other == nullptr) {
      isl_set_free(rest);
      return {};
    }
    rest = isl_set_subtract(rest, other);  // takes both
  }
  return sample(rest, dims);
}
}  // namespace integer_set_detail

// Decides the points of `from` in none of `taken` (sets of the same `dims` dimensions, in the same
// order): "is every element some thread loads one that some thread stores" (W022 at launch).
inline set_decision decide_set_difference(const std::string& from, const std::vector<std::string>& taken, std::size_t dims) {
  std::string key = from;
  for (const std::string& t : taken) key += " minus " + t;
  return integer_set_detail::remembered(key, [&] { return integer_set_detail::subtract_and_sample(from, taken, dims); });
}

}  // namespace warden::check::launch_impl
