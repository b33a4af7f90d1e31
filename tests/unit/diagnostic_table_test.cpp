// The one table of diagnostics (include/warden/diagnostic/table.hpp) and what is made from it: the
// checker's findings (one enum of codes, none included), the race rules' classes, the messages at static_asserts, and the
// run-time errors, whose every text comes from one formatter (issue 15, item 2).
#include <warden/diagnostic/codes.hpp>
#include <warden/diagnostic/race_rules.hpp>
#include <warden/diagnostic/text.hpp>
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace w = warden;
namespace d = warden::diagnostic;
using w::diagnostic::code;

namespace {

constexpr bool starts_with(std::string_view text, std::string_view head) { return text.substr(0, head.size()) == head; }

// One enum names every code, the checker's findings included: its values are the rows, in order,
// then none (no diagnostic), which has no row.
static_assert(static_cast<std::size_t>(code::none) == d::code_count);
static_assert(d::to_string(code::none) == std::string_view("none"));
static_assert(d::to_string(code::W010) == std::string_view("W010") && d::row(code::W010).kind == d::kind::race);
static_assert(w::check::finding{}.code == code::none && !w::check::finding{});

// Codes are ordered W before E, ascending, and each name is its enumerator's.
constexpr bool rows_in_code_order() {
  for (std::size_t i = 0; i < d::code_count; ++i) {
    if (static_cast<std::size_t>(d::table[i].code) != i) return false;
    if (i > 0) {
      const auto a = d::table[i - 1].name, b = d::table[i].name;
      const bool both_same_letter = a[0] == b[0];
      if (both_same_letter ? !(a < b) : !(a[0] == 'W' && b[0] == 'E')) return false;
    }
  }
  return true;
}
static_assert(rows_in_code_order());
static_assert(d::code_count == 34);

// Messages at static_asserts carry the row's code and short name.
static_assert(starts_with(WARDEN_DIAGNOSTIC_MESSAGE(W003, "warden::kernel", "x"), "W003 [store-to-read-only] warden::kernel: x"));
static_assert(starts_with(WARDEN_DIAGNOSTIC_RULE_TEXT(W020), "W020 [shared-race] two threads touch one shared element"));
static_assert(std::string_view(WARDEN_DIAGNOSTIC_HEAD(E101)) == "E101 [out-of-bounds] ");

// A finding's code picks its rule's class.
static_assert(std::is_same_v<w::check::diagnostic_for<code::W022, int>::type, d::W022_uninitialised_shared_load<int>>);
static_assert(std::is_same_v<w::check::diagnostic_for<code::none, int>::type, int>);

// Each coded exception carries its code.
static_assert(w::bounds_error::code == d::code::E101);
static_assert(w::obligation_error::code == d::code::E106);
static_assert(w::moved_from_error::code == d::code::E110);
static_assert(w::foreign_stream_error::code == d::code::E111);
static_assert(w::observer_error::code == d::code::E112);
static_assert(std::is_base_of_v<w::error, w::fact_error>);

}  // namespace

TEST_CASE("diagnostic table: rows are found by name, each with its text", "[diagnostic]") {
  const d::entry* e = d::find("E104");
  REQUIRE(e != nullptr);
  CHECK(e->short_name == "integer-wrap");
  CHECK(e->kind == d::kind::launch);
  CHECK(d::find("W099") == nullptr);
  for (const d::entry& row : d::table) {
    CAPTURE(row.name);
    CHECK(!row.short_name.empty());
    CHECK(!row.rule.empty());
    CHECK(!row.fix.empty());
    CHECK(!row.raised_by.empty());
  }
}

TEST_CASE("diagnostic table: one formatter for run-time errors", "[diagnostic]") {
  CHECK(d::text(d::code::E100, "saxpy", "one buffer is bound to x and to y") ==
        "E100 [aliasing] saxpy: one buffer is bound to x and to y");
  const w::grid_error g("reverse", "the grid has 2 blocks in dimension y");
  CHECK(std::string(g.what()) == "E102 [grid-shape] reverse: the grid has 2 blocks in dimension y");
}

WARDEN_KERNEL(table_saxpy, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<float>>([](auto k, auto x, auto y, auto a) {
                return y[k.global_id()] = a * x[k.global_id()] + y[k.global_id()];
              }).named("table_saxpy", "x", "y", "a"));

TEST_CASE("diagnostic table: launch errors start with the code, the short name and the kernel", "[diagnostic]") {
  auto x = w::to_device(std::vector<float>(64, 1.f));
  auto y = w::to_device(std::vector<float>(32, 1.f));
  try {
    w::launch(w::on_cpu, table_saxpy, w::grid(1), x, y, 2.f);
    FAIL("the launch overruns y and must be refused");
  } catch (const w::bounds_error& e) {
    CHECK(starts_with(e.what(), "E101 [out-of-bounds] table_saxpy: "));
    CHECK(std::string(e.what()).find("y (parameter 1, inout) has 32 elements") != std::string::npos);
  }
  try {
    w::launch(w::on_cpu, table_saxpy, w::grid(1), x, x, 2.f);
    FAIL("x bound twice, once writable, must be refused");
  } catch (const w::aliasing_error& e) {
    CHECK(starts_with(e.what(), "E100 [aliasing] table_saxpy: one buffer is bound to x"));
  }
}
