#pragma once
// A host-only stand-in of the CUDA runtime, for tests built by the host compiler with
// WARDEN_CUDA_RUNTIME=1: it implements the runtime calls warden's host code makes (device count and
// memory info, the four kinds of allocation, host registration, async allocation and the device's memory pool,
// pointer attributes, streams, events, copies, memsets, errors) against the real <cuda_runtime_api.h>, so that the CUDA
// resources, the event clock, default-pool selection, launch's error paths and stream ordering run
// in CI on a machine with no GPU. It never runs kernels: a program that launches one does not link.
//
// The model, kept as close to the real runtime as a host can be:
//  * device memory (cudaMalloc, cudaMallocAsync) is handed out at addresses the host cannot
//    dereference (a tag bit makes them non-canonical), so host code that reads device memory
//    crashes here as it would on a GPU; copies and memsets translate them. Pinned and managed
//    memory are ordinary host memory, as on a GPU.
//  * each stream is a queue. Work on it runs at once unless the stream is held (hold()), which is
//    a GPU busy with a long kernel: queued copies, event records and frees wait until release(),
//    or until the host synchronises with them. cudaStreamWaitEvent makes a queue wait for an event.
//  * the streams synchronise as CUDA Runtime API, "Stream synchronization behavior" says. Handle 0
//    and cudaStreamLegacy are the legacy default stream: work issued to it waits for all work issued
//    before to every blocking stream (cudaStreamCreate, flags cudaStreamDefault, and the per-thread
//    streams), and work issued later to a blocking stream waits for it; cudaStreamNonBlocking
//    streams (warden's own) are exempt both ways. cudaStreamPerThread is the calling host thread's
//    own stream, a blocking one (hold, release, pending and never_complete on it act on the
//    caller's). cudaStreamDestroy returns at once; the stream's queued work still runs.
//  * copies and memsets synchronise as "API synchronization behavior" says: cudaMemcpyAsync takes a
//    pageable source when it is issued, returns from a copy into pageable memory when it is done,
//    is fully synchronous from host to host, and otherwise returns at once: a page-locked
//    (cudaMallocHost, cudaHostAlloc, cudaHostRegister), managed or device source is read when the
//    stream reaches the copy. cudaMemcpy and cudaMemset go through the legacy stream: cudaMemcpy
//    returns when done, except from pageable memory to the device (after a sync of the legacy
//    stream, once the source is taken) and from device to device (at once); cudaMemset into device
//    memory returns at once.
//  * an event captures the work issued to its stream before the record (on the legacy stream, the
//    blocking streams' earlier work too); cudaEventSynchronize waits for that work only, and a
//    held stream stays held for what came after.
//  * stream capture: work issued to a capturing stream is kept, not run, and becomes the graph;
//    a graph launch issues its work to the stream. Synchronising with or querying a capturing
//    stream fails and invalidates the capture, as in CUDA; recording or waiting for an event on
//    one fails too (stricter than CUDA, which allows capture-internal events: warden never uses them).
//  * cudaMallocAsync's memory belongs to the stream's order: the allocation is a point in the
//    stream's queue, and a copy, memset or stand-in kernel (reached()) on another stream that runs
//    before the stream reaches that point is a misuse.
//  * faults on request (inject), and misuse the real runtime punishes with a crash or a silent
//    corruption is reported (misuses()) and answered with an error instead.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cuda_standin {

struct options {
  int devices = 1;                                   // what cudaGetDeviceCount reports
  std::size_t device_memory = std::size_t{1} << 30;  // what cudaMalloc can hand out in all
  bool recycle_stream_handles = false;               // a new stream may get a destroyed one's handle,
                                                     // as the driver's may (then misuse of the old
                                                     // handle cannot be told from use of the new one)
  std::string device_name = "warden CUDA runtime stand-in";  // cudaGetDeviceProperties's name
  int multiprocessors = 4;  // cudaDevAttrMultiProcessorCount, cudaDeviceProp::multiProcessorCount
  int driver_version = 13000;                                  // what cudaDriverGetVersion reports
};

// Forgets faults, call counts, misuses and holds, and sets the options. Memory, streams and events
// stay: pools that outlive a test (the default pools) still own them.
void reset(const options& o = {});

// The n-th call (1 = the next) of the runtime function named `call` from now on fails with
// `error` without doing anything; with `times` > 1 so do the next times - 1 calls after it.
void inject(const std::string& call, int n, cudaError_t error, int times = 1);

// The next call of the runtime function named `call`, on any thread, first runs `before` on that
// thread, outside the stand-in's lock (so `before` may call the runtime, or start a thread that
// does). For tests of races: it opens the window between what the caller decided and the call.
void before_next_call(const std::string& call, std::function<void()> before);

// A held stream's work stays queued (a GPU busy with a long kernel) until release(s), or until the
// host synchronises with it. s may be 0 or cudaStreamLegacy (the legacy default stream) or
// cudaStreamPerThread (the calling thread's default stream). A stream that never completes keeps its work queued for good: a host
// wait on it reports a misuse and fails with cudaErrorLaunchTimeout instead of hanging.
void hold(cudaStream_t s);
void release(cudaStream_t s);
void never_complete(cudaStream_t s);
void release_all();  // every stream, destroyed ones and every thread's per-thread stream included

// Work queued on s and not yet done.
std::size_t pending(cudaStream_t s);

// Streams the stand-in still runs work for: created and not destroyed, the per-thread streams of
// threads still running, and those gone with work still queued. A stream destroyed (or whose
// thread ended) with nothing queued is retired, unless its handle may be handed out again
// (options::recycle_stream_handles): queue scans do not grow with every thread a program ran.
std::size_t streams_in_use();

// How often the runtime function `call` was called since the last reset.
long calls(const std::string& call);

// Misuse seen since the last reset: a double free, a use of a destroyed stream or event, a copy out
// of an allocation's bounds, a host wait that could never return.
std::vector<std::string> misuses();

// Allocations not yet freed (device, async, pinned and managed).
std::size_t live_allocations();
std::size_t device_bytes_in_use();

// What a kernel launch that failed leaves behind: the stand-in cannot launch kernels, so a test
// that drives launch's host path calls this where the launch would fail.
void set_last_error(cudaError_t e);

// A stand-in kernel: `body` runs on the host when stream s reaches it, in order with the stream's
// other work; on a stream being captured (cudaStreamBeginCapture) it is captured, and runs at each
// launch of the graph. Tests' launch entries call it where the kernel would be launched.
void launch_kernel(cudaStream_t s, std::function<void()> body);

// What a stand-in kernel's body calls for each device range it touches, as copies and memsets do
// when they run: a range of memory from cudaMallocAsync whose stream has not yet reached the
// allocation is a misuse (CUDA's stream-ordered allocator: another stream's work must be ordered
// after the allocation).
void reached(const void* p, std::size_t bytes, const char* what);

// The device's clock, which events read when their stream reaches them (cudaEventElapsedTime): it
// stands still unless a test moves it, typically from a stand-in kernel's body, as that kernel's
// running time. It never goes back, and reset() leaves it.
void advance_clock(double ms);

// Graphs and graph instantiations created and not yet destroyed.
long live_graphs();

// The recording NVTX shim: warden, built with WARDEN_NVTX_SHIM (every stand-in target is), opens
// and closes its NVTX ranges (warden/profile/nvtx.hpp) through warden_nvtx_shim_push/pop, which
// this library defines. While recording, each is logged, "push <text>" or "pop", in order (from
// any thread); otherwise they cost nothing and allocate nothing. nvtx_record(true) clears the log.
void nvtx_record(bool on);
std::vector<std::string> nvtx_log();

// Whether p is a device address of the stand-in (one the host cannot dereference).
bool is_device_pointer(const void* p);

}  // namespace cuda_standin
