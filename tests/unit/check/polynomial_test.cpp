// check/polynomial.hpp: the arithmetic the checker compares indices with, against evaluation at
// random points, and provably_positive against brute force over small domains (a polynomial it
// calls positive must be >= 1 at every point the symbols can take).
#include <warden/check/polynomial.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <vector>

namespace c = warden::check;
namespace sym = warden::check::symbol;

namespace {

// The symbols drawn from: two thread ids, a block id, a loop counter, a grid extent, two
// parameters' values (which may be negative) and a size.
constexpr std::array<int, 8> symbols{sym::thread(0), sym::thread(1), sym::block(0), sym::counter(0),
                                     sym::grid_dim(0), sym::param_value(0), sym::param_value(1), sym::param_size(2)};

using point = std::array<long long, symbols.size()>;

long long value_of(int s, const point& at) {
  for (std::size_t i = 0; i < symbols.size(); ++i)
    if (symbols[i] == s) return at[i];
  FAIL("symbol " << s << " not drawn");
  return 0;
}

long long evaluate(const c::polynomial& p, const point& at) {
  long long sum = 0;
  for (const c::term& t : p.terms) {
    long long product = t.coefficient;
    for (int i = 0; i < t.m.degree(); ++i) product *= value_of(t.m.s[static_cast<std::size_t>(i)], at);
    sum += product;
  }
  return sum;
}

// Sorted by monomial, no zero coefficient, symbols sorted within each monomial.
bool canonical(const c::polynomial& p) {
  for (std::size_t i = 0; i < p.terms.size(); ++i) {
    if (p.terms[i].coefficient == 0) return false;
    if (i > 0 && !(p.terms[i - 1].m < p.terms[i].m)) return false;
    for (int k = 1; k < p.terms[i].m.degree(); ++k)
      if (p.terms[i].m.s[static_cast<std::size_t>(k - 1)] > p.terms[i].m.s[static_cast<std::size_t>(k)]) return false;
  }
  return true;
}

struct generator {
  std::mt19937 rng;
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

  c::polynomial random_polynomial(int max_terms, int max_degree) {
    c::polynomial p = c::polynomial::constant(pick(-4, 4));
    for (int n = pick(0, max_terms); n > 0; --n) {
      c::polynomial t = c::polynomial::constant(pick(-3, 3));
      for (int d = pick(1, max_degree); d > 0; --d)
        t = t * c::polynomial::of_symbol(symbols[static_cast<std::size_t>(pick(0, symbols.size() - 1))]);
      p = p + t;
    }
    return p;
  }
  // A point the symbols can take: ids and counters >= 0, grid extents >= 1, parameters any sign.
  point random_point() {
    point at{};
    for (std::size_t i = 0; i < symbols.size(); ++i) {
      const int s = symbols[i];
      at[i] = sym::is_param_value(s) ? pick(-6, 6) : s == sym::grid_dim(0) ? pick(1, 6) : pick(0, 6);
    }
    return at;
  }
};

}  // namespace

TEST_CASE("polynomial: sums, differences and products agree with evaluation", "[check][polynomial]") {
  generator g{std::mt19937(20261125)};
  int products = 0;
  for (int round = 0; round < 2000; ++round) {
    const c::polynomial a = g.random_polynomial(3, 2), b = g.random_polynomial(3, 1);
    const long long k = g.pick(-5, 5);
    const c::polynomial sum = a + b, difference = a - b, scaled = k * a, product = a * b;
    REQUIRE(sum.valid);
    REQUIRE(canonical(sum));
    REQUIRE(canonical(difference));
    REQUIRE(canonical(scaled));
    for (int n = 0; n < 5; ++n) {
      const point at = g.random_point();
      REQUIRE(evaluate(sum, at) == evaluate(a, at) + evaluate(b, at));
      REQUIRE(evaluate(difference, at) == evaluate(a, at) - evaluate(b, at));
      REQUIRE(evaluate(scaled, at) == k * evaluate(a, at));
      if (product.valid) REQUIRE(evaluate(product, at) == evaluate(a, at) * evaluate(b, at));
    }
    if (product.valid) {
      REQUIRE(canonical(product));
      ++products;
    }
    REQUIRE((a - a).terms.empty());
  }
  CHECK(products > 1000);  // most products stay within degree 3
}

TEST_CASE("polynomial: a product past degree 3 is invalid, and stays invalid", "[check][polynomial]") {
  const c::polynomial t = c::polynomial::of_symbol(sym::thread(0));
  const c::polynomial t4 = t * t * t * t;
  CHECK_FALSE(t4.valid);
  CHECK_FALSE((t4 + t).valid);
  CHECK_FALSE((t * t4).valid);
  CHECK_FALSE(c::provably_positive(t4 + c::polynomial::constant(5)));
  CHECK((t * t * t).valid);
}

TEST_CASE("polynomial: provably_positive holds at every point of small domains", "[check][polynomial]") {
  generator g{std::mt19937(7)};
  int positive = 0;
  for (int round = 0; round < 3000; ++round) {
    const c::polynomial p = g.random_polynomial(3, 2);
    if (!c::provably_positive(p)) continue;
    ++positive;
    for (int n = 0; n < 40; ++n) {
      const point at = g.random_point();
      INFO("round " << round);
      REQUIRE(evaluate(p, at) >= 1);
    }
  }
  CHECK(positive > 100);  // the lemma is exercised, not vacuous
  // Parameters may be negative: p0 + 1 is not provably positive, size + 1 is.
  CHECK_FALSE(c::provably_positive(c::polynomial::of_symbol(sym::param_value(0)) + c::polynomial::constant(1)));
  CHECK(c::provably_positive(c::polynomial::of_symbol(sym::param_size(0)) + c::polynomial::constant(1)));
  CHECK_FALSE(c::provably_positive(c::polynomial::constant(0)));
}

TEST_CASE("polynomial: gcd, variables_in and without", "[check][polynomial]") {
  CHECK(c::gcd(-12, 18) == 6);
  CHECK(c::gcd(0, 7) == 7);
  const c::polynomial p = c::polynomial::of_symbol(sym::thread(0)) * c::polynomial::of_symbol(sym::param_value(0));
  int which = -1;
  CHECK(c::variables_in(p.terms[0].m, &which) == 1);
  CHECK(which == sym::thread(0));
  CHECK(c::without(p.terms[0].m, sym::thread(0)).s[0] == sym::param_value(0));
}
