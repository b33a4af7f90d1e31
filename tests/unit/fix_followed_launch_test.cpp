// The launch-time refusals' fixes, followed literally (issue 36, items 1, 2 and 6): each test makes
// the mistake, checks that the refusal names it in the kernel's own names and spells the fix, then
// applies that fix as written and checks what the program computes (docs/diagnostics.md,
// "Following the fixes").
#include <warden/warden.hpp>

#include "../support/device_space_resource.hpp"

#include <catch2/catch.hpp>

#include <cctype>
#include <string>
#include <vector>

namespace w = warden;
using Catch::Matchers::Contains;

namespace {
std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}
template <class Error, class F>
std::string refusal_of(F&& launch) {
  try {
    launch();
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("the launch was not refused");
  return {};
}
}  // namespace

// E100: one buffer bound to an in and an inout parameter.
WARDEN_KERNEL(axpy_k, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<float>>([](auto k, auto x, auto y, auto a) {
  auto i = k.global_id();
  return w::when(i < y.size(), y[i] = a * x[i] + y[i]);
}));

// E100's other fix: the same computation in place, through one inout parameter.
WARDEN_KERNEL(axpy_in_place_k, w::kernel<w::block<64>, w::inout<float>, w::value<float>>([](auto k, auto y, auto a) {
  auto i = k.global_id();
  return w::when(i < y.size(), y[i] = a * y[i] + y[i]);
}));

TEST_CASE("E100's fix: a writable parameter gets a buffer of its own", "[fix][E100]") {
  auto x = w::to_device(iota_floats(128));
  const std::string why = refusal_of<w::aliasing_error>([&] { w::launch(w::on_cpu, axpy_k, w::grid_for(128), x, x, 2.f); });
  CHECK_THAT(why, Contains("one buffer is bound to x (parameter 0, in) and to y (parameter 1, inout)"));
  CHECK_THAT(why, Contains("a writable parameter needs a buffer of its own"));
  CHECK_THAT(why, Contains("to work in place, write the kernel with one inout parameter that it both reads and writes"));
  auto y = w::to_device(iota_floats(128));  // the fix: y's own buffer (here a copy of x's values)
  w::launch(w::on_cpu, axpy_k, w::grid_for(128), x, y, 2.f);
  const auto got = w::to_host(y);
  for (int i = 0; i < 128; ++i) CHECK(got[static_cast<std::size_t>(i)] == 3.f * static_cast<float>(i));
  // The other fix, in place: one inout parameter, read and written (checked, accepted, and run).
  w::launch(w::on_cpu, axpy_in_place_k, w::grid_for(128), x, 2.f);
  const auto in_place = w::to_host(x);
  for (int i = 0; i < 128; ++i) CHECK(in_place[static_cast<std::size_t>(i)] == 3.f * static_cast<float>(i));
}

// E101: a neighbour's load with no guard on the neighbour's index.
WARDEN_KERNEL(next_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = x[i + 1]);
}));
// The guard the message names in its question (issue 57: the guard around the statement leaves
// out[255] unstored, so it is asked, not offered): "should the threads that reach past the end skip
// the whole statement? A guard, w::when(i + 1 < x.size(), ...), would leave out[255] unstored".
WARDEN_KERNEL(next_fixed_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), w::when(i + 1 < x.size(), out[i] = x[i + 1]));
}));

TEST_CASE("E101's fix: the guard the message spells on the index as written", "[fix][E101]") {
  auto x = w::to_device(iota_floats(256));
  auto out = w::to_device(std::vector<float>(256, -1.f));
  const std::string why = refusal_of<w::bounds_error>([&] { w::launch(w::on_cpu, next_k, w::grid_for(256), x, out); });
  CHECK_THAT(why, Contains("load x[i + 1] reaches index 256, but x (parameter 0, in) has 256 elements"));
  CHECK_THAT(why, Contains("; should the threads that reach past the end skip the whole statement? A guard, w::when(i + 1 < x.size(), ...), "
                           "would leave out[255] unstored; if they should not, bind x to at least 257 elements"));
  CHECK(w::to_host(out) == std::vector<float>(256, -1.f));  // refused before anything ran
  w::launch(w::on_cpu, next_fixed_k, w::grid_for(256), x, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 255; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(i + 1));
  CHECK(got[255] == -1.f);  // no neighbour: not stored, as the question said
  // The message's other fix: x one element longer.
  auto longer = w::to_device(iota_floats(257));
  w::launch(w::on_cpu, next_k, w::grid_for(256), longer, out);
  CHECK(w::to_host(out)[255] == 256.f);
}

// E103: a loop whose run-time step may be 0.
WARDEN_KERNEL(strided_sum_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>>([](auto k, auto out, auto step) {
  auto t = k.thread_id();
  return w::seq(out[t] = 0, w::for_range(k, 0, 8, step, [&](auto, auto j) { return out[t] += j; }));
}));
// The message's first answer, "if it means no work, guard the loop, w::when(step > 0, ...)".
WARDEN_KERNEL(strided_sum_fixed_k, w::kernel<w::block<32>, w::inout<int>, w::value<int>>([](auto k, auto out, auto step) {
  auto t = k.thread_id();
  return w::seq(out[t] = 0, w::when(step > 0, w::for_range(k, 0, 8, step, [&](auto, auto j) { return out[t] += j; })));
}));

TEST_CASE("E103's fix: the loop guarded on its step", "[fix][E103]") {
  w::device_buffer<int> out(32);
  const std::string why = refusal_of<w::loop_error>([&] { w::launch(w::on_cpu, strided_sum_k, w::grid(1), out, 0); });
  CHECK_THAT(why, Contains("the loop over j from 0 to 8 steps by step, which may be 0"));
  // A question (issue 57): a step of 0 is no work, or a slip; the message offers the fix of each.
  CHECK_THAT(why, Contains("Is a step of 0 meant? If it means no work, guard the loop, w::when(step > 0, ...); if not, pass a step of 1 or more"));
  CHECK(std::string(w::dsl::definition_of(strided_sum_fixed_k).source).find("w::when(step > 0, w::for_range(k, 0, 8, step,") != std::string::npos);
  w::launch(w::on_cpu, strided_sum_fixed_k, w::grid(1), out, 0);
  CHECK(w::to_host(out) == std::vector<int>(32, 0));
  w::launch(w::on_cpu, strided_sum_fixed_k, w::grid(1), out, 3);
  CHECK(w::to_host(out) == std::vector<int>(32, 0 + 3 + 6));
}

// E104: cols - 1u wraps for cols == 0.
WARDEN_KERNEL(all_but_last_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto col = k.global_id();
  return w::when(col < cols - 1u && col < out.size(), out[col] = 1);
}));
// The message's fix, "guard it so that it cannot" (wrap): cols > 0u first.
WARDEN_KERNEL(all_but_last_fixed_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto col = k.global_id();
  return w::when(cols > 0u, w::when(col < cols - 1u && col < out.size(), out[col] = 1));
}));

// The checked fix (issue 57), as the message spells it: the operation computed from
// w::convert<long long>(cols), which C++ carries through the subtraction and the comparison.
WARDEN_KERNEL(all_but_last_wide_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto col = k.global_id();
  return w::when(col < w::convert<long long>(cols) - 1u && col < out.size(), out[col] = 1);
}));

// The message's convert<long long>(X) applied to the kernel's source: X replaced, as a whole word,
// at its first use in the body (after the lambda's parameter list).
std::string widened(std::string source, const std::string& message) {
  const std::string head = "from w::convert<long long>(";
  const std::size_t at = message.find(head);
  if (at == std::string::npos) return {};
  const std::string operand = message.substr(at + head.size(), message.find(')', at + head.size()) - at - head.size());
  const auto word = [&](std::size_t i) { return i < source.size() && (std::isalnum(static_cast<unsigned char>(source[i])) || source[i] == '_'); };
  for (std::size_t i = source.find('{'); i != std::string::npos && (i = source.find(operand, i)) != std::string::npos; ++i)
    if (!word(i - 1) && !word(i + operand.size())) return source.replace(i, operand.size(), "w::convert<long long>(" + operand + ")");
  return {};
}

TEST_CASE("E104's checked fix, a 64-bit signed type, followed as the message spells it", "[fix][E104][checked]") {
  auto out = w::to_device(std::vector<int>(64, 0));
  const std::string why = refusal_of<w::wrap_error>([&] { w::launch(w::on_cpu, all_but_last_k, w::grid(1), out, 0u); });
  CHECK_THAT(why, Contains("; checked fix: compute it in a 64-bit signed type, from w::convert<long long>(cols) (this launch passes its checks with it)"));
  const std::string followed = widened(std::string(w::dsl::definition_of(all_but_last_k).source), why);
  INFO("followed: " << followed);
  CHECK(followed == std::string(w::dsl::definition_of(all_but_last_wide_k).source));
  w::launch(w::on_cpu, all_but_last_wide_k, w::grid(1), out, 0u);  // no column but the last: none stored
  CHECK(w::to_host(out) == std::vector<int>(64, 0));
  CHECK(w::record(all_but_last_wide_k, w::grid(1), out, 0u).clean());
  w::launch(w::on_cpu, all_but_last_wide_k, w::grid(1), out, 10u);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == (i < 9 ? 1 : 0));
}

// A conversion above the wrap: `w::convert<int>(cols - 1u)` keeps int whatever the operand, so the
// 64-bit type from the first operand would not reach the index as the checker would retype it:
// offered in words, not as a checked fix.
WARDEN_KERNEL(converted_wrap_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto cols) {
  auto t = k.thread_id();
  return w::when(t < out.size(), out[(w::convert<int>(cols - 1u) + t) % 64] = 1);
}));

// The conversion itself wraps: `w::convert<int>(n)` of an n past INT_MAX. A wider first operand
// leaves the int the user asked for, so that is not offered as checked either.
WARDEN_KERNEL(narrowed_count_k, w::kernel<w::block<64>, w::out<int>, w::value<unsigned>>([](auto k, auto out, auto n) {
  auto t = k.thread_id();
  return w::when(t < out.size() && t < w::convert<int>(n), out[t] = 1);
}));

TEST_CASE("E104 whose wrap a conversion takes in is not offered as a checked fix", "[fix][E104][checked]") {
  {
    auto out = w::to_device(std::vector<int>(64, 0));
    const std::string why = refusal_of<w::wrap_error>([&] { w::launch(w::on_cpu, narrowed_count_k, w::grid(1), out, 3000000000u); });
    INFO(why);
    CHECK(why.find("checked fix") == std::string::npos);
    CHECK_THAT(why, Contains("or should only some threads compute it?"));
  }
  auto out = w::to_device(std::vector<int>(64, 0));
  const std::string why = refusal_of<w::wrap_error>([&] { w::launch(w::on_cpu, converted_wrap_k, w::grid(1), out, 0u); });
  INFO(why);
  CHECK_THAT(why, Contains("cols - 1 is computed in a 32-bit unsigned type"));
  CHECK(why.find("checked fix") == std::string::npos);
  CHECK_THAT(why, Contains("; compute it in a 64-bit signed type, from w::convert<long long>(cols); or should only some threads compute it?"));
}

TEST_CASE("E104's fix: a guard that keeps the unsigned operation from wrapping", "[fix][E104]") {
  auto out = w::to_device(std::vector<int>(64, 0));
  const std::string why = refusal_of<w::wrap_error>([&] { w::launch(w::on_cpu, all_but_last_k, w::grid(1), out, 0u); });
  CHECK_THAT(why, Contains("cols - 1 is computed in a 32-bit unsigned type and may go below 0"));
  CHECK_THAT(why, Contains("or should only some threads compute it? Then guard it so that it cannot"));
  w::launch(w::on_cpu, all_but_last_fixed_k, w::grid(1), out, 0u);
  CHECK(w::to_host(out) == std::vector<int>(64, 0));
  w::launch(w::on_cpu, all_but_last_fixed_k, w::grid(1), out, 10u);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == (i < 9 ? 1 : 0));
}

// E106: a grid-stride loop that steps by the block instead of the grid (issue 36's example).
WARDEN_KERNEL(double_k, w::kernel<w::block<256>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto x, auto out, auto n) {
  return w::for_range(k, k.global_id(), n, k.block_dim(), [&](auto, auto j) { return out[j] = 2.f * x[j]; });
}));
// The message's fixes, as they read: the step "k.block_dim() * k.grid_dim()", or w::grid_stride(k, n, ...).
WARDEN_KERNEL(double_fixed_k, w::kernel<w::block<256>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto x, auto out, auto n) {
  return w::for_range(k, k.global_id(), n, k.block_dim() * k.grid_dim(), [&](auto, auto j) { return out[j] = 2.f * x[j]; });
}));
WARDEN_KERNEL(double_grid_stride_k, w::kernel<w::block<256>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto x, auto out, auto n) {
  return w::grid_stride(k, n, [&](auto, auto j) { return out[j] = 2.f * x[j]; });
}));

constexpr int n = 3000;  // E106's elements: more than the four blocks' threads

TEST_CASE("E106's fix: the grid-stride loop steps by the grid", "[fix][E106]") {
  auto x = w::to_device(iota_floats(n));
  auto out = w::to_device(std::vector<float>(n, -1.f));
  const std::string why = refusal_of<w::obligation_error>([&] { w::launch(w::on_cpu, double_k, w::grid(4), x, out, n); });
  // The race in plain words, in the source's names, and what to change in the kernel.
  CHECK_THAT(why, Contains("two threads may store out[j] at one element (W010 [write-write-race])"));
  CHECK_THAT(why, Contains("this launch has grid_dim.x = 4: thread 0 of block 0 (j = 1536) and thread 0 of block 2 (j = 1536) both reach element 1536"));
  CHECK_THAT(why, Contains("the loop over j steps by block_dim.x, less than the grid"));
  CHECK_THAT(why, Contains("step by the whole grid, k.block_dim() * k.grid_dim() (or write the loop as w::grid_stride(k, n, ...))"));
  // Checked on this launch before it is printed (check_launch.hpp, checked_obligation_fixes).
  CHECK_THAT(why, Contains("w::grid_stride(k, n, ...)) (checked: this launch runs clean with it, and stores every element it stored)"));
  // What the refusal predicts, shown by the recorder: blocks store one another's elements.
  const w::recording r = w::record_anyway(double_k, w::grid(4), x, out, n);
  CHECK(r.report().find("write-write race on out[") != std::string::npos);
  for (const auto& fixed : {+[](w::device_buffer<float>& x, w::device_buffer<float>& out) {
                              w::launch(w::on_cpu, double_fixed_k, w::grid(4), x, out, n);
                            },
                            +[](w::device_buffer<float>& x, w::device_buffer<float>& out) {
                              w::launch(w::on_cpu, double_grid_stride_k, w::grid(4), x, out, n);
                            }}) {
    out = w::to_device(std::vector<float>(n, -1.f));
    fixed(x, out);
    const auto got = w::to_host(out);
    for (int i = 0; i < n; ++i) REQUIRE(got[static_cast<std::size_t>(i)] == 2.f * static_cast<float>(i));
  }
  CHECK(w::record(double_fixed_k, w::grid(4), x, out, n).clean());
}

// E110: a buffer bound after it was moved from.
TEST_CASE("E110's fix: assign a new buffer to the moved-from one", "[fix][E110]") {
  auto x = w::to_device(iota_floats(64));
  auto y = w::to_device(std::vector<float>(64, 1.f));
  auto kept = std::move(y);
  const std::string why = refusal_of<w::moved_from_error>([&] { w::launch(w::on_cpu, axpy_k, w::grid(1), x, y, 1.f); });
  CHECK_THAT(why, Contains("y (parameter 1) is bound to a buffer that was moved from"));
  CHECK_THAT(why, Contains("assign a new buffer to it first"));
  y = w::to_device(std::vector<float>(64, 1.f));  // the fix, as the message words it
  w::launch(w::on_cpu, axpy_k, w::grid(1), x, y, 1.f);
  CHECK(w::to_host(y)[10] == 11.f);
  w::launch(w::on_cpu, axpy_k, w::grid(1), x, kept, 1.f);  // or bind the buffer it was moved into
  CHECK(w::to_host(kept)[10] == 11.f);
}

// E107: a stated fact that this launch's values break.
WARDEN_KERNEL(pitched_k, w::kernel<w::block<16, 16>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                             [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
                               auto x = k.global_id();
                               auto y = k.global_id_y();
                               return w::given(pitch >= width, w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]));
                             }));

// The message asks rather than tells (issue 57): a pitch is the data's layout, and a pitch chosen
// only to meet the fact would copy other elements. Here the data's pitch is 64 and 50 was a slip:
// the answer "not the values the data has" gives the launch with the data's own pitch.
TEST_CASE("E107 asks whether the values are the data's, and with the data's own, the copy runs", "[fix][E107]") {
  auto src = w::to_device(std::vector<int>(64 * 20, 7));
  auto dst = w::to_device(std::vector<int>(64 * 20, 0));
  const std::string why =
      refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, pitched_k, w::grid(4, 2), src, dst, 60, 20, 50); });
  CHECK_THAT(why, Contains("the stated fact pitch >= width is false for this launch (pitch = 50, width = 60)"));
  CHECK_THAT(why, Contains("are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong"));
  CHECK(why.find("launch with values that meet it") == std::string::npos);
  w::launch(w::on_cpu, pitched_k, w::grid(4, 2), src, dst, 60, 20, 64);  // the data's pitch, 64
  const auto got = w::to_host(dst);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 64; ++x) CHECK(got[static_cast<std::size_t>(y * 64 + x)] == (x < 60 ? 7 : 0));
}

// E105: a buffer the host indexes, from a pool of memory the host cannot reach.
TEST_CASE("E105's fix: a pinned buffer from a pool of pinned memory", "[fix][E105]") {
  w::memory_pool device_pool(w::testing::device_space_resource(1u << 20));
  const std::string why = refusal_of<w::space_error>([&] { w::pinned_buffer<float> h(16, device_pool); });
  CHECK_THAT(why, Contains("use a pool over memory of that space (default_pool<space::pinned>())"));
  w::pinned_buffer<float> h(16, w::default_pool<w::space::pinned>());  // the fix, as the message spells it
  for (int i = 0; i < 16; ++i) h[static_cast<std::size_t>(i)] = static_cast<float>(i);
  CHECK(h[15] == 15.f);
  CHECK(device_pool.stats().allocation_count == 0);
}

// E106 on a condition of the launch's values: a pitched copy whose rows overlap when the pitch is
// below the width. The guard on that condition would keep the copy from running at all for this
// launch, and the row guard `x < pitch` would drop the last row's end: the message offers neither
// as a fix (check_launch.hpp, checked_obligation_fixes) and asks about the values; the twin below
// shows what following the condition's guard would do.
WARDEN_KERNEL(pitched_copy_k, w::kernel<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                                  [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
                                    auto x = k.global_id();
                                    auto y = k.global_id_y();
                                    return w::when(x < width && y < height, dst[pitch * y + x] = src[pitch * y + x]);
                                  }));
// The condition's guard, as an earlier message offered it: "guard the accesses with the condition, w::when(pitch >= width, ...)".
WARDEN_KERNEL(pitched_copy_fixed_k, w::kernel<w::block<16, 4>, w::in<int>, w::out<int>, w::value<int>, w::value<int>, w::value<int>>(
                                        [](auto k, auto src, auto dst, auto width, auto height, auto pitch) {
                                          auto x = k.global_id();
                                          auto y = k.global_id_y();
                                          return w::when(pitch >= width, w::when(x < width && y < height,
                                                                                 dst[pitch * y + x] = src[pitch * y + x]));
                                        }));

TEST_CASE("E106 on a pitch below the width asks about the values: its condition's guard, followed, stores nothing for that launch", "[E106]") {
  auto src = w::to_device(std::vector<int>(32 * 8, 5));
  auto dst = w::to_device(std::vector<int>(32 * 8, 0));
  const std::string why =
      refusal_of<w::obligation_error>([&] { w::launch(w::on_cpu, pitched_copy_k, w::grid(2, 2), src, dst, 30, 7, 29); });
  CHECK_THAT(why, Contains("two threads may store dst[pitch * y + x] at one element (W010 [write-write-race])"));
  CHECK_THAT(why, Contains("In the kernel: a guard on the condition (pitch >= width) would keep the accesses from running at all for "
                           "this launch, where it fails: are these the values the kernel's layout means?"));
  CHECK_THAT(why, Contains("(w::when(x < pitch, ...) would store fewer elements (element 203 no longer))"));
  // As the message says: the overlapping launch runs and stores nothing (no thread passes the guard) ...
  w::launch(w::on_cpu, pitched_copy_fixed_k, w::grid(2, 2), src, dst, 30, 7, 29);
  CHECK(w::to_host(dst) == std::vector<int>(32 * 8, 0));
  CHECK(w::record(pitched_copy_fixed_k, w::grid(2, 2), src, dst, 30, 7, 29).clean());
  // ... and a launch that meets the condition copies the rows.
  w::launch(w::on_cpu, pitched_copy_fixed_k, w::grid(2, 2), src, dst, 30, 7, 32);
  const auto got = w::to_host(dst);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 32; ++x) CHECK(got[static_cast<std::size_t>(y * 32 + x)] == (x < 30 && y < 7 ? 5 : 0));
}
