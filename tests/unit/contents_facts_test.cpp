// Facts about a buffer's contents beyond distinct(x) (issue 56, item 3): sorted(x),
// non_decreasing(x), within(x, lo, hi) and permutation(x), stated with given(...). Each is measured
// by the launch before anything runs (launch/contents.hpp), once per version of the buffer, and a
// false one is refused (E107) naming the buffer and the element that breaks it, the outputs as
// they were.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;

namespace {

// Parboil's JDS SpMV stores each row's sum through the permutation that sorted the rows by length
// (dst[perm[ix]] = sum): judged at ix once perm is stated a permutation.
constexpr auto unsort_body = [](auto k, auto perm, auto sums, auto dst) {
  auto ix = k.global_id();
  return w::given(w::permutation(perm), w::when(ix < perm.size() && ix < sums.size(), dst[perm[ix]] = sums[ix]));
};
WARDEN_KERNEL(unsort_k, w::kernel<w::block<32>, w::in<int>, w::in<float>, w::out<float>>(unsort_body).named("unsort", "perm", "sums", "dst"));

// A CSR row's sum from row_ptr[r] to row_ptr[r + 1]: stated non-decreasing, and its columns within
// [0, x.size()).
constexpr auto csr_body = [](auto k, auto row_ptr, auto col, auto val, auto x, auto y) {
  auto r = k.global_id();
  return w::given(w::non_decreasing(row_ptr) && w::within(col, 0, x.size()),
                  w::when(r + 1 < row_ptr.size() && r < y.size(), w::local(k, 0.f, [&](auto k, auto sum) {
                            return w::seq(w::for_range(k, row_ptr[r], row_ptr[r + 1], [&](auto, auto e) { return sum += val[e] * x[col[e]]; }),
                                          y[r] = sum);
                          })));
};
WARDEN_KERNEL(csr_k, w::kernel<w::block<32>, w::in<int>, w::in<int>, w::in<float>, w::in<float>, w::out<float>>(csr_body)
                         .named("csr", "row_ptr", "col", "val", "x", "y"));

// Keys stated sorted: each thread copies its key; the fact is all the kernel states.
constexpr auto keys_body = [](auto k, auto keys, auto out) {
  auto i = k.global_id();
  return w::given(w::sorted(keys), w::when(i < keys.size() && i < out.size(), out[i] = keys[i]));
};
WARDEN_KERNEL(keys_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>(keys_body).named("copy_keys", "keys", "out"));


}  // namespace

TEST_CASE("permutation(perm): a JDS unsort runs, a repeat or a value outside 0 to n - 1 is refused", "[launch][contents][facts]") {
  using code = w::diagnostic::code;
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::in<int>, w::in<float>, w::out<float>>(unsort_body) == code::none);
  std::vector<int> order(100);
  std::vector<float> sums(100);
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = (i * 37 + 11) % 100, sums[static_cast<std::size_t>(i)] = static_cast<float>(i);
  auto perm = w::to_device(order);
  auto s = w::to_device(sums);
  auto dst = w::to_device(std::vector<float>(100, -1.f));
  const w::recording r = w::record(unsort_k, w::grid_for(100), perm, s, dst);
  CHECK(r.clean());
  const std::vector<float> got = w::to_host(dst);
  for (int i = 0; i < 100; ++i) CHECK(got[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] == static_cast<float>(i));

  // A repeat: distinct is the conjunct that fails.
  order[60] = order[20];
  w::copy(perm, w::to_device(order));
  CHECK(w::testing::refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, unsort_k, w::grid_for(100), perm, s, dst); }) ==
        "E107 [stated-fact] unsort_k: the stated fact distinct(perm) && within(perm, 0, perm.size()) is false for this launch "
        "(perm.size() = 100, perm[60] repeats perm[20]); the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  // Distinct, but one value is n: within fails, naming the greatest and where it is.
  for (int i = 0; i < 100; ++i) order[static_cast<std::size_t>(i)] = (i * 37 + 11) % 100;
  order[order.size() - 1] += 100;  // stays distinct
  w::copy(perm, w::to_device(order));
  const std::string text = w::testing::refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, unsort_k, w::grid_for(100), perm, s, dst); });
  CHECK_THAT(text, Catch::Matchers::StartsWith("E107 [stated-fact] unsort_k:"));
  CHECK_THAT(text, Catch::Matchers::Contains("perm[99] = " + std::to_string(order[99]) +
                                             " (its greatest, first there) is not below perm.size())"));
  CHECK_THAT(text, !Catch::Matchers::Contains("repeats"));
  CHECK(w::to_host(dst) == got);  // refused before the kernel: dst as it was
}

TEST_CASE("non_decreasing(row_ptr) and within(col, 0, x.size()): a CSR product runs, a falling row pointer or a column past x is refused",
          "[launch][contents][facts]") {
  // Rows 0..3: [0, 2), [2, 2), [2, 5), [5, 6).
  std::vector<int> rows{0, 2, 2, 5, 6};
  std::vector<int> cols{0, 3, 1, 2, 3, 0};
  auto row_ptr = w::to_device(rows);
  auto col = w::to_device(cols);
  auto val = w::to_device(std::vector<float>{1, 2, 3, 4, 5, 6});
  auto x = w::to_device(std::vector<float>{1, 10, 100, 1000});
  auto y = w::to_device(std::vector<float>(4, -1.f));
  CHECK(w::record(csr_k, w::grid_for(4), row_ptr, col, val, x, y).clean());
  CHECK(w::to_host(y) == std::vector<float>{2001, 0, 30 + 400 + 5000, 6});

  // Measured once per version: a second launch on the same buffers measures nothing.
  const auto before = w::detail::contents_measured();
  w::launch(w::on_cpu, csr_k, w::grid_for(4), row_ptr, col, val, x, y);
  CHECK(w::detail::contents_measured() == before);

  // A write warden sees makes the next launch measure again: row_ptr[2] below row_ptr[1].
  rows[2] = 1;
  w::copy(row_ptr, w::to_device(rows));
  auto y2 = w::to_device(std::vector<float>(4, -1.f));
  CHECK(w::testing::refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, csr_k, w::grid_for(4), row_ptr, col, val, x, y2); }) ==
        "E107 [stated-fact] csr_k: the stated fact non_decreasing(row_ptr) && within(col, 0, x.size()) is false for this launch "
        "(x.size() = 4, row_ptr[2] is below row_ptr[1]); the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  CHECK(w::detail::contents_measured() > before);
  CHECK(w::to_host(y2) == std::vector<float>(4, -1.f));

  // Equal neighbours are non-decreasing (an empty row); a column past x is not within.
  rows[2] = 2;
  w::copy(row_ptr, w::to_device(rows));
  cols[4] = 4;
  w::copy(col, w::to_device(cols));
  const std::string text = w::testing::refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, csr_k, w::grid_for(4), row_ptr, col, val, x, y2); });
  CHECK_THAT(text, Catch::Matchers::EndsWith("(x.size() = 4, col[4] = 4 (its greatest, first there) is not below x.size()); the "
                                             "checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)"));
  CHECK_THAT(text, !Catch::Matchers::Contains("row_ptr["));
}

TEST_CASE("sorted(keys): equal neighbours break it where non_decreasing would not", "[launch][contents][facts]") {
  auto keys = w::to_device(std::vector<int>{1, 3, 3, 8});
  auto out = w::to_device(std::vector<int>(4, 0));
  CHECK(w::testing::refusal_of<w::fact_error>([&] { w::launch(w::on_cpu, keys_k, w::grid_for(4), keys, out); }) ==
        "E107 [stated-fact] keys_k: the stated fact sorted(keys) is false for this launch (keys[2] is not above keys[1]); "
        "the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  CHECK(w::to_host(out) == std::vector<int>(4, 0));
  w::copy(keys, w::to_device(std::vector<int>{1, 3, 4, 8}));
  w::launch(w::on_cpu, keys_k, w::grid_for(4), keys, out);
  CHECK(w::to_host(out) == std::vector<int>{1, 3, 4, 8});
}

// The measurement against brute force on small random buffers, with value spans both within 8n
// (the bitmap pass) and past it (the sorted pass): whether two elements are equal, the first
// element that repeats an earlier one and that earlier one, and where the elements stop rising.
TEST_CASE("contents measurement: distinct and order against brute force", "[launch][contents][facts][lemma]") {
  std::uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<long long>(state >> 33);
  };
  int both_paths[2] = {0, 0};
  for (int round = 0; round < 4000; ++round) {
    const std::size_t n = 1 + static_cast<std::size_t>(next() % 12);
    const long long span = round % 2 == 0 ? 1 + next() % static_cast<long long>(2 * n) : 1 + next() % 1000000;
    const long long base = next() % 2000 - 1000;
    std::vector<int> v(n);
    for (auto& x : v) x = static_cast<int>(base + next() % span);
    w::detail::contents_memo m;
    REQUIRE(w::detail::scan_contents(v.data(), n, true, w::detail::contents_order{true}, m));
    long long repeat_at = -1, repeat_of = -1, not_rising = -1, falling = -1;
    for (std::size_t i = 0; i < n && repeat_at < 0; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (v[j] == v[i]) {
          repeat_at = static_cast<long long>(i), repeat_of = static_cast<long long>(j);
          break;
        }
    for (std::size_t i = 1; i < n; ++i) {
      if (not_rising < 0 && v[i] <= v[i - 1]) not_rising = static_cast<long long>(i);
      if (falling < 0 && v[i] < v[i - 1]) falling = static_cast<long long>(i);
    }
    const long long lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    ++both_paths[hi - lo < 8 * static_cast<long long>(n) ? 0 : 1];
    CHECK(m.lo == lo);
    CHECK(m.hi == hi);
    REQUIRE(m.distinct_known);
    CHECK(m.distinct == (repeat_at < 0));
    if (repeat_at >= 0) {
      CHECK(m.repeat_at == repeat_at);
      CHECK(m.repeat_of == repeat_of);
    }
    REQUIRE(m.order_known);
    CHECK(m.not_rising_at == not_rising);
    CHECK(m.falling_at == falling);
  }
  CHECK(both_paths[0] > 1000);
  CHECK(both_paths[1] > 1000);
}
