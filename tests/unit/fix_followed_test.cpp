// The fixes the diagnostics suggest, followed literally, run and compute the right result (issue
// 36, items 1 and 6). The compile-fail harness only compiles a case's twin (cmake/
// compile_fail_driver.cmake); the twins below are the cases whose twin is the message's fix as
// written, with a main() that launches it on the cpu backend and checks its output. Each is
// included here in a namespace of its own, its main() renamed, and run.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace w = warden;

// (Built without -Wpedantic, as the compile-fail harness builds these cases: tests/unit/CMakeLists.txt.)
// The cases' shared helper, included once here so that every namespace below sees the same one.
#include "../compile_fail/support/launch_case.hpp"

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
// One case for each other code the checker and the types raise: its twin is the rule's fix applied
// to the mistake (the message's fix text, docs/diagnostics.md), and the tests below run it on data
// and check what it computes, where the case's own main does not.
namespace device_buffer_index_on_host {  // W001: to_host(d)[3]
#include "../compile_fail/device_buffer_index_on_host.fail.cpp"
}
namespace launch_host_vector {  // W002: a device buffer, not the std::vector
#include "../compile_fail/launch_host_vector.fail.cpp"
}
namespace kernel_load_from_out {  // W004: inout<int>
#include "../compile_fail/kernel_load_from_out.fail.cpp"
}
namespace call_stateful_function {  // W005: the function object without its state
#include "../compile_fail/call_stateful_function.fail.cpp"
}
namespace launch_unchecked_kernel {  // W006: the body defined with w::kernel
#include "../compile_fail/launch_unchecked_kernel.fail.cpp"
}
namespace given_fact_on_thread_id {  // W007: the thread's condition in when(...), the launch's in given(...)
#include "../compile_fail/given_fact_on_thread_id.fail.cpp"
}
namespace register_runtime_index {  // W009: indexed by the w::unroll counter
#include "../compile_fail/register_runtime_index.fail.cpp"
}
namespace race_store_half_index {  // W010: each thread its own index, guarded
#include "../compile_fail/race_store_half_index.fail.cpp"
}
namespace race_read_neighbour {  // W011: the neighbour read from another buffer
#include "../compile_fail/race_read_neighbour.fail.cpp"
}
namespace tiled_loop_missing_end_barrier {  // W021: sync() at the end of the loop body
#include "../compile_fail/tiled_loop_missing_end_barrier.fail.cpp"
}
namespace shared_load_before_store {  // W022: the element stored first
#include "../compile_fail/shared_load_before_store.fail.cpp"
}
namespace sync_under_thread_condition {  // W030: sync() under a uniform condition
#include "../compile_fail/sync_under_thread_condition.fail.cpp"
}
namespace shuffle_under_thread_condition {  // W031: the shuffle under a condition of whole warps
#include "../compile_fail/shuffle_under_thread_condition.fail.cpp"
}
namespace scope_outer_context_loop {  // W032: the inner loop opened with its enclosing lambda's context
#include "../compile_fail/scope_outer_context_loop.fail.cpp"
}
namespace strided_load {  // W051: consecutive threads, consecutive elements
#include "../compile_warn/strided_load.warn.cpp"
}
// Its pragma (the lint made an error) kept to it.
#pragma GCC diagnostic push
namespace lint_bank_conflict_as_error {  // W050: the tile's rows padded
#include "../compile_fail/lint_bank_conflict_as_error.fail.cpp"
}
#pragma GCC diagnostic pop
#undef main

namespace {
std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}
}  // namespace

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

TEST_CASE("W001's fix, to_host(buffer), reads the element on the host", "[fix][W001]") {
  CHECK(device_buffer_index_on_host::fix_main() == 0);
}
TEST_CASE("W002's fix, a device buffer bound instead of host memory, is filled", "[fix][W002]") {
  w::device_buffer<float> device(100);
  w::launch(w::on_cpu, launch_host_vector::fill, w::grid_for(100), device);
  CHECK(w::to_host(device) == std::vector<float>(100, 1.f));
}
TEST_CASE("W004's fix, inout<T> for a parameter the kernel loads and stores, adds one", "[fix][W004]") {
  auto data = w::to_device(std::vector<int>(100, 4));
  w::launch(w::on_cpu, kernel_load_from_out::bump, w::grid_for(100), data);
  CHECK(w::to_host(data) == std::vector<int>(100, 5));
}
TEST_CASE("W005's fix, the function object without state, doubles", "[fix][W005]") {
  auto in = w::to_device(iota_floats(128));
  w::device_buffer<float> out(128);
  w::launch(w::on_cpu, call_stateful_function::twice, w::grid_for(128), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 128; ++i) CHECK(got[static_cast<std::size_t>(i)] == 2.f * static_cast<float>(i));
}
TEST_CASE("W006's fix, the body defined with w::kernel, launches and fills", "[fix][W006]") {
  CHECK(launch_unchecked_kernel::fix_main() == 0);
}
TEST_CASE("W007's fix, the thread's condition in when(...), copies the rows", "[fix][W007]") {
  CHECK(given_fact_on_thread_id::fix_main() == 0);
}
TEST_CASE("W009's fix, the register array indexed by the unroll counter, picks the element", "[fix][W009]") {
  CHECK(register_runtime_index::fix_main() == 0);
}
TEST_CASE("W010's fix, each thread its own guarded index, takes every other element", "[fix][W010]") {
  auto in = w::to_device(iota_floats(256));
  w::device_buffer<float> out(128);
  w::launch(w::on_cpu, race_store_half_index::halve, w::grid_for(256), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 128; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(2 * i));
  CHECK(w::record(race_store_half_index::halve, w::grid_for(256), in, out).clean());
}
TEST_CASE("W011's fix, the neighbour read from the in buffer, adds it", "[fix][W011]") {
  auto in = w::to_device(iota_floats(129));
  auto a = w::to_device(std::vector<float>(129, 1.f));
  w::launch(w::on_cpu, race_read_neighbour::shift, w::grid_for(129), in, a);
  const auto got = w::to_host(a);
  for (int i = 0; i < 128; ++i) CHECK(got[static_cast<std::size_t>(i)] == 1.f + static_cast<float>(i + 1));
  CHECK(got[128] == 1.f);
}
TEST_CASE("W021's fix, sync() at the end of the loop body, sums the mirrored tiles", "[fix][W021]") {
  auto in = w::to_device(iota_floats(128));
  w::device_buffer<float> out(32);
  w::launch(w::on_cpu, tiled_loop_missing_end_barrier::tiles, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int t = 0; t < 32; ++t) {
    float sum = 0;
    for (int j = 0; j < 4; ++j) sum += static_cast<float>(j * 32 + 31 - t);
    CHECK(got[static_cast<std::size_t>(t)] == sum);
  }
}
TEST_CASE("W022's fix, the element stored before it is loaded, copies", "[fix][W022]") {
  auto in = w::to_device(iota_floats(128));
  w::device_buffer<float> out(128);
  w::launch(w::on_cpu, shared_load_before_store::copy, w::grid(2), in, out);
  CHECK(w::to_host(out) == iota_floats(128));
}
TEST_CASE("W030's fix, sync() under a uniform condition, sets the first half", "[fix][W030]") {
  auto a = w::to_device(std::vector<float>(32, 0.f));
  w::launch(w::on_cpu, sync_under_thread_condition::first_half, w::grid(1), a, 1);
  const auto got = w::to_host(a);
  for (int t = 0; t < 32; ++t) CHECK(got[static_cast<std::size_t>(t)] == (t < 16 ? 1.f : 0.f));
}
TEST_CASE("W031's fix, the shuffle under a condition of whole warps, adds the right neighbour", "[fix][W031]") {
  auto in = w::to_device(iota_floats(64));
  auto out = w::to_device(std::vector<float>(64, -1.f));
  w::launch(w::on_cpu, shuffle_under_thread_condition::neighbour_sum, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 31; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(2 * i + 1));
  for (int i = 32; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == -1.f);  // the second warp skips it
}
TEST_CASE("W032's fix, the inner loop opened with k_row, copies every row", "[fix][W032]") {
  auto in = w::to_device(iota_floats(64 * 32));
  w::device_buffer<float> out(64 * 32);
  w::launch(w::on_cpu, scope_outer_context_loop::copy_rows, w::grid(1), in, out);
  CHECK(w::to_host(out) == iota_floats(64 * 32));
}
TEST_CASE("W050's fix, the tile's rows padded, passes the column through", "[fix][W050]") {
  auto in = w::to_device(iota_floats(32));
  w::device_buffer<float> out(32);
  w::launch(w::on_cpu, lint_bank_conflict_as_error::column_through_tile, w::grid(1), in, out);
  CHECK(w::to_host(out) == iota_floats(32));
}
TEST_CASE("W051's fix, consecutive threads on consecutive elements, gathers", "[fix][W051]") {
  auto in = w::to_device(iota_floats(512));
  w::device_buffer<float> out(512);
  w::launch(w::on_cpu, strided_load::gather, w::grid_for(512), in, out);
  CHECK(w::to_host(out) == iota_floats(512));
}
