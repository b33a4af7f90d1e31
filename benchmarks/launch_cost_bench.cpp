// What w::launch costs the host, per launch (issue 18; proposals/0007-launch-cost.md). Built with
// g++ against the CUDA runtime stand-in (tests/support/cuda_standin), where the kernel's entry is a
// probe that stands for the <<<>>> call: what is timed is exactly warden's host path (binding the
// arguments, the launch-time checks, stream ordering), with nothing of the driver's. CI runs it
// briefly (CTest bench.launch_cost_standin) so that the host cost is tracked without a GPU; the
// comparison with <<<>>> on a GPU is for the nvcc build of the same cases (not written yet).
//
//   launch_cost_bench [--benchmark_min_time=0.2]  (seconds: Debian's Google Benchmark 1.7 takes a bare number, not "0.2s")
//
// Cases: kernels of 1, 4 and 8 buffer parameters, one with a shared tile; the default stream and
// a user stream. The baseline `probe` is the entry alone. Counters: launches per second. Each case
// checks that its entry ran once per launch, and the program fails when one did not. Besides:
//   launch/one_buffer_batch/N   N launches, then a synchronisation, per iteration: the per-launch
//                               cost must not grow with N (it did when every launch recorded an
//                               event per buffer that stayed pending until a wait)
//   launch/one_buffer_new_signature  a size that changes at every launch (16 in turn, more than
//                               the check cache holds): what the full launch-time checks cost
//   graph/replay_100_launches   one replay of a captured graph of 100 launches (w::capture)
//   launch/one_buffer_tuned     one_buffer's body as a tuned kernel (128, 256 or 512 threads) whose
//                               key was measured before the timed launches: what a launch costs
//                               on top of its candidate's is the key and one lookup (compare
//                               launch/one_buffer; built where Boost.Hana is, as warden/tuned.hpp)
#include <warden/warden.hpp>
#if __has_include(<boost/hana/tuple.hpp>)
#include <warden/tuned.hpp>
#define WARDEN_BENCH_TUNED 1
#endif

#include <benchmark/benchmark.h>
#include <cuda_standin.hpp>

#include "launch_cost_kernels.hpp"

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

namespace w = warden;
using namespace launch_cost;

namespace {

std::atomic<bool> failed{false};

struct probe_entry {
  long long* calls;
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t, const Slots& slots) const {
    benchmark::DoNotOptimize(&slots);
    ++*calls;
  }
};

}  // namespace

#if WARDEN_BENCH_TUNED
WARDEN_TUNED(one_buffer_tuned, w::tuned<w::out<float>>(
                                   [](auto k, auto out) {
                                     auto i = k.global_id();
                                     return w::when(i < out.size(), out[i] = 1.f);
                                   },
                                   w::candidates<w::block<128>, w::block<256>, w::block<512>>));
#endif

namespace {

constexpr std::size_t n = 1 << 16;

template <class Launch>
void run(benchmark::State& state, const Launch& launch) {
  long long calls = 0;
  const probe_entry entry{&calls};
  long long launches = 0;
  for (auto _ : state) {
    launch(entry);
    ++launches;
  }
  if (calls != launches) {
    failed = true;
    state.SkipWithError("the entry did not run once per launch");
  }
  state.counters["launches/s"] = benchmark::Counter(static_cast<double>(launches), benchmark::Counter::kIsRate);
}

void register_all() {
  for (bool user_stream : {false, true}) {
    const std::string on = user_stream ? "/user_stream" : "/default_stream";
    benchmark::RegisterBenchmark(("launch/probe_only" + on).c_str(), [](benchmark::State& s) {
      run(s, [](const probe_entry& entry) {
        float* none = nullptr;
        entry(dim3(256), dim3(256), nullptr, none);
      });
    });
    benchmark::RegisterBenchmark(("launch/one_buffer" + on).c_str(), [user_stream](benchmark::State& s) {
      w::stream stream;
      w::device_buffer<float> out(n);
      const auto config = user_stream ? w::grid_for(n).on(stream.ref()) : w::grid_for(n);
      run(s, [&](const probe_entry& entry) { w::detail::run_cuda(one_buffer, config, entry, out); });
    });
    benchmark::RegisterBenchmark(("launch/four_buffers" + on).c_str(), [user_stream](benchmark::State& s) {
      w::stream stream;
      w::device_buffer<float> a(n), b(n), c(n), out(n);
      float scale = 2.f;
      const auto config = user_stream ? w::grid_for(n).on(stream.ref()) : w::grid_for(n);
      run(s, [&](const probe_entry& entry) { w::detail::run_cuda(four_buffers, config, entry, a, b, c, out, scale); });
    });
    benchmark::RegisterBenchmark(("launch/eight_buffers" + on).c_str(), [user_stream](benchmark::State& s) {
      w::stream stream;
      std::vector<w::device_buffer<float>> in;
      for (int i = 0; i < 7; ++i) in.emplace_back(n);
      w::device_buffer<float> out(n);
      const auto config = user_stream ? w::grid_for(n).on(stream.ref()) : w::grid_for(n);
      run(s, [&](const probe_entry& entry) {
        w::detail::run_cuda(eight_buffers, config, entry, in[0], in[1], in[2], in[3], in[4], in[5], in[6], out);
      });
    });
    benchmark::RegisterBenchmark(("launch/shared_tile" + on).c_str(), [user_stream](benchmark::State& s) {
      w::stream stream;
      w::device_buffer<float> in(n), out(n);
      const auto config = user_stream ? w::grid_for(n).on(stream.ref()) : w::grid_for(n);
      run(s, [&](const probe_entry& entry) { w::detail::run_cuda(shared_tile, config, entry, in, out); });
    });
#if WARDEN_BENCH_TUNED
    benchmark::RegisterBenchmark(("launch/one_buffer_tuned" + on).c_str(), [user_stream](benchmark::State& s) {
      w::stream stream;
      w::device_buffer<float> out(n);
      const auto config = user_stream ? w::grid_for(n).on(stream.ref()) : w::grid_for(n);
      w::tuning::set_cache_directory({});
      auto tuned = [&](const probe_entry& entry) {
        w::detail::launch_tuned<one_buffer_tuned_warden_tuned>(
            config, true, [&](auto k, const w::launch_config& c) { w::detail::run_cuda(k, c, entry, out); }, out);
      };
      long long measuring = 0;
      tuned(probe_entry{&measuring});  // the key's measurement, untimed
      run(s, tuned);
    });
#endif
  }

  for (int batch : {2000, 16000}) {
    benchmark::RegisterBenchmark(("launch/one_buffer_batch/" + std::to_string(batch)).c_str(), [batch](benchmark::State& s) {
      w::stream stream;
      w::device_buffer<float> out(n);
      long long calls = 0;
      const probe_entry entry{&calls};
      for (auto _ : s) {
        for (int i = 0; i < batch; ++i) w::detail::run_cuda(one_buffer, w::grid_for(n).on(stream.ref()), entry, out);
        w::detail::synchronize(stream.ref());
      }
      if (calls != static_cast<long long>(s.iterations()) * batch) {
        failed = true;
        s.SkipWithError("the entry did not run once per launch");
      }
      s.SetItemsProcessed(static_cast<long long>(s.iterations()) * batch);  // items/s: launches per second
    });
  }
  benchmark::RegisterBenchmark("launch/one_buffer_new_signature", [](benchmark::State& s) {
    std::vector<w::device_buffer<float>> outs;
    for (int i = 0; i < 16; ++i) outs.emplace_back(n - static_cast<std::size_t>(i));
    std::size_t next = 0;
    run(s, [&](const probe_entry& entry) {
      w::device_buffer<float>& out = outs[next++ % outs.size()];
      w::detail::run_cuda(one_buffer, w::grid_for(out.size()), entry, out);
    });
  });
  benchmark::RegisterBenchmark("graph/replay_100_launches", [](benchmark::State& s) {
    w::stream stream;
    w::device_buffer<float> in(n), out(n);
    long long calls = 0;
    const probe_entry entry{&calls};
    w::graph g = w::capture(stream, [&] {
      for (int i = 0; i < 100; ++i) w::detail::run_cuda(shared_tile, w::grid_for(n).on(stream.ref()), entry, in, out);
    });
    if (g.launches() != 100 || calls != 100) {
      failed = true;
      s.SkipWithError("the capture did not hold 100 launches");
    }
    for (auto _ : s) g.replay();
    s.SetItemsProcessed(static_cast<long long>(s.iterations()) * 100);  // items/s: launches replayed per second
  });
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (failed) std::fprintf(stderr, "launch_cost_bench: a case's entry did not run once per launch\n");
  return failed ? 1 : 0;
}
