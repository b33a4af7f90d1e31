// Stated facts measured on the device (launch/contents_on_device.hpp): the passes answer what the
// host's scan answers, a launch on unchanged data measures nothing, and a false fact is refused
// with the message the cpu backend gives (tests/unit/contents_facts_test.cpp), the output as it was.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <vector>

namespace w = warden;

namespace {
constexpr auto unsort_gpu_body = [](auto k, auto perm, auto sums, auto dst) {
  auto ix = k.global_id();
  return w::given(w::permutation(perm), w::when(ix < perm.size() && ix < sums.size(), dst[perm[ix]] = sums[ix]));
};
constexpr auto keys_gpu_body = [](auto k, auto keys, auto out) {
  auto i = k.global_id();
  return w::given(w::sorted(keys), w::when(i < keys.size() && i < out.size(), out[i] = keys[i]));
};
constexpr auto rows_gpu_body = [](auto k, auto keys, auto out, auto n) {
  auto i = k.global_id();
  return w::given(w::sorted(keys).rows(n).below(2147483647), w::when(i < keys.size() && i < out.size(), out[i] = keys[i]));
};
}  // namespace
WARDEN_KERNEL(rows_gpu_k, w::kernel<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(rows_gpu_body).named("copy_rows", "keys", "out", "n"));
WARDEN_KERNEL(unsort_gpu_k, w::kernel<w::block<256>, w::in<int>, w::in<float>, w::out<float>>(unsort_gpu_body)
                                .named("unsort", "perm", "sums", "dst"));
WARDEN_KERNEL(keys_gpu_k, w::kernel<w::block<256>, w::in<long long>, w::out<long long>>(keys_gpu_body).named("copy_keys", "keys", "out"));

namespace {
std::string refusal(auto launch) {
  try {
    launch();
  } catch (const w::fact_error& e) {
    return e.what();
  }
  return "(not refused)";
}
}  // namespace

TEST_CASE("permutation(perm) measured on the device: runs, measures once per version, refuses a repeat as the cpu backend does",
          "[gpu][contents][facts]") {
  const std::size_t n = std::size_t{1} << 22;
  std::vector<int> order(n);
  std::vector<float> sums(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>((i * 2654435761u) % n), sums[i] = static_cast<float>(i % 1000);
  auto perm = w::to_device(order);
  auto s = w::to_device(sums);
  auto dst = w::to_device(std::vector<float>(n, -1.f));
  const auto on_device = w::detail::contents_measured_on_device();
  w::launch(unsort_gpu_k, w::grid_for(n), perm, s, dst);
  CHECK(w::detail::contents_measured_on_device() == on_device + 1);
  const std::vector<float> got = w::to_host(dst);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got[static_cast<std::size_t>(order[i])] == sums[i]);
  w::launch(unsort_gpu_k, w::grid_for(n), perm, s, dst);  // unchanged perm: nothing measured
  CHECK(w::detail::contents_measured_on_device() == on_device + 1);

  // A repeat: the device sees it, the host names the first one.
  order[n - 5] = order[17];
  w::copy(perm, w::to_device(order));
  CHECK(refusal([&] { w::launch(unsort_gpu_k, w::grid_for(n), perm, s, dst); }) ==
        "E107 [stated-fact] unsort_gpu_k: the stated fact distinct(perm) && within(perm, 0, perm.size()) is false for this launch "
        "(perm.size() = " + std::to_string(n) + ", perm[" + std::to_string(n - 5) +
            "] repeats perm[17]); the checker's proof rests on it: are this launch's values and data the ones meant? If not, pass those; if they are, the fact is wrong for them and the kernel needs one that holds (changing a value only to meet this one changes what the kernel computes)");
  CHECK(w::to_host(dst) == got);
  // Distinct, one value n: within fails, naming the greatest where the device found it.
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>((i * 2654435761u) % n);
  order[1234] += static_cast<int>(n);
  w::copy(perm, w::to_device(order));
  CHECK_THAT(refusal([&] { w::launch(unsort_gpu_k, w::grid_for(n), perm, s, dst); }),
             Catch::Matchers::Contains("perm[1234] = " + std::to_string(order[1234]) + " (its greatest, first there)"));
  CHECK(w::detail::contents_measured_on_device() == on_device + 2);  // the repeat went to the host
}

TEST_CASE("sorted(keys) measured on the device, 64-bit keys: equal neighbours refused, named where they first occur", "[gpu][contents][facts]") {
  const std::size_t n = std::size_t{1} << 20;
  std::vector<long long> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = 3 * static_cast<long long>(i) - 1'000'000'000'000LL;
  auto dkeys = w::to_device(keys);
  auto out = w::to_device(std::vector<long long>(n, 0));
  w::launch(keys_gpu_k, w::grid_for(n), dkeys, out);
  CHECK(w::to_host(out) == keys);
  keys[700'001] = keys[700'000];
  keys[900'000] = keys[899'999];
  w::copy(dkeys, w::to_device(keys));
  CHECK_THAT(refusal([&] { w::launch(keys_gpu_k, w::grid_for(n), dkeys, out); }),
             Catch::Matchers::Contains("keys[700001] is not above keys[700000]"));
}

TEST_CASE("sorted(keys).rows(n).below(INT_MAX) measured on the device: padded rows run, a repeat below the padding is refused with its row",
          "[gpu][contents][facts][rows]") {
  // Rows of 33 keys (rows straddle the warps and the blocks), each rising from its own start and
  // padded with INT_MAX; each row starts below the last one's end.
  const int row = 33;
  const std::size_t n = std::size_t{row} * 40'000;
  std::vector<int> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int at = static_cast<int>(i % row);
    keys[i] = at < 20 + static_cast<int>(i / row % 7) ? 5 * at - static_cast<int>(i / row % 3) : 2147483647;
  }
  auto dkeys = w::to_device(keys);
  auto out = w::to_device(std::vector<int>(n, 0));
  const auto on_device = w::detail::contents_measured_on_device();
  w::launch(rows_gpu_k, w::grid_for(n), dkeys, out, row);
  CHECK(w::to_host(out) == keys);
  CHECK(w::detail::contents_measured_on_device() == on_device + 1);
  keys[row * 30'001 + 7] = keys[row * 30'001 + 6];
  keys[row * 35'000 + 3] = keys[row * 35'000 + 2];
  w::copy(dkeys, w::to_device(keys));
  CHECK_THAT(refusal([&] { w::launch(rows_gpu_k, w::grid_for(n), dkeys, out, row); }),
             Catch::Matchers::Contains("keys[990040] is not above keys[990039] (row 30001 of 33 elements)"));
  CHECK(w::detail::contents_measured_on_device() == on_device + 2);
}
