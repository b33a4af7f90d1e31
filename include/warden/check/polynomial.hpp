#pragma once
// Polynomials over the symbols of a kernel (thread and block ids, loop counters, grid extents,
// parameters): the form in which the checker compares index expressions across threads.
// Everything is constexpr: the same code runs in a kernel's static_assert and in the fuzzer.

#include <array>
#include <vector>

namespace warden::check {

// Symbols, by range of ids. Variables differ between two threads (or iterations); the others are
// uniform over the grid.
namespace symbol {
constexpr int thread(int d) { return d; }
constexpr int block(int d) { return 3 + d; }
constexpr int grid_dim(int d) { return 6 + d; }
constexpr int counter(int loop) { return 16 + loop; }  // iterations of loop `loop`, from 0
constexpr int param_value(int i) { return 4096 + i; }
constexpr int param_size(int i) { return 8192 + i; }

constexpr bool is_thread(int s) { return s >= 0 && s < 3; }
constexpr bool is_block(int s) { return s >= 3 && s < 6; }
constexpr bool is_counter(int s) { return s >= 16 && s < 4096; }
constexpr bool is_variable(int s) { return is_thread(s) || is_block(s) || is_counter(s); }
constexpr bool is_param_value(int s) { return s >= 4096 && s < 8192; }
// Every symbol but a parameter's value is known to be >= 0 (grid extents >= 1).
constexpr bool non_negative(int s) { return !is_param_value(s); }
}  // namespace symbol

inline constexpr int max_degree = 3;

struct monomial {
  std::array<int, max_degree> s{-1, -1, -1};  // sorted symbols, -1 = none
  constexpr int degree() const {
    int d = 0;
    while (d < max_degree && s[static_cast<std::size_t>(d)] >= 0) ++d;
    return d;
  }
  constexpr bool operator==(const monomial&) const = default;
  constexpr bool operator<(const monomial& o) const { return s < o.s; }
};

struct term {
  monomial m;
  long long coefficient = 0;
};

// A sum of terms, sorted by monomial, without zero coefficients. `valid` is false when an
// operation left polynomials (a product of too high a degree).
struct polynomial {
  std::vector<term> terms;
  bool valid = true;

  static constexpr polynomial constant(long long c) {
    polynomial p;
    if (c != 0) p.terms.push_back({monomial{}, c});
    return p;
  }
  static constexpr polynomial of_symbol(int s, long long coefficient = 1) {
    polynomial p;
    monomial m;
    m.s[0] = s;
    if (coefficient != 0) p.terms.push_back({m, coefficient});
    return p;
  }
  static constexpr polynomial invalid() {
    polynomial p;
    p.valid = false;
    return p;
  }

  constexpr bool is_constant() const { return valid && (terms.empty() || (terms.size() == 1 && terms[0].m.degree() == 0)); }
  constexpr long long constant_part() const {
    return !terms.empty() && terms[0].m.degree() == 0 ? terms[0].coefficient : 0;
  }
  constexpr bool operator==(const polynomial& o) const {
    if (valid != o.valid || terms.size() != o.terms.size()) return false;
    for (std::size_t i = 0; i < terms.size(); ++i)
      if (!(terms[i].m == o.terms[i].m) || terms[i].coefficient != o.terms[i].coefficient) return false;
    return true;
  }

  constexpr void add_term(const monomial& m, long long c) {
    std::size_t i = 0;
    while (i < terms.size() && terms[i].m < m) ++i;
    if (i < terms.size() && terms[i].m == m) {
      terms[i].coefficient += c;
      if (terms[i].coefficient == 0) terms.erase(terms.begin() + static_cast<long>(i));
    } else if (c != 0) {
      terms.insert(terms.begin() + static_cast<long>(i), term{m, c});
    }
  }
};

// (Parameters by reference and no ?: on polynomials: g++ 12 double-frees such temporaries in
// constant evaluation.)
constexpr polynomial operator+(const polynomial& a, const polynomial& b) {
  if (!a.valid || !b.valid) return polynomial::invalid();
  polynomial r;
  r.terms = a.terms;
  for (const term& t : b.terms) r.add_term(t.m, t.coefficient);
  return r;
}
constexpr polynomial operator*(long long k, const polynomial& a) {
  polynomial r;
  r.valid = a.valid;
  if (k == 0) return r;
  r.terms = a.terms;
  for (term& t : r.terms) t.coefficient *= k;
  return r;
}
constexpr polynomial operator-(const polynomial& a, const polynomial& b) { return a + (-1) * b; }

constexpr polynomial operator*(const polynomial& a, const polynomial& b) {
  if (!a.valid || !b.valid) return polynomial::invalid();
  polynomial p;
  for (const term& x : a.terms)
    for (const term& y : b.terms) {
      const int dx = x.m.degree(), dy = y.m.degree();
      if (dx + dy > max_degree) return polynomial::invalid();
      monomial m;
      int n = 0;
      for (int i = 0; i < dx; ++i) m.s[static_cast<std::size_t>(n++)] = x.m.s[static_cast<std::size_t>(i)];
      for (int i = 0; i < dy; ++i) m.s[static_cast<std::size_t>(n++)] = y.m.s[static_cast<std::size_t>(i)];
      for (int i = 1; i < n; ++i)  // insertion sort of at most three symbols
        for (int j = i; j > 0 && m.s[static_cast<std::size_t>(j - 1)] > m.s[static_cast<std::size_t>(j)]; --j) {
          const int t = m.s[static_cast<std::size_t>(j)];
          m.s[static_cast<std::size_t>(j)] = m.s[static_cast<std::size_t>(j - 1)];
          m.s[static_cast<std::size_t>(j - 1)] = t;
        }
      p.add_term(m, x.coefficient * y.coefficient);
    }
  return p;
}

// p >= 1 for every value of the symbols: a constant >= 1 plus non-negative terms.
constexpr bool provably_positive(const polynomial& p) {
  if (!p.valid) return false;
  for (const term& t : p.terms) {
    if (t.m.degree() == 0) continue;
    if (t.coefficient < 0) return false;
    for (int i = 0; i < t.m.degree(); ++i)
      if (!symbol::non_negative(t.m.s[static_cast<std::size_t>(i)])) return false;
  }
  return p.constant_part() >= 1;
}

// How many variables a monomial holds; and the one it holds, if exactly one.
constexpr int variables_in(const monomial& m, int* which = nullptr) {
  int n = 0;
  for (int i = 0; i < m.degree(); ++i)
    if (symbol::is_variable(m.s[static_cast<std::size_t>(i)])) {
      ++n;
      if (which != nullptr) *which = m.s[static_cast<std::size_t>(i)];
    }
  return n;
}

// The monomial without symbol `s` (which it holds once).
constexpr monomial without(const monomial& m, int s) {
  monomial r;
  int n = 0;
  for (int i = 0; i < m.degree(); ++i)
    if (m.s[static_cast<std::size_t>(i)] != s) r.s[static_cast<std::size_t>(n++)] = m.s[static_cast<std::size_t>(i)];
  return r;
}

constexpr long long gcd(long long a, long long b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace warden::check
