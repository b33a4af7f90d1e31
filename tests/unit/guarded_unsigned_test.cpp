// Unsigned arithmetic inside a guarded branch (issue 56, item 2, the class the FIR filter
// stands for; written here, not ported): an FIR filter whose taps reach back before the first
// sample through a history buffer computes `i - j` only where `i >= j` holds and
// `num_tap - (j - i)` only where it does not. Both
// are unsigned; the guard of each branch narrows what it guards, so the launch's E104 check finds
// neither wrapping. The twin computes both in every trip (E104 refuses it, naming the wrap).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace w = warden;

namespace {

constexpr auto fir = [](auto k, auto input, auto output, auto coeff, auto history, auto num_tap, auto num_data) {
  auto i = w::convert<unsigned>(k.global_id());
  return w::when(i < num_data, w::local(k, 0.f, [&](auto k, auto sum) {
                   return w::seq(w::for_range(k, 0u, num_tap,
                                              [&](auto, auto j) {
                                                return w::when(i >= j, sum += coeff[j] * input[i - j])
                                                    .otherwise(sum += coeff[j] * history[num_tap - (j - i)]);
                                              }),
                                 output[i] = sum);
                 }));
};
// Both terms in every trip: i - j wraps for the first samples, and num_tap - (j - i) for the rest.
constexpr auto fir_unguarded = [](auto k, auto input, auto output, auto coeff, auto history, auto num_tap, auto num_data) {
  auto i = w::convert<unsigned>(k.global_id());
  return w::when(i < num_data, w::local(k, 0.f, [&](auto k, auto sum) {
                   return w::seq(w::for_range(k, 0u, num_tap,
                                              [&](auto, auto j) {
                                                return w::seq(sum += coeff[j] * input[i - j],
                                                              sum += coeff[j] * history[num_tap - (j - i)]);
                                              }),
                                 output[i] = sum);
                 }));
};

using U = w::value<unsigned>;

}  // namespace

WARDEN_KERNEL(fir_k, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::in<float>, w::in<float>, U, U>(fir));
WARDEN_KERNEL(fir_unguarded_k, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::in<float>, w::in<float>, U, U>(fir_unguarded));

TEST_CASE("unsigned arithmetic under a one-sided guard: each branch narrowed by its own condition (E104)", "[launch][E104]") {
  const unsigned num_tap = 16, num_data = 256;
  std::vector<float> input(num_data), coeff(num_tap), history(num_tap);
  for (unsigned i = 0; i < num_data; ++i) input[i] = static_cast<float>(i % 7) - 3.f;
  for (unsigned j = 0; j < num_tap; ++j) coeff[j] = 1.f / static_cast<float>(j + 1), history[j] = static_cast<float>(j);
  std::vector<float> expected(num_data);
  for (unsigned i = 0; i < num_data; ++i) {
    float sum = 0.f;
    for (unsigned j = 0; j < num_tap; ++j) sum += i >= j ? coeff[j] * input[i - j] : coeff[j] * history[num_tap - (j - i)];
    expected[i] = sum;
  }
  auto din = w::to_device(input), dcoeff = w::to_device(coeff), dhistory = w::to_device(history);
  w::device_buffer<float> out(num_data);
  const auto r = w::record(fir_k, w::grid(num_data / 64), din, out, dcoeff, dhistory, num_tap, num_data);
  CHECK(r.clean());
  CHECK(w::to_host(out) == expected);
  try {
    w::launch(w::on_cpu, fir_unguarded_k, w::grid(num_data / 64), din, out, dcoeff, dhistory, num_tap, num_data);
    FAIL("the unguarded twin launched");
  } catch (const w::wrap_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E104"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("may go below 0"));
  }
}
