// The benchmark's tuned kernels (benchmarks/tuned/tuned_kernels.hpp) on the cpu backend: tuning
// picks among the candidates by wall time, and the result is the same whichever is picked, and
// the same for every candidate launched alone. Kernel results, not the tuner's host side
// (tuned_test), so it runs in the default preset only: its eleven checked kernels are most of
// what a sanitizer build of tuned_test cost.
#include <warden/warden.hpp>
#include <warden/tuned.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "../../benchmarks/tuned/tuned_kernels.hpp"
#include "../support/tuning_cache_folder.hpp"

namespace w = warden;

namespace {
using cache_folder = w::testing::tuning_cache_folder;
}  // namespace

TEST_CASE("tuning on the cpu backend gives the same result whichever candidate wins", "[tuned]") {
  cache_folder cache("results");
  SECTION("reduce") {
    std::vector<float> h(100003);
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 7);
    auto in = w::to_device(h);
    w::device_buffer<float> partial(64), total(1);
    for (int round = 0; round < 2; ++round) {  // the second round reuses the choices
      w::launch(w::on_cpu, tuned_kernels::reduce, w::grid(64), in, partial);
      w::launch(w::on_cpu, tuned_kernels::reduce, w::grid(1), partial, total);
      CHECK(w::to_host(total)[0] == static_cast<float>(std::accumulate(h.begin(), h.end(), 0.0)));
    }
    CHECK(tuned_kernels::reduce.choice(in, partial).has_value());
    CHECK(tuned_kernels::reduce.choice(partial, total).has_value());
    // Every candidate alone, not only the one tuning picked (the first GPU run found block<1024>
    // summing 16 of its 32 warps: the body, not warden, was wrong).
    tuned_kernels::reduce.for_each_candidate([&](auto k) {
      w::launch(w::on_cpu, k, w::grid(64), in, partial);
      w::launch(w::on_cpu, k, w::grid(1), partial, total);
      CHECK(w::to_host(total)[0] == static_cast<float>(std::accumulate(h.begin(), h.end(), 0.0)));
    });
  }
  SECTION("histogram: counted once, although every candidate ran several times") {
    std::vector<int> h(50001);
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<int>((i * 37) % 1000);
    auto in = w::to_device(h);
    auto bins = w::to_device(std::vector<int>(256, 1));  // the kernel adds to what is there
    w::launch(w::on_cpu, tuned_kernels::histogram, w::grid(16), in, bins);
    std::vector<int> want(256, 1);
    for (int v : h) ++want[static_cast<std::size_t>(v & 255)];
    CHECK(w::to_host(bins) == want);
    tuned_kernels::histogram.for_each_candidate([&](auto k) {
      auto alone = w::to_device(std::vector<int>(256, 1));
      w::launch(w::on_cpu, k, w::grid(16), in, alone);
      CHECK(w::to_host(alone) == want);
    });
    INFO(tuned_kernels::histogram.report());
    CHECK(tuned_kernels::histogram.report().find("(chosen)") != std::string::npos);
  }
  SECTION("matmul") {
    const int n = 37;
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) a[static_cast<std::size_t>(i)] = static_cast<float>(i % 5), b[static_cast<std::size_t>(i)] = static_cast<float>(i % 3);
    auto da = w::to_device(a), db = w::to_device(b);
    w::device_buffer<float> dc(n * n);
    w::launch(w::on_cpu, tuned_kernels::matmul, w::grid_for(n, n), da, db, dc, n);
    const std::vector<float> c = w::to_host(dc);
    for (int r = 0; r < n; ++r)
      for (int col = 0; col < n; ++col) {
        float want = 0;
        for (int j = 0; j < n; ++j) want += a[static_cast<std::size_t>(r * n + j)] * b[static_cast<std::size_t>(j * n + col)];
        REQUIRE(c[static_cast<std::size_t>(r * n + col)] == want);
      }
    tuned_kernels::matmul.for_each_candidate([&](auto k) {
      w::device_buffer<float> alone(n * n);
      w::launch(w::on_cpu, k, w::grid_for(n, n), da, db, alone, n);
      CHECK(w::to_host(alone) == c);
    });
  }
}

