// The CUDA host paths of memory/ (the four upstreams, the event clock, the pool over them, buffers
// and transfers, default-pool selection, lifetimes) against the CUDA runtime stand-in
// (tests/support/cuda_standin): what the first GPU run found broken fails here without its fix.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <thread>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace w = warden;
namespace standin = cuda_standin;

static_assert(WARDEN_CUDA_RUNTIME == 1, "built against the stand-in with the CUDA runtime on");

namespace {

using warden::testing::no_misuse;

template <class Resource>
void serve(Resource resource, bool device_memory) {
  const std::size_t before = standin::live_allocations();
  {
    w::memory_pool pool(std::move(resource));
    std::vector<w::pool_allocation> live;
    for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{3} << 20, std::size_t{24} << 20})
      live.push_back(pool.allocate(bytes));
    for (const auto& a : live) {
      REQUIRE(a.ptr != nullptr);
      CHECK(reinterpret_cast<std::uintptr_t>(a.ptr) % 256 == 0);
      CHECK(standin::is_device_pointer(a.ptr) == device_memory);
      REQUIRE(cudaMemset(a.ptr, 0x5a, a.bytes) == cudaSuccess);
    }
    for (const auto& a : live) pool.deallocate(a);
    CHECK(pool.stats().allocated_bytes == 0);
    CHECK(pool.stats().oom_count == 0);
    pool.empty_cache();
    CHECK(pool.stats().reserved_bytes == 0);
  }
  CHECK(standin::live_allocations() == before);
}

}  // namespace

// The first GPU run: every allocation read as out of memory (the pointer was read before the
// call that wrote it).
TEST_CASE("every CUDA upstream serves the pool", "[standin][memory_pool]") {
  standin::reset();
  serve(w::cuda_resource{}, true);
  serve(w::cuda_async_resource{}, true);
  serve(w::pinned_resource{}, false);
  serve(w::managed_resource{}, false);
  CHECK(standin::calls("cudaMallocAsync") > 0);
  CHECK(no_misuse());
}

TEST_CASE("cuda_async_resource: a segment allocated on one stream reaches another only after that stream passes it",
          "[standin][memory_pool][stream-ordered]") {
  // Issue 55: memory from cudaMallocAsync on stream a is usable in a's order; the pool handed the
  // rest of its segment to stream b at once. Now the segment carries the allocation's point.
  standin::reset();
  {
    w::memory_pool pool(w::cuda_async_resource{});
    w::stream a, b;
    standin::hold(a.ref().native());  // a busy: its allocation point not yet passed
    const w::pool_allocation first = pool.allocate(4096, a.ref());
    CHECK(first.freed_on == a.ref());  // its user's first use elsewhere waits for the allocation
    CHECK(first.freed_at != 0);
    const std::size_t one_segment = pool.stats().reserved_bytes;
    const w::pool_allocation on_b = pool.allocate(4096, b.ref());
    CHECK(pool.stats().reserved_bytes > one_segment);  // not the rest of a's segment
    standin::release(a.ref().native());
    REQUIRE(cudaStreamSynchronize(a.ref().native()) == cudaSuccess);
    const std::size_t two_segments = pool.stats().reserved_bytes;
    const w::pool_allocation later = pool.allocate(4096, b.ref());  // a has passed it: the rest serves b
    CHECK(pool.stats().reserved_bytes == two_segments);
    pool.deallocate(first, a.ref());
    pool.deallocate(on_b, b.ref());
    pool.deallocate(later, b.ref());
  }
  CHECK(no_misuse());
}

TEST_CASE("cuda_async_resource: buffers on two streams, one held at its allocation, use no memory before it is theirs",
          "[standin][memory_pool][stream-ordered]") {
  // The stand-in reports a copy that runs on memory from cudaMallocAsync before the allocating
  // stream reached the allocation (what CUDA leaves undefined). Without the segment's fence the
  // buffer on b takes the rest of a's segment and its upload runs at once: a misuse.
  standin::reset();
  {
    w::memory_pool pool(w::cuda_async_resource{});
    w::stream a, b;
    standin::hold(a.ref().native());
    w::device_buffer<int> on_a(1024, pool, a.ref());
    { w::device_buffer<int> freed_on_a(16, pool, a.ref()); }  // the pool now lists a's frees
    w::device_buffer<int> on_b(1024, pool, b.ref());
    std::vector<int> values(1024);
    std::iota(values.begin(), values.end(), 7);
    w::copy_async(on_b, w::to_device(values, b.ref()), b.ref());
    CHECK(no_misuse());
    w::copy(on_a, on_b);  // a's order, then b's: both land once a is released
    standin::release(a.ref().native());
    CHECK(w::to_host(on_a) == values);
  }
  CHECK(no_misuse());
}

TEST_CASE("out of memory: the pool releases its cache, retries, then throws with statistics", "[standin][memory_pool]") {
  standin::reset({.device_memory = std::size_t{64} << 20});
  w::memory_pool pool(w::cuda_resource{});
  SECTION("a request larger than the device") {
    try {
      (void)pool.allocate(std::size_t{1} << 40);
      FAIL("allocating 1 TiB must throw");
    } catch (const w::out_of_memory& e) {
      CHECK(std::string(e.what()).find("cuda_resource") != std::string::npos);
      CHECK(e.requested_bytes() == std::size_t{1} << 40);
    }
    CHECK(pool.stats().oom_count == 1);
    const auto a = pool.allocate(1 << 20);  // the pool still works
    CHECK(a.ptr != nullptr);
    pool.deallocate(a);
  }
  SECTION("cached memory is given back to make room") {
    const auto a = pool.allocate(std::size_t{40} << 20);
    pool.deallocate(a);  // cached: the device has 24 MiB left
    const auto b = pool.allocate(std::size_t{48} << 20);
    CHECK(b.ptr != nullptr);
    CHECK(pool.stats().cache_releases >= 1);
    CHECK(pool.stats().oom_count == 0);
    pool.deallocate(b);
  }
  SECTION("out of memory injected at the first call: the next size is tried") {
    standin::inject("cudaMalloc", 1, cudaErrorMemoryAllocation);
    const auto a = pool.allocate(4096);
    CHECK(a.ptr != nullptr);
    CHECK(standin::calls("cudaMalloc") == 2);
    pool.deallocate(a);
  }
  SECTION("every call out of memory: out_of_memory, and no memory is lost") {
    standin::inject("cudaMalloc", 1, cudaErrorMemoryAllocation, 100);
    CHECK_THROWS_AS(pool.allocate(4096), w::out_of_memory);
    CHECK(pool.stats().reserved_bytes == 0);
    CHECK(cudaGetLastError() == cudaSuccess);  // the pool cleared the error it handled
  }
  CHECK(no_misuse());
}

TEST_CASE("a CUDA failure other than out of memory is a cuda_error naming the call", "[standin][errors]") {
  standin::reset();
  w::memory_pool pool(w::cuda_resource{});
  standin::inject("cudaMalloc", 1, cudaErrorInvalidValue);
  try {
    (void)pool.allocate(4096);
    FAIL("the allocation must fail");
  } catch (const w::cuda_error& e) {
    CHECK(e.call() == "cudaMalloc");
    CHECK(e.error_name() == "cudaErrorInvalidValue");
    CHECK(std::string(e.what()).find("invalid argument") != std::string::npos);
  }
  CHECK(cudaGetLastError() == cudaSuccess);  // not left for the next call to inherit
  CHECK(pool.stats().allocated_bytes == 0);
  const auto a = pool.allocate(4096);
  CHECK(a.ptr != nullptr);
  pool.deallocate(a);
  CHECK(no_misuse());
}

TEST_CASE("cross-stream reuse waits for the freeing stream's event", "[standin][memory_pool]") {
  standin::reset();
  w::memory_pool pool(w::cuda_resource{});
  w::stream s1, s2;
  standin::hold(s1.ref().native());  // s1 is busy: work queued on it has not run
  const auto a = pool.allocate(4096, s1);
  pool.deallocate(a, s1);
  const auto same_stream = pool.allocate(4096, s1);
  CHECK(same_stream.ptr == a.ptr);  // s1 runs in order: reused at once, no driver call
  pool.deallocate(same_stream, s1);
  const auto other = pool.allocate(4096, s2);
  CHECK(other.ptr != a.ptr);  // s1 has not passed the free
  CHECK(standin::calls("cudaEventRecord") >= 1);
  standin::release(s1.ref().native());
  const auto later = pool.allocate(4096, s2);
  CHECK(later.ptr == a.ptr);  // now it has
  pool.deallocate(other, s2);
  pool.deallocate(later, s2);
  CHECK(no_misuse());
}

TEST_CASE("an event that never completes: the block is never handed to another stream", "[standin][memory_pool]") {
  standin::reset();
  w::stream s1, s2;
  {
    w::memory_pool pool(w::cuda_resource{});
    standin::never_complete(s1.ref().native());
    const auto a = pool.allocate(4096, s1);
    pool.deallocate(a, s1);
    for (int i = 0; i < 3; ++i) {
      const auto b = pool.allocate(4096, s2);
      CHECK(b.ptr != a.ptr);
      pool.deallocate(b, s2);
    }
    CHECK(pool.clock().reached(s1, 1) == false);
    // Releasing the cache must wait for s1: the stand-in reports the wait that would hang.
    CHECK_THROWS_AS(pool.empty_cache(), w::cuda_error);
  }
  const auto seen = standin::misuses();
  REQUIRE(!seen.empty());
  CHECK(seen.front().find("never completes") != std::string::npos);
}

// The first GPU run: the pool's destructor recorded an event on a stream destroyed before it, and
// the driver crashed.
TEST_CASE("a pool outlives a stream it served", "[standin][memory_pool][lifetime]") {
  standin::reset();
  const std::size_t before = standin::live_allocations();
  {
    w::memory_pool pool(w::cuda_resource{});
    {
      w::stream s;
      const auto a = pool.allocate(4096, s);
      pool.deallocate(a, s);  // a mark, not yet an event
      const auto b = pool.allocate(std::size_t{4} << 20, s);
      pool.deallocate(b, s);
    }  // s destroyed here
    const auto c = pool.allocate(4096);  // default stream: may take s's block once s has passed
    pool.deallocate(c);
    pool.empty_cache();
  }
  CHECK(no_misuse());
  CHECK(standin::live_allocations() == before);
}

TEST_CASE("a pool destroyed while freed blocks are still in use on their stream waits for them", "[standin][memory_pool][lifetime]") {
  standin::reset();
  const std::size_t before = standin::live_allocations();
  w::stream s;
  {
    w::memory_pool pool(w::cuda_resource{});
    const auto a = pool.allocate(1 << 20, s);
    standin::hold(s.ref().native());
    REQUIRE(cudaMemsetAsync(a.ptr, 1, 1 << 20, s.ref().native()) == cudaSuccess);  // queued
    pool.deallocate(a, s);
    CHECK(standin::pending(s.ref().native()) == 1);
  }  // the destructor waits for s before the memory goes back
  CHECK(standin::pending(s.ref().native()) == 0);
  CHECK(standin::live_allocations() == before);
  CHECK(no_misuse());
}

// A stream destroyed with work still queued: its handle stays taken until that work is done (the
// driver releases a destroyed stream's resources then), and may then be handed to a new stream.
TEST_CASE("a stream destroyed with work queued, and a new stream on its handle", "[standin][memory_pool][lifetime]") {
  standin::reset({.recycle_stream_handles = true});
  w::memory_pool pool(w::cuda_resource{});
  void* old_handle = nullptr;
  w::pool_allocation a;
  {
    w::stream s1;
    old_handle = s1.ref().handle();
    a = pool.allocate(4096, s1);
    standin::hold(s1.ref().native());
    REQUIRE(cudaMemsetAsync(a.ptr, 7, 4096, s1.ref().native()) == cudaSuccess);
    pool.deallocate(a, s1);
  }
  w::stream s2;
  REQUIRE(s2.ref().handle() != old_handle);
  const auto b = pool.allocate(4096, s2);
  CHECK(b.ptr != a.ptr);  // the dead stream's work still uses a
  standin::release_all();
  w::stream s3;
  REQUIRE(s3.ref().handle() == old_handle);  // recycled, as a driver may
  CHECK(s3.ref() != w::stream_ref(old_handle));  // but another stream to warden
  const auto c = pool.allocate(4096, s3);
  CHECK(c.ptr == a.ptr);  // the old work is done: the block is free for everyone
  pool.deallocate(b, s2);
  pool.deallocate(c, s3);
  CHECK(no_misuse());
}

TEST_CASE("new work on a stream_ref whose stream died is an error, not a call on a dead handle", "[standin][lifetime]") {
  standin::reset();
  w::memory_pool pool(w::cuda_resource{});
  w::stream_ref dead;
  {
    w::stream s;
    dead = s;
    (void)pool.clock().record(dead);
  }
  CHECK_THROWS_AS(pool.clock().record(dead), w::error);
  CHECK(pool.clock().reached(dead, 1));  // what it did before it died is still known
  CHECK(no_misuse());
}

namespace {

// A helper that makes its result in a scratch pool of its own, then lets the pool's handle go.
w::device_buffer<int> made_in_scratch_pool(int value) {
  w::memory_pool scratch(w::cuda_resource{});
  w::device_buffer<int> result = w::to_device(std::vector<int>(1000, value));
  w::device_buffer<int> owned(1000, scratch);
  w::copy(owned, result);
  return owned;
}

}  // namespace

TEST_CASE("a pool destroyed before its buffers: they keep it alive, the last one returns its memory",
          "[standin][memory_pool][lifetime]") {
  standin::reset();
  w::empty_cache();  // what earlier tests left cached in the default pools is not counted below
  const std::size_t before = standin::live_allocations();
  {
    w::device_buffer<int> kept = made_in_scratch_pool(7);
    CHECK(standin::live_allocations() > before);  // the scratch pool's segment is still there
    CHECK(w::to_host(kept)[999] == 7);
    w::device_buffer<int> second = w::to_device(std::vector<int>(10, 1));  // other pools go on as usual
    CHECK(w::to_host(second)[3] == 1);
  }
  // The scratch pool went with its last buffer; the default pool keeps its cache.
  w::empty_cache();
  CHECK(standin::live_allocations() == before);
  CHECK(no_misuse());
}

TEST_CASE("default pools on a GPU use the CUDA upstreams", "[standin][default_pool]") {
  standin::reset();
  CHECK(w::default_backend() == w::backend_kind::cuda);
  CHECK(w::default_pool<w::space::device>().upstream_name() == "cuda_resource");
  CHECK(w::default_pool<w::space::pinned>().upstream_name() == "pinned_resource");
  CHECK(w::default_pool<w::space::managed>().upstream_name() == "managed_resource");
  w::device_buffer<int> d(100);
  CHECK(standin::is_device_pointer(d.data()));
  w::pinned_buffer<int> p(100);
  CHECK_FALSE(standin::is_device_pointer(p.data()));
  CHECK(no_misuse());
}

TEST_CASE("transfers in stream order", "[standin][transfer]") {
  standin::reset();
  w::stream s;
  std::vector<int> data(100'000);
  std::iota(data.begin(), data.end(), 0);
  standin::hold(s.ref().native());
  w::device_buffer<int> d = w::to_device_async(data, s);
  CHECK(standin::pending(s.ref().native()) >= 1);  // the upload is queued
  w::pinned_buffer<int> back = w::to_host_async(d, s);
  CHECK(back[99'999] == 99'999);  // indexing waits for the copy
  CHECK(standin::pending(s.ref().native()) == 0);
  CHECK(w::to_host(d)[12'345] == 12'345);

  w::managed_buffer<int> m(data.size());
  w::copy(m, d);
  CHECK(m[5] == 5);

  w::device_buffer<int> small(3);
  CHECK_THROWS_AS(w::copy(small, d), w::size_mismatch);
  CHECK(no_misuse());
}

TEST_CASE("two uploads on a busy stream: the second's staging block is not the first's", "[standin][transfer][host-visible]") {
  // The pinned staging block of the first upload goes back to the pool while its copy is still
  // queued; the host must not write the second upload into it before that copy has run.
  standin::reset();
  w::stream s;
  standin::hold(s.ref().native());
  w::device_buffer<int> first = w::to_device_async(std::vector<int>(4096, 1), s);
  w::device_buffer<int> second = w::to_device_async(std::vector<int>(4096, 2), s);
  standin::release(s.ref().native());
  CHECK(w::to_host(first)[100] == 1);
  CHECK(w::to_host(second)[100] == 2);
  // A loop that fills a pinned buffer on the host and copies it each time.
  standin::hold(s.ref().native());
  std::vector<w::device_buffer<int>> uploads;
  for (int round = 0; round < 4; ++round) {
    w::pinned_buffer<int> staging(1024, s);
    for (int i = 0; i < 1024; ++i) staging[static_cast<std::size_t>(i)] = round;
    w::device_buffer<int> d(1024, s);
    w::copy_async(d, staging, s);
    uploads.push_back(std::move(d));
  }
  standin::release(s.ref().native());
  for (int round = 0; round < 4; ++round) CHECK(w::to_host(uploads[static_cast<std::size_t>(round)])[7] == round);
  CHECK(no_misuse());
}

TEST_CASE("memory freed on a busy stream and handed out again there: its first use on another stream waits for the free",
          "[standin][memory_pool][reuse]") {
  // Issue 33, class 1 (the two-stream pipeline): a scratch buffer filled on stream a and freed
  // while a is busy; the next buffer made for a gets its block at once, and is filled on stream b.
  // Without an order after the free, b's upload runs first and a's queued copy lands on top of it.
  standin::reset();
  w::stream a, b;
  w::pinned_buffer<int> sevens(4096), twos(4096);
  for (std::size_t i = 0; i < 4096; ++i) {
    sevens[i] = 7;
    twos[i] = 2;
  }
  standin::hold(a.ref().native());
  const void* scratch_memory = nullptr;
  {
    w::device_buffer<int> scratch(4096, a);
    scratch_memory = std::as_const(scratch).data();
    w::copy_async(scratch, sevens, a);  // queued behind a's long kernel
  }
  w::device_buffer<int> fresh(4096, a);
  REQUIRE(std::as_const(fresh).data() == scratch_memory);  // the same block, at once
  w::copy_async(fresh, twos, b);
  CHECK(standin::pending(b.ref().native()) >= 1);  // b's copy waits for a's free
  standin::release(a.ref().native());
  CHECK(w::to_host(fresh)[4095] == 2);
  CHECK(no_misuse());
  // The host's first touch of reused memory waits for the free too: a managed mirror is the
  // host's, so here a device buffer read back (to_host waits for the last writer, the free).
  standin::hold(a.ref().native());
  {
    w::device_buffer<int> scratch(4096, a);
    w::copy_async(scratch, sevens, a);
  }
  w::device_buffer<int> again(4096, a);
  w::copy_async(again, twos, a);  // on a itself: stream order alone puts it after the queued copy
  standin::release(a.ref().native());
  CHECK(w::to_host(again)[0] == 2);
  CHECK(no_misuse());
}

TEST_CASE("an upload from page-locked memory returns once the copy has read it: the range may be refilled at once",
          "[standin][transfer][pinned]") {
  // Issue 33, class 3: to_device(range) promises the range is free again when it returns. From
  // pageable memory cudaMemcpyAsync stages the source first; from page-locked memory it reads it
  // when the stream gets there, so refilling the staging array rewrote batches still queued.
  standin::reset();
  w::stream s;
  w::pinned_buffer<int> staging(1024, s);
  std::vector<w::device_buffer<int>> batches;
  standin::hold(s.ref().native());  // a GPU busy with a long kernel
  for (int batch = 0; batch < 3; ++batch) {
    for (std::size_t i = 0; i < staging.size(); ++i) staging[i] = batch;
    batches.push_back(w::to_device(std::span<const int>(std::as_const(staging).data(), staging.size()), s));
  }
  standin::release(s.ref().native());
  for (int batch = 0; batch < 3; ++batch) CHECK(w::to_host(batches[static_cast<std::size_t>(batch)])[1023] == batch);
  // From pageable memory the runtime stages the source: no wait.
  standin::hold(s.ref().native());
  std::vector<int> pageable(1024, 5);
  w::device_buffer<int> from_pageable = w::to_device(pageable, s);
  CHECK(standin::pending(s.ref().native()) >= 1);  // still queued: the host did not wait
  pageable.assign(1024, 6);
  standin::release(s.ref().native());
  CHECK(w::to_host(from_pageable)[0] == 5);
  CHECK(no_misuse());
}

TEST_CASE("host access through data(): a pinned staging buffer refilled with memcpy waits for the copies that read it",
          "[standin][transfer][pinned][data]") {
  // Issue 55: docs/memory.md's row "non-const data()" says the host waits for the last writer and
  // every reader, as operator[] does; data() only marked the buffer escaped. A staging loop that
  // refills one pinned buffer with std::memcpy(staging.data(), ...) and uploads each batch on a
  // busy stream overwrote bytes the queued copies had not read (batch 0 uploaded 3, not 1).
  standin::reset();
  w::stream s;
  w::pinned_buffer<int> staging(1024, s);
  std::vector<w::device_buffer<int>> batches;
  standin::hold(s.ref().native());  // a GPU busy with a long kernel, done 50 ms from now
  std::thread gpu([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    standin::release(s.ref().native());
  });
  for (int batch = 1; batch <= 3; ++batch) {
    const std::vector<int> values(1024, batch);
    std::memcpy(staging.data(), values.data(), values.size() * sizeof(int));
    w::device_buffer<int> d(1024, s);
    w::copy_async(d, staging, s);
    batches.push_back(std::move(d));
  }
  gpu.join();
  for (int batch = 1; batch <= 3; ++batch) CHECK(w::to_host(batches[static_cast<std::size_t>(batch - 1)])[1023] == batch);
  CHECK(no_misuse());
}

TEST_CASE("host access through data(): a span over a to_host_async result reads what the copy brought",
          "[standin][transfer][pinned][data]") {
  // Issue 55: std::span's range constructor takes data(), which did not wait: the span read the
  // pinned memory before the queued copy had landed.
  standin::reset();
  w::stream s;
  w::device_buffer<int> d = w::to_device(std::vector<int>(1024, 9), s);
  standin::hold(s.ref().native());
  w::pinned_buffer<int> back = w::to_host_async(d, s);
  std::thread gpu([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    standin::release(s.ref().native());
  });
  const std::span<const int> view(back);
  CHECK(view[5] == 9);
  CHECK(view[1023] == 9);
  gpu.join();
  // The const overload is the address alone, for CUDA: it waits for nothing.
  standin::hold(s.ref().native());
  w::pinned_buffer<int> again = w::to_host_async(d, s);
  CHECK(std::as_const(again).data() != nullptr);
  CHECK(standin::pending(s.ref().native()) >= 1);
  standin::release(s.ref().native());
  CHECK(no_misuse());
}

TEST_CASE("a buffer outlives its stream: it reads back, frees, and leaves the pool usable", "[standin][lifetime][outlives]") {
  // Issue 33, class 2 (docs/memory.md says a buffer may outlive its stream): to_host issued its copy
  // on the destroyed stream, and the free filed the block under a ticket of the dead stream, after
  // which allocations on the default stream and empty_cache() threw for the rest of the program.
  standin::reset();
  std::optional<w::stream> s;
  s.emplace();
  standin::hold(s->ref().native());
  w::device_buffer<int> d = w::to_device_async(std::vector<int>(1000, 4), *s);
  s.reset();  // destroyed with the upload still queued
  CHECK(d.stream() == w::default_stream);
  standin::release_all();
  CHECK(w::to_host(d)[999] == 4);
  { w::device_buffer<int> gone = std::move(d); }  // freed after its stream
  CHECK_NOTHROW(w::device_buffer<int>(1000));
  CHECK_NOTHROW(w::to_host(w::to_device(std::vector<int>(10, 1))));
  CHECK_NOTHROW(w::default_pool<w::space::device>().empty_cache());
  CHECK_NOTHROW(w::default_pool<w::space::pinned>().empty_cache());
  CHECK(no_misuse());
}

TEST_CASE("work on one stream after a write on another waits for it", "[standin][transfer]") {
  standin::reset();
  w::stream writer, reader;
  std::vector<int> data(1000, 3);
  standin::hold(writer.ref().native());
  w::device_buffer<int> d = w::to_device_async(data, writer);
  const long waits = standin::calls("cudaStreamWaitEvent");
  w::pinned_buffer<int> back = w::to_host_async(d, reader);
  CHECK(standin::calls("cudaStreamWaitEvent") == waits + 1);
  CHECK(standin::pending(reader.ref().native()) >= 1);  // the copy waits behind the writer
  standin::release(writer.ref().native());
  CHECK(back[999] == 3);
  CHECK(no_misuse());
}

TEST_CASE("the stand-in catches misuse the real runtime punishes", "[standin][self]") {
  standin::reset();
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, 256) == cudaSuccess);
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaFree(p) == cudaErrorInvalidValue);
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
  cudaEvent_t e = nullptr;
  REQUIRE(cudaEventCreate(&e) == cudaSuccess);
  CHECK(cudaEventRecord(e, s) == cudaErrorInvalidResourceHandle);
  void* q = nullptr;
  REQUIRE(cudaMalloc(&q, 256) == cudaSuccess);
  std::vector<char> host(512);
  CHECK(cudaMemcpy(host.data(), q, 512, cudaMemcpyDefault) == cudaErrorInvalidValue);  // past the end
  CHECK(cudaFree(q) == cudaSuccess);
  CHECK(cudaEventDestroy(e) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(standin::misuses().size() == 3);
}

namespace {
// Steps of a two-thread program, in an order the test fixes: wait_for(n) blocks until step n
// was reached by either thread.
class steps {
 public:
  void reach(int n) {
    {
      std::lock_guard lock(mutex_);
      reached_ = n;
    }
    changed_.notify_all();
  }
  void wait_for(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return reached_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int reached_ = 0;
};
}  // namespace

TEST_CASE("the per-thread default stream is one stream per thread: a block one thread freed is not another's at once",
          "[standin][per-thread]") {
  // Issue 33, class 5: cudaStreamPerThread names a different stream on each thread. Thread one
  // frees a scratch buffer while its per-thread stream still has a copy into it queued; thread
  // two then makes a buffer on its own per-thread stream and fills it. Taken for one stream, the
  // block went to thread two at once, and thread one's queued copy landed on top of the fill.
  standin::reset();
  steps program;
  std::vector<int> got;
  std::thread one([&] {
    const w::stream_ref mine(cudaStreamPerThread);
    w::pinned_buffer<int> sevens(4096);
    for (int& x : sevens) x = 7;
    standin::hold(cudaStreamPerThread);  // this thread's stream is busy
    {
      w::device_buffer<int> scratch(4096, mine);
      w::copy_async(scratch, sevens, mine);  // queued behind the hold
    }
    program.reach(1);
    program.wait_for(2);
    standin::release(cudaStreamPerThread);
    program.reach(3);
  });
  std::thread two([&] {
    program.wait_for(1);
    const w::stream_ref mine(cudaStreamPerThread);
    const std::vector<int> twos(4096, 2);
    w::device_buffer<int> fresh(4096, mine);
    w::copy_async(fresh, w::to_device(twos, mine), mine);
    program.reach(2);
    program.wait_for(3);
    got = w::to_host(fresh);
  });
  one.join();
  two.join();
  standin::release_all();
  REQUIRE(got.size() == 4096);
  CHECK(got[0] == 2);
  CHECK(got[4095] == 2);
  CHECK(no_misuse());
}

TEST_CASE("a buffer made on one thread's per-thread stream and freed on another goes back in order", "[standin][per-thread]") {
  standin::reset();
  std::optional<w::device_buffer<int>> handed;
  std::thread one([&] {
    const w::stream_ref mine(cudaStreamPerThread);
    standin::hold(cudaStreamPerThread);
    handed.emplace(w::to_device(std::vector<int>(4096, 5), mine));
  });
  one.join();  // the hand-off: the buffer belongs to this thread from here on
  CHECK_FALSE(handed->stream().per_thread());  // this thread cannot issue to one's stream
  CHECK(w::to_host(*handed)[0] == 5);
  handed.reset();
  const w::stream_ref mine(cudaStreamPerThread);
  w::device_buffer<int> next(4096, mine);
  CHECK(std::as_const(next).data() != nullptr);
  standin::release_all();
  CHECK(no_misuse());
}

TEST_CASE("a host view of a pinned buffer is host access: it waits for the buffer's queued users", "[standin][host-view]") {
  standin::reset();
  w::stream s;
  auto fives = w::to_device(std::vector<int>(8, 5), s);
  w::pinned_buffer<int> p(8, s);
  for (int& x : p) x = 0;
  standin::hold(s.ref().native());
  w::copy_async(p, fives, s);  // a queued write of p
  CHECK(w::view_of<w::access::read>(p)[0] == 5);
  standin::hold(s.ref().native());
  w::device_buffer<int> e(8, s);
  w::copy_async(e, p, s);  // a queued read of p
  w::view_of<w::access::write>(p)[0] = 9;  // waits for it first
  standin::release(s.ref().native());
  CHECK(w::to_host(e)[0] == 5);
  CHECK(p[0] == 9);
  CHECK(no_misuse());
}

TEST_CASE("a stream_ref made from cudaStreamPerThread on one thread and issued to on another is E111 before anything is issued",
          "[standin][per-thread]") {
  standin::reset();
  w::stream_ref foreign;
  std::thread([&] { foreign = w::stream_ref(cudaStreamPerThread); }).join();
  auto src = w::to_device(std::vector<int>(4, 9));
  auto dst = w::to_device(std::vector<int>(4, 1));
  standin::hold(cudaStreamPerThread);  // this thread's per-thread stream: where the work would go
  CHECK_THROWS_WITH(w::copy_async(dst, src, foreign),
                    Catch::Matchers::StartsWith("E111 [foreign-stream] warden::copy: its stream_ref was made from cudaStreamPerThread"));
  CHECK_THROWS_AS(w::device_buffer<int>(4, foreign), w::foreign_stream_error);
  CHECK_THROWS_AS(w::to_device(std::vector<int>(4, 2), foreign), w::foreign_stream_error);
  CHECK(standin::pending(cudaStreamPerThread) == 0);  // nothing was issued
  standin::release(cudaStreamPerThread);
  CHECK(w::to_host(dst) == std::vector<int>(4, 1));
  CHECK(no_misuse());
}

TEST_CASE("E111's fix followed: the stream_ref made on the thread that issues the work", "[standin][per-thread][fix][E111]") {
  standin::reset();
  w::stream_ref foreign;
  std::thread([&] { foreign = w::stream_ref(cudaStreamPerThread); }).join();
  auto src = w::to_device(std::vector<int>(4, 9));
  auto dst = w::to_device(std::vector<int>(4, 1));
  CHECK_THROWS_WITH(w::copy_async(dst, src, foreign),
                    Catch::Matchers::Contains("Make the stream_ref on the thread that issues the work"));
  const w::stream_ref here(cudaStreamPerThread);  // the fix, as the message words it
  w::copy_async(dst, src, here);
  CHECK(w::to_host(dst) == std::vector<int>(4, 9));
  CHECK(no_misuse());
}

TEST_CASE("a buffer on a per-thread stream freed when no event can be recorded: the host waits instead of terminating",
          "[standin][per-thread]") {
  standin::reset();
  {
    w::device_buffer<int> b(4, cudaStreamPerThread);
    standin::inject("cudaEventRecord", 1, cudaErrorLaunchFailure, 100);
  }  // the free's ticket: its event cannot be recorded
  standin::reset();
  w::device_buffer<int> next(4, cudaStreamPerThread);  // the pool still works
  CHECK(w::to_host(w::to_device(std::vector<int>(4, 3), cudaStreamPerThread)) == std::vector<int>(4, 3));
}

TEST_CASE("an upload from a pinned buffer waits for the buffer's queued writer", "[standin][transfer][host-visible]") {
  standin::reset();
  w::stream s, t;
  auto counted = w::to_device(std::vector<int>{1, 2, 3, 4}, s);
  w::pinned_buffer<int> p(4, s);
  for (int& x : p) x = 0;
  standin::hold(s.ref().native());
  w::copy_async(p, counted, s);  // p's writer, queued
  auto sync_copy = w::to_device(p, t);
  standin::hold(s.ref().native());
  w::copy_async(p, counted, s);
  auto async_copy = w::to_device_async(p, t);
  standin::release(s.ref().native());
  CHECK(w::to_host(sync_copy) == std::vector<int>{1, 2, 3, 4});
  CHECK(w::to_host(async_copy) == std::vector<int>{1, 2, 3, 4});
  CHECK(no_misuse());
}
