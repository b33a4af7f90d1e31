// warden/tuned.hpp's GPU path against the CUDA runtime stand-in, whose device clock the test moves:
// each candidate's stand-in kernel takes the time the test gives its block shape, and events
// (cudaEventElapsedTime) read it. The choice is the fastest, it is reused without timing (in this
// process, and in another through the cache), a candidate the checker rejects is never launched,
// and the cache is rewritten when it is corrupt or from another device.
#include <warden/warden.hpp>
#include <warden/tuned.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"
#include "../support/tuning_cache_folder.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace w = warden;
namespace fs = std::filesystem;
namespace standin = cuda_standin;

WARDEN_TUNED(scale_t, w::tuned<w::in<float>, w::out<float>, w::value<float>>(
    [](auto k, auto x, auto y, auto a) {
      auto i = k.global_id();
      return w::when(i < x.size(), y[i] = a * x[i]);
    },
    w::candidates<w::block<64>, w::block<128>, w::block<256>>));

// On 128 threads, thread 64 of block 0 and thread 0 of block 1 store one element (W010).
WARDEN_TUNED(slice_t, w::tuned<w::out<int>>(
    [](auto k, auto out) {
      auto i = k.block_id() * 64 + k.thread_id();
      return w::when(i < out.size(), out[i] = i);
    },
    w::candidates<w::block<128>, w::block<64>, w::block<32>>));

// An unguarded load: launch refuses the 128-thread candidate where the grid covers more than x.
WARDEN_TUNED(copy_t, w::tuned<w::in<float>, w::out<float>>(
    [](auto k, auto x, auto y) {
      auto i = k.global_id();
      return w::when(i < y.size(), y[i] = x[i]);
    },
    w::candidates<w::block<64>, w::block<128>>));

namespace {

// The device: what each block shape's kernel costs, and how often each was launched.
struct device_model {
  std::map<int, double> cost_ms;  // by threads per block
  std::map<int, int> launches;
};

// Stands for the <<<>>> call: the stand-in queues a kernel that takes the shape's cost on the
// device's clock when the stream reaches it.
struct timed_entry {
  device_model* device;
  template <class Slots>
  void operator()(dim3, dim3 block, cudaStream_t s, const Slots&) const {
    const int threads = static_cast<int>(block.x * block.y * block.z);
    ++device->launches[threads];
    const double ms = device->cost_ms.count(threads) ? device->cost_ms.at(threads) : 1.0;
    standin::launch_kernel(s, [ms] { standin::advance_clock(ms); });
  }
};

// A tuned launch on the GPU path, with the stand-in's entry in place of the kernel call.
template <class Tag, class... Args>
void launch_on_standin(device_model& device, const w::launch_config& config, Args&&... args) {
  w::detail::launch_tuned<Tag>(
      config, true, [&](auto k, const w::launch_config& c) { w::detail::run_cuda(k, c, timed_entry{&device}, args...); },
      args...);
}

int total(const device_model& d) {
  int n = 0;
  for (const auto& [threads, count] : d.launches) n += count;
  return n;
}

using cache_folder = w::testing::tuning_cache_folder;

using warden::testing::no_misuse;

}  // namespace

TEST_CASE("the fastest candidate on the device's clock is chosen, then reused without timing", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("fastest");
  auto x = w::to_device(std::vector<float>(10000, 1.f));
  w::device_buffer<float> y(10000);
  device_model device{{{64, 3.0}, {128, 1.0}, {256, 2.0}}, {}};
  const long elapsed_before = standin::calls("cudaEventElapsedTime");

  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(10000), x, y, 2.f);
  INFO(scale_t.report());
  CHECK(scale_t.choice(x, y, 2.f) == std::string("block<128>"));
  // Each candidate: one warm-up and five timed runs; then the chosen one, for the caller.
  CHECK(device.launches == std::map<int, int>{{64, 6}, {128, 7}, {256, 6}});
  CHECK(standin::calls("cudaEventElapsedTime") - elapsed_before == 15);
  CHECK(scale_t.report().find("measured on warden CUDA runtime stand-in, sm_90, driver 13000") != std::string::npos);
  CHECK(scale_t.report().find("block<128> 1 ms (chosen)") != std::string::npos);

  // Same key (10000 elements round up to 16384, as 12000 do): one launch of the choice.
  auto x2 = w::to_device(std::vector<float>(12000, 1.f));
  w::device_buffer<float> y2(12000);
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(12000), x2, y2, 5.f);
  CHECK(device.launches[128] == 8);
  CHECK(total(device) == 20);

  // Another process starts with an empty table (forget()), and reads the choice from the cache,
  // even where the device has changed its mind: nothing is timed.
  scale_t.forget();
  device.cost_ms = {{64, 0.5}, {128, 1.0}, {256, 2.0}};
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(10000), x, y, 2.f);
  CHECK(device.launches[128] == 9);
  CHECK(total(device) == 21);
  CHECK(scale_t.report().find("read from") != std::string::npos);

  // A new key is measured.
  auto x3 = w::to_device(std::vector<float>(100, 1.f));
  w::device_buffer<float> y3(100);
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(100), x3, y3, 2.f);
  CHECK(scale_t.choice(x3, y3, 2.f) == std::string("block<64>"));
  CHECK(total(device) == 21 + 19);
  CHECK(no_misuse());
}

TEST_CASE("a candidate the checker rejects is never launched", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("rejected");
  w::device_buffer<int> out(1024);
  device_model device{{{32, 1.0}, {64, 2.0}, {128, 0.1}}, {}};
  launch_on_standin<slice_t_warden_tuned>(device, w::grid_for(1024), out);
  CHECK(device.launches.count(128) == 0);
  CHECK(device.launches == std::map<int, int>{{32, 7}, {64, 6}});
  CHECK(slice_t.dropped() == std::vector<std::string>{"block<128>: W010"});
  CHECK(no_misuse());
}

TEST_CASE("a corrupt cache file, or one from another device, is measured again and rewritten", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("recover");
  auto x = w::to_device(std::vector<float>(5000, 1.f));
  w::device_buffer<float> y(5000);
  device_model device{{{64, 2.0}, {128, 3.0}, {256, 1.0}}, {}};
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(5000), x, y, 2.f);
  REQUIRE(cache.files().size() == 1);
  const fs::path file = cache.files()[0];

  std::ofstream(file, std::ios::trunc | std::ios::binary) << "warden-tuning 1\nwarden 0.1.0\ndevice \xff\xfe";
  scale_t.forget();
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(5000), x, y, 2.f);
  CHECK(total(device) == 19 + 19);  // measured again
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("key 8192,8192 -> block<256>\n") != std::string::npos);

  // Another GPU (or driver): its own file; the first one is not read.
  standin::options other;
  other.device_name = "another GPU";
  standin::reset(other);
  scale_t.forget();
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(5000), x, y, 2.f);
  CHECK(total(device) == 19 * 3);
  CHECK(cache.files().size() == 2);
  CHECK(scale_t.report().find("measured on another GPU, sm_90, driver 13000") != std::string::npos);
  standin::reset();
  CHECK(no_misuse());
}

TEST_CASE("a remembered choice refused for a launch of the same key sends that launch to be measured", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("refused_choice");
  device_model device{{{64, 2.0}, {128, 1.0}}, {}};
  auto x256 = w::to_device(std::vector<float>(256, 1.f));
  w::device_buffer<float> y(1000);  // the guard reads y's size, which does not protect x
  launch_on_standin<copy_t_warden_tuned>(device, w::grid_for(256), x256, y);
  REQUIRE(copy_t.choice(x256, y) == std::string("block<128>"));
  // 192 elements share the key (both round up to 256), but 128-thread blocks reach x[255] (E101).
  auto x192 = w::to_device(std::vector<float>(192, 1.f));
  const int launched = total(device);
  launch_on_standin<copy_t_warden_tuned>(device, w::grid_for(192), x192, y);
  INFO(copy_t.report());
  CHECK(copy_t.report().find("block<128> skipped: ") != std::string::npos);
  CHECK(copy_t.choice(x192, y) == std::string("block<64>"));
  CHECK(device.launches[64] == 6 + 7);       // measured, then launched for the caller
  CHECK(total(device) - launched == 7);       // nothing of block<128> ran for this launch
  CHECK(no_misuse());
}

TEST_CASE("choices are kept per device: the cpu backend measures its own", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("per_device");
  auto x = w::to_device(std::vector<float>(2000, 1.f));
  w::device_buffer<float> y(2000);
  device_model device{{{64, 3.0}, {128, 2.0}, {256, 1.0}}, {}};
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(2000), x, y, 2.f);
  CHECK(scale_t.report().find("measured on warden CUDA runtime stand-in") != std::string::npos);
  w::launch(w::on_cpu, scale_t, w::grid_for(2000), x, y, 2.f);  // same key, other backend
  CHECK(scale_t.report().find("measured on cpu reference backend") != std::string::npos);
  CHECK(cache.files().size() == 2);
  CHECK(w::to_host(y)[1999] == 2.f);
  CHECK(no_misuse());
}

TEST_CASE("tuning restores what the kernel may write, through device copies in stream order", "[standin][tuned]") {
  standin::reset();
  cache_folder cache("restore");
  w::stream s;
  auto x = w::to_device(std::vector<float>(3000, 1.f));
  auto y = w::to_device(std::vector<float>(3000, 7.f));
  device_model device{{{64, 1.0}, {128, 1.0}, {256, 1.0}}, {}};
  const long copies = standin::calls("cudaMemcpyAsync");
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(3000).on(s), x, y, 2.f);
  // y saved once, restored before each of 18 runs and before the chosen one's: 20 copies of y.
  CHECK(standin::calls("cudaMemcpyAsync") - copies == 20);
  CHECK(w::to_host(y) == std::vector<float>(3000, 7.f));  // the stand-in's kernels write nothing
  CHECK(no_misuse());
}

// ---- NVTX ranges, through the stand-in's recording shim (warden/profile/nvtx.hpp) -------------

WARDEN_KERNEL(saxpy_named, w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(
                               [](auto k, auto x, auto y, auto a) {
                                 auto i = k.global_id();
                                 return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
                               }));

namespace {

struct silent_entry {
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t s, const Slots&) const {
    standin::launch_kernel(s, [] {});
  }
};

// The log's ranges as an indented outline: "name", and "  name" for a range inside another.
std::vector<std::string> outline(const std::vector<std::string>& log) {
  std::vector<std::string> out;
  int depth = 0;
  for (const std::string& entry : log) {
    if (entry == "pop") {
      --depth;
      REQUIRE(depth >= 0);
      continue;
    }
    out.push_back(std::string(static_cast<std::size_t>(2 * depth), ' ') + entry.substr(5));
    ++depth;
  }
  CHECK(depth == 0);  // every range closed
  return out;
}

}  // namespace

TEST_CASE("NVTX ranges name each launch by its kernel, grid and block", "[standin][nvtx]") {
  REQUIRE(w::detail::nvtx_enabled);
  standin::reset();
  auto x = w::to_device(std::vector<float>(1000, 1.f));
  w::device_buffer<float> y(1000);
  float a = 2.f;
  standin::nvtx_record(true);
  w::detail::run_cuda(saxpy_named, w::grid_for(1000), silent_entry{}, x, y, a);
  w::launch(w::on_cpu, saxpy_named, w::grid(2), x, y, a);
  standin::nvtx_record(false);
  CHECK(outline(standin::nvtx_log()) ==
        std::vector<std::string>{"saxpy_named<<<4, 256>>>", "saxpy_named<<<2, 256>>> on the cpu backend",
                                 // the cpu run copies the device buffers to the host and back
                                 "  warden::copy 4000 bytes", "  warden::copy 4000 bytes", "  warden::copy 4000 bytes"});
}

TEST_CASE("NVTX ranges for transfers, the pool's upstream calls and graph replays", "[standin][nvtx]") {
  standin::reset();
  w::stream s;
  standin::nvtx_record(true);
  {
    w::memory_pool pool(w::cuda_resource{});
    w::device_buffer<float> u(1 << 20, pool, s.ref());
    w::copy(u, u);
  }
  standin::nvtx_record(false);
  const std::vector<std::string> memory = outline(standin::nvtx_log());
  CHECK(memory == std::vector<std::string>{"warden pool (device): upstream allocate 20971520 bytes", "warden::copy 4194304 bytes",
                                           "warden pool (device): upstream release 20971520 bytes"});

  w::device_buffer<float> u(256), v(256);
  float one = 1.f;
  w::graph g = w::capture(s, [&] {
    w::detail::run_cuda(saxpy_named, w::grid_for(256).on(s), silent_entry{}, u, v, one);
    w::detail::run_cuda(saxpy_named, w::grid_for(256).on(s), silent_entry{}, v, u, one);
  });
  standin::nvtx_record(true);
  g.replay();
  standin::nvtx_record(false);
  CHECK(outline(standin::nvtx_log()) == std::vector<std::string>{"graph replay: 2 launches"});
}

TEST_CASE("a tuned kernel's measurement is a range around its candidates' launches", "[standin][nvtx][tuned]") {
  standin::reset();
  cache_folder cache("nvtx");
  auto x = w::to_device(std::vector<float>(1000, 1.f));
  w::device_buffer<float> y(1000);
  device_model device{{{64, 3.0}, {128, 1.0}, {256, 2.0}}, {}};
  standin::nvtx_record(true);
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(1000), x, y, 2.f);
  launch_on_standin<scale_t_warden_tuned>(device, w::grid_for(1000), x, y, 2.f);
  standin::nvtx_record(false);
  const std::vector<std::string> ranges = outline(standin::nvtx_log());
  REQUIRE(ranges.size() >= 3);
  CHECK(ranges[0] == "warden::tuned scale_t: measuring key 1024,1024");
  CHECK(std::count(ranges.begin(), ranges.end(), "  scale_t<<<16, 64>>>") == 6);
  CHECK(std::count(ranges.begin(), ranges.end(), "  scale_t<<<8, 128>>>") == 7);  // and the caller's launch
  CHECK(std::count(ranges.begin(), ranges.end(), "  scale_t<<<4, 256>>>") == 6);
  CHECK(ranges.back() == "scale_t<<<8, 128>>>");  // the second launch: the choice, outside any measurement
}
