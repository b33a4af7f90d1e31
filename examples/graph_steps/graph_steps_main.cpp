// A time-step loop captured once into a graph and replayed (issue 18; docs/guide.md "Graphs"),
// against the same loop launched step by step and a plain C++ loop. Both loops run the same
// number of steps from the same start and must agree exactly (the same kernel, in the same
// order); the program prints the time of each, which is what capturing buys: on a GPU, one graph
// launch instead of a launch per step. On the cpu backend the times are the kernel's own.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "graph_steps.hpp"

namespace {

namespace w = warden;

constexpr float r = 0.25f;

std::vector<float> start(std::size_t n) {
  std::vector<float> u(n, 0.f);
  for (std::size_t i = n / 4; i < n / 2; ++i) u[i] = 1.f;  // a hot stretch that spreads
  return u;
}

std::vector<float> reference(std::size_t n, int steps) {
  std::vector<float> u = start(n), v(n);
  for (int s = 0; s < steps; ++s) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    for (std::size_t i = 1; i + 1 < n; ++i) v[i] = u[i] + r * (u[i - 1] - 2.f * u[i] + u[i + 1]);
    std::swap(u, v);
  }
  return u;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

bool run(std::size_t n, int steps_per_graph, int replays) {
  const int steps = 2 * steps_per_graph * replays;
  w::stream s;

  // Step by step: two launches per pair of steps, u -> v -> u.
  auto u = w::to_device(start(n));
  w::device_buffer<float> v(n);
  auto t0 = std::chrono::steady_clock::now();
  for (int step = 0; step < steps / 2; ++step) {
    w::launch(examples::heat_step, w::grid_for(n).on(s), u, v, r);
    w::launch(examples::heat_step, w::grid_for(n).on(s), v, u, r);
  }
  const std::vector<float> stepped = w::to_host(u);
  const double stepped_s = seconds_since(t0);

  // Captured once, replayed: the same launches, checked once, at capture.
  auto gu = w::to_device(start(n));
  w::device_buffer<float> gv(n);
  w::graph loop = w::capture(s, [&] {
    for (int step = 0; step < steps_per_graph; ++step) {
      w::launch(examples::heat_step, w::grid_for(n).on(s), gu, gv, r);
      w::launch(examples::heat_step, w::grid_for(n).on(s), gv, gu, r);
    }
  });
  t0 = std::chrono::steady_clock::now();
  for (int round = 0; round < replays; ++round) loop.replay();
  const std::vector<float> replayed = w::to_host(gu);
  const double replayed_s = seconds_since(t0);

  const std::vector<float> expected = reference(n, steps);
  float max_error = 0.f;
  for (std::size_t i = 0; i < n; ++i) max_error = std::fmax(max_error, std::fabs(stepped[i] - expected[i]));
  const bool same = stepped == replayed;
  const bool ok = same && max_error <= 1e-4f;  // a fused multiply-add on the GPU may round differently
  std::printf("graph_steps: n=%zu, %d steps on the %s backend: step by step %.3f ms (%.2f us per step), "
              "graph of %d launches replayed %d times %.3f ms (%.2f us per step); replay %s step by step; "
              "max |error| vs reference = %g -> %s\n",
              n, steps, w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", stepped_s * 1e3,
              stepped_s * 1e6 / steps, loop.launches(), replays, replayed_s * 1e3, replayed_s * 1e6 / steps,
              same ? "equals" : "DIFFERS FROM", static_cast<double>(max_error), ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  // WARDEN_EXAMPLE_SHORT=1 (scripts/gpu-check under compute-sanitizer, where a launch costs
  // milliseconds): the cpu backend's counts, the same kernels and graphs.
  const char* short_run = std::getenv("WARDEN_EXAMPLE_SHORT");
  const bool gpu = w::default_backend() == w::backend_kind::cuda && !(short_run != nullptr && short_run[0] == '1');
  bool ok = run(4096, gpu ? 500 : 10, gpu ? 20 : 2);
  ok = run(1000, gpu ? 50 : 5, 3) && ok;  // n not a multiple of the block
  return ok ? 0 : 1;
}
