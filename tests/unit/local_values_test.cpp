// What a local holds where it is read (include/warden/dsl/local_values.hpp, issue 56): each rule of
// the describing, shown on the kernel it lets run and on its twin that must still be refused. The
// differential fuzzer (tests/fuzz/fuzz_main.cpp, carried_local) puts the same rules to random
// programs, and scripts/fuzz-mutations shows it catches each rule broken.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace w = warden;

namespace {

// The value held by the index of access `at` where it is a read of a local; -2 where it is not one.
int held_at_index(const w::dsl::kernel_ir& ir, std::size_t at) {
  const w::dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(ir.accesses[at].index)];
  return e.op == w::dsl::ir_op::local_var ? e.held : -2;
}

// The static rules take a local for data (a store through one is W012): each kernel here reads
// through its local and stores at an index of its own.

// ---- An induction variable: a second counter the loop steps --------------------------------------
// `for (i = 0, x = start; i < trips; ++i, x += stride) out[i * 8 + t] = in[x + t];`: x at trip i is
// start + i * stride, so the launch bounds in[x + t] for its own trips. The twin runs past in.
constexpr auto strided_rows = [](auto k, auto in, auto out, auto start, auto stride, auto trips) {
  auto t = k.thread_id();
  return w::local(k, start, [&](auto k, auto x) {
    return w::for_range(k, 0, trips, [&](auto, auto i) { return w::seq(out[i * 8 + t] = in[x + t], x += stride); });
  });
};
WARDEN_KERNEL(strided_rows_k, w::kernel<w::block<8>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(strided_rows)
                                  .named("strided_rows", "in", "out", "start", "stride", "trips"));

// ---- A local assigned in branches: a clamp ------------------------------------------------------
// `int x = g; if (x > n - 1) x = n - 1; out[g] = in[x];`: after the branch x is select(x > n - 1,
// n - 1, g). The twin clamps to n, one past the end.
template <int Past>
constexpr auto clamped = [](auto k, auto in, auto out, auto n) {
  return w::local(k, k.global_id(), [&](auto, auto x) {
    return w::seq(w::when(x > n - 1, x = n - 1 + Past), out[k.global_id()] = in[x]);
  });
};
#define CLAMP_PARAMS w::block<8>, w::in<int>, w::out<int>, w::value<int>
WARDEN_KERNEL(clamped_k, w::kernel<CLAMP_PARAMS>(clamped<0>).named("clamped", "in", "out", "n"));
WARDEN_KERNEL(clamped_past_k, w::kernel<CLAMP_PARAMS>(clamped<1>).named("clamped_past", "in", "out", "n"));

// ---- A value carried from an earlier trip -------------------------------------------------------
// `x = 0; for (i < 4) { out[i * 8 + t] = in[x + t]; x = big; }`: the second trip loads in[big + t].
// The launch may not read x as 0 there: it cannot bound the load and refuses it. Its twin assigns
// before the load in every trip, and runs where big + t fits.
template <bool AssignFirst>
constexpr auto carried = [](auto k, auto in, auto out, auto big) {
  auto t = k.thread_id();
  return w::local(k, 0, [&](auto k, auto x) {
    return w::for_range(k, 0, 4, [&](auto, auto i) {
      if constexpr (AssignFirst) return w::seq(x = big, out[i * 8 + t] = in[x + t]);
      else return w::seq(out[i * 8 + t] = in[x + t], x = big);
    });
  });
};
#define CARRIED_PARAMS w::block<8>, w::in<int>, w::out<int>, w::value<int>
WARDEN_KERNEL(carried_k, w::kernel<CARRIED_PARAMS>(carried<false>).named("carried", "in", "out", "big"));
WARDEN_KERNEL(assigned_first_k, w::kernel<CARRIED_PARAMS>(carried<true>).named("assigned_first", "in", "out", "big"));

// ---- After the loop: the last trip's value, or the value before where no trip runs -----------------
// `x = -1; for (i < trips) x = i; out[t] = in[x + t];`: after the loop x is trips - 1, or -1 where
// the loop runs no trip, and then thread 0 loads in[-1].
constexpr auto last_trip = [](auto k, auto in, auto out, auto trips) {
  auto t = k.thread_id();
  return w::local(k, -1, [&](auto k, auto x) {
    return w::seq(w::for_range(k, 0, trips, [&](auto, auto i) { return x = i; }), out[t] = in[x + t]);
  });
};
WARDEN_KERNEL(last_trip_k, w::kernel<w::block<8>, w::in<int>, w::out<int>, w::value<int>>(last_trip).named("last_trip", "in", "out", "trips"));

// ---- A conversion that may change the value is not followed ------------------------------------
// `int x = big * 2.5f;` holds a float's value converted: the launch does not read through it.
constexpr auto converted = [](auto k, auto in, auto out, auto big) {
  return w::local<int>(k, w::convert<int>(big * 2.5f), [&](auto, auto x) { return out[k.thread_id()] = in[x + k.thread_id()]; });
};
WARDEN_KERNEL(converted_k, w::kernel<w::block<8>, w::in<int>, w::out<int>, w::value<int>>(converted).named("converted", "in", "out", "big"));

}  // namespace

TEST_CASE("local values: a read holds the value the local has there, or none", "[local-values]") {
  // in[x + t] in strided_rows: x is read at the trip's start, which the loop's step decides.
  const w::dsl::kernel_ir strided = strided_rows_k.describe();
  const w::dsl::ir_expr& sum = strided.exprs[static_cast<std::size_t>(strided.accesses[0].index)];
  REQUIRE(sum.op == w::dsl::ir_op::add);
  const w::dsl::ir_expr& x = strided.exprs[static_cast<std::size_t>(sum.a)];
  REQUIRE(x.op == w::dsl::ir_op::local_var);
  CHECK(strided.held_value(x) >= 0);
  // in[x] after the clamp: a select.
  const w::dsl::kernel_ir clamp = clamped_k.describe();
  const int held = held_at_index(clamp, 0);
  REQUIRE(held >= 0);
  CHECK(clamp.exprs[static_cast<std::size_t>(held)].op == w::dsl::ir_op::select);
  // carried: the read at the trip's start holds nothing (a value from an earlier trip).
  const w::dsl::kernel_ir carry = carried_k.describe();
  const w::dsl::ir_expr& carried_sum = carry.exprs[static_cast<std::size_t>(carry.accesses[0].index)];
  const w::dsl::ir_expr& start = carry.exprs[static_cast<std::size_t>(carried_sum.a)];
  REQUIRE(start.op == w::dsl::ir_op::local_var);
  REQUIRE(start.held >= 0);  // the read holds the trip-start placeholder, itself unknown
  CHECK(carry.held_value(carry.exprs[static_cast<std::size_t>(start.held)]) == -1);
}

TEST_CASE("local values: an induction variable is bounded for the launch's trips, its overrunning twin is refused E101",
          "[local-values]") {
  std::vector<int> rows(64);
  for (int i = 0; i < 64; ++i) rows[static_cast<std::size_t>(i)] = i;
  auto in = w::to_device(rows);
  w::device_buffer<int> out(64);
  CHECK(w::record(strided_rows_k, w::grid(1), in, out, 0, 8, 8).clean());  // rows 0..7 of 8: all of in
  CHECK(w::to_host(out) == rows);
  w::launch(w::on_cpu, strided_rows_k, w::grid(1), in, out, 8, 8, 7);
  try {
    w::launch(w::on_cpu, strided_rows_k, w::grid(1), in, out, 8, 8, 8);  // one row past the end
    FAIL("an overrun ran");
  } catch (const w::bounds_error& e) {
    CAPTURE(e.what());
    CHECK(std::string(e.what()).find("E101 [out-of-bounds] strided_rows_k: load in[") == 0);
    CHECK(std::string(e.what()).find("reaches index 71") != std::string::npos);  // the farthest: rows 8..15 of 8 from 8
  }
  CHECK_FALSE(w::record_anyway(strided_rows_k, w::grid(1), in, out, 8, 8, 8).clean());
  CHECK_THROWS_AS(w::launch(w::on_cpu, strided_rows_k, w::grid(1), in, out, 48, -8, 8), w::bounds_error);  // steps below 0
  w::launch(w::on_cpu, strided_rows_k, w::grid(1), in, out, 56, -8, 8);  // steps down to row 0
  CHECK(w::to_host(out)[0] == 56);
}

TEST_CASE("local values: a clamp written as a branch is bounded, the clamp one past is refused E101", "[local-values]") {
  auto in = w::to_device(std::vector<int>(20, 3));
  w::device_buffer<int> out(32);
  CHECK(w::record(clamped_k, w::grid(4), in, out, 20).clean());
  w::launch(w::on_cpu, clamped_k, w::grid(4), in, out, 20);
  CHECK_THROWS_AS(w::launch(w::on_cpu, clamped_past_k, w::grid(4), in, out, 20), w::bounds_error);
  CHECK_FALSE(w::record_anyway(clamped_past_k, w::grid(4), in, out, 20).clean());
}

TEST_CASE("local values: a value carried from an earlier trip is not the value before the loop", "[local-values]") {
  auto in = w::to_device(std::vector<int>(16, 1));
  w::device_buffer<int> out(32);
  // big = 100: the second trip loads in[100 + t]. Refused, and the run would overrun.
  CHECK_THROWS_AS(w::launch(w::on_cpu, carried_k, w::grid(1), in, out, 100), w::bounds_error);
  CHECK_FALSE(w::record_anyway(carried_k, w::grid(1), in, out, 100).clean());
  // Assigned before the load in every trip: in[big + t] with big = 8 fits, 9 does not.
  w::launch(w::on_cpu, assigned_first_k, w::grid(1), in, out, 8);
  CHECK_THROWS_AS(w::launch(w::on_cpu, assigned_first_k, w::grid(1), in, out, 9), w::bounds_error);
}

TEST_CASE("local values: after a loop, the last trip's value, or the value before where it runs no trip", "[local-values]") {
  auto in = w::to_device(std::vector<int>(16, 1));
  w::device_buffer<int> out(8);
  w::launch(w::on_cpu, last_trip_k, w::grid(1), in, out, 1);  // x = 0: in[t]
  w::launch(w::on_cpu, last_trip_k, w::grid(1), in, out, 9);  // x = 8: in[8 + t], t < 8
  CHECK_THROWS_AS(w::launch(w::on_cpu, last_trip_k, w::grid(1), in, out, 10), w::bounds_error);  // x = 9: in[16]
  CHECK_THROWS_AS(w::launch(w::on_cpu, last_trip_k, w::grid(1), in, out, 0), w::bounds_error);   // no trip: in[-1]
  CHECK_FALSE(w::record_anyway(last_trip_k, w::grid(1), in, out, 0).clean());
}

TEST_CASE("local values: a value converted from a float is not followed", "[local-values]") {
  auto in = w::to_device(std::vector<int>(64, 1));
  w::device_buffer<int> out(8);
  try {
    w::launch(w::on_cpu, converted_k, w::grid(1), in, out, 4);
    FAIL("a local converted from a float was read through");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()).find("the index cannot be bounded") != std::string::npos);
  }
}
