// The CUDA runtime stand-in (see cuda_standin.hpp for the model). The runtime functions below have
// the signatures of the real <cuda_runtime_api.h>, which this file includes, so that a mismatch is a
// compile error here rather than a silent difference.

#include "cuda_standin.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Device addresses carry this bit: above every user address on x86-64 and AArch64 (48-bit), and
// outside AArch64's ignored top byte, so dereferencing one on the host faults.
constexpr std::uintptr_t device_tag = std::uintptr_t{1} << 52;

enum class memory_kind { device, pinned, managed };

struct allocation {
  std::byte* storage = nullptr;
  std::size_t size = 0;
  memory_kind kind = memory_kind::device;
};

struct stream_state;

// One recording of an event: done once the stream's queue has executed it.
struct record_mark {
  bool done = false;
  stream_state* stream = nullptr;
};

struct event_state {
  bool destroyed = false;
  std::shared_ptr<record_mark> latest;  // null: never recorded (CUDA: complete)
};

struct queued_op {
  enum class kind { copy, memset, record, wait, free, kernel } what;
  void* dst = nullptr;
  const void* src = nullptr;
  std::size_t bytes = 0;
  int value = 0;
  std::vector<std::byte> staged;        // a pageable source, taken when the copy was issued
  std::shared_ptr<record_mark> mark;    // record: the mark it completes; wait: the mark it waits for
  std::uintptr_t freed = 0;             // free: the address as handed out
  std::function<void()> run;            // kernel: what the test's stand-in kernel does
};

// A captured graph, and its instantiation: the operations captured, in order.
struct graph_state {
  std::vector<queued_op> ops;
};

struct stream_state {
  bool destroyed = false;
  bool held = false;
  bool stuck = false;
  std::deque<queued_op> queue;
  bool capturing = false;           // cudaStreamBeginCapture: work goes into `captured`, not the queue
  bool capture_invalidated = false; // an operation capture does not allow was attempted
  std::vector<queued_op> captured;
};

struct fault {
  long at;  // call number (of this function) at which it fires
  cudaError_t error;
  int times;
};

struct runtime {
  std::recursive_mutex mutex;
  cuda_standin::options options;
  std::map<std::uintptr_t, allocation> allocations;  // keyed by the address handed out
  stream_state legacy;
  std::vector<std::unique_ptr<stream_state>> streams;
  std::vector<std::unique_ptr<event_state>> events;
  // Transparent: a runtime call is counted without building a string (tests count allocations).
  std::map<std::string, long, std::less<>> calls;
  std::map<std::string, std::vector<fault>, std::less<>> faults;
  std::vector<std::string> misuses;
  cudaError_t last = cudaSuccess;
  std::size_t device_used = 0;
  int device = 0;
  std::uint64_t release_threshold = 0;
  int mem_pool = 0;  // its address is the device's default memory pool
  long live_graphs = 0;  // graphs and instantiations not yet destroyed
};

runtime& rt() {
  static runtime* r = new runtime;  // never destroyed: static destructors may still call the runtime
  return *r;
}

using lock_type = std::lock_guard<std::recursive_mutex>;

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

void misuse(const std::string& what) { rt().misuses.push_back(what); }

cudaError_t fail(cudaError_t e) {
  if (e != cudaSuccess && e != cudaErrorNotReady) rt().last = e;
  return e;
}

// Counts the call and fires an injected fault if one is due.
cudaError_t enter(const char* call) {
  runtime& r = rt();
  auto counted = r.calls.find(std::string_view(call));
  if (counted == r.calls.end()) counted = r.calls.emplace(call, 0).first;
  const long n = ++counted->second;
  if (r.faults.empty()) return cudaSuccess;
  auto it = r.faults.find(std::string_view(call));
  if (it == r.faults.end()) return cudaSuccess;
  for (fault& f : it->second)
    if (f.times > 0 && n >= f.at) {
      --f.times;
      return f.error;
    }
  return cudaSuccess;
}

#define STANDIN_ENTER(call)                                              \
  lock_type lock(rt().mutex);                                            \
  if (const cudaError_t injected = enter(call); injected != cudaSuccess) \
  return fail(injected)

// ---- streams -----------------------------------------------------------------------------------

stream_state* find_stream(cudaStream_t s, const char* call) {
  runtime& r = rt();
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return &r.legacy;
  for (auto& owned : r.streams)
    if (owned.get() == reinterpret_cast<stream_state*>(s)) {
      if (owned->destroyed) {
        misuse(std::string(call) + ": stream " + hex(s) + " was destroyed");
        return nullptr;
      }
      return owned.get();
    }
  misuse(std::string(call) + ": " + hex(s) + " is not a stream");
  return nullptr;
}

event_state* find_event(cudaEvent_t e, const char* call) {
  for (auto& owned : rt().events)
    if (owned.get() == reinterpret_cast<event_state*>(e)) {
      if (owned->destroyed) {
        misuse(std::string(call) + ": event " + hex(e) + " was destroyed");
        return nullptr;
      }
      return owned.get();
    }
  misuse(std::string(call) + ": " + hex(e) + " is not an event");
  return nullptr;
}

// ---- memory ------------------------------------------------------------------------------------

bool tagged(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & device_tag) != 0; }

// The allocation holding [p, p + bytes), if any.
allocation* owner_of(const void* p, std::size_t bytes, std::uintptr_t* base = nullptr) {
  auto& all = rt().allocations;
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  auto it = all.upper_bound(address);
  if (it == all.begin()) return nullptr;
  --it;
  if (address + bytes > it->first + it->second.size) return nullptr;
  if (base != nullptr) *base = it->first;
  return &it->second;
}

// Where the stand-in keeps the bytes at p; nullptr (and a misuse) for a device address outside
// every allocation.
std::byte* host_bytes(const void* p, std::size_t bytes, const char* call) {
  if (!tagged(p)) return static_cast<std::byte*>(const_cast<void*>(p));
  std::uintptr_t base = 0;
  allocation* a = owner_of(p, bytes, &base);
  if (a == nullptr) {
    misuse(std::string(call) + ": device range " + hex(p) + " + " + std::to_string(bytes) +
           " bytes is outside every live allocation");
    return nullptr;
  }
  return a->storage + (reinterpret_cast<std::uintptr_t>(p) - base);
}

bool pageable(const void* p) { return !tagged(p) && owner_of(p, 1) == nullptr; }

cudaError_t allocate(void** out, std::size_t bytes, memory_kind kind) {
  runtime& r = rt();
  if (out == nullptr) return fail(cudaErrorInvalidValue);
  *out = nullptr;
  if (bytes == 0) return cudaSuccess;
  if (kind == memory_kind::device && (bytes > r.options.device_memory || r.device_used > r.options.device_memory - bytes))
    return fail(cudaErrorMemoryAllocation);
  const std::size_t rounded = (bytes + 255) / 256 * 256;
  auto* storage = static_cast<std::byte*>(std::aligned_alloc(256, rounded));
  if (storage == nullptr) return fail(cudaErrorMemoryAllocation);
  auto address = reinterpret_cast<std::uintptr_t>(storage);
  if (kind == memory_kind::device) {
    address |= device_tag;
    r.device_used += bytes;
  }
  r.allocations[address] = {storage, bytes, kind};
  *out = reinterpret_cast<void*>(address);
  return cudaSuccess;
}

cudaError_t release(void* p, bool pinned, const char* call) {
  runtime& r = rt();
  if (p == nullptr) return cudaSuccess;
  auto it = r.allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == r.allocations.end()) {
    misuse(std::string(call) + ": " + hex(p) + " is not a live allocation (freed twice, or never allocated)");
    return fail(cudaErrorInvalidValue);
  }
  if ((it->second.kind == memory_kind::pinned) != pinned) {
    misuse(std::string(call) + ": " + hex(p) + " was allocated by the other family (cudaMallocHost / cudaMalloc)");
    return fail(cudaErrorInvalidValue);
  }
  if (it->second.kind == memory_kind::device) r.device_used -= it->second.size;
  std::free(it->second.storage);
  r.allocations.erase(it);
  return cudaSuccess;
}

// ---- the queues --------------------------------------------------------------------------------

bool runnable(const queued_op& op) { return op.what != queued_op::kind::wait || op.mark->done; }

void execute(queued_op& op) {
  switch (op.what) {
    case queued_op::kind::copy: {
      std::byte* dst = host_bytes(op.dst, op.bytes, "copy");
      const std::byte* src = op.staged.empty() ? host_bytes(op.src, op.bytes, "copy") : op.staged.data();
      if (dst != nullptr && src != nullptr) std::memmove(dst, src, op.bytes);  // else reported already
      break;
    }
    case queued_op::kind::memset:
      if (std::byte* dst = host_bytes(op.dst, op.bytes, "memset")) std::memset(dst, op.value, op.bytes);
      break;
    case queued_op::kind::record:
      op.mark->done = true;
      break;
    case queued_op::kind::wait:
      break;
    case queued_op::kind::free:
      release(reinterpret_cast<void*>(op.freed), false, "cudaFreeAsync (when executed)");
      break;
    case queued_op::kind::kernel:
      if (op.run) op.run();
      break;
  }
}

template <class F>
void for_each_stream(F&& f) {
  f(rt().legacy);
  for (auto& s : rt().streams) f(*s);
}

// Runs every queued operation that may run, until none can.
void drain() {
  for (bool progress = true; progress;) {
    progress = false;
    for_each_stream([&](stream_state& s) {
      if (s.held || s.stuck) return;
      while (!s.queue.empty() && runnable(s.queue.front())) {
        queued_op op = std::move(s.queue.front());
        s.queue.pop_front();
        execute(op);
        progress = true;
      }
    });
  }
}

// Every stream's queue, for a misuse report: "stream 1: wait(2) copy record | stream 2: ...".
std::string describe_queues() {
  std::vector<const stream_state*> all;
  for_each_stream([&](stream_state& s) { all.push_back(&s); });
  auto number = [&](const stream_state* s) {
    return std::to_string(std::find(all.begin(), all.end(), s) - all.begin());
  };
  std::string out;
  for (const stream_state* s : all) {
    if (s->queue.empty()) continue;
    out += (out.empty() ? "stream " : " | stream ") + number(s) + (s->held ? " (held)" : "") + (s->destroyed ? " (destroyed)" : "") + ":";
    for (const queued_op& op : s->queue) {
      static const char* names[] = {"copy", "memset", "record", "wait", "free", "kernel"};
      out += std::string(" ") + names[static_cast<int>(op.what)];
      if (op.what == queued_op::kind::wait) out += "(" + number(op.mark->stream) + ")";
    }
  }
  return out;
}

// The host waits for everything queued on s: held streams on the way finish (a busy GPU gets
// there), a stream that never completes makes the wait a misuse and cudaErrorLaunchTimeout.
// While s cannot finish, the chain of waits from its front leads to the stream that holds it up
// (each front is a wait for another stream's record): that stream is released and the queues
// drained again. Waits issued in time order never form a cycle; one that does means the
// ordering is broken, and is a misuse, not a hang.
cudaError_t finish(stream_state& s, const char* call) {
  s.held = false;
  drain();
  while (!s.queue.empty()) {
    std::set<const stream_state*> chain{&s};
    for (stream_state* at = &s;;) {
      if (at->stuck) {
        misuse(std::string(call) + ": the host waits for work that never completes");
        return fail(cudaErrorLaunchTimeout);
      }
      if (at->held) {
        at->held = false;
        break;
      }
      const queued_op& front = at->queue.front();  // a wait: drain runs anything else on a free stream
      stream_state* next = front.mark->stream;
      if (!chain.insert(next).second || next->queue.empty()) {
        misuse(std::string(call) + ": streams wait for records that can never run (" + describe_queues() + ")");
        return fail(cudaErrorLaunchTimeout);
      }
      at = next;
    }
    drain();
  }
  return cudaSuccess;
}

cudaError_t finish_all(const char* call) {
  cudaError_t result = cudaSuccess;
  std::vector<stream_state*> all;
  for_each_stream([&](stream_state& s) { all.push_back(&s); });
  for (stream_state* s : all)
    if (const cudaError_t e = finish(*s, call); e != cudaSuccess) result = e;
  return result;
}

void enqueue(stream_state& s, queued_op op) {
  if (s.capturing) {  // captured: it runs when the graph does
    s.captured.push_back(std::move(op));
    return;
  }
  s.queue.push_back(std::move(op));
  drain();
}

// What CUDA answers an operation a capture does not allow on a capturing stream (a synchronisation,
// an event query): an error, and the capture is invalidated.
cudaError_t refuse_in_capture(stream_state& s) {
  s.capture_invalidated = true;
  return fail(cudaErrorStreamCaptureUnsupported);
}

cudaError_t copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, const char* call, bool synchronous) {
  if (bytes == 0) return cudaSuccess;
  stream_state* s = find_stream(stream, call);
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (host_bytes(dst, bytes, call) == nullptr || host_bytes(src, bytes, call) == nullptr) return fail(cudaErrorInvalidValue);
  if (s->capturing && (synchronous || pageable(dst))) return refuse_in_capture(*s);  // would wait for the copy
  queued_op op{queued_op::kind::copy};
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  if (pageable(src)) {  // the runtime stages pageable memory before it returns
    const auto* from = static_cast<const std::byte*>(src);
    op.staged.assign(from, from + bytes);
  }
  enqueue(*s, std::move(op));
  if (synchronous || pageable(dst)) return finish(*s, call);  // into pageable memory: returns when done
  return cudaSuccess;
}

cudaError_t set(void* dst, int value, std::size_t bytes, cudaStream_t stream, const char* call, bool synchronous) {
  if (bytes == 0) return cudaSuccess;
  stream_state* s = find_stream(stream, call);
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (host_bytes(dst, bytes, call) == nullptr) return fail(cudaErrorInvalidValue);
  queued_op op{queued_op::kind::memset};
  op.dst = dst;
  op.value = value;
  op.bytes = bytes;
  enqueue(*s, std::move(op));
  return synchronous ? finish(*s, call) : cudaSuccess;
}

const char* error_name(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    default: return "cudaErrorUnknown";
  }
}

const char* error_text(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorCudartUnloading: return "driver shutting down";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    default: return "unknown error";
  }
}

}  // namespace

// ---- the control interface -----------------------------------------------------------------------

namespace cuda_standin {

void reset(const options& o) {
  runtime& r = rt();
  lock_type lock(r.mutex);
  // Memory, streams and events stay: pools that outlive a test (the default pools) still own them.
  for_each_stream([](stream_state& s) { s.held = s.stuck = false; });
  drain();
  r.calls.clear();
  r.faults.clear();
  r.misuses.clear();
  r.last = cudaSuccess;
  r.device = 0;
  r.options = o;
}

void inject(const std::string& call, int n, cudaError_t error, int times) {
  lock_type lock(rt().mutex);
  rt().faults[call].push_back({rt().calls[call] + n, error, times});
}

namespace {
stream_state* control_stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return &rt().legacy;
  for (auto& owned : rt().streams)
    if (owned.get() == reinterpret_cast<stream_state*>(s)) return owned.get();
  return nullptr;
}
}  // namespace

void hold(cudaStream_t s) {
  lock_type lock(rt().mutex);
  if (stream_state* st = control_stream(s)) st->held = true;
}
void release(cudaStream_t s) {
  lock_type lock(rt().mutex);
  if (stream_state* st = control_stream(s)) st->held = false;
  drain();
}
void release_all() {
  lock_type lock(rt().mutex);
  for_each_stream([](stream_state& s) { s.held = false; });
  drain();
}
void never_complete(cudaStream_t s) {
  lock_type lock(rt().mutex);
  if (stream_state* st = control_stream(s)) st->stuck = true;
}
std::size_t pending(cudaStream_t s) {
  lock_type lock(rt().mutex);
  stream_state* st = control_stream(s);
  return st == nullptr ? 0 : st->queue.size();
}
long calls(const std::string& call) {
  lock_type lock(rt().mutex);
  auto it = rt().calls.find(call);
  return it == rt().calls.end() ? 0 : it->second;
}
std::vector<std::string> misuses() {
  lock_type lock(rt().mutex);
  return rt().misuses;
}
std::size_t live_allocations() {
  lock_type lock(rt().mutex);
  return rt().allocations.size();
}
std::size_t device_bytes_in_use() {
  lock_type lock(rt().mutex);
  return rt().device_used;
}
bool is_device_pointer(const void* p) { return tagged(p); }
void set_last_error(cudaError_t e) {
  lock_type lock(rt().mutex);
  rt().last = e;
}
void launch_kernel(cudaStream_t stream, std::function<void()> body) {
  lock_type lock(rt().mutex);
  stream_state* s = find_stream(stream, "launch_kernel");
  if (s == nullptr) return;
  queued_op op{queued_op::kind::kernel};
  op.run = std::move(body);
  enqueue(*s, std::move(op));
}
long live_graphs() {
  lock_type lock(rt().mutex);
  return rt().live_graphs;
}

}  // namespace cuda_standin

// ---- the runtime ---------------------------------------------------------------------------------

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  STANDIN_ENTER("cudaGetDeviceCount");
  if (count == nullptr) return fail(cudaErrorInvalidValue);
  *count = rt().options.devices;
  return rt().options.devices > 0 ? cudaSuccess : fail(cudaErrorNoDevice);
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  STANDIN_ENTER("cudaGetDevice");
  if (device == nullptr) return fail(cudaErrorInvalidValue);
  *device = rt().device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  STANDIN_ENTER("cudaSetDevice");
  if (device < 0 || device >= rt().options.devices) return fail(cudaErrorInvalidDevice);
  rt().device = device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  STANDIN_ENTER("cudaGetDeviceProperties");
  if (prop == nullptr) return fail(cudaErrorInvalidValue);
  if (device < 0 || device >= rt().options.devices) return fail(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "warden CUDA runtime stand-in");
  prop->totalGlobalMem = rt().options.device_memory;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->major = 9;
  prop->minor = 0;
  prop->unifiedAddressing = 1;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  STANDIN_ENTER("cudaMemGetInfo");
  if (free_bytes == nullptr || total_bytes == nullptr) return fail(cudaErrorInvalidValue);
  *total_bytes = rt().options.device_memory;
  *free_bytes = rt().device_used >= rt().options.device_memory ? 0 : rt().options.device_memory - rt().device_used;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  STANDIN_ENTER("cudaDeviceSynchronize");
  return finish_all("cudaDeviceSynchronize");
}

cudaError_t CUDARTAPI cudaGetLastError(void) {
  lock_type lock(rt().mutex);
  enter("cudaGetLastError");  // faults are not injected here: it reports them
  const cudaError_t e = rt().last;
  rt().last = cudaSuccess;
  return e;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) {
  lock_type lock(rt().mutex);
  enter("cudaPeekAtLastError");
  return rt().last;
}

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) { return error_name(error); }
const char* CUDARTAPI cudaGetErrorString(cudaError_t error) { return error_text(error); }

// -- memory --

cudaError_t CUDARTAPI cudaMalloc(void** p, size_t bytes) {
  STANDIN_ENTER("cudaMalloc");
  return allocate(p, bytes, memory_kind::device);
}

cudaError_t CUDARTAPI cudaFree(void* p) {
  STANDIN_ENTER("cudaFree");
  finish_all("cudaFree");  // cudaFree synchronises the device
  return release(p, false, "cudaFree");
}

cudaError_t CUDARTAPI cudaMallocHost(void** p, size_t bytes) {
  STANDIN_ENTER("cudaMallocHost");
  return allocate(p, bytes, memory_kind::pinned);
}

cudaError_t CUDARTAPI cudaFreeHost(void* p) {
  STANDIN_ENTER("cudaFreeHost");
  finish_all("cudaFreeHost");
  return release(p, true, "cudaFreeHost");
}

cudaError_t CUDARTAPI cudaMallocManaged(void** p, size_t bytes, unsigned int flags) {
  STANDIN_ENTER("cudaMallocManaged");
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return fail(cudaErrorInvalidValue);
  return allocate(p, bytes, memory_kind::managed);
}

// CUDA Runtime API, "Unified Addressing" (cudaPointerGetAttributes): the memory type of any
// pointer; host memory the runtime did not allocate or register is cudaMemoryTypeUnregistered
// (CUDA 11 and later, where earlier versions returned cudaErrorInvalidValue).
cudaError_t CUDARTAPI cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  STANDIN_ENTER("cudaPointerGetAttributes");
  if (attributes == nullptr) return fail(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  attributes->type = cudaMemoryTypeUnregistered;
  if (const allocation* a = owner_of(ptr, 1)) {
    attributes->type = a->kind == memory_kind::device ? cudaMemoryTypeDevice
                       : a->kind == memory_kind::pinned ? cudaMemoryTypeHost
                                                        : cudaMemoryTypeManaged;
    attributes->devicePointer = const_cast<void*>(ptr);
    attributes->hostPointer = a->kind == memory_kind::device ? nullptr : const_cast<void*>(ptr);
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  STANDIN_ENTER("cudaMallocAsync");
  if (find_stream(stream, "cudaMallocAsync") == nullptr) return fail(cudaErrorInvalidResourceHandle);
  return allocate(p, bytes, memory_kind::device);
}

cudaError_t CUDARTAPI cudaFreeAsync(void* p, cudaStream_t stream) {
  STANDIN_ENTER("cudaFreeAsync");
  stream_state* s = find_stream(stream, "cudaFreeAsync");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (p == nullptr) return cudaSuccess;
  auto it = rt().allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == rt().allocations.end() || it->second.kind != memory_kind::device) {
    misuse("cudaFreeAsync: " + hex(p) + " is not a live device allocation (freed twice, or never allocated)");
    return fail(cudaErrorInvalidValue);
  }
  queued_op op{queued_op::kind::free};
  op.freed = reinterpret_cast<std::uintptr_t>(p);
  enqueue(*s, std::move(op));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  STANDIN_ENTER("cudaDeviceGetDefaultMemPool");
  if (pool == nullptr) return fail(cudaErrorInvalidValue);
  if (device < 0 || device >= rt().options.devices) return fail(cudaErrorInvalidDevice);
  *pool = reinterpret_cast<cudaMemPool_t>(&rt().mem_pool);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void* value) {
  STANDIN_ENTER("cudaMemPoolSetAttribute");
  if (pool != reinterpret_cast<cudaMemPool_t>(&rt().mem_pool) || value == nullptr) return fail(cudaErrorInvalidValue);
  if (attr == cudaMemPoolAttrReleaseThreshold) rt().release_threshold = *static_cast<std::uint64_t*>(value);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind) {
  STANDIN_ENTER("cudaMemcpy");
  return copy(dst, src, bytes, nullptr, "cudaMemcpy", true);
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind, cudaStream_t stream) {
  STANDIN_ENTER("cudaMemcpyAsync");
  return copy(dst, src, bytes, stream, "cudaMemcpyAsync", false);
}

cudaError_t CUDARTAPI cudaMemset(void* dst, int value, size_t bytes) {
  STANDIN_ENTER("cudaMemset");
  return set(dst, value, bytes, nullptr, "cudaMemset", true);
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
  STANDIN_ENTER("cudaMemsetAsync");
  return set(dst, value, bytes, stream, "cudaMemsetAsync", false);
}

// -- streams --

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) {
  STANDIN_ENTER("cudaStreamCreateWithFlags");
  if (stream == nullptr) return fail(cudaErrorInvalidValue);
  runtime& r = rt();
  if (r.options.recycle_stream_handles)
    for (auto& owned : r.streams)
      if (owned->destroyed && owned->queue.empty()) {  // the driver may hand a dead handle out again
        *owned = stream_state{};
        *stream = reinterpret_cast<cudaStream_t>(owned.get());
        return cudaSuccess;
      }
  r.streams.push_back(std::make_unique<stream_state>());
  *stream = reinterpret_cast<cudaStream_t>(r.streams.back().get());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  STANDIN_ENTER("cudaStreamDestroy");
  stream_state* s = find_stream(stream, "cudaStreamDestroy");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s == &rt().legacy) return fail(cudaErrorInvalidResourceHandle);
  s->destroyed = true;  // its queued work still runs, as on a GPU
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  STANDIN_ENTER("cudaStreamSynchronize");
  stream_state* s = find_stream(stream, "cudaStreamSynchronize");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s->capturing) return refuse_in_capture(*s);
  return finish(*s, "cudaStreamSynchronize");
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  STANDIN_ENTER("cudaStreamQuery");
  stream_state* s = find_stream(stream, "cudaStreamQuery");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s->capturing) return refuse_in_capture(*s);
  return s->queue.empty() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  STANDIN_ENTER("cudaStreamWaitEvent");
  stream_state* s = find_stream(stream, "cudaStreamWaitEvent");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  event_state* e = find_event(event, "cudaStreamWaitEvent");
  if (e == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s->capturing) return refuse_in_capture(*s);  // stricter than CUDA: warden never does it
  if (e->latest == nullptr || e->latest->done) return cudaSuccess;
  queued_op op{queued_op::kind::wait};
  op.mark = e->latest;
  enqueue(*s, std::move(op));
  return cudaSuccess;
}

// -- events --

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  STANDIN_ENTER("cudaEventCreateWithFlags");
  if (event == nullptr) return fail(cudaErrorInvalidValue);
  rt().events.push_back(std::make_unique<event_state>());
  *event = reinterpret_cast<cudaEvent_t>(rt().events.back().get());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  STANDIN_ENTER("cudaEventDestroy");
  event_state* e = find_event(event, "cudaEventDestroy");
  if (e == nullptr) return fail(cudaErrorInvalidResourceHandle);
  e->destroyed = true;  // a pending record still completes; waits on it keep their mark
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  STANDIN_ENTER("cudaEventRecord");
  event_state* e = find_event(event, "cudaEventRecord");
  stream_state* s = find_stream(stream, "cudaEventRecord");
  if (e == nullptr || s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s->capturing) return refuse_in_capture(*s);  // stricter than CUDA: warden never does it
  e->latest = std::make_shared<record_mark>();
  e->latest->stream = s;
  queued_op op{queued_op::kind::record};
  op.mark = e->latest;
  enqueue(*s, std::move(op));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  STANDIN_ENTER("cudaEventQuery");
  event_state* e = find_event(event, "cudaEventQuery");
  if (e == nullptr) return fail(cudaErrorInvalidResourceHandle);
  return e->latest == nullptr || e->latest->done ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  STANDIN_ENTER("cudaEventSynchronize");
  event_state* e = find_event(event, "cudaEventSynchronize");
  if (e == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (e->latest == nullptr || e->latest->done) return cudaSuccess;
  return finish(*e->latest->stream, "cudaEventSynchronize");
}

// -- stream capture and graphs --

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode) {
  STANDIN_ENTER("cudaStreamBeginCapture");
  stream_state* s = find_stream(stream, "cudaStreamBeginCapture");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s == &rt().legacy) return fail(cudaErrorStreamCaptureUnsupported);  // the legacy stream cannot be captured
  if (s->capturing) return fail(cudaErrorIllegalState);
  s->capturing = true;
  s->capture_invalidated = false;
  s->captured.clear();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  STANDIN_ENTER("cudaStreamEndCapture");
  stream_state* s = find_stream(stream, "cudaStreamEndCapture");
  if (s == nullptr || graph == nullptr) return fail(cudaErrorInvalidValue);
  if (!s->capturing) return fail(cudaErrorIllegalState);
  s->capturing = false;
  *graph = nullptr;
  if (s->capture_invalidated) {
    s->captured.clear();
    return fail(cudaErrorStreamCaptureInvalidated);
  }
  auto* g = new graph_state{std::move(s->captured)};
  s->captured.clear();
  ++rt().live_graphs;
  *graph = reinterpret_cast<cudaGraph_t>(g);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus* status) {
  STANDIN_ENTER("cudaStreamIsCapturing");
  stream_state* s = find_stream(stream, "cudaStreamIsCapturing");
  if (s == nullptr || status == nullptr) return fail(cudaErrorInvalidValue);
  *status = !s->capturing ? cudaStreamCaptureStatusNone
            : s->capture_invalidated ? cudaStreamCaptureStatusInvalidated
                                     : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  STANDIN_ENTER("cudaGraphInstantiate");
  if (exec == nullptr || graph == nullptr) return fail(cudaErrorInvalidValue);
  auto* g = new graph_state{reinterpret_cast<graph_state*>(graph)->ops};
  ++rt().live_graphs;
  *exec = reinterpret_cast<cudaGraphExec_t>(g);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  STANDIN_ENTER("cudaGraphLaunch");
  stream_state* s = find_stream(stream, "cudaGraphLaunch");
  if (s == nullptr || exec == nullptr) return fail(cudaErrorInvalidValue);
  for (const queued_op& op : reinterpret_cast<graph_state*>(exec)->ops) enqueue(*s, op);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t exec) {
  STANDIN_ENTER("cudaGraphExecDestroy");
  if (exec == nullptr) return fail(cudaErrorInvalidValue);
  delete reinterpret_cast<graph_state*>(exec);
  --rt().live_graphs;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph) {
  STANDIN_ENTER("cudaGraphDestroy");
  if (graph == nullptr) return fail(cudaErrorInvalidValue);
  delete reinterpret_cast<graph_state*>(graph);
  --rt().live_graphs;
  return cudaSuccess;
}

}  // extern "C"
