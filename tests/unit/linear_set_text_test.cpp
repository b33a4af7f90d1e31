// check/launch/linear_set_text.hpp: the launch's sets read as linear constraints must be the sets
// isl's own reader builds from the same text. Random formulas of presburger.hpp's grammar (every
// operator it writes, chains, !=, and/or nested, floor and mod of negative values), each compared
// as sets (isl_set_is_equal, the floors' variables projected out) and by decision (emptiness, and
// the point found lies in isl's set). lemma_test's "lemma 8" does the same on the sets that
// random kernels' launches ask.

#include <warden/check/launch/integer_set.hpp>

#include "../support/integer_set_readers.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {
using namespace warden::check::launch_impl;
using warden_test::compare_readers;
using warden_test::comparison_tally;

class formula_generator {
 public:
  explicit formula_generator(unsigned seed) : rng_(seed) {}

  std::string set() {
    vars_.clear();
    const int n = pick(1, 4);
    std::string out = "{ [";
    for (int i = 0; i < n; ++i) {
      vars_.push_back("v" + std::string(1, static_cast<char>('a' + i)) + "_" + std::to_string(i));
      out += (i ? ", " : "") + vars_.back();
    }
    out += "] : ";
    // Bounds on each variable, as presburger.hpp writes a coordinate, sometimes left off.
    std::string body;
    for (const std::string& v : vars_)
      if (pick(0, 4) != 0) body += (body.empty() ? "" : " and ") + std::string("(-") + std::to_string(pick(0, 9)) + ") <= " + v + " < " + std::to_string(pick(0, 12));
    const int conjuncts = pick(1, 4);
    for (int i = 0; i < conjuncts; ++i) body += (body.empty() ? "" : " and ") + formula(2);
    return out + body + " }";
  }

 private:
  std::mt19937 rng_;
  std::vector<std::string> vars_;

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  static std::string number(long long v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }

  std::string expression(int depth) {
    const int k = depth <= 0 ? pick(0, 1) : pick(0, 8);
    switch (k) {
      case 0: return number(pick(-20, 20));
      case 1: return vars_[static_cast<std::size_t>(pick(0, static_cast<int>(vars_.size()) - 1))];
      case 2: return "(" + expression(depth - 1) + " + " + expression(depth - 1) + ")";
      case 3: return "(" + expression(depth - 1) + " - " + expression(depth - 1) + ")";
      case 4: return "(" + std::to_string(pick(-6, 6)) + " * " + expression(depth - 1) + ")";
      case 5: return "(-" + expression(depth - 1) + ")";
      case 6: return "floor((" + expression(depth - 1) + ") / " + std::to_string(pick(1, 8)) + ")";
      case 7: return "((" + expression(depth - 1) + ") mod " + std::to_string(pick(1, 8)) + ")";
      default: return "(" + expression(depth - 1) + " * " + std::to_string(pick(-3, 3)) + ")";
    }
  }
  std::string comparison() {
    static const char* ops[] = {" < ", " <= ", " > ", " >= ", " = ", " != "};
    std::string out = expression(pick(0, 3)) + ops[pick(0, 5)] + expression(pick(0, 3));
    if (pick(0, 5) == 0) out += ops[pick(0, 3)] + expression(pick(0, 2));  // a chain
    return pick(0, 1) ? "(" + out + ")" : out;
  }
  std::string formula(int depth) {
    if (depth <= 0 || pick(0, 2) == 0) return comparison();
    const char* op = pick(0, 1) ? " and " : " or ";
    return "(" + formula(depth - 1) + op + formula(depth - 1) + ")";
  }
};

}  // namespace

TEST_CASE("linear_set_text: random formulas read as isl reads them", "[launch][integer_set]") {
  formula_generator gen(20261207u);
  comparison_tally tally;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = gen.set();
    compare_readers(text, warden_test::tuple_size(text), tally);
  }
  // Every formula of the grammar is read (a case product past the limit aside), and both kinds of
  // answer occur often enough to mean something.
  std::printf("linear_set_text: %d formulas read, %d left to isl's reader; %d with a point\n", tally.read, tally.not_read, tally.nonempty);
  CHECK(tally.read > 2900);
  CHECK(tally.nonempty > 500);
  CHECK(tally.read - tally.nonempty > 500);
}

TEST_CASE("linear_set_text: what it leaves to isl's reader", "[launch][integer_set]") {
  CHECK_FALSE(read_linear_set("{ [x, y] : x * y > 3 }"));                        // not linear
  CHECK_FALSE(read_linear_set("{ [x] : exists (k : x = 2k) }"));                  // an existential
  CHECK_FALSE(read_linear_set("{ [x] : x > n }"));                                // an unknown name
  CHECK_FALSE(read_linear_set("{ [x] : x > 9223372036854775807 + 1 }"));          // past 64 bits
  CHECK_FALSE(read_linear_set("{ [x] : floor((x) / 0) = 1 }"));                   // division by 0
  std::string wide = "{ [x] : ";
  for (int i = 0; i < 9; ++i) wide += std::string(i ? " and " : "") + "(x = " + std::to_string(i) + " or x = " + std::to_string(i + 1) + ")";
  CHECK_FALSE(read_linear_set(wide + " }"));                                      // 2^9 cases
  // and decide_integer_set still answers them, through isl's reader
  CHECK(decide_integer_set("{ [x] : exists (k : x = 2k and 0 <= x < 2) }", 1).answer == set_answer::has_point);
  CHECK(decide_integer_set(wide + " }", 1).answer == set_answer::empty);
}

TEST_CASE("linear_set_text: floors and remainders of negative values", "[launch][integer_set]") {
  // floor rounds down and mod is never negative, as in isl: -7 = 4 * (-2) + 1.
  CHECK(decide_integer_set("{ [x] : x = -7 and floor((x) / 4) = -2 and (x mod 4) = 1 }", 1).answer == set_answer::has_point);
  CHECK(decide_integer_set("{ [x] : x = -7 and floor((x) / 4) = -1 }", 1).answer == set_answer::empty);
  const set_decision d = decide_integer_set("{ [x, y] : 0 <= x < 10 and y = (x mod 3) and y = 2 and x > 6 }", 2);
  REQUIRE(d.answer == set_answer::has_point);
  CHECK(d.point == std::vector<long long>{8, 2});
}
