#pragma once
// Reads the sets presburger.hpp writes ("{ [x, y] : 0 <= x < 4 and (y = 2x or y > 7) }") into
// a union of conjunctions of linear constraints, for integer_set.hpp to hand to isl as they are.
//
// Why not isl's own reader: it builds every subexpression as a piecewise affine function and
// intersects the set with each conjunct as it reads it, simplifying as it goes. On the launch's
// questions that was 85% of the time spent deciding them (the sample itself about 12%): lemma 1
// of lemma_test, 10,000 random kernels with their launches, took 134 s, almost all of it in
// isl_set_read_from_str. Written as constraints the same set costs a few allocations.
//
// What it reads is exactly what presburger.hpp writes: integers, the set's variables, +, -, a
// product with a constant, floor(e / n) and e mod n for a constant n > 0 (a variable q of its own,
// n q <= e <= n q + n - 1, which every value of e meets once, so the set's points and their
// emptiness are unchanged), comparisons (chained too: 0 <= x < 4), and, or, parentheses.
// Anything else (an `exists`, a product of two variables, a disjunction that expands past
// max_conjunctions, a coefficient past 64 bits) returns nullopt, and the caller reads the text
// with isl's reader as before. tests/unit/linear_set_text_test.cpp holds the two readers to the
// same answers on random formulas of this grammar and on every set lemma_test's kernels ask.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warden::check::launch_impl {

// sum(coefficient[i] * variable i) + constant, compared with 0.
struct linear_constraint {
  std::vector<long long> coefficient;  // one per variable of the set (named, then the floors' own)
  long long constant = 0;
  bool equality = false;  // = 0; else >= 0
};

struct linear_set {
  std::size_t named = 0;      // the set's own variables, first in each constraint's coefficients
  std::size_t variables = 0;  // named plus one per distinct floor or mod
  std::vector<linear_constraint> definitions;          // the floors' variables' bounds, in every conjunction
  std::vector<std::vector<linear_constraint>> cases;   // the union of these conjunctions (none: empty)
};

namespace linear_set_detail {

// The disjunctive normal form's size past which the text goes to isl's reader, which prunes
// empty cases while it intersects.
inline constexpr std::size_t max_conjunctions = 256;

class reader {
 public:
  explicit reader(std::string_view text) : s_(text) {}

  std::optional<linear_set> read() {
    if (!take("{") || !take("[")) return std::nullopt;
    if (!take("]")) {
      do {
        const std::string name = identifier();
        if (name.empty() || names_.count(name)) return std::nullopt;
        names_.emplace(name, names_.size());
      } while (take(","));
      if (!take("]")) return std::nullopt;
    }
    named_ = names_.size();
    std::vector<conjunction> cases{conjunction{}};
    if (take(":")) {
      std::optional<std::vector<conjunction>> f = formula();
      if (!f) return std::nullopt;
      cases = std::move(*f);
    }
    if (!take("}") || !at_end() || failed_) return std::nullopt;
    linear_set out;
    out.named = named_;
    out.variables = named_ + floors_.size();
    for (term& d : definitions_) out.definitions.push_back(constraint_of(d, false, out.variables));
    for (conjunction& c : cases) {
      std::vector<linear_constraint> row;
      for (atom& a : c) row.push_back(constraint_of(a.t, a.equality, out.variables));
      out.cases.push_back(std::move(row));
    }
    return out;
  }

 private:
  // A linear form: coefficients by variable (sparse) and a constant.
  struct term {
    std::map<std::size_t, long long> coefficient;
    long long constant = 0;
    bool is_constant() const { return coefficient.empty(); }
  };
  struct atom {
    term t;  // t >= 0, or t = 0
    bool equality = false;
  };
  using conjunction = std::vector<atom>;

  std::string_view s_;
  std::size_t at_ = 0;
  bool failed_ = false;
  std::map<std::string, std::size_t> names_;
  std::size_t named_ = 0;
  std::map<std::pair<std::map<std::size_t, long long>, std::pair<long long, long long>>, std::size_t> floors_;
  std::vector<term> definitions_;

  // ---- tokens ----
  void skip_space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\t')) ++at_;
  }
  bool at_end() {
    skip_space();
    return at_ == s_.size();
  }
  static bool word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
  // Takes `token` if the text goes on with it (a word only whole).
  bool take(std::string_view token) {
    skip_space();
    if (s_.substr(at_, token.size()) != token) return false;
    if (word_char(token.back()) && at_ + token.size() < s_.size() && word_char(s_[at_ + token.size()])) return false;
    at_ += token.size();
    return true;
  }
  std::string identifier() {
    skip_space();
    const std::size_t from = at_;
    if (at_ >= s_.size() || !((s_[at_] >= 'a' && s_[at_] <= 'z') || (s_[at_] >= 'A' && s_[at_] <= 'Z') || s_[at_] == '_')) return {};
    while (at_ < s_.size() && word_char(s_[at_])) ++at_;
    return std::string(s_.substr(from, at_ - from));
  }
  std::optional<long long> integer() {
    skip_space();
    if (at_ >= s_.size() || s_[at_] < '0' || s_[at_] > '9') return std::nullopt;
    long long v = 0;
    while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') {
      if (__builtin_mul_overflow(v, 10LL, &v) || __builtin_add_overflow(v, static_cast<long long>(s_[at_] - '0'), &v)) {
        failed_ = true;
        return std::nullopt;
      }
      ++at_;
    }
    if (at_ < s_.size() && word_char(s_[at_])) return std::nullopt;  // "2x": isl's implicit product, never written here
    return v;
  }

  // ---- checked arithmetic on forms ----
  bool add_into(term& x, const term& y, long long scale) {
    long long product = 0;
    if (__builtin_mul_overflow(y.constant, scale, &product) || __builtin_add_overflow(x.constant, product, &x.constant)) return fail();
    for (const auto& [v, c] : y.coefficient) {
      long long& slot = x.coefficient[v];
      if (__builtin_mul_overflow(c, scale, &product) || __builtin_add_overflow(slot, product, &slot)) return fail();
      if (slot == 0) x.coefficient.erase(v);
    }
    return true;
  }
  bool fail() {
    failed_ = true;
    return false;
  }

  // floor(e / n), n > 0: the variable q with n q <= e <= n q + n - 1, one per distinct (e, n).
  std::optional<term> floor_of(const term& e, long long n) {
    if (n <= 0) return std::nullopt;
    term out;
    if (e.is_constant()) {  // exact: no variable needed
      long long q = e.constant / n;
      if (e.constant % n != 0 && e.constant < 0) --q;
      out.constant = q;
      return out;
    }
    const auto key = std::make_pair(e.coefficient, std::make_pair(e.constant, n));
    auto it = floors_.find(key);
    if (it == floors_.end()) {
      const std::size_t q = named_ + floors_.size();
      it = floors_.emplace(key, q).first;
      term low = e, high;  // e - n q >= 0; n q + n - 1 - e >= 0
      low.coefficient[q] = -n;
      high.coefficient[q] = n;
      high.constant = n - 1;
      if (!add_into(high, e, -1)) return std::nullopt;
      definitions_.push_back(std::move(low));
      definitions_.push_back(std::move(high));
    }
    out.coefficient[it->second] = 1;
    return out;
  }

  // ---- expressions ----
  std::optional<term> expression() {
    std::optional<term> x = product();
    while (x) {
      long long sign = 0;
      if (take("+")) sign = 1;
      else if (take("-")) sign = -1;
      else break;
      const std::optional<term> y = product();
      if (!y || !add_into(*x, *y, sign)) return std::nullopt;
    }
    return x;
  }
  std::optional<term> product() {
    std::optional<term> x = unary();
    while (x) {
      if (take("*")) {
        const std::optional<term> y = unary();
        if (!y) return std::nullopt;
        const term* constant = x->is_constant() ? &*x : y->is_constant() ? &*y : nullptr;
        if (constant == nullptr) return std::nullopt;  // two variables multiplied: not linear
        const term& other = constant == &*x ? *y : *x;
        term out;
        if (!add_into(out, other, constant->constant)) return std::nullopt;
        x = std::move(out);
      } else if (take("mod")) {  // isl's mod: e - n floor(e / n), never negative for n > 0
        const std::optional<long long> n = integer();
        if (!n) return std::nullopt;
        const std::optional<term> q = floor_of(*x, *n);
        if (!q || !add_into(*x, *q, -*n)) return std::nullopt;
      } else {
        break;
      }
    }
    return x;
  }
  std::optional<term> unary() {
    if (take("-")) {
      const std::optional<term> x = unary();
      if (!x) return std::nullopt;
      term out;
      if (!add_into(out, *x, -1)) return std::nullopt;
      return out;
    }
    return primary();
  }
  std::optional<term> primary() {
    if (take("(")) {
      std::optional<term> x = expression();
      if (!x || !take(")")) return std::nullopt;
      return x;
    }
    if (take("floor")) {
      if (!take("(")) return std::nullopt;
      const std::optional<term> x = expression();
      if (!x || !take("/")) return std::nullopt;
      const std::optional<long long> n = integer();
      if (!n || !take(")")) return std::nullopt;
      return floor_of(*x, *n);
    }
    if (const std::optional<long long> v = integer()) {
      term t;
      t.constant = *v;
      return t;
    }
    const std::string name = identifier();
    if (name.empty() || name == "and" || name == "or" || name == "exists" || name == "mod") return std::nullopt;
    const auto it = names_.find(name);
    if (it == names_.end()) return std::nullopt;  // a parameter or an unknown name: isl's reader decides
    term t;
    t.coefficient[it->second] = 1;
    return t;
  }

  // ---- formulas, as unions of conjunctions ----
  std::optional<std::vector<conjunction>> formula() {
    std::optional<std::vector<conjunction>> x = conjunctions();
    while (x && take("or")) {
      std::optional<std::vector<conjunction>> y = conjunctions();
      if (!y) return std::nullopt;
      x->insert(x->end(), std::make_move_iterator(y->begin()), std::make_move_iterator(y->end()));
      if (x->size() > max_conjunctions) return std::nullopt;
    }
    return x;
  }
  std::optional<std::vector<conjunction>> conjunctions() {
    std::optional<std::vector<conjunction>> x = factor();
    while (x && take("and")) {
      const std::optional<std::vector<conjunction>> y = factor();
      if (!y) return std::nullopt;
      x = both(*x, *y);
    }
    return x;
  }
  // x and y: every case of x with every case of y; nullopt past max_conjunctions.
  static std::optional<std::vector<conjunction>> both(const std::vector<conjunction>& x, const std::vector<conjunction>& y) {
    if (x.size() * y.size() > max_conjunctions) return std::nullopt;
    std::vector<conjunction> out;
    for (const conjunction& a : x)
      for (const conjunction& b : y) {
        conjunction c = a;
        c.insert(c.end(), b.begin(), b.end());
        out.push_back(std::move(c));
      }
    return out;
  }
  // A comparison chain, or a parenthesised formula. "(a - 1) < b" starts like the second: the
  // chain is tried first and the formula where it does not read.
  std::optional<std::vector<conjunction>> factor() {
    const std::size_t keep = at_;
    if (std::optional<std::vector<conjunction>> c = chain()) return c;
    if (failed_) return std::nullopt;
    at_ = keep;
    if (!take("(")) return std::nullopt;
    std::optional<std::vector<conjunction>> f = formula();
    if (!f || !take(")")) return std::nullopt;
    return f;
  }
  std::optional<std::vector<conjunction>> chain() {
    std::optional<term> left = expression();
    if (!left) return std::nullopt;
    std::optional<std::vector<conjunction>> out = std::vector<conjunction>{conjunction{}};
    bool compared = false;
    while (true) {
      static constexpr std::string_view ops[] = {"<=", ">=", "!=", "<", ">", "="};
      int op = -1;
      for (int k = 0; k < 6 && op < 0; ++k)
        if (take(ops[k])) op = k;
      if (op < 0) break;
      const std::optional<term> right = expression();
      if (!right) return std::nullopt;
      const std::optional<std::vector<conjunction>> c = compare(*left, op, *right);
      if (!c || !(out = both(*out, *c))) return std::nullopt;
      left = right;
      compared = true;
    }
    if (!compared) return std::nullopt;
    return out;
  }
  // left op right as cases: one for each of <, <=, >, >=, =, two for !=. A comparison of
  // constants is true (one case, no constraint) or false (no case).
  std::optional<std::vector<conjunction>> compare(const term& left, int op, const term& right) {
    term d = right;  // right - left
    if (!add_into(d, left, -1)) return std::nullopt;
    term minus_d;
    if (!add_into(minus_d, d, -1)) return std::nullopt;
    auto at_least_one = [&](term t) -> std::optional<term> {  // t > 0 as t - 1 >= 0
      if (__builtin_sub_overflow(t.constant, 1LL, &t.constant)) return std::nullopt;
      return t;
    };
    std::vector<conjunction> out;
    auto add = [&](std::optional<term> t, bool equality) -> bool {
      if (!t) return false;
      if (t->is_constant()) {
        if (equality ? t->constant == 0 : t->constant >= 0) out.push_back({});
        return true;
      }
      out.push_back({atom{std::move(*t), equality}});
      return true;
    };
    bool ok = true;
    switch (op) {
      case 0: ok = add(d, false); break;                     // left <= right
      case 1: ok = add(minus_d, false); break;               // left >= right
      case 2: ok = add(at_least_one(d), false) && add(at_least_one(minus_d), false); break;  // !=
      case 3: ok = add(at_least_one(d), false); break;       // <
      case 4: ok = add(at_least_one(minus_d), false); break; // >
      case 5: ok = add(d, true); break;                      // =
    }
    if (!ok) return std::nullopt;
    return out;
  }

  static linear_constraint constraint_of(const term& t, bool equality, std::size_t variables) {
    linear_constraint c;
    c.coefficient.assign(variables, 0);
    for (const auto& [v, k] : t.coefficient) c.coefficient[v] = k;
    c.constant = t.constant;
    c.equality = equality;
    return c;
  }
};

}  // namespace linear_set_detail

// The set `text` as linear constraints; nullopt where it is not of presburger.hpp's grammar or
// too large to expand (the caller reads it with isl's reader).
inline std::optional<linear_set> read_linear_set(std::string_view text) { return linear_set_detail::reader(text).read(); }

}  // namespace warden::check::launch_impl
