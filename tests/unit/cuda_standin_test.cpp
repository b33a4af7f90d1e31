// The CUDA runtime stand-in's own rules (tests/support/cuda_standin), driven through the raw CUDA
// runtime API: the legacy default stream, the per-thread default streams, the synchronisation of
// copies, events, and cudaStreamDestroy with work queued, each as the CUDA Runtime API documents it
// ("Stream synchronization behavior", "API synchronization behavior", and the functions' reference).
// Each case reads values back, and fails when the stand-in drops its rule. warden's own tests
// trust these rules: a stand-in laxer than CUDA would pass code that races on a GPU.
#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include "../support/standin_misuse.hpp"

#include <cstddef>
#include <cstring>
#include <latch>
#include <string>
#include <thread>
#include <vector>

namespace standin = cuda_standin;

namespace {

constexpr std::size_t bytes = 64;

using warden::testing::no_misuse;

cudaStream_t make_stream(unsigned int flags) {
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, flags) == cudaSuccess);
  return s;
}

void* device_memory(int fill) {
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, bytes) == cudaSuccess);
  REQUIRE(cudaMemset(p, fill, bytes) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  return p;
}

unsigned char* pinned_memory(int fill) {
  void* p = nullptr;
  REQUIRE(cudaMallocHost(&p, bytes) == cudaSuccess);
  std::memset(p, fill, bytes);
  return static_cast<unsigned char*>(p);
}

// Whether every byte of the host range is `value`.
bool all(const unsigned char* p, int value) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (p[i] != static_cast<unsigned char>(value)) return false;
  return true;
}

// The device memory's bytes now, without waiting for any stream but a fresh non-blocking one (a
// copy into pageable memory returns once it is done): what a kernel on another stream would see.
std::vector<unsigned char> peek(const void* device) {
  static const cudaStream_t on = make_stream(cudaStreamNonBlocking);
  std::vector<unsigned char> out(bytes, 0xee);
  REQUIRE(cudaMemcpyAsync(out.data(), device, bytes, cudaMemcpyDeviceToHost, on) == cudaSuccess);
  return out;
}

bool all(const std::vector<unsigned char>& v, int value) { return all(v.data(), value); }

}  // namespace

// CUDA Runtime API, "Stream synchronization behavior", "Legacy default stream": an action on the
// legacy stream first waits for all blocking streams, then all blocking streams wait for it;
// cudaStreamNonBlocking streams do neither.
TEST_CASE("the legacy default stream waits for blocking streams and they wait for it, non-blocking streams are exempt",
          "[standin][streams]") {
  standin::reset();
  const cudaStream_t blocking = make_stream(cudaStreamDefault);
  const cudaStream_t non_blocking = make_stream(cudaStreamNonBlocking);
  void* d = device_memory(0);
  unsigned char* out = pinned_memory(0);

  // Blocking stream, then the legacy stream: the legacy copy waits for the memset.
  standin::hold(blocking);
  REQUIRE(cudaMemsetAsync(d, 1, bytes, blocking) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, nullptr) == cudaSuccess);  // into pinned: async
  CHECK(standin::pending(nullptr) == 1);
  CHECK(all(out, 0));
  standin::release(blocking);
  CHECK(standin::pending(nullptr) == 0);
  CHECK(all(out, 1));

  // The legacy stream, then a blocking stream: the blocking stream's copy waits for the memset.
  standin::hold(cudaStreamLegacy);
  REQUIRE(cudaMemsetAsync(d, 2, bytes, cudaStreamLegacy) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, blocking) == cudaSuccess);
  CHECK(standin::pending(blocking) == 1);
  CHECK(all(out, 1));
  standin::release(cudaStreamLegacy);
  CHECK(all(out, 2));

  // Non-blocking, then legacy: no implicit wait (the legacy copy reads what is there now).
  standin::hold(non_blocking);
  REQUIRE(cudaMemsetAsync(d, 3, bytes, non_blocking) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, nullptr) == cudaSuccess);
  CHECK(standin::pending(nullptr) == 0);
  CHECK(all(out, 2));
  standin::release(non_blocking);
  CHECK(all(peek(d), 3));

  // Legacy, then non-blocking: no implicit wait either.
  standin::hold(nullptr);
  REQUIRE(cudaMemsetAsync(d, 4, bytes, nullptr) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, non_blocking) == cudaSuccess);
  CHECK(standin::pending(non_blocking) == 0);
  CHECK(all(out, 3));
  standin::release(nullptr);
  CHECK(all(peek(d), 4));

  // The synchronous cudaMemcpy goes through the legacy stream: it waits for the blocking stream
  // (and the host waiting for it gets the held stream there).
  standin::hold(blocking);
  REQUIRE(cudaMemsetAsync(d, 5, bytes, blocking) == cudaSuccess);
  std::vector<unsigned char> host(bytes, 0);
  REQUIRE(cudaMemcpy(host.data(), d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(all(host, 5));

  CHECK(cudaFreeHost(out) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamDestroy(blocking) == cudaSuccess);
  CHECK(cudaStreamDestroy(non_blocking) == cudaSuccess);
  CHECK(no_misuse());
}

// CUDA Runtime API, "Stream synchronization behavior", "Per-thread default stream": local to its
// thread, synchronises with no other stream but the legacy default stream (it is not a
// non-blocking stream).
TEST_CASE("cudaStreamPerThread is each host thread's own stream, a blocking one for the legacy stream",
          "[standin][streams][threads]") {
  standin::reset();
  constexpr int workers = 3;
  std::vector<void*> d;
  std::vector<unsigned char*> out;
  for (int i = 0; i <= workers; ++i) {
    d.push_back(device_memory(0));
    out.push_back(pinned_memory(0));
  }
  std::latch held(1), legacy_issued(1), released(1);
  std::size_t holder_pending = 0;
  cudaError_t holder_status = cudaErrorUnknown;

  // Thread 0 holds its own default stream, with a memset queued on it.
  std::thread holder([&] {
    standin::hold(cudaStreamPerThread);
    holder_status = cudaMemsetAsync(d[0], 0x10, bytes, cudaStreamPerThread);
    holder_pending = standin::pending(cudaStreamPerThread);
    held.count_down();
    legacy_issued.wait();
    standin::release(cudaStreamPerThread);  // the caller's stream, not the legacy one
    released.count_down();
  });
  held.wait();
  CHECK(holder_status == cudaSuccess);
  CHECK(holder_pending == 1);

  // The other threads' default streams are theirs: thread 0's hold does not reach them.
  std::vector<std::thread> others;
  std::vector<std::size_t> others_pending(workers + 1, 99);
  for (int i = 1; i <= workers; ++i)
    others.emplace_back([&, i] {
      if (cudaMemsetAsync(d[i], 0x10 + i, bytes, cudaStreamPerThread) != cudaSuccess) return;
      if (cudaMemcpyAsync(out[i], d[i], bytes, cudaMemcpyDeviceToHost, cudaStreamPerThread) != cudaSuccess) return;
      others_pending[i] = standin::pending(cudaStreamPerThread);
    });
  for (auto& t : others) t.join();
  for (int i = 1; i <= workers; ++i) {
    CHECK(others_pending[i] == 0);
    CHECK(all(out[i], 0x10 + i));  // done without any host wait: nothing held it
  }
  CHECK(standin::pending(cudaStreamPerThread) == 0);  // this thread's own stream has nothing queued
  CHECK(all(peek(d[0]), 0));                          // thread 0's memset is still queued

  // Work on the legacy stream waits for the per-thread stream's earlier work.
  REQUIRE(cudaMemcpyAsync(out[0], d[0], bytes, cudaMemcpyDeviceToHost, nullptr) == cudaSuccess);
  CHECK(standin::pending(nullptr) == 1);
  CHECK(all(out[0], 0));
  legacy_issued.count_down();
  released.wait();
  CHECK(standin::pending(nullptr) == 0);
  CHECK(all(out[0], 0x10));
  holder.join();

  // A thread's per-thread stream waits for the legacy stream's earlier work.
  standin::hold(nullptr);
  REQUIRE(cudaMemsetAsync(d[0], 0x20, bytes, nullptr) == cudaSuccess);
  std::size_t waiting = 0;
  std::thread([&] {
    if (cudaMemcpyAsync(out[0], d[0], bytes, cudaMemcpyDeviceToHost, cudaStreamPerThread) == cudaSuccess)
      waiting = standin::pending(cudaStreamPerThread);
  }).join();
  CHECK(waiting == 1);
  CHECK(all(out[0], 0x10));
  standin::release(nullptr);
  CHECK(all(out[0], 0x20));

  // release_all reaches a held per-thread stream, even one whose thread has ended.
  std::thread([&] {
    standin::hold(cudaStreamPerThread);
    (void)cudaMemcpyAsync(out[1], d[0], bytes, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  }).join();
  CHECK(all(out[1], 0x11));
  const std::size_t before = standin::streams_in_use();
  standin::release_all();
  CHECK(all(out[1], 0x20));
  CHECK(standin::streams_in_use() == before - 1);  // its thread is gone and its work done: retired

  // Threads come and go, each using its per-thread stream: the streams in use do not pile up.
  const std::size_t in_use = standin::streams_in_use();
  for (int i = 0; i < 50; ++i)
    std::thread([&] { (void)cudaMemsetAsync(d[1], i, bytes, cudaStreamPerThread); }).join();
  CHECK(standin::streams_in_use() == in_use);
  CHECK(all(peek(d[1]), 49));

  for (int i = 0; i <= workers; ++i) {
    CHECK(cudaFreeHost(out[i]) == cudaSuccess);
    CHECK(cudaFree(d[i]) == cudaSuccess);
  }
  CHECK(cudaStreamDestroy(cudaStreamPerThread) == cudaErrorInvalidResourceHandle);  // not the caller's to destroy
  (void)cudaGetLastError();
  CHECK(no_misuse());
}

// CUDA Runtime API, "API synchronization behavior", Memcpy: a pageable source is staged before
// cudaMemcpyAsync returns; a copy into pageable memory returns once done; host to host is fully
// synchronous; otherwise (page-locked, device) the copy is fully asynchronous and reads its
// source when the stream gets to it. cudaMemcpy from device to device performs no host-side
// synchronisation.
TEST_CASE("copies: a pageable source is taken at issue, a page-locked one when the stream reaches the copy",
          "[standin][copies]") {
  standin::reset();
  const cudaStream_t s = make_stream(cudaStreamNonBlocking);
  void* d = device_memory(0);

  SECTION("pageable to device: the source is staged, the destination written later") {
    std::vector<unsigned char> source(bytes, 1);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(d, source.data(), bytes, cudaMemcpyHostToDevice, s) == cudaSuccess);
    std::fill(source.begin(), source.end(), 2);  // allowed: the runtime has taken the source
    CHECK(all(peek(d), 0));
    standin::release(s);
    CHECK(all(peek(d), 1));
  }
  SECTION("page-locked to device: read when the stream reaches the copy") {
    unsigned char* source = pinned_memory(1);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(d, source, bytes, cudaMemcpyHostToDevice, s) == cudaSuccess);
    std::memset(source, 2, bytes);  // a race on a GPU: the copy has not read it yet
    standin::release(s);
    CHECK(all(peek(d), 2));
    CHECK(cudaFreeHost(source) == cudaSuccess);
  }
  SECTION("registered memory is page-locked too") {
    std::vector<unsigned char> source(bytes, 1);
    REQUIRE(cudaHostRegister(source.data(), bytes, cudaHostRegisterDefault) == cudaSuccess);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(d, source.data(), bytes, cudaMemcpyHostToDevice, s) == cudaSuccess);
    std::fill(source.begin(), source.end(), 2);
    standin::release(s);
    CHECK(all(peek(d), 2));
    CHECK(cudaHostUnregister(source.data()) == cudaSuccess);
  }
  SECTION("device to page-locked: written when the stream reaches the copy") {
    REQUIRE(cudaMemsetAsync(d, 3, bytes, s) == cudaSuccess);
    unsigned char* target = pinned_memory(0);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(target, d, bytes, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(standin::pending(s) == 1);
    CHECK(all(target, 0));
    standin::release(s);
    CHECK(all(target, 3));
    CHECK(cudaFreeHost(target) == cudaSuccess);
  }
  SECTION("device to pageable: returns once the copy is done") {
    REQUIRE(cudaMemsetAsync(d, 4, bytes, s) == cudaSuccess);
    std::vector<unsigned char> target(bytes, 0);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(target.data(), d, bytes, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    CHECK(all(target, 4));
    CHECK(standin::pending(s) == 0);
  }
  SECTION("host to host: fully synchronous, page-locked or not") {
    unsigned char* from = pinned_memory(5);
    unsigned char* to = pinned_memory(0);
    std::vector<unsigned char> pageable(bytes, 6);
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToHost, s) == cudaSuccess);
    CHECK(all(to, 5));
    standin::hold(s);
    REQUIRE(cudaMemcpyAsync(to, pageable.data(), bytes, cudaMemcpyHostToHost, s) == cudaSuccess);
    CHECK(all(to, 6));
    CHECK(cudaFreeHost(from) == cudaSuccess);
    CHECK(cudaFreeHost(to) == cudaSuccess);
  }
  SECTION("cudaMemcpy from device to device: no host-side synchronisation") {
    const cudaStream_t blocking = make_stream(cudaStreamDefault);
    void* other = device_memory(0);
    standin::hold(blocking);
    REQUIRE(cudaMemsetAsync(d, 7, bytes, blocking) == cudaSuccess);
    REQUIRE(cudaMemcpy(other, d, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);  // returns: not done
    CHECK(standin::pending(nullptr) == 1);
    CHECK(all(peek(other), 0));
    standin::release(blocking);
    CHECK(all(peek(other), 7));
    CHECK(cudaFree(other) == cudaSuccess);
    CHECK(cudaStreamDestroy(blocking) == cudaSuccess);
  }
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(no_misuse());
}

// CUDA Runtime API, cudaEventRecord / cudaEventQuery / cudaEventSynchronize / cudaStreamWaitEvent:
// an event captures its stream's work at the record; a wait uses the latest record at the time of
// the call; synchronising waits for the captured work only.
TEST_CASE("events capture the work before their record, on the legacy and the per-thread streams too",
          "[standin][events][threads]") {
  standin::reset();
  const cudaStream_t s = make_stream(cudaStreamNonBlocking);
  const cudaStream_t waiter = make_stream(cudaStreamNonBlocking);
  const cudaStream_t free_stream = make_stream(cudaStreamNonBlocking);
  void* d = device_memory(0);
  unsigned char* out = pinned_memory(0);
  cudaEvent_t e = nullptr;
  REQUIRE(cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess);
  CHECK(cudaEventQuery(e) == cudaSuccess);  // never recorded: an empty set of work

  // Record, query, wait on another stream; re-recording does not move an issued wait.
  standin::hold(s);
  REQUIRE(cudaMemsetAsync(d, 1, bytes, s) == cudaSuccess);
  REQUIRE(cudaEventRecord(e, s) == cudaSuccess);
  CHECK(cudaEventQuery(e) == cudaErrorNotReady);
  REQUIRE(cudaStreamWaitEvent(waiter, e, 0) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, waiter) == cudaSuccess);
  REQUIRE(cudaEventRecord(e, free_stream) == cudaSuccess);  // completes at once
  CHECK(cudaEventQuery(e) == cudaSuccess);
  CHECK(standin::pending(waiter) == 2);
  CHECK(all(out, 0));
  standin::release(s);
  CHECK(standin::pending(waiter) == 0);
  CHECK(all(out, 1));

  // cudaEventSynchronize waits for the work before the record, not for what came after it.
  standin::hold(s);
  REQUIRE(cudaMemsetAsync(d, 2, bytes, s) == cudaSuccess);
  REQUIRE(cudaEventRecord(e, s) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(d, 3, bytes, s) == cudaSuccess);
  REQUIRE(cudaEventSynchronize(e) == cudaSuccess);
  CHECK(cudaEventQuery(e) == cudaSuccess);
  CHECK(all(peek(d), 2));
  CHECK(standin::pending(s) == 1);
  standin::release(s);
  CHECK(all(peek(d), 3));

  // A record on the legacy stream captures the blocking streams' earlier work.
  const cudaStream_t blocking = make_stream(cudaStreamDefault);
  standin::hold(blocking);
  REQUIRE(cudaMemsetAsync(d, 4, bytes, blocking) == cudaSuccess);
  REQUIRE(cudaEventRecord(e, nullptr) == cudaSuccess);
  CHECK(cudaEventQuery(e) == cudaErrorNotReady);
  REQUIRE(cudaEventSynchronize(e) == cudaSuccess);  // the host waiting gets the blocking stream there
  CHECK(all(peek(d), 4));

  // A record on cudaStreamPerThread belongs to the recording thread's stream: another thread's
  // cudaStreamPerThread synchronisation does not cover it; waiting for the event does.
  std::thread([&] {
    standin::hold(cudaStreamPerThread);
    (void)cudaMemsetAsync(d, 5, bytes, cudaStreamPerThread);
    (void)cudaEventRecord(e, cudaStreamPerThread);
  }).join();
  CHECK(cudaEventQuery(e) == cudaErrorNotReady);
  CHECK(standin::pending(cudaStreamPerThread) == 0);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
  CHECK(cudaEventQuery(e) == cudaErrorNotReady);
  CHECK(all(peek(d), 4));
  REQUIRE(cudaEventSynchronize(e) == cudaSuccess);
  CHECK(all(peek(d), 5));

  CHECK(cudaEventDestroy(e) == cudaSuccess);
  CHECK(cudaFreeHost(out) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  for (cudaStream_t t : {s, waiter, free_stream, blocking}) CHECK(cudaStreamDestroy(t) == cudaSuccess);
  CHECK(no_misuse());
}

// CUDA Runtime API, cudaStreamDestroy: with work still queued it returns at once, and the stream's
// resources are released once that work is done: the work still runs.
TEST_CASE("cudaStreamDestroy returns at once and the queued work still runs", "[standin][streams]") {
  standin::reset();
  void* d = device_memory(0);
  unsigned char* out = pinned_memory(0);

  // A non-blocking stream: its work runs when released, after the handle is gone.
  const cudaStream_t s = make_stream(cudaStreamNonBlocking);
  cudaEvent_t e = nullptr;
  REQUIRE(cudaEventCreate(&e) == cudaSuccess);
  standin::hold(s);
  REQUIRE(cudaMemsetAsync(d, 1, bytes, s) == cudaSuccess);
  REQUIRE(cudaEventRecord(e, s) == cudaSuccess);
  REQUIRE(cudaMemsetAsync(d, 2, bytes, s) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(all(peek(d), 0));  // returned at once: nothing ran
  CHECK(cudaEventSynchronize(e) == cudaSuccess);  // waiting for an event on it still works
  CHECK(all(peek(d), 1));
  standin::release_all();
  CHECK(all(peek(d), 2));

  // A destroyed blocking stream's queued work still orders the legacy stream.
  const cudaStream_t blocking = make_stream(cudaStreamDefault);
  standin::hold(blocking);
  REQUIRE(cudaMemsetAsync(d, 3, bytes, blocking) == cudaSuccess);
  CHECK(cudaStreamDestroy(blocking) == cudaSuccess);
  REQUIRE(cudaMemcpyAsync(out, d, bytes, cudaMemcpyDeviceToHost, nullptr) == cudaSuccess);
  CHECK(standin::pending(nullptr) == 1);
  CHECK(all(out, 0));
  standin::release_all();
  CHECK(all(out, 3));

  CHECK(cudaEventDestroy(e) == cudaSuccess);
  CHECK(cudaFreeHost(out) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(no_misuse());
}
