// E101's fixes checked before they are printed (issue 57, item 1; check/launch/check_launch.hpp,
// checked_overrun_fixes): the guard by the launch's checks on the kernel with it, more room by the
// checks with the buffer or tile that large. Each mistaken kernel here is refused; the test then
// reads each fix from the message's own words and applies it mechanically: room, by binding a
// buffer of the length the message gives; the guard, by finding it in a twin kernel's source as
// the message spells it and launching that twin. A fix the message offers must give a launch that
// runs, records clean and matches the reference; a fix it says would not be enough must be refused.
// More room is the least length the checks accept, which may be past one beyond the element the
// message names (other accesses, other threads reach further).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <regex>
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

// The E101 a launch throws, or "(launched)".
std::string e101_of(auto&& launch) { return w::testing::refusal_of<w::bounds_error>(launch); }

// The fixes as the message words them.
struct offered {
  std::string guard;            // "w::when(i + 1 < x.size(), ...)", or "" where not offered
  std::string buffer;           // "x" in "bind x to at least N elements"
  long long room = -1;          // N, or -1 where not offered
  bool guard_refused = false;   // "a guard, ..., would not be enough"
  bool room_refused = false;    // "more room (...) would not be enough"
  std::string unstored;         // "out[255]" in the question "... A guard, w::when(...), would leave out[255] unstored"
};
offered fixes_in(const std::string& message) {
  offered f;
  std::smatch m;
  if (std::regex_search(message, m, std::regex("; guard it, (w::when\\(.*, \\.\\.\\.\\))"))) f.guard = m[1];
  if (std::regex_search(message, m, std::regex("; a guard, (w::when\\(.*, \\.\\.\\.\\)), would not be enough"))) {
    f.guard = m[1];
    f.guard_refused = true;
  }
  if (std::regex_search(message, m, std::regex("; should the threads that reach past the end skip the whole statement\\? A guard, (w::when\\(.*, \\.\\.\\.\\)), would leave (\\w+\\[\\d+\\]) unstored"))) {
    f.guard = m[1];
    f.unstored = m[2];
  }
  if (std::regex_search(message, m, std::regex("(, or|; if they should not,) bind (\\w+) to at least (\\d+) elements( \\(in the program: [^)]*\\))?$"))) {
    f.buffer = m[2];
    f.room = std::stoll(m[3]);
  }
  if (std::regex_search(message, m, std::regex("more room \\((\\d+) elements\\) would not be enough"))) {
    f.room = std::stoll(m[1]);
    f.room_refused = true;
  }
  return f;
}

// Whether a kernel's source spells the guard as the message does.
template <class K>
bool spells(const K& kernel, const std::string& guard) {
  const std::string_view source = w::dsl::definition_of(kernel).source;
  return source.find(guard.substr(0, guard.size() - 5)) != std::string_view::npos;  // without ", ...)"
}

}  // namespace

// One neighbour past the end: both fixes work.
WARDEN_KERNEL(next_one_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = x[i + 1]);
}));
WARDEN_KERNEL(next_one_guarded_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), w::when(i + 1 < x.size(), out[i] = x[i + 1]));
}));

// Two neighbours: the first overrun's guard or one more element leaves the second one out.
WARDEN_KERNEL(next_two_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), out[i] = x[i + 1] + x[i + 2]);
}));
WARDEN_KERNEL(next_two_guarded_once_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto x, auto out) {
  auto i = k.global_id();
  return w::when(i < out.size(), w::when(i + 1 < x.size(), out[i] = x[i + 1] + x[i + 2]));
}));

TEST_CASE("E101's room is offered and followed runs and matches, its guard, which would store fewer elements, is asked", "[fix][E101][checked]") {
  auto x = w::to_device(iota_floats(256));
  auto out = w::to_device(std::vector<float>(256, -1.f));
  const std::string why = e101_of([&] { w::launch(w::on_cpu, next_one_k, w::grid_for(256), x, out); });
  const offered f = fixes_in(why);
  INFO(why);
  REQUIRE(f.guard == "w::when(i + 1 < x.size(), ...)");
  REQUIRE_FALSE(f.guard_refused);
  CHECK(f.unstored == "out[255]");  // the footprint: asked, not offered (issue 57)
  REQUIRE(f.buffer == "x");
  REQUIRE(f.room == 257);
  REQUIRE_FALSE(f.room_refused);
  // Room, as the message gives it.
  auto longer = w::to_device(iota_floats(static_cast<int>(f.room)));
  const w::recording roomy = w::record(next_one_k, w::grid_for(256), longer, out);
  CHECK(roomy.clean());
  const std::vector<float> got = w::to_host(out);
  for (int i = 0; i < 256; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(i + 1));
  // The guard, as the message spells it, in the twin's source.
  REQUIRE(spells(next_one_guarded_k, f.guard));
  auto out2 = w::to_device(std::vector<float>(256, -1.f));
  CHECK(w::record(next_one_guarded_k, w::grid_for(256), x, out2).clean());
  CHECK(w::to_host(out2)[254] == 255.f);
  CHECK(w::to_host(out2)[255] == -1.f);  // the element the question names, indeed left unstored
}

TEST_CASE("E101's guard that would not be enough is not offered, and the room offered is the length that is", "[fix][E101][checked]") {
  auto x = w::to_device(iota_floats(256));
  auto out = w::to_device(std::vector<float>(256, -1.f));
  const std::string why = e101_of([&] { w::launch(w::on_cpu, next_two_k, w::grid_for(256), x, out); });
  const offered f = fixes_in(why);
  INFO(why);
  CHECK_THAT(why, Contains("load x[i + 1] reaches index 256"));
  REQUIRE(f.guard_refused);
  REQUIRE(f.guard == "w::when(i + 1 < x.size(), ...)");
  CHECK_THAT(why, Contains("would not be enough for this launch (E101 with it)"));
  // 257 elements (one past the element reached) would leave x[i + 2] out: the checks found 258.
  REQUIRE_FALSE(f.room_refused);
  REQUIRE(f.room == 258);
  // The guard, followed anyway, is refused, as the message said.
  REQUIRE(spells(next_two_guarded_once_k, f.guard));
  CHECK_THAT(e101_of([&] { w::launch(w::on_cpu, next_two_k, w::grid_for(256), w::to_device(iota_floats(257)), out); }),
             Contains("x[i + 2]"));
  CHECK_THAT(e101_of([&] { w::launch(w::on_cpu, next_two_guarded_once_k, w::grid_for(256), x, out); }), Contains("x[i + 2]"));
  CHECK(w::to_host(out) == std::vector<float>(256, -1.f));  // nothing ran
  // The room, followed, runs and matches.
  auto longer = w::to_device(iota_floats(static_cast<int>(f.room)));
  CHECK(w::record(next_two_k, w::grid_for(256), longer, out).clean());
  const std::vector<float> got = w::to_host(out);
  for (int i = 0; i < 256; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(2 * i + 3));
}

// A load and a store of one element in one statement (`y[i] = a * x[i] + y[i]`): the guard covers
// both, and the room is the length every thread needs, not one past the first element outside.
WARDEN_KERNEL(axpy_grid_of_x_k, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<float>>([](auto k, auto x, auto y, auto a) {
  auto i = k.global_id();
  return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
}));
WARDEN_KERNEL(axpy_grid_of_x_guarded_k, w::kernel<w::block<64>, w::in<float>, w::inout<float>, w::value<float>>([](auto k, auto x, auto y, auto a) {
  auto i = k.global_id();
  return w::when(i < x.size(), w::when(i < y.size(), y[i] = a * x[i] + y[i]));
}));

TEST_CASE("E101's fixes for a statement that loads and stores one element: both offered, both work", "[fix][E101][checked]") {
  auto x = w::to_device(std::vector<float>(100, 1.f));
  auto y = w::to_device(std::vector<float>(50, 2.f));
  const std::string why = e101_of([&] { w::launch(w::on_cpu, axpy_grid_of_x_k, w::grid_for(100), x, y, 2.f); });
  const offered f = fixes_in(why);
  INFO(why);
  REQUIRE(f.guard == "w::when(i < y.size(), ...)");
  REQUIRE_FALSE(f.guard_refused);
  REQUIRE(f.room == 100);
  REQUIRE(f.buffer == "y");
  auto roomy = w::to_device(std::vector<float>(static_cast<std::size_t>(f.room), 2.f));
  CHECK(w::record(axpy_grid_of_x_k, w::grid_for(100), x, roomy, 2.f).clean());
  CHECK(w::to_host(roomy) == std::vector<float>(100, 4.f));
  REQUIRE(spells(axpy_grid_of_x_guarded_k, f.guard));
  CHECK(w::record(axpy_grid_of_x_guarded_k, w::grid_for(100), x, y, 2.f).clean());
  CHECK(w::to_host(y) == std::vector<float>(50, 4.f));
}

TEST_CASE("more room for a view is checked as a buffer of its own of that length", "[fix][E101][checked]") {
  w::device_buffer<float> whole(512);
  w::copy(whole, w::to_device(iota_floats(512)));
  auto out = w::to_device(std::vector<float>(256, -1.f));
  const std::string why = e101_of([&] { w::launch(w::on_cpu, next_one_k, w::grid_for(256), w::view(whole, 0, 256), out); });
  INFO(why);
  const offered f = fixes_in(why);
  CHECK_FALSE(f.guard_refused);  // the guard works
  CHECK(f.room == 257);          // and so does a longer view, here (nothing else is bound to the rest)
  CHECK_FALSE(f.room_refused);
}

// E106's kernel fix checked on the launch (check_launch.hpp, checked_obligation_fixes): a 2-D
// image flattened by hand, `out[y * width + x]`, on a grid that overshoots it. The message used to
// say "index by the block", which the kernel already does; the fix is the 2-D guard, offered only
// where the kernel with it passes this launch's checks and stores every element of the buffer the
// kernel stored.
WARDEN_KERNEL(image_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
                           [](auto k, auto in, auto out, auto width, auto height) {
                             auto x = k.global_id();
                             auto y = k.global_id_y();
                             (void)height;
                             return out[y * width + x] = in[y * width + x] * 2.f;
                           }));
WARDEN_KERNEL(image_guarded_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
                                   [](auto k, auto in, auto out, auto width, auto height) {
                                     auto x = k.global_id();
                                     auto y = k.global_id_y();
                                     return w::when(x < width && y < height, out[y * width + x] = in[y * width + x] * 2.f);
                                   }));
// The rows guarded, the columns forgotten.
WARDEN_KERNEL(image_rows_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
                                [](auto k, auto in, auto out, auto width, auto height) {
                                  auto x = k.global_id();
                                  auto y = k.global_id_y();
                                  return w::when(y < height, out[y * width + x] = in[y * width + x] * 2.f);
                                }));
WARDEN_KERNEL(image_rows_guarded_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
                                        [](auto k, auto in, auto out, auto width, auto height) {
                                          auto x = k.global_id();
                                          auto y = k.global_id_y();
                                          return w::when(y < height, w::when(x < width, out[y * width + x] = in[y * width + x] * 2.f));
                                        }));

namespace {
// The guard an E106 message offers as its checked kernel fix, or "".
std::string offered_guard(const std::string& message) {
  std::smatch m;
  if (std::regex_search(message, m, std::regex("In the kernel: guard the accesses with (w::when\\(.*, \\.\\.\\.\\)) \\(checked: this launch runs clean")))
    return m[1];
  return "";
}
std::string e106_of(auto&& launch) { return w::testing::refusal_of<w::obligation_error>(launch); }
void check_image(const std::vector<float>& got, int width, int height) {
  int wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) wrong += got[static_cast<std::size_t>(y * width + x)] != 2.f * static_cast<float>(y * width + x);
  CHECK(wrong == 0);
}
}  // namespace

TEST_CASE("E106 on an image the grid overshoots offers the 2-D guard, checked, and followed it copies the image", "[fix][E106][checked]") {
  const int width = 100, height = 50;
  auto in = w::to_device(iota_floats(width * height));
  w::device_buffer<float> out(width * height);
  const std::string message = e106_of([&] { w::launch(w::on_cpu, image_k, w::grid(7, 4), in, out, width, height); });
  INFO(message);
  CHECK(message.find("index by the block") == std::string::npos);
  const std::string guard = offered_guard(message);
  CHECK(guard == "w::when(x < width && y < height, ...)");
  REQUIRE(spells(image_guarded_k, guard));
  w::launch(w::on_cpu, image_guarded_k, w::grid(7, 4), in, out, width, height);
  check_image(w::to_host(out), width, height);
  CHECK(w::record(image_guarded_k, w::grid(7, 4), in, out, width, height).clean());
}

TEST_CASE("E106 on an image whose rows are guarded offers the column guard alone, and followed it copies the image", "[fix][E106][checked]") {
  const int width = 100, height = 50;
  auto in = w::to_device(iota_floats(width * height));
  w::device_buffer<float> out(width * height);
  const std::string message = e106_of([&] { w::launch(w::on_cpu, image_rows_k, w::grid(7, 4), in, out, width, height); });
  INFO(message);
  const std::string guard = offered_guard(message);
  CHECK(guard == "w::when(x < width, ...)");
  REQUIRE(spells(image_rows_guarded_k, guard));
  w::launch(w::on_cpu, image_rows_guarded_k, w::grid(7, 4), in, out, width, height);
  check_image(w::to_host(out), width, height);
  CHECK(w::record(image_rows_guarded_k, w::grid(7, 4), in, out, width, height).clean());
}

TEST_CASE("E106's guard that would store fewer elements of the buffer is not offered, and the message says which", "[fix][E106][checked]") {
  // A buffer larger than the image: the overshooting threads store elements past it that the
  // guarded kernel would not, so no guard keeps the footprint, and the message asks.
  const int width = 100, height = 50;
  auto in = w::to_device(iota_floats(112 * 64));
  w::device_buffer<float> out(112 * 64);
  const std::string message = e106_of([&] { w::launch(w::on_cpu, image_k, w::grid(7, 4), in, out, width, height); });
  INFO(message);
  CHECK(offered_guard(message).empty());
  CHECK_THAT(message, Contains("which thread should store each element? (w::when(x < width, ...) would store fewer elements (element 6400 no longer))"));
  // Followed anyway, the guard indeed leaves element 6400 as it was.
  auto marked = w::to_device(std::vector<float>(112 * 64, -1.f));
  w::launch(w::on_cpu, image_guarded_k, w::grid(7, 4), in, marked, width, height);
  CHECK(w::to_host(marked)[6400] == -1.f);
}
