// The fixes the diagnostics suggest, followed literally, run and compute the right result (issue
// 36, items 1 and 6). The compile-fail harness only compiles a case's twin (cmake/
// compile_fail_driver.cmake); the twins below are the cases whose twin is the message's fix as
// written, with a main() that launches it on the cpu backend and checks its output. Each is
// included here in a namespace of its own, its main() renamed, and run.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

// (Built without -Wpedantic, as the compile-fail harness builds these cases: tests/unit/CMakeLists.txt.)
#define main fix_main
namespace narrowing_store {
#include "../compile_fail/narrowing_store.fail.cpp"
}
namespace atomic_narrowing_operand {
#include "../compile_fail/atomic_narrowing_operand.fail.cpp"
}
namespace shared_race_in_one_statement {
#include "../compile_fail/shared_race_in_one_statement.fail.cpp"
}
namespace shared_histogram_plain_add {
#include "../compile_fail/shared_histogram_plain_add.fail.cpp"
}
namespace counter_reset_across_blocks {
#include "../compile_fail/counter_reset_across_blocks.fail.cpp"
}
namespace vector_store_through_in {
#include "../compile_fail/vector_store_through_in.fail.cpp"
}
#undef main

TEST_CASE("W008's fix, w::convert<T>(w::round(value)), rounds a store and an atomic's operand", "[fix][W008]") {
  CHECK(narrowing_store::fix_main() == 0);
  CHECK(atomic_narrowing_operand::fix_main() == 0);
}
TEST_CASE("W020's fix inside one statement (a local, sync(), then the store) computes the means", "[fix][W020]") {
  CHECK(shared_race_in_one_statement::fix_main() == 0);
}
TEST_CASE("W012's fix on a tile, w::atomic_add(bins[...], 1), counts right", "[fix][W012]") {
  CHECK(shared_histogram_plain_add::fix_main() == 0);
}
TEST_CASE("W040's fix between blocks, the counter set from the host, counts right", "[fix][W040]") {
  CHECK(counter_reset_across_blocks::fix_main() == 0);
}
TEST_CASE("W003's fix for a vector store, inout<T>, doubles every element", "[fix][W003]") {
  CHECK(vector_store_through_in::fix_main() == 0);
}
