// launch's host paths on a GPU machine, against the CUDA runtime stand-in: the cpu backend and the
// recording oracle on device buffers, and the cuda launch path up to the kernel call (launch-time
// errors before any memory is touched, stream ordering, launch failures as cuda_error). The
// stand-in runs no kernels: the cuda path is driven with an entry that stands for the <<<>>> call.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace w = warden;
namespace standin = cuda_standin;

// Heap allocations, counted while `counting_allocations` is set (issue 18: no allocation per launch).
// AddressSanitizer brings its own operator new, and pairs what it allocated before main with this
// file's delete as a mismatch: under it the count is not taken (the default preset takes it).
#if defined(__SANITIZE_ADDRESS__)
#define WARDEN_TEST_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARDEN_TEST_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef WARDEN_TEST_COUNTS_ALLOCATIONS
#define WARDEN_TEST_COUNTS_ALLOCATIONS 1
#endif
namespace {
std::atomic<bool> counting_allocations{false};
std::atomic<long> allocations_counted{0};
}  // namespace
#if WARDEN_TEST_COUNTS_ALLOCATIONS
void* operator new(std::size_t bytes) {
  if (counting_allocations.load(std::memory_order_relaxed)) ++allocations_counted;
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace {

using warden::testing::no_misuse;

// Runs launch's cuda path with `entry` in place of the kernel call.
template <class K, class Entry, class... Args>
void cuda_path(const K& kernel, const w::launch_config& config, Entry entry, Args&&... args) {
  w::detail::run_cuda(kernel, config, entry, args...);
}

struct entry_probe {
  int* calls;
  cudaError_t fails_with = cudaSuccess;
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t, const Slots&) const {
    ++*calls;
    if (fails_with != cudaSuccess) standin::set_last_error(fails_with);
  }
};

}  // namespace

WARDEN_KERNEL(scale_k, w::kernel<w::block<64>, w::in<float>, w::out<float>, w::value<float>>(
                           [](auto k, auto in, auto out, auto a) {
                             auto i = k.global_id();
                             return w::when(i < in.size(), out[i] = a * in[i]);
                           }));

WARDEN_KERNEL(unguarded_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return out[i] = in[i];
}));

// The first GPU run: w::record and cpu launches refused device buffers on a GPU machine.
TEST_CASE("the cpu backend and the recording run on device buffers on a GPU", "[standin][launch]") {
  standin::reset();
  REQUIRE(w::detail::cuda_device_available());
  std::vector<float> x(1000);
  for (int i = 0; i < 1000; ++i) x[i] = static_cast<float>(i);
  auto in = w::to_device(x);
  w::device_buffer<float> out(1000);
  REQUIRE(standin::is_device_pointer(in.data()));

  const w::recording r = w::record(scale_k, w::grid_for(1000), in, out, 2.f);
  CHECK(r.clean());
  auto host = w::to_host(out);
  for (int i = 0; i < 1000; i += 111) CHECK(host[i] == 2.f * i);

  w::launch(w::on_cpu, scale_k, w::grid_for(1000), in, out, 3.f);
  host = w::to_host(out);
  for (int i = 0; i < 1000; i += 111) CHECK(host[i] == 3.f * i);

  w::launch(scale_k, w::grid_for(1000), in, out, 4.f);  // host compiler: the cpu backend
  host = w::to_host(out);
  for (int i = 0; i < 1000; i += 111) CHECK(host[i] == 4.f * i);
  CHECK(w::to_host(in)[999] == 999.f);  // an in<T> buffer is not written back
  CHECK(no_misuse());
}

TEST_CASE("a cpu run on device buffers waits for their writer and orders their next users", "[standin][launch]") {
  standin::reset();
  w::stream s;
  standin::hold(s.ref().native());
  auto in = w::to_device_async(std::vector<float>(256, 5.f), s);  // queued behind a busy stream
  w::device_buffer<float> out(256, s);
  w::launch(w::on_cpu, scale_k, w::grid_for(256), in, out, 2.f);  // waits for the upload
  CHECK(w::to_host(out)[255] == 10.f);
  CHECK(no_misuse());
}

TEST_CASE("an error in a cpu run leaves the device buffer as it was", "[standin][launch]") {
  standin::reset();
  auto in = w::to_device(std::vector<float>(100, 1.f));
  auto out = w::to_device(std::vector<float>(100, -1.f));
  // 128 threads for 100 elements, no guard: E101 before the run (launch-time check).
  CHECK_THROWS_AS(w::launch(w::on_cpu, unguarded_k, w::grid_for(128), in, out), w::bounds_error);
  CHECK(w::to_host(out)[0] == -1.f);
  CHECK(no_misuse());
}

TEST_CASE("cuda launch path: launch-time errors come before any memory or stream is touched", "[standin][launch]") {
  standin::reset();
  auto in = w::to_device(std::vector<float>(100, 1.f));
  w::device_buffer<float> out(100);
  int launched = 0;
  const long copies = standin::calls("cudaMemcpyAsync"), records = standin::calls("cudaEventRecord"),
             waits = standin::calls("cudaStreamWaitEvent");

  CHECK_THROWS_AS(cuda_path(unguarded_k, w::grid_for(128), entry_probe{&launched}, in, out), w::bounds_error);
  CHECK_THROWS_AS(cuda_path(scale_k, w::grid_for(100), entry_probe{&launched}, out, out, 1.f), w::aliasing_error);
  CHECK_THROWS_AS(cuda_path(scale_k, w::grid(2, 2), entry_probe{&launched}, in, out, 1.f), w::grid_error);
  CHECK(launched == 0);
  CHECK(standin::calls("cudaMemcpyAsync") == copies);
  CHECK(standin::calls("cudaEventRecord") == records);
  CHECK(standin::calls("cudaStreamWaitEvent") == waits);

  cuda_path(scale_k, w::grid_for(100), entry_probe{&launched}, in, out, 1.f);
  CHECK(launched == 1);
  CHECK(no_misuse());
}

// A 2-D kernel: grid_for(nx, ny) reaches the <<<>>> call with the blocks that cover nx x ny; a 1-D
// grid_for(n) is refused (E102) before anything is touched (issue 16, item 5).
WARDEN_KERNEL(copy_2d_k, w::kernel<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>>(
                             [](auto k, auto in, auto out, auto n) {
                               auto x = k.global_id();
                               auto y = k.global_id_y();
                               return w::when(x < n && y < n, out[y * n + x] = in[y * n + x]);
                             }));

struct grid_probe {
  dim3* grid;
  template <class Slots>
  void operator()(dim3 blocks, dim3, cudaStream_t, const Slots&) const {
    *grid = blocks;
  }
};

TEST_CASE("cuda launch path: grid_for(nx, ny) covers a 2-D block, grid_for(n) on it is refused", "[standin][launch]") {
  standin::reset();
  auto in = w::to_device(std::vector<float>(40 * 40, 1.f));
  w::device_buffer<float> out(40 * 40);
  dim3 grid{0, 0, 0};
  const long records = standin::calls("cudaEventRecord");
  CHECK_THROWS_AS(cuda_path(copy_2d_k, w::grid_for(40 * 40), grid_probe{&grid}, in, out, 40), w::grid_error);
  CHECK(grid.x == 0);
  CHECK(standin::calls("cudaEventRecord") == records);
  cuda_path(copy_2d_k, w::grid_for(40, 40), grid_probe{&grid}, in, out, 40);
  CHECK(grid.x == 3);
  CHECK(grid.y == 3);
  CHECK(grid.z == 1);
  CHECK(no_misuse());
}

TEST_CASE("cuda launch path: a failed launch is a cuda_error naming the kernel", "[standin][launch]") {
  standin::reset();
  auto in = w::to_device(std::vector<float>(100, 1.f));
  w::device_buffer<float> out(100);
  int launched = 0;
  try {
    cuda_path(scale_k, w::grid_for(100), entry_probe{&launched, cudaErrorInvalidConfiguration}, in, out, 1.f);
    FAIL("the launch must throw");
  } catch (const w::cuda_error& e) {
    const std::string what = e.what();
    CHECK(what.find("scale_k") != std::string::npos);
    CHECK(e.error_name() == "cudaErrorInvalidConfiguration");
  }
  CHECK(cudaGetLastError() == cudaSuccess);  // cleared: the next call does not inherit it
  cuda_path(scale_k, w::grid_for(100), entry_probe{&launched}, in, out, 1.f);
  CHECK(launched == 2);
  CHECK(no_misuse());
}

TEST_CASE("cuda launch path: a buffer written on another stream is waited for on the device", "[standin][launch]") {
  standin::reset();
  w::stream writer, runner;
  standin::hold(writer.ref().native());
  auto in = w::to_device_async(std::vector<float>(64, 1.f), writer);
  w::device_buffer<float> out(64, runner);
  int launched = 0;
  const long waits = standin::calls("cudaStreamWaitEvent");
  cuda_path(scale_k, w::grid_for(64).on(runner), entry_probe{&launched}, in, out, 1.f);
  CHECK(launched == 1);
  CHECK(standin::calls("cudaStreamWaitEvent") == waits + 1);  // the runner waits for the upload
  standin::release(writer.ref().native());
  CHECK(no_misuse());
}

// The launch is recorded as its buffers' latest use (record_write for out, record_read for in), so
// the next launch on another stream waits for it: reading what it wrote, and writing what it read.
TEST_CASE("cuda launch path: the next launch on another stream waits for this one", "[standin][launch]") {
  standin::reset();
  w::stream a, b;
  // No earlier writer (the stand-in runs no kernel, so contents do not matter): every wait below
  // comes from the first launch.
  w::device_buffer<float> first(64, a), second(64, a);
  standin::hold(a.ref().native());  // a never finishes while b is ordered: every wait is real
  int launched = 0;
  cuda_path(scale_k, w::grid_for(64).on(a), entry_probe{&launched}, first, second, 1.f);  // a reads first, writes second
  const long waits = standin::calls("cudaStreamWaitEvent");
  // b reads second (written on a) and writes first (read on a): one wait, for a's event recorded
  // after the launch, which covers both uses (the second use finds b already ordered after it).
  cuda_path(scale_k, w::grid_for(64).on(b), entry_probe{&launched}, second, first, 1.f);
  CHECK(launched == 2);
  CHECK(standin::calls("cudaStreamWaitEvent") == waits + 1);
  standin::release(a.ref().native());
  CHECK(no_misuse());
}

// Issue 18: a launch repeating a signature on one stream allocates nothing and makes no event or
// stream call (the ordering is a ticket; the checks are cached); only a buffer crossing streams
// costs an event, recorded once and waited for once. Debug builds synchronise every launch
// (WARDEN_SYNC_LAUNCHES), which the stand-in's synchronisation allocates for: the counts of calls
// hold there too, the allocation count only in release builds without AddressSanitizer.
TEST_CASE("a repeated launch allocates nothing and makes no event or stream call", "[standin][launch][cost]") {
  standin::reset();
  w::stream s, other;
  w::device_buffer<float> in(1000), out(1000);
  int calls = 0;
  const entry_probe entry{&calls};
  cuda_path(scale_k, w::grid_for(1000).on(s), entry, in, out, 2.f);  // the first: checked, cached
  const auto count = [](const char* call) { return standin::calls(call); };
  const long created = count("cudaEventCreateWithFlags"), recorded = count("cudaEventRecord"),
             waited = count("cudaStreamWaitEvent");
  allocations_counted = 0;
  counting_allocations = true;
  for (int i = 0; i < 1000; ++i) cuda_path(scale_k, w::grid_for(1000).on(s), entry, in, out, 2.f);
  counting_allocations = false;
  CHECK(calls == 1001);
  if (!WARDEN_SYNC_LAUNCHES && WARDEN_TEST_COUNTS_ALLOCATIONS) CHECK(allocations_counted == 0);
  CHECK(count("cudaEventCreateWithFlags") == created);
  CHECK(count("cudaEventRecord") == recorded);
  CHECK(count("cudaStreamWaitEvent") == waited);

  // Across streams: the launch on `other` waits for `s`'s write of out and read of in...
  cuda_path(scale_k, w::grid_for(1000).on(other), entry, out, in, 2.f);  // reads out, writes in
  CHECK(count("cudaEventRecord") == recorded + 1);    // one event on s covers both buffers' uses
  CHECK(count("cudaStreamWaitEvent") == waited + 1);  // and one wait for it
  // ... and launches back on `other` cross nothing more.
  for (int i = 0; i < 10; ++i) cuda_path(scale_k, w::grid_for(1000).on(other), entry, out, in, 2.f);
  CHECK(count("cudaEventRecord") == recorded + 1);
  CHECK(count("cudaStreamWaitEvent") == waited + 1);
  CHECK(no_misuse());
}

WARDEN_KERNEL(scale4_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i < in.size() / 4 && i < out.size() / 4, w::vectors<4>(out)[i] = w::vectors<4>(in)[i]);
}));

// An upstream that hands out memory 4 bytes past a 256-byte boundary (a careless custom pool).
struct offset_upstream {
  using memory_space = w::space::device;
  std::vector<std::vector<std::byte>> blocks;
  void* allocate(std::size_t bytes, std::size_t, w::stream_ref) {
    blocks.emplace_back(bytes + 512);
    const auto p = reinterpret_cast<std::uintptr_t>(blocks.back().data());
    return reinterpret_cast<void*>((p + 255) / 256 * 256 + 4);
  }
  void deallocate(void*, std::size_t, std::size_t, w::stream_ref) noexcept {}
  std::size_t capacity() const noexcept { return 0; }
  std::string_view name() const noexcept { return "offset_upstream"; }
  std::unique_ptr<w::stream_clock> make_clock() const { return std::make_unique<w::synchronous_clock>(); }
};

// Issue 17's vector accesses on the cuda path: a buffer not aligned to the vector's width is
// refused (E101) before the kernel is called, also after the same sizes passed aligned.
TEST_CASE("cuda launch path: a misaligned buffer for a vector access is refused before the kernel", "[standin][launch][vector]") {
  standin::reset();
  w::device_buffer<float> in(400), out(400);
  int launched = 0;
  cuda_path(scale4_k, w::grid(2), entry_probe{&launched}, in, out);
  CHECK(launched == 1);
  w::memory_pool pool(offset_upstream{});
  w::device_buffer<float> shifted(400, pool);
  REQUIRE(reinterpret_cast<std::uintptr_t>(shifted.data()) % 16 == 4);
  CHECK_THROWS_WITH(cuda_path(scale4_k, w::grid(2), entry_probe{&launched}, shifted, out),
                    Catch::Matchers::StartsWith("E101 [out-of-bounds] scale4_k: in (parameter 0) starts at an address "
                                                "that is not a multiple of 16 bytes"));
  CHECK(launched == 1);
  CHECK(no_misuse());
}

// Measured contents on the cuda path (launch/contents.hpp): device memory is copied to the host
// once, after its last writer, and the measurement is kept until the buffer is written; a value
// past the gathered buffer is refused before the kernel call.
WARDEN_KERNEL(gather_k, w::kernel<w::block<64>, w::in<int>, w::in<float>, w::out<float>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), dst[i] = src[idx[i]]);
}).named("gather", "idx", "src", "dst"));

TEST_CASE("cuda launch path: a gather's indices are measured on the device once, again after a write", "[standin][launch][contents]") {
  standin::reset();
  w::stream s;
  standin::hold(s.ref().native());
  std::vector<int> order(256);
  for (int i = 0; i < 256; ++i) order[static_cast<std::size_t>(i)] = (i * 7) % 256;
  auto idx = w::to_device_async(order, s);  // queued behind a busy stream: measuring waits for it
  standin::release(s.ref().native());
  w::device_buffer<float> src(256), dst(256);
  int launched = 0;
  const entry_probe entry{&launched};
  const auto copies = [] { return standin::calls("cudaMemcpyAsync"); };
  const long before = copies();
  const auto m0 = w::detail::contents_measured();
  cuda_path(gather_k, w::grid_for(256).on(s), entry, idx, src, dst);
  CHECK(copies() == before + 1);  // idx, down to the host
  allocations_counted = 0;
  counting_allocations = true;
  for (int i = 0; i < 100; ++i) cuda_path(gather_k, w::grid_for(256).on(s), entry, idx, src, dst);
  counting_allocations = false;
  CHECK(launched == 101);
  CHECK(copies() == before + 1);  // kept: nothing read again
  if (!WARDEN_SYNC_LAUNCHES && WARDEN_TEST_COUNTS_ALLOCATIONS) CHECK(allocations_counted == 0);
  CHECK(w::detail::contents_measured() - m0 == 1);

  order[200] = 256;
  w::copy(idx, w::to_device(order));
  try {
    cuda_path(gather_k, w::grid_for(256).on(s), entry, idx, src, dst);
    FAIL("an index past src's end reached the kernel call");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("idx holds 0 to 256 (0 at element 0, 256 at element 200)"));
  }
  CHECK(launched == 101);
  CHECK(w::detail::contents_measured() - m0 == 2);
  CHECK(no_misuse());
}

// Views on the cuda launch path (memory/buffer_view.hpp): the kernel receives the view's first
// element and extent, the launch is ordered as a use of the whole buffer, and overlapping views
// one of which is written are refused before anything is issued.
struct slot_probe {
  const float** in_ptr;
  int* in_size;
  float** out_ptr;
  int* out_size;
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t, const Slots& slots) const {
    *in_ptr = w::detail::get<0>(slots).ptr;
    *in_size = w::detail::get<0>(slots).size;
    *out_ptr = w::detail::get<1>(slots).ptr;
    *out_size = w::detail::get<1>(slots).size;
  }
};

TEST_CASE("cuda launch path: a view reaches the kernel as its first element and extent", "[standin][launch][view]") {
  standin::reset();
  w::device_buffer<float> whole(256);
  const float* in_ptr = nullptr;
  float* out_ptr = nullptr;
  int in_size = 0, out_size = 0;
  const slot_probe probe{&in_ptr, &in_size, &out_ptr, &out_size};
  const auto writes = whole.writes();
  cuda_path(scale_k, w::grid_for(64), probe, w::view(std::as_const(whole), 0, 64), w::view(whole, 128, 64), 2.f);
  CHECK(in_ptr == std::as_const(whole).data());
  CHECK(in_size == 64);
  CHECK(out_ptr == std::as_const(whole).data() + 128);
  CHECK(out_size == 64);
  CHECK(whole.writes() > writes);  // a write of the whole buffer, as far as ordering and contents go
  in_ptr = nullptr;
  CHECK_THROWS_AS(cuda_path(scale_k, w::grid_for(64), probe, w::view(std::as_const(whole), 0, 65), w::view(whole, 64, 64), 2.f),
                  w::aliasing_error);
  CHECK(in_ptr == nullptr);  // refused before the kernel call
  CHECK(no_misuse());
}
