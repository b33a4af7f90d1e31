#pragma once
// One launch set's text through both readers: linear_set_text.hpp's constraints and isl's own
// reader must give the same set (isl_set_is_equal, the floors' variables projected out) and the
// same decision (emptiness; a point found lies in isl's set). Used by linear_set_text_test on
// random formulas and by lemma_test on the sets random kernels' launches ask.

#include <warden/check/launch/integer_set.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace warden_test {
using namespace warden::check::launch_impl;

inline isl_ctx* context() {
  static isl_ctx* ctx = [] {
    isl_ctx* c = isl_ctx_alloc();
    isl_options_set_on_error(c, ISL_ON_ERROR_CONTINUE);
    return c;
  }();
  return ctx;
}

// The point `p` (named coordinates) as a text isl reads.
inline std::string point_text(const std::vector<long long>& p) {
  std::string out = "{ [";
  for (std::size_t i = 0; i < p.size(); ++i) out += (i ? ", " : "") + std::to_string(p[i]);
  return out + "] }";
}

struct comparison_tally {
  int read = 0, not_read = 0, nonempty = 0;
};

// `text` through both readers: the same set, the same decision.
inline void compare_readers(const std::string& text, std::size_t dims, comparison_tally& tally) {
  isl_ctx* ctx = context();
  const std::optional<linear_set> s = read_linear_set(text);
  if (!s) {
    ++tally.not_read;
    return;
  }
  ++tally.read;
  REQUIRE(s->named == dims);
  isl_set* by_isl = isl_set_read_from_str(ctx, text.c_str());
  REQUIRE(by_isl != nullptr);
  isl_set* ours = integer_set_detail::set_of(ctx, *s);
  ours = isl_set_project_out(ours, isl_dim_set, static_cast<unsigned>(s->named), static_cast<unsigned>(s->variables - s->named));
  INFO(text);
  CHECK(isl_set_is_equal(ours, by_isl) == isl_bool_true);
  isl_set_free(ours);

  const set_decision d = integer_set_detail::decide_text(ctx, text, dims);
  const bool isl_empty = isl_set_is_empty(by_isl) == isl_bool_true;
  REQUIRE(d.answer != set_answer::unknown);
  CHECK((d.answer == set_answer::empty) == isl_empty);
  if (d.answer == set_answer::has_point) {
    ++tally.nonempty;
    isl_set* p = isl_set_read_from_str(ctx, point_text(d.point).c_str());
    CHECK(isl_set_is_subset(p, by_isl) == isl_bool_true);
    isl_set_free(p);
  }
  isl_set_free(by_isl);
}

// The number of named variables of a set's text: its tuple's entries.
inline std::size_t tuple_size(const std::string& text) {
  const std::size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos) return 0;
  if (text.find_first_not_of(' ', open + 1) == close) return 0;
  std::size_t n = 1;
  for (std::size_t i = open; i < close; ++i) n += text[i] == ',';
  return n;
}
}  // namespace warden_test
