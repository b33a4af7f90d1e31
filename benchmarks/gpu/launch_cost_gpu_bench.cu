// What a launch costs the host on a GPU (issue 18): w::launch against the same kernel written by
// hand and launched with <<<>>>, side by side in one run. Each iteration issues `batch` launches
// back to back and then synchronises once: host time per launch, no spin kernel (the kernels are
// tiny, so the GPU keeps up and the host's issue rate is what is timed). items_per_second is
// launches per second; the ratio warden / <<<>>> is read from one run (docs/benchmarks.md).
//
//   launch_cost_gpu_bench [--benchmark_repetitions=3]
//
// Cases: kernels of 1, 4 and 8 buffer parameters, one with a shared tile, on the default stream
// and on a user stream; and a time-step loop of 100 launches against one replay of the same loop
// captured with w::capture.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../launch_cost_kernels.hpp"

namespace w = warden;

namespace {

constexpr int n = 1 << 16;
constexpr int batch = 1000;

__global__ void one_buffer_twin(float* out, int size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) out[i] = 1.f;
}
__global__ void four_buffers_twin(const float* a, const float* b, const float* c, float* out, float s, int size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) out[i] = s * a[i] + b[i] * c[i];
}
__global__ void eight_buffers_twin(const float* a, const float* b, const float* c, const float* d, const float* e,
                                   const float* f, const float* g, float* out, int size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i];
}
__global__ void shared_tile_twin(const float* in, float* out, int size) {
  __shared__ float tile[256];
  const int t = threadIdx.x, i = blockIdx.x * 256 + t;
  tile[t] = i < size ? in[i] : 0.f;
  __syncthreads();
  if (i < size) out[i] = tile[255 - t];
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "launch_cost_gpu_bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// `batch` launches by `issue`, then one synchronisation, per iteration.
template <class Issue>
void run(benchmark::State& state, cudaStream_t s, Issue&& issue) {
  issue();  // warm: module load, the check cache, the pool
  check(cudaStreamSynchronize(s), "warm-up");
  for (auto _ : state) {
    for (int i = 0; i < batch; ++i) issue();
    check(cudaStreamSynchronize(s), "synchronise");
  }
  check(cudaGetLastError(), "launch");
  state.SetItemsProcessed(static_cast<long long>(state.iterations()) * batch);
}

const dim3 grid((n + 255) / 256), block(256);

// The user stream of the cases, created when the first case runs: registering touches no CUDA
// API, so --benchmark_list_tests works without a GPU (the report's test reads the names).
w::stream& user_stream() {
  static w::stream user;
  return user;
}

// The eight-buffer kernel's arguments: seven inputs and the output.
struct eight_arguments {
  std::vector<w::device_buffer<float>> in;
  w::device_buffer<float> out{n};
  eight_arguments() {
    for (int i = 0; i < 7; ++i) in.emplace_back(n);
  }
};

w::stream_ref stream_of(bool on_user) { return on_user ? user_stream().ref() : w::default_stream; }

void register_all() {
  for (bool on_user : {false, true}) {
    const std::string where = on_user ? "/user_stream" : "/default_stream";
    benchmark::RegisterBenchmark(("one_buffer/cuda" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> out(n);
      run(st, cs, [&] { one_buffer_twin<<<grid, block, 0, cs>>>(out.data(), n); });
    });
    benchmark::RegisterBenchmark(("one_buffer/warden" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> out(n);
      run(st, cs, [&] { w::launch(launch_cost::one_buffer, w::grid_for(n).on(sr), out); });
    });
    benchmark::RegisterBenchmark(("four_buffers/cuda" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> a(n), b(n), c(n), out(n);
      run(st, cs, [&] { four_buffers_twin<<<grid, block, 0, cs>>>(a.data(), b.data(), c.data(), out.data(), 2.f, n); });
    });
    benchmark::RegisterBenchmark(("four_buffers/warden" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> a(n), b(n), c(n), out(n);
      run(st, cs, [&] { w::launch(launch_cost::four_buffers, w::grid_for(n).on(sr), a, b, c, out, 2.f); });
    });
    benchmark::RegisterBenchmark(("eight_buffers/cuda" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      eight_arguments x;
      run(st, cs, [&] {
        eight_buffers_twin<<<grid, block, 0, cs>>>(x.in[0].data(), x.in[1].data(), x.in[2].data(), x.in[3].data(),
                                                   x.in[4].data(), x.in[5].data(), x.in[6].data(), x.out.data(), n);
      });
    });
    benchmark::RegisterBenchmark(("eight_buffers/warden" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      eight_arguments x;
      run(st, cs, [&] {
        w::launch(launch_cost::eight_buffers, w::grid_for(n).on(sr), x.in[0], x.in[1], x.in[2], x.in[3], x.in[4], x.in[5],
                  x.in[6], x.out);
      });
    });
    benchmark::RegisterBenchmark(("shared_tile/cuda" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> in(n), out(n);
      run(st, cs, [&] { shared_tile_twin<<<grid, block, 0, cs>>>(in.data(), out.data(), n); });
    });
    benchmark::RegisterBenchmark(("shared_tile/warden" + where).c_str(), [=](benchmark::State& st) {
      const w::stream_ref sr = stream_of(on_user);
      const cudaStream_t cs = sr.native();
      w::device_buffer<float> in(n), out(n);
      run(st, cs, [&] { w::launch(launch_cost::shared_tile, w::grid_for(n).on(sr), in, out); });
    });
  }

  // A loop of 100 launches, step by step and as one replay of its capture.
  benchmark::RegisterBenchmark("loop_100/warden_launches", [](benchmark::State& st) {
    w::stream& user = user_stream();
    w::device_buffer<float> in(n), out(n);
    run(st, user.ref().native(), [&] {
      for (int i = 0; i < 100; ++i) w::launch(launch_cost::shared_tile, w::grid_for(n).on(user), in, out);
    });
    st.SetItemsProcessed(static_cast<long long>(st.iterations()) * batch * 100);
  });
  benchmark::RegisterBenchmark("loop_100/warden_graph_replay", [](benchmark::State& st) {
    w::stream& user = user_stream();
    w::device_buffer<float> in(n), out(n);
    w::graph g = w::capture(user, [&] {
      for (int i = 0; i < 100; ++i) w::launch(launch_cost::shared_tile, w::grid_for(n).on(user), in, out);
    });
    run(st, user.ref().native(), [&] { g.replay(); });
    st.SetItemsProcessed(static_cast<long long>(st.iterations()) * batch * 100);
  });
}

}  // namespace

int main(int argc, char** argv) {
  bool list_only = false;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--benchmark_list_tests" || std::string(argv[i]) == "--benchmark_list_tests=true") list_only = true;
  int devices = 0;
  if (!list_only && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
    std::fprintf(stderr, "launch_cost_gpu_bench: no GPU\n");
    return 77;
  }
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
