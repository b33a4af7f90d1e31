// The examples on the GPU: each warden kernel against its hand-written twin (examples/*/
// *_twin.cuh) at three sizes, from cache-resident to well beyond L2, with library baselines where
// they exist (CUB DeviceReduce, DeviceScan, DeviceHistogram; cuBLAS sgemm) and a device-to-device
// copy as the bandwidth roof.
//
// Timing: CUDA events around the kernel(s) on one stream; before the start event a spin kernel
// holds the GPU for `spin_us` while the host enqueues the work, so the events bracket the GPU's
// work and not the host's launch path (the blocking-kernel method of NVIDIA's nvbench). Google
// Benchmark repeats each case (manual time) a fixed number of iterations (see `iterations` below);
// run with --benchmark_repetitions and read the median and the coefficient of variation
// (scripts/gpu-bench does, and benchmarks/gpu_report.py turns the JSON into the tables of
// docs/benchmarks.md). Every case is checked once against its twin's result before it is timed,
// so a fast wrong kernel cannot pass.
//
//   examples_gpu_bench --benchmark_repetitions=10 --benchmark_out=examples.json --benchmark_out_format=json
//   examples_gpu_bench --warden_iterations=50 ...     (iterations per repetition; default 20)
//   examples_gpu_bench --benchmark_list_tests         (lists the cases; works without a GPU)
#include <warden/warden.hpp>

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "../../examples/bitonic_sort/bitonic_sort.hpp"
#include "../../examples/bitonic_sort/bitonic_sort_twin.cuh"
#include "../../examples/blelloch_scan/blelloch_scan.hpp"
#include "../../examples/blelloch_scan/blelloch_scan_twin.cuh"
#include "../../examples/scan_fast/scan_fast.hpp"
#include "../../examples/scan_fast/scan_fast_twin.cuh"
#include "../../examples/histogram/histogram.hpp"
#include "../../examples/histogram/histogram_twin.cuh"
#include "../../examples/histogram_fast/histogram_fast.hpp"
#include "../../examples/histogram_fast/histogram_fast_twin.cuh"
#include "../../examples/matmul/matmul.hpp"
#include "../../examples/matmul/matmul_twin.cuh"
#include "../../examples/matmul_fast/matmul_fast.hpp"
#include "../../examples/matmul_fast/matmul_fast_twin.cuh"
#include "../../examples/reduction/reduction.hpp"
#include "../../examples/reduction/reduction_twin.cuh"
#include "../../examples/reduction_fast/reduction_fast.hpp"
#include "../../examples/reduction_fast/reduction_fast_twin.cuh"
#include "../../examples/reverse_block/reverse_block.hpp"
#include "../../examples/reverse_block/reverse_block_twin.cuh"
#include "../../examples/saxpy/saxpy.hpp"
#include "../../examples/saxpy/saxpy_twin.cuh"
#include "../../examples/softmax/softmax.hpp"
#include "../../examples/softmax/softmax_twin.cuh"
#include "../../examples/stencil_2d/stencil_2d.hpp"
#include "../../examples/stencil_2d/stencil_2d_twin.cuh"
#include "../../examples/transpose/transpose.hpp"
#include "../../examples/transpose/transpose_twin.cuh"
#include "gpu_timer.cuh"
#include "lint_transpose.hpp"

namespace w = warden;

namespace {

using gpu_bench::check;
using gpu_bench::timer;

// A case: buffers for one size, and the work of each implementation.
struct bench_case {
  double bytes = 0;  // memory traffic of one run (for GB/s), 0 when not bandwidth-bound
  double flops = 0;  // for compute-bound cases
  std::function<void()> warden, twin, library;  // library may be empty
  std::function<bool()> agree;                   // compares their results, once each has run
};

enum impl { warden_impl, twin_impl, library_impl };

template <class T>
std::vector<T> pattern(std::size_t n, int modulo, int offset = 0) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<int>((i * 7919 + 13) % modulo) + offset);
  return v;
}

template <class T>
bool same(const w::device_buffer<T>& a, const w::device_buffer<T>& b, double tolerance = 0) {
  const std::vector<T> x = w::to_host(a), y = w::to_host(b);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i])) > tolerance * (1 + std::abs(static_cast<double>(y[i]))))
      return false;
  return x.size() == y.size();
}

int blocks_for(std::size_t n, int block) { return static_cast<int>((n + block - 1) / block); }

// ---- the ten examples ------------------------------------------------------------------------

struct saxpy_case : bench_case {
  w::device_buffer<float> x, y, y2;
  explicit saxpy_case(std::size_t n) : x(w::to_device(pattern<float>(n, 100))), y(w::to_device(pattern<float>(n, 50))), y2(w::to_device(pattern<float>(n, 50))) {
    bytes = 12.0 * n;
    warden = [this, n] { w::launch(examples::saxpy, w::grid_for(n).on(timer().ref()), x, y, 2.f); };
    twin = [this, n] { twins::saxpy::saxpy_twin<<<blocks_for(n, 256), 256, 0, timer().native()>>>(static_cast<int>(n), 2.f, x.data(), y2.data()); };
    agree = [this] { return same(y, y2); };
  }
};

struct reverse_case : bench_case {
  w::device_buffer<float> in, out, out2;
  explicit reverse_case(std::size_t n) : in(w::to_device(pattern<float>(n, 1000))), out(n), out2(n) {
    bytes = 8.0 * n;
    warden = [this, n] { w::launch(examples::reverse_block, w::grid_for(n).on(timer().ref()), in, out); };
    twin = [this, n] { twins::reverse_block::reverse_block_twin<<<static_cast<int>(n / 256), 256, 0, timer().native()>>>(in.data(), out2.data()); };
    agree = [this] { return same(out, out2); };
  }
};

// The whole reduction (passes until one sum is left, each into a buffer of its exact size, as
// examples/reduction does), against CUB's DeviceReduce::Sum.
struct reduction_case : bench_case {
  std::size_t n;
  w::device_buffer<float> in, sum;
  std::vector<w::device_buffer<float>> passes, passes2;  // partial sums after each pass
  w::device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  explicit reduction_case(std::size_t size) : n(size), in(w::to_device(pattern<float>(size, 4))), sum(1) {
    for (std::size_t s = static_cast<std::size_t>(blocks_for(n, 256));; s = static_cast<std::size_t>(blocks_for(s, 256))) {
      passes.emplace_back(s);
      passes2.emplace_back(s);
      if (s == 1) break;
    }
    bytes = 4.0 * n;
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), sum.data(), static_cast<int>(n)), "cub::DeviceReduce::Sum");
    temp = w::device_buffer<unsigned char>(temp_bytes);
    warden = [this] {
      const w::device_buffer<float>* from = &in;
      for (auto& to : passes) {
        w::launch(examples::reduction, w::grid_for(from->size()).on(timer().ref()), *from, to);
        from = &to;
      }
    };
    twin = [this] {
      const float* from = in.data();
      std::size_t size = n;
      for (auto& to : passes2) {
        twins::reduction::reduction_twin<<<blocks_for(size, 256), 256, 0, timer().native()>>>(from, to.data(), static_cast<int>(size));
        from = to.data();
        size = to.size();
      }
    };
    library = [this] {
      check(cub::DeviceReduce::Sum(temp.data(), temp_bytes, in.data(), sum.data(), static_cast<int>(n), timer().native()), "cub::DeviceReduce::Sum");
    };
    agree = [this] {
      const float got = w::to_host(passes.back())[0], want = w::to_host(passes2.back())[0], cub_sum = w::to_host(sum)[0];
      return got == want && std::abs(got - cub_sum) <= 1e-5f * std::abs(cub_sum);
    };
  }
};

struct transpose_case : bench_case {
  int side;
  w::device_buffer<float> in, out, out2;
  explicit transpose_case(std::size_t elements)
      : side(static_cast<int>(std::lround(std::sqrt(static_cast<double>(elements))))),
        in(w::to_device(pattern<float>(static_cast<std::size_t>(side) * side, 1000))), out(in.size()), out2(in.size()) {
    bytes = 8.0 * side * side;
    const int g = blocks_for(static_cast<std::size_t>(side), 16);
    warden = [this, g] { w::launch(examples::transpose, w::grid(g, g).on(timer().ref()), in, out, side, side); };
    twin = [this, g] { twins::transpose::transpose_twin<<<dim3(g, g), dim3(16, 16), 0, timer().native()>>>(in.data(), out2.data(), side, side); };
    agree = [this] { return same(out, out2); };
  }
};

// C = A B, n x n, row-major; cuBLAS computes it column-major as C^T = B^T A^T. Fast: the
// register-tiled matmul (128 x 128 per block, 8 x 8 per thread) instead of the two-tile one,
// against the same cuBLAS call.
template <bool Fast>
struct matmul_case : bench_case {
  int n;
  w::device_buffer<float> a, b, c, c2, c3;
  cublasHandle_t handle = nullptr;
  explicit matmul_case(int side)
      : n(side), a(w::to_device(pattern<float>(static_cast<std::size_t>(side) * side, 7, -3))),
        b(w::to_device(pattern<float>(static_cast<std::size_t>(side) * side, 5, -2))), c(a.size()), c2(a.size()), c3(a.size()) {
    flops = 2.0 * n * n * static_cast<double>(n);
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    cublasSetStream(handle, timer().native());
    const int g = blocks_for(static_cast<std::size_t>(n), Fast ? 128 : 16);
    if constexpr (Fast) {
      warden = [this, g] { w::launch(examples::matmul_fast, w::grid(g, g).on(timer().ref()), a, b, c, n); };
      twin = [this, g] { twins::matmul_fast::matmul_fast_twin<<<dim3(g, g), dim3(16, 16), 0, timer().native()>>>(a.data(), b.data(), c2.data(), n); };
    } else {
      warden = [this, g] { w::launch(examples::matmul, w::grid(g, g).on(timer().ref()), a, b, c, n); };
      twin = [this, g] { twins::matmul::matmul_twin<<<dim3(g, g), dim3(16, 16), 0, timer().native()>>>(a.data(), b.data(), c2.data(), n); };
    }
    library = [this] {
      const float one = 1.f, zero = 0.f;
      if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data(), n, a.data(), n, &zero, c3.data(), n) != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error("cublasSgemm failed");
    };
    agree = [this] { return same(c, c2) && same(c, c3, 1e-4); };
  }
  ~matmul_case() { cublasDestroy(handle); }
};

struct stencil_case : bench_case {
  int side;
  w::device_buffer<float> in, out, out2;
  explicit stencil_case(std::size_t elements)
      : side(static_cast<int>(std::lround(std::sqrt(static_cast<double>(elements))))),
        in(w::to_device(pattern<float>(static_cast<std::size_t>(side) * side, 100))), out(in.size()), out2(in.size()) {
    bytes = 8.0 * side * side;
    const int g = blocks_for(static_cast<std::size_t>(side), 16);
    warden = [this, g] { w::launch(examples::stencil_2d, w::grid(g, g).on(timer().ref()), in, out, side, side); };
    twin = [this, g] { twins::stencil_2d::stencil_2d_twin<<<dim3(g, g), dim3(16, 16), 0, timer().native()>>>(in.data(), out2.data(), side, side); };
    agree = [this] { return same(out, out2); };
  }
};

// The fast kernels stride over the input with a grid that fills the GPU once: `per_sm` blocks on
// each multiprocessor, fewer when the input is smaller.
int filling_grid(std::size_t n, int block, int per_sm) {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  return std::min(blocks_for(n, block), sms * per_sm);
}

// Global atomics at data-dependent bins; Fast: the privatised histogram (shared-memory atomics,
// a grid that fills the GPU once), against the same CUB call.
template <bool Fast>
struct histogram_case : bench_case {
  std::size_t n;
  int blocks;
  w::device_buffer<int> in, bins, bins2, bins3;
  w::device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  explicit histogram_case(std::size_t size)
      : n(size), blocks(Fast ? std::max(1, filling_grid(size / 4, 256, 8)) : blocks_for(size, 256)),
        in(w::to_device(pattern<int>(size, 256))), bins(256), bins2(256), bins3(256) {
    bytes = 4.0 * n;
    check(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, in.data(), bins3.data(), 257, 0, 256, static_cast<int>(n)), "cub::DeviceHistogram");
    temp = w::device_buffer<unsigned char>(temp_bytes);
    auto zero = [this](w::device_buffer<int>& b) { check(cudaMemsetAsync(b.data(), 0, 256 * sizeof(int), timer().native()), "cudaMemsetAsync"); };
    if constexpr (Fast) {
      warden = [this, zero] { zero(bins); w::launch(examples::histogram_fast, w::grid(blocks).on(timer().ref()), in, bins); };
      twin = [this, zero] {
        zero(bins2);
        twins::histogram_fast::histogram_fast_twin<<<blocks, 256, 0, timer().native()>>>(in.data(), static_cast<int>(n), bins2.data());
      };
    } else {
      warden = [this, zero] { zero(bins); w::launch(examples::histogram, w::grid_for(n).on(timer().ref()), in, bins); };
      twin = [this, zero] { zero(bins2); twins::histogram::histogram_twin<<<blocks, 256, 0, timer().native()>>>(in.data(), static_cast<int>(n), bins2.data()); };
    }
    library = [this] {
      check(cub::DeviceHistogram::HistogramEven(temp.data(), temp_bytes, in.data(), bins3.data(), 257, 0, 256, static_cast<int>(n), timer().native()), "cub::DeviceHistogram");
    };
    agree = [this] { return same(bins, bins2) && same(bins, bins3); };
  }
};

// The fast reduction's two passes (a filling grid's partial sums, then one block over them), against
// CUB's DeviceReduce::Sum.
struct reduction_fast_case : bench_case {
  std::size_t n;
  int blocks;
  w::device_buffer<float> in, partial, partial2, sum, sum2, sum3;
  w::device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  explicit reduction_fast_case(std::size_t size)
      : n(size), blocks(filling_grid(size / 4, 256, 4)), in(w::to_device(pattern<float>(size, 4))), partial(static_cast<std::size_t>(blocks)),
        partial2(static_cast<std::size_t>(blocks)), sum(1), sum2(1), sum3(1) {
    bytes = 4.0 * n;
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), sum3.data(), static_cast<int>(n)), "cub::DeviceReduce::Sum");
    temp = w::device_buffer<unsigned char>(temp_bytes);
    warden = [this] {
      w::launch(examples::reduction_fast, w::grid(blocks).on(timer().ref()), in, partial);
      w::launch(examples::reduction_fast, w::grid(1).on(timer().ref()), partial, sum);
    };
    twin = [this] {
      twins::reduction_fast::reduction_fast_twin<<<blocks, 256, 0, timer().native()>>>(in.data(), partial2.data(), static_cast<int>(n));
      twins::reduction_fast::reduction_fast_twin<<<1, 256, 0, timer().native()>>>(partial2.data(), sum2.data(), blocks);
    };
    library = [this] {
      check(cub::DeviceReduce::Sum(temp.data(), temp_bytes, in.data(), sum3.data(), static_cast<int>(n), timer().native()), "cub::DeviceReduce::Sum");
    };
    agree = [this] {
      const float got = w::to_host(sum)[0], want = w::to_host(sum2)[0], cub_sum = w::to_host(sum3)[0];
      return got == want && std::abs(got - cub_sum) <= 1e-5f * std::abs(cub_sum);
    };
  }
};

// The example scans each block's 256 elements; CUB's baseline scans the whole input.
struct scan_case : bench_case {
  std::size_t n;
  w::device_buffer<int> in, out, out2, out3;
  w::device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;
  explicit scan_case(std::size_t size) : n(size), in(w::to_device(pattern<int>(size, 10))), out(size), out2(size), out3(size) {
    bytes = 8.0 * n;
    check(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in.data(), out3.data(), static_cast<int>(n)), "cub::DeviceScan");
    temp = w::device_buffer<unsigned char>(temp_bytes);
    warden = [this] { w::launch(examples::blelloch_scan, w::grid(blocks_for(n, 256)).on(timer().ref()), in, out); };
    twin = [this] { twins::blelloch_scan::blelloch_scan_twin<<<blocks_for(n, 256), 128, 0, timer().native()>>>(in.data(), out2.data(), static_cast<int>(n)); };
    library = [this] {
      check(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, in.data(), out3.data(), static_cast<int>(n), timer().native()), "cub::DeviceScan");
    };
    agree = [this] { return same(out, out2); };
  }
};

// The three-pass scan of the whole input (tile sums, their scan, the tiles' scans; recursively),
// against CUB's DeviceScan::ExclusiveSum. Every level's buffers are allocated once, with the case.
struct scan_fast_case : bench_case {
  struct level {
    std::size_t size;
    w::device_buffer<int> sums, offsets, sums2, offsets2;
  };
  std::size_t n;
  w::device_buffer<int> in, out, out2, out3, zero;
  std::vector<level> levels;  // levels[0]: the input's tiles, levels[1]: their sums' tiles, ...
  w::device_buffer<unsigned char> temp;
  std::size_t temp_bytes = 0;

  static std::size_t tiles(std::size_t values) { return (values + twins::scan_fast::tile - 1) / twins::scan_fast::tile; }

  explicit scan_fast_case(std::size_t size)
      : n(size), in(w::to_device(pattern<int>(size, 10))), out(size), out2(size), out3(size), zero(w::to_device(std::vector<int>{0})) {
    bytes = 8.0 * n;
    for (std::size_t values = n; tiles(values) > 1; values = tiles(values))
      levels.push_back({values, w::device_buffer<int>(tiles(values)), w::device_buffer<int>(tiles(values)),
                        w::device_buffer<int>(tiles(values)), w::device_buffer<int>(tiles(values))});
    check(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in.data(), out3.data(), static_cast<int>(n)), "cub::DeviceScan");
    temp = w::device_buffer<unsigned char>(temp_bytes);
    warden = [this] { warden_scan(0, in, out); };
    twin = [this] { twin_scan(0, in.data(), out2.data(), n); };
    library = [this] {
      check(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, in.data(), out3.data(), static_cast<int>(n), timer().native()), "cub::DeviceScan");
    };
    agree = [this] { return same(out, out2) && same(out, out3); };
  }
  void warden_scan(std::size_t l, const w::device_buffer<int>& from, w::device_buffer<int>& to) {
    const auto grid = w::grid(static_cast<int>(tiles(from.size()))).on(timer().ref());
    if (l == levels.size()) {
      w::launch(examples::scan_fast_scan, grid, from, zero, to);
      return;
    }
    w::launch(examples::scan_fast_reduce, grid, from, levels[l].sums);
    warden_scan(l + 1, levels[l].sums, levels[l].offsets);
    w::launch(examples::scan_fast_scan, grid, from, levels[l].offsets, to);
  }
  void twin_scan(std::size_t l, const int* from, int* to, std::size_t values) {
    using namespace twins::scan_fast;
    const int grid = static_cast<int>(tiles(values));
    if (l == levels.size()) {
      scan_fast_scan_twin<<<grid, block_size, 0, timer().native()>>>(from, zero.data(), to, static_cast<int>(values));
      return;
    }
    scan_fast_reduce_twin<<<grid, block_size, 0, timer().native()>>>(from, levels[l].sums2.data(), static_cast<int>(values));
    twin_scan(l + 1, levels[l].sums2.data(), levels[l].offsets2.data(), tiles(values));
    scan_fast_scan_twin<<<grid, block_size, 0, timer().native()>>>(from, levels[l].offsets2.data(), to, static_cast<int>(values));
  }
};

// One block per row of 1024 columns.
struct softmax_case : bench_case {
  static constexpr int cols = 1024;
  int rows;
  w::device_buffer<float> in, out, out2;
  explicit softmax_case(std::size_t elements)
      : rows(static_cast<int>(elements / cols)), in(w::to_device(pattern<float>(elements, 17, -8))), out(elements), out2(elements) {
    bytes = 8.0 * static_cast<double>(elements);
    warden = [this] { w::launch(examples::softmax, w::grid(rows).on(timer().ref()), in, out, cols); };
    twin = [this] { twins::softmax::softmax_twin<<<rows, 256, 0, timer().native()>>>(in.data(), out2.data(), cols); };
    agree = [this] { return same(out, out2, 1e-6); };
  }
};

struct bitonic_case : bench_case {
  std::size_t n;
  w::device_buffer<int> in, out, out2;
  explicit bitonic_case(std::size_t size) : n(size), in(w::to_device(pattern<int>(size, 100003, -50000))), out(size), out2(size) {
    bytes = 8.0 * n;
    warden = [this] { w::launch(examples::bitonic_sort, w::grid_for(n).on(timer().ref()), in, out); };
    twin = [this] { twins::bitonic_sort::bitonic_sort_twin<<<blocks_for(n, 256), 256, 0, timer().native()>>>(in.data(), out2.data(), static_cast<int>(n)); };
    agree = [this] { return same(out, out2); };
  }
};

// ---- registration ------------------------------------------------------------------------------

// Three sizes: 2^16 elements (256 KiB of floats, cache-resident), 2^22 (16 MiB, inside an H100's
// 50 MB L2) and 2^26 (256 MiB, well beyond it). matmul: n = 256, 1024, 4096.
constexpr std::size_t sizes[] = {std::size_t{1} << 16, std::size_t{1} << 22, std::size_t{1} << 26};

// Iterations per repetition, the same for every case. Google Benchmark's default (iterate until
// the measured time reaches --benchmark_min_time, 0.5 s) counts only the manual time, the work
// between the events, while each iteration also costs the 2 ms spin: a 3 us case would iterate
// ~170,000 times, about 6 minutes of spin, and the whole run would take hours (the first GPU run
// timed one case in 7 minutes). A fixed count bounds every case at iterations x (2 ms + its work):
// 20 x 2 ms = 40 ms of spin per repetition, so the 75 cases x 10 repetitions spend about 35 s
// spinning (warm-up included), plus the work itself (largest: matmul 4096, some 20 ms per run).
// Each repetition's time is the mean of its 20 iterations; the report reads the median over the
// repetitions and their spread (cv), which says whether 20 was enough (--warden_iterations=N
// changes the count; the run's time grows with it).
int iterations = 20;

// The case last built, kept for the next benchmark on the same case: a case's warden, twin and
// library benchmarks are registered one after another and their repetitions run back to back, so
// each case (buffers of up to 256 MiB, filled and checked on the host) is built and checked once,
// not once per implementation and repetition. Released before the next case is built, and in main
// before CUDA shuts down.
struct cached_case {
  std::string key;
  std::shared_ptr<bench_case> value;
  bool agreed = false;
};
cached_case& last_case() {
  static cached_case c;
  return c;
}

template <class Case, class Arg>
cached_case& case_for(Arg arg) {
  cached_case& c = last_case();
  const std::string key = std::string(typeid(Case).name()) + "/" + std::to_string(arg);
  if (c.key == key && c.value) return c;
  c.value.reset();  // the previous case's buffers go back before the new ones are allocated
  c.key.clear();
  auto built = std::make_shared<Case>(arg);
  built->warden();
  built->twin();
  if (built->library) built->library();
  check(cudaStreamSynchronize(timer().native()), "cudaStreamSynchronize");
  c.agreed = built->agree();
  c.value = std::move(built);
  c.key = key;
  return c;
}

template <class Case, class Arg>
void run_case(benchmark::State& state, Arg arg, impl which) {
  cached_case& cached = case_for<Case>(arg);
  if (!cached.agreed) {
    state.SkipWithError("warden and twin (or library) results differ");
    return;
  }
  const bench_case& c = *cached.value;
  const std::function<void()>& work = which == warden_impl ? c.warden : which == twin_impl ? c.twin : c.library;
  for (int warm = 0; warm < 3; ++warm) timer().seconds(work);
  for (auto _ : state) state.SetIterationTime(timer().seconds(work));
  if (c.bytes > 0) state.counters["GB/s"] = benchmark::Counter(c.bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  if (c.flops > 0) state.counters["GFLOP/s"] = benchmark::Counter(c.flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["elements"] = static_cast<double>(arg);
}

// The bandwidth roof: cudaMemcpyAsync device to device, read plus write.
void copy_roof(benchmark::State& state, std::size_t elements) {
  w::device_buffer<float> a(elements), b(elements);
  auto work = [&] { check(cudaMemcpyAsync(b.data(), a.data(), elements * sizeof(float), cudaMemcpyDeviceToDevice, timer().native()), "cudaMemcpyAsync"); };
  for (int warm = 0; warm < 3; ++warm) timer().seconds(work);
  for (auto _ : state) state.SetIterationTime(timer().seconds(work));
  state.counters["GB/s"] = benchmark::Counter(8.0 * elements / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["elements"] = static_cast<double>(elements);
}

// What following W050 buys: the 32 x 32 transpose tile unpadded (32-way conflicts on the column
// read) against padded (lint_transpose.hpp), side by side at one size. Both results are compared
// with each other once before timing.
void lint_transpose(benchmark::State& state, std::size_t elements, bool padded) {
  const int n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(elements))));
  const std::size_t size = static_cast<std::size_t>(n) * n;
  const w::device_buffer<float> in = w::to_device(pattern<float>(size, 1000));
  w::device_buffer<float> out(size), other(size);
  const int g = blocks_for(static_cast<std::size_t>(n), 32);
  auto run = [&](bool pad, w::device_buffer<float>& to) {
    if (pad) w::launch(lint_cases::transpose32_padded, w::grid(g, g).on(timer().ref()), in, to, n);
    else w::launch(lint_cases::transpose32_unpadded, w::grid(g, g).on(timer().ref()), in, to, n);
  };
  run(padded, out);
  run(!padded, other);
  check(cudaStreamSynchronize(timer().native()), "cudaStreamSynchronize");
  if (!same(out, other)) {
    state.SkipWithError("padded and unpadded transposes differ");
    return;
  }
  auto work = [&] { run(padded, out); };
  for (int warm = 0; warm < 3; ++warm) timer().seconds(work);
  for (auto _ : state) state.SetIterationTime(timer().seconds(work));
  state.counters["GB/s"] = benchmark::Counter(8.0 * static_cast<double>(size) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["elements"] = static_cast<double>(size);
}

template <class Case, class Arg>
void add(const std::string& name, Arg arg, bool has_library) {
  const char* names[] = {"warden", "twin", "library"};
  for (int which = warden_impl; which <= (has_library ? library_impl : twin_impl); ++which)
    benchmark::RegisterBenchmark((name + "/" + names[which] + "/" + std::to_string(arg)).c_str(),
                                 [arg, which](benchmark::State& s) { run_case<Case>(s, arg, static_cast<impl>(which)); })
        ->UseManualTime()
        ->Iterations(iterations)
        ->Unit(benchmark::kMicrosecond);
}

void register_all() {
  for (std::size_t n : sizes) {
    benchmark::RegisterBenchmark(("copy/roof/" + std::to_string(n)).c_str(), [n](benchmark::State& s) { copy_roof(s, n); })
        ->UseManualTime()
        ->Iterations(iterations)
        ->Unit(benchmark::kMicrosecond);
    add<saxpy_case>("saxpy", n, false);
    add<reverse_case>("reverse_block", n, false);
    add<reduction_case>("reduction", n, true);
    add<reduction_fast_case>("reduction_fast", n, true);
    add<transpose_case>("transpose", n, false);
    add<stencil_case>("stencil_2d", n, false);
    add<histogram_case<false>>("histogram", n, true);
    add<histogram_case<true>>("histogram_fast", n, true);
    add<scan_case>("blelloch_scan", n, true);
    add<scan_fast_case>("scan_fast", n, true);
    add<softmax_case>("softmax", n, false);
    add<bitonic_case>("bitonic_sort", n, false);
    for (bool padded : {false, true})
      benchmark::RegisterBenchmark(("w050_transpose/" + std::string(padded ? "padded" : "unpadded") + "/" + std::to_string(n)).c_str(),
                                   [n, padded](benchmark::State& s) { lint_transpose(s, n, padded); })
          ->UseManualTime()
          ->Iterations(iterations)
          ->Unit(benchmark::kMicrosecond);
  }
  for (int side : {256, 1024, 4096}) add<matmul_case<false>>("matmul", side, true);
  for (int side : {256, 1024, 4096}) add<matmul_case<true>>("matmul_fast", side, true);
}

}  // namespace

int main(int argc, char** argv) {
  // Our own flag, taken out before Google Benchmark reads the rest.
  const std::string flag = "--warden_iterations=";
  bool list_only = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) == 0) {
      iterations = std::atoi(arg.c_str() + flag.size());
      if (iterations < 1) {
        std::fprintf(stderr, "examples_gpu_bench: %s needs a positive count\n", flag.c_str());
        return 2;
      }
      continue;
    }
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true") list_only = true;
    argv[kept++] = argv[i];
  }
  argc = kept;
  // Registering touches no CUDA API (the cases are built when they run), so the list works anywhere.
  register_all();
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  if (!list_only && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
    std::printf("examples_gpu_bench: no CUDA device; nothing to measure\n");
    return 0;
  }
  benchmark::RunSpecifiedBenchmarks();
  last_case().value.reset();  // its buffers and handles go back while CUDA is still up
  benchmark::Shutdown();
  return 0;
}
