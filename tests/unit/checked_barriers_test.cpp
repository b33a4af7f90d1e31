// W020's and W021's sync(), and W030's barrier moved out of its construct, checked before they are offered (issue 57, item 1;
// check/suggested_barriers.hpp): the checker runs again on the kernel with the barrier and offers
// it only when that kernel is accepted. Each mistaken body here is refused; the test reads the
// fix from the message's own words, applies it to the body's source text mechanically (insert
// `w::sync(), ` before the statement or w::when the message quotes, `, w::sync()` after the
// statement that ends a loop's body, or replace the statement by the w::local form the message
// spells), and finds the result in a twin WARDEN_KERNEL's source. The twin compiles (so the checker
// accepts it), runs on the cpu backend, records clean and matches the reference. Where the
// checker accepts no barrier, the message asks instead, and the barrier a user would try first is
// refused.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/followed_barriers.hpp"
#include "../support/refused_body.hpp"
#include "../support/verdict_probe.hpp"

#include <regex>
#include <string>
#include <vector>

namespace w = warden;
using code = w::diagnostic::code;

namespace {

using w::testing::call_end;
using w::testing::squeezed;
using w::testing::applied;
using w::testing::insert_at;

std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  return v;
}


// W030's fix applied: the construct the message names (a w::when by its condition, or the
// innermost loop call around the barrier) loses its sync(), and w::seq puts the barrier just after
// or before it.
std::string moved_out(std::string source, const std::string& message) {
  source = squeezed(source);
  std::smatch m;
  if (!std::regex_search(message, m, std::regex("; checked fix: move sync\\(\\) out of (w::when\\((.*), \\.\\.\\.\\)|loop \\w+) to just (after|before) it")))
    return "";
  const std::size_t barrier = source.find("w::sync()");
  REQUIRE(barrier != std::string::npos);
  REQUIRE(source.find("w::sync()", barrier + 1) == std::string::npos);
  std::size_t begin = std::string::npos;
  if (m[2].matched) {
    begin = source.rfind("w::when(" + std::string(m[2]), barrier);
  } else {
    for (const char* call : {"w::for_range(", "w::grid_stride(", "w::unroll<"}) {
      const std::size_t at = source.rfind(call, barrier);
      if (at != std::string::npos && call_end(source, at) > barrier && (begin == std::string::npos || at > begin)) begin = at;
    }
  }
  REQUIRE(begin != std::string::npos);
  const std::size_t end = call_end(source, begin);
  REQUIRE(end != std::string::npos);
  std::string construct = source.substr(begin, end - begin);
  for (const char* spelling : {"w::sync(), ", ", w::sync()"})
    if (const std::size_t at = construct.find(spelling); at != std::string::npos) {
      construct.erase(at, std::string_view(spelling).size());
      break;
    }
  const std::string seq = m[3] == "after" ? "w::seq(" + construct + ", w::sync())" : "w::seq(w::sync(), " + construct + ")";
  return source.replace(begin, end - begin, seq);
}

// Whether the twin's source holds the mistaken body with the message's fix applied.
template <class Twin>
bool twin_follows(const Twin& twin, std::string_view body_source, const std::string& message) {
  const std::string fixed = message.find("move sync() out of") != std::string::npos ? moved_out(std::string(body_source), message)
                                                                                   : applied(std::string(body_source), message);
  INFO("message: " << message << "\nfixed body: " << fixed);
  return !fixed.empty() && squeezed(w::dsl::definition_of(twin).source).find(fixed) != std::string::npos;
}

}  // namespace

// 1. Two statements: the barrier goes before the statement that loads what another thread stored.
WARDEN_TEST_BODY(reverse_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], out[i] = tile[63 - t]);
  });
});
WARDEN_KERNEL(reverse_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::sync(), out[i] = tile[63 - t]);
  });
}));

// 2. The load and the store in one statement: a local, the barrier, then the store.
WARDEN_TEST_BODY(mean_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::sync(), tile[t] = (tile[t] + tile[63 - t]) * 0.5f, w::sync(), out[i] = tile[t]);
  });
});
WARDEN_KERNEL(mean_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::sync(),
                  w::local(k, (tile[t] + tile[63 - t]) * 0.5f, [&](auto, auto v) { return w::seq(w::sync(), tile[t] = v); }),
                  w::sync(), out[i] = tile[t]);
  });
}));

// 3. W021: the next trip stores into the tile that this trip's loads still read.
WARDEN_TEST_BODY(trips_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t]);
                    }),
                    out[t] = sum);
    });
  });
});
WARDEN_KERNEL(trips_fixed, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 32>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(w::for_range(k, 0, 4, [&](auto, auto j) {
                      return w::seq(tile[t] = in[j * 32 + t], w::sync(), sum += tile[31 - t], w::sync());
                    }),
                    out[t] = sum);
    });
  });
}));

// 4. The load under a thread-dependent w::when: a barrier just before it would be W030, so the
// checked one goes before the w::when.
WARDEN_TEST_BODY(half_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::when(t < 32, out[i] = tile[63 - t]));
  });
});
WARDEN_KERNEL(half_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::sync(), w::when(t < 32, out[i] = tile[63 - t]));
  });
}));

// 5. Two barriers: the first orders the neighbours' store before the mean's loads, and the mean's
// own statement needs the local form.
WARDEN_TEST_BODY(smooth_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], tile[t] = (tile[t] + tile[63 - t]) * 0.5f, w::sync(), out[i] = tile[t]);
  });
});
WARDEN_KERNEL(smooth_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i],
                  w::sync(), w::local(k, (tile[t] + tile[63 - t]) * 0.5f, [&](auto, auto v) { return w::seq(w::sync(), tile[t] = v); }),
                  w::sync(), out[i] = tile[t]);
  });
}));

// 6. A 2-D tile (a transpose through shared memory): the barrier before the transposed load.
WARDEN_TEST_BODY(transpose_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 32, 32, 1>(k, [&](auto k, auto tile) {
    auto x = k.thread_id();
    auto y = k.thread_id_y();
    return w::seq(tile(y, x) = in[y * 32 + x], out[y * 32 + x] = tile(x, y));
  });
});
WARDEN_KERNEL(transpose_fixed, w::kernel<w::block<32, 32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 32, 32, 1>(k, [&](auto k, auto tile) {
    auto x = k.thread_id();
    auto y = k.thread_id_y();
    return w::seq(tile(y, x) = in[y * 32 + x], w::sync(), out[y * 32 + x] = tile(x, y));
  });
}));

// 7. No barrier helps: both accesses under a thread-dependent w::when, so a barrier between them
// is W030 and one before the w::when is not between them. The message asks.
WARDEN_TEST_BODY(inside_when_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::when(t < 32, w::seq(tile[t] = in[i], out[i] = tile[31 - t]));
  });
});
constexpr auto inside_when_tried = [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::when(t < 32, w::seq(tile[t] = in[i], w::sync(), out[i] = tile[31 - t]));
  });
};

// 8. W030: a barrier under a thread-dependent w::when, moved out of it.
WARDEN_TEST_BODY(first_half_racy, [](auto k, auto a) {
  auto t = k.thread_id();
  return w::when(t < 16, a[t] = 1.f, w::sync());
});
WARDEN_KERNEL(first_half_fixed, w::kernel<w::block<32>, w::inout<float>>([](auto k, auto a) {
  auto t = k.thread_id();
  return w::seq(w::when(t < 16, a[t] = 1.f), w::sync());
}));

// 9. W030: a barrier in a loop whose trip count is the thread's id, moved after the loop.
WARDEN_TEST_BODY(steps_racy, [](auto k, auto out) {
  auto t = k.thread_id();
  return w::local(k, 0.f, [&](auto k, auto acc) {
    return w::seq(w::for_range(k, 0, t, [&](auto, auto j) { (void)j; return w::seq(acc += 1.f, w::sync()); }), out[t] = acc);
  });
});
WARDEN_KERNEL(steps_fixed, w::kernel<w::block<32>, w::out<float>>([](auto k, auto out) {
  auto t = k.thread_id();
  return w::local(k, 0.f, [&](auto k, auto acc) {
    return w::seq(w::seq(w::for_range(k, 0, t, [&](auto, auto j) { (void)j; return w::seq(acc += 1.f); }), w::sync()), out[t] = acc);
  });
}));

// 10. W030 whose barrier orders a tile inside the w::when: moved out, the tile would race, so the
// message asks.
WARDEN_TEST_BODY(staged_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::when(t < 32, w::seq(tile[t] = in[t], w::sync(), out[t] = tile[31 - t]));
  });
});

// 11. W040 on a tile: one thread resets the counters while the others add to them, in one phase.
WARDEN_TEST_BODY(counters_racy, [](auto k, auto in, auto out) {
  return w::shared<int, 4>(k, [&](auto k, auto bins) {
    auto t = k.thread_id();
    return w::seq(w::when(t < 4, bins[t] = 0), w::atomic_add(bins[in[t] & 3], 1), w::sync(), w::when(t < 4, out[t] = bins[t]));
  });
});
WARDEN_KERNEL(counters_fixed, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, 4>(k, [&](auto k, auto bins) {
    auto t = k.thread_id();
    return w::seq(w::when(t < 4, bins[t] = 0), w::sync(), w::atomic_add(bins[in[t] & 3], 1), w::sync(), w::when(t < 4, out[t] = bins[t]));
  });
}));

using B64 = w::block<64>;

TEST_CASE("W020's checked sync(): before the statement that loads, followed, runs clean and reverses", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(reverse_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(reverse_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: add sync() before `out[i] = tile[63 - t]`"));
  CHECK(twin_follows(reverse_fixed, reverse_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(128));
  w::device_buffer<float> out(128);
  w::launch(w::on_cpu, reverse_fixed, w::grid(2), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 128; ++i) CHECK(got[static_cast<std::size_t>(i)] == static_cast<float>(i / 64 * 64 + 63 - i % 64));
  CHECK(w::record(reverse_fixed, w::grid(2), in, out).clean());
}

TEST_CASE("W020's checked sync() in one statement: the w::local form, followed, averages the mirrored pair", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(mean_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(mean_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: one statement, so load into a local"));
  CHECK(twin_follows(mean_fixed, mean_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(64));
  w::device_buffer<float> out(64);
  w::launch(w::on_cpu, mean_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == (static_cast<float>(i) + static_cast<float>(63 - i)) * 0.5f);
  CHECK(w::record(mean_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W021's checked sync() at the end of the loop's body, followed, sums the mirrored tiles", "[fix][W021][checked]") {
  REQUIRE(w::testing::code_of<w::block<32>, w::in<float>, w::out<float>>(trips_racy) == code::W021);
  const std::string message = w::testing::message_of<w::block<32>, w::in<float>, w::out<float>>(trips_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: add sync() at the end of the body of loop j, after `sum += tile[31 - t]`"));
  CHECK(twin_follows(trips_fixed, trips_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(128));
  w::device_buffer<float> out(32);
  w::launch(w::on_cpu, trips_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int t = 0; t < 32; ++t) {
    float sum = 0;
    for (int j = 0; j < 4; ++j) sum += static_cast<float>(j * 32 + 31 - t);
    CHECK(got[static_cast<std::size_t>(t)] == sum);
  }
  CHECK(w::record(trips_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W020's checked sync() goes before a thread-dependent w::when, not into it, and followed copies the mirror", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(half_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(half_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: add sync() before the w::when(t < 32, ...) around `out[i] = tile[63 - t]`"));
  CHECK(twin_follows(half_fixed, half_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(64));
  auto out = w::to_device(std::vector<float>(64, -1.f));
  w::launch(w::on_cpu, half_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == (i < 32 ? static_cast<float>(63 - i) : -1.f));
  CHECK(w::record(half_fixed, w::grid(1), in, out).clean());
}

// 4b. The load in a loop of thread-dependent trips: a barrier inside the loop would be W030, so the
// barrier goes before the loop, and the message names the loop by its variable.
WARDEN_TEST_BODY(uneven_racy, [](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(tile[t] = in[i], w::for_range(k, 0, t % 4, [&](auto, auto j) { return sum += tile[63 - t] * j; }), out[i] = sum);
    });
  });
});
WARDEN_KERNEL(uneven_fixed, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::local(k, 0.f, [&](auto k, auto sum) {
      return w::seq(tile[t] = in[i], w::sync(), w::for_range(k, 0, t % 4, [&](auto, auto j) { return sum += tile[63 - t] * j; }), out[i] = sum);
    });
  });
}));

TEST_CASE("W020's checked sync() before a loop of thread-dependent trips, named by its variable, followed, sums the mirror", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(uneven_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(uneven_racy);
  CHECK_THAT(message, Catch::Matchers::EndsWith("; checked fix: add sync() before loop j, around `sum += tile[63 - t] * j`"));
  CHECK(twin_follows(uneven_fixed, uneven_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(64));
  auto out = w::to_device(std::vector<float>(64, -1.f));
  w::launch(w::on_cpu, uneven_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int t = 0; t < 64; ++t) {
    float sum = 0.f;
    for (int j = 0; j < t % 4; ++j) sum += static_cast<float>(63 - t) * static_cast<float>(j);
    CHECK(got[static_cast<std::size_t>(t)] == sum);
  }
  CHECK(w::record(uneven_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W020's checked fix with two barriers, both followed, smooths the mirrored pair", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(smooth_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(smooth_racy);
  CHECK_THAT(message, Catch::Matchers::Contains(", and one statement, so load into a local"));
  CHECK(twin_follows(smooth_fixed, smooth_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(64));
  w::device_buffer<float> out(64);
  w::launch(w::on_cpu, smooth_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  for (int i = 0; i < 64; ++i) CHECK(got[static_cast<std::size_t>(i)] == (static_cast<float>(i) + static_cast<float>(63 - i)) * 0.5f);
  CHECK(w::record(smooth_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W020's checked sync() on a 2-D tile, followed, transposes", "[fix][W020][checked]") {
  using B = w::block<32, 32>;
  REQUIRE(w::testing::code_of<B, w::in<float>, w::out<float>>(transpose_racy) == code::W020);
  const std::string message = w::testing::message_of<B, w::in<float>, w::out<float>>(transpose_racy);
  CHECK(twin_follows(transpose_fixed, transpose_racy_warden_source::text, message));
  auto in = w::to_device(iota_floats(1024));
  w::device_buffer<float> out(1024);
  w::launch(w::on_cpu, transpose_fixed, w::grid(1), in, out);
  const auto got = w::to_host(out);
  int wrong = 0;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) wrong += got[static_cast<std::size_t>(y * 32 + x)] != static_cast<float>(x * 32 + y);
  CHECK(wrong == 0);
  CHECK(w::record(transpose_fixed, w::grid(1), in, out).clean());
}

TEST_CASE("W020 where no sync() is accepted asks instead, and the barrier a user would try first is refused", "[fix][W020][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(inside_when_racy) == code::W020);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(inside_when_racy);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::Contains("where could a sync() between them go that every thread of the block reaches?"));
  CHECK(w::testing::code_of<B64, w::in<float>, w::out<float>>(inside_when_tried) == code::W030);
}

TEST_CASE("W030's checked fix moves sync() out of the thread-dependent w::when, and followed sets the first half", "[fix][W030][checked]") {
  using B = w::block<32>;
  REQUIRE(w::testing::code_of<B, w::inout<float>>(first_half_racy) == code::W030);
  const std::string message = w::testing::message_of<B, w::inout<float>>(first_half_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: move sync() out of w::when(t < 16, ...) to just after it: w::seq(w::when(t < 16, ...), w::sync())"));
  CHECK(twin_follows(first_half_fixed, first_half_racy_warden_source::text, message));
  auto a = w::to_device(std::vector<float>(32, 0.f));
  w::launch(w::on_cpu, first_half_fixed, w::grid(1), a);
  const auto got = w::to_host(a);
  for (int t = 0; t < 32; ++t) CHECK(got[static_cast<std::size_t>(t)] == (t < 16 ? 1.f : 0.f));
  CHECK(w::record(first_half_fixed, w::grid(1), a).clean());
}

TEST_CASE("W030's checked fix moves sync() out of a loop of thread-dependent trips, and followed counts them", "[fix][W030][checked]") {
  using B = w::block<32>;
  REQUIRE(w::testing::code_of<B, w::out<float>>(steps_racy) == code::W030);
  const std::string message = w::testing::message_of<B, w::out<float>>(steps_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: move sync() out of loop j to just after it"));
  CHECK(twin_follows(steps_fixed, steps_racy_warden_source::text, message));
  w::device_buffer<float> out(32);
  w::launch(w::on_cpu, steps_fixed, w::grid(1), out);
  const auto got = w::to_host(out);
  for (int t = 0; t < 32; ++t) CHECK(got[static_cast<std::size_t>(t)] == static_cast<float>(t));
  CHECK(w::record(steps_fixed, w::grid(1), out).clean());
}

TEST_CASE("W030 whose barrier orders a tile inside the w::when asks, and moving it out is refused", "[fix][W030][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<float>, w::out<float>>(staged_racy) == code::W030);
  const std::string message = w::testing::message_of<B64, w::in<float>, w::out<float>>(staged_racy);
  CHECK(message.find("checked fix") == std::string::npos);
  CHECK_THAT(message, Catch::Matchers::Contains("which threads must wait here?"));
  constexpr auto moved = [](auto k, auto in, auto out) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(w::when(t < 32, w::seq(tile[t] = in[t], out[t] = tile[31 - t])), w::sync());
    });
  };
  CHECK(w::testing::code_of<B64, w::in<float>, w::out<float>>(moved) == code::W020);
}

TEST_CASE("W040 on a tile within a block: the checked sync() between the reset and the updates, followed, counts", "[fix][W040][checked]") {
  REQUIRE(w::testing::code_of<B64, w::in<int>, w::out<int>>(counters_racy) == code::W040);
  const std::string message = w::testing::message_of<B64, w::in<int>, w::out<int>>(counters_racy);
  CHECK_THAT(message, Catch::Matchers::Contains("; checked fix: add sync() before `w::atomic_add(bins[in[t] & 3], 1)`"));
  CHECK(twin_follows(counters_fixed, counters_racy_warden_source::text, message));
  std::vector<int> values(64);
  for (int i = 0; i < 64; ++i) values[static_cast<std::size_t>(i)] = i * 5;
  auto in = w::to_device(values);
  w::device_buffer<int> out(4);
  w::launch(w::on_cpu, counters_fixed, w::grid(1), in, out);
  CHECK(w::to_host(out) == std::vector<int>(4, 16));
  CHECK(w::record(counters_fixed, w::grid(1), in, out).clean());
}
