// The CUDA runtime stand-in (see cuda_standin.hpp for the model). The runtime functions below have
// the signatures of the real <cuda_runtime_api.h>, which this file includes, so that a mismatch is a
// compile error here rather than a silent difference.

#include "cuda_standin.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <pthread.h>

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "the stand-in implements the legacy default stream for handle 0 (and cudaStreamPerThread by its handle)"
#endif

namespace {

// Device addresses carry this bit: above every user address on x86-64 and AArch64 (48-bit), and
// outside AArch64's ignored top byte, so dereferencing one on the host faults.
constexpr std::uintptr_t device_tag = std::uintptr_t{1} << 52;

enum class memory_kind { device, pinned, managed };

struct record_mark;

struct allocation {
  std::byte* storage = nullptr;
  std::size_t size = 0;
  memory_kind kind = memory_kind::device;
  // cudaMallocAsync: the record that marks the allocation's point in its stream. Until that stream
  // reaches it, the memory is not the caller's on any other stream (CUDA's stream-ordered
  // allocator may still be using it for work freed earlier in that stream's order).
  std::shared_ptr<record_mark> ready;
};

struct stream_state;

// A point in a stream's queue: done once the queue has executed the operation that carries it (an
// event record, or the last operation issued before an implicit synchronisation asked for it).
struct record_mark {
  bool done = false;
  stream_state* stream = nullptr;
  double at_ms = 0;  // the device clock when the stream reached the record (cudaEventElapsedTime)
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
  std::shared_ptr<record_mark> tail;    // made on demand: done when this operation has run (what a
                                        // later operation on another stream implicitly waits for)
  std::vector<std::shared_ptr<record_mark>> after;  // implicit waits (the legacy default stream's
                                                    // rules): runs only once all of them are done
  std::uintptr_t freed = 0;             // free: the address as handed out
  std::function<void()> run;            // kernel: what the test's stand-in kernel does
};

// A captured graph, and its instantiation: the operations captured, in order.
struct graph_state {
  std::vector<queued_op> ops;
};

struct stream_state {
  bool destroyed = false;
  // Synchronises with the legacy default stream (cudaStreamCreate, flags cudaStreamDefault, and
  // every per-thread default stream); false for cudaStreamNonBlocking streams and for the legacy
  // stream itself.
  bool blocking = false;
  bool per_thread = false;  // a host thread's cudaStreamPerThread
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
  std::map<std::uintptr_t, std::size_t> registered;  // cudaHostRegister: page-locked ranges, by base
  stream_state legacy;
  std::vector<std::unique_ptr<stream_state>> streams;  // created ones and the per-thread streams
  // Streams gone for good: destroyed (or their thread ended) with nothing left queued. Kept, not
  // freed, since marks of their records still name them; out of `streams`, so that the queues'
  // scans (drain, the legacy stream's implicit waits) do not grow with every thread a program
  // ever ran. `ended` counts the streams in `streams` that are gone but still had work queued.
  std::vector<std::unique_ptr<stream_state>> retired;
  std::size_t ended = 0;
  std::vector<std::unique_ptr<event_state>> events;
  std::unordered_map<const void*, event_state*> event_index;  // every event made, by its handle
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
  double clock_ms = 0;   // the device's clock: moved only by advance_clock (a stand-in kernel's cost)
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

// cuda_standin::before_next_call: one pending hook at most, run outside the runtime's lock.
struct call_hook {
  std::atomic<bool> armed{false};
  std::mutex mutex;
  std::string call;
  std::function<void()> before;
};
call_hook& hook() {
  static call_hook* h = new call_hook;  // never destroyed, as the runtime
  return *h;
}
void run_hook(const char* call) {
  call_hook& h = hook();
  if (!h.armed.load(std::memory_order_acquire)) return;
  std::function<void()> before;
  {
    std::lock_guard lock(h.mutex);
    if (!h.armed.load() || h.call != call) return;
    before = std::move(h.before);
    h.armed.store(false);
  }
  before();
}

#define STANDIN_ENTER(call)                                              \
  run_hook(call);                                                        \
  lock_type lock(rt().mutex);                                            \
  if (const cudaError_t injected = enter(call); injected != cudaSuccess) \
  return fail(injected)

// ---- streams -----------------------------------------------------------------------------------

// The calling host thread's default stream (cudaStreamPerThread), made on its first use.
// CUDA Runtime API, "Stream synchronization behavior", "Per-thread default stream": "an implicit
// stream local to both the thread and the CUcontext, and which does not synchronize with other
// streams (just like explicitly created streams). The per-thread default stream is not a
// non-blocking stream and will synchronize with the legacy default stream if both are used in a
// program." When its thread ends, it ends as a destroyed stream does: its queued work still runs
// (release_all reaches it), then it is retired. The end is told by a thread-specific key's
// destructor, which runs after every C++ thread_local destructor of the thread (glibc), so warden's
// own thread-exit code still finds the stream.
thread_local stream_state* per_thread_mine = nullptr;  // the calling thread's, once made

void end_per_thread_stream(void* state) {
  lock_type lock(rt().mutex);
  static_cast<stream_state*>(state)->destroyed = true;
  ++rt().ended;
  per_thread_mine = nullptr;  // a later use on this thread (another key's destructor) makes a new one
}

stream_state* per_thread_stream() {
  stream_state*& mine = per_thread_mine;
  if (mine == nullptr) {
    static const pthread_key_t key = [] {
      pthread_key_t k;
      if (pthread_key_create(&k, end_per_thread_stream) != 0) std::abort();  // the stand-in cannot keep its rule
      return k;
    }();
    rt().streams.push_back(std::make_unique<stream_state>());
    mine = rt().streams.back().get();
    mine->blocking = true;
    mine->per_thread = true;
    pthread_setspecific(key, mine);
  }
  return mine;
}

// The two implicit streams: handle 0 and cudaStreamLegacy are the legacy default stream (this
// stand-in is not built with CUDA_API_PER_THREAD_DEFAULT_STREAM), cudaStreamPerThread the calling
// thread's own stream.
stream_state* implicit_stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy) return &rt().legacy;
  if (s == cudaStreamPerThread) return per_thread_stream();
  return nullptr;
}

stream_state* find_stream(cudaStream_t s, const char* call) {
  runtime& r = rt();
  if (stream_state* implicit = implicit_stream(s)) return implicit;
  for (auto& owned : r.streams)
    if (owned.get() == reinterpret_cast<stream_state*>(s)) {
      if (owned->destroyed) {
        misuse(std::string(call) + ": stream " + hex(s) + " was destroyed");
        return nullptr;
      }
      return owned.get();
    }
  for (auto& gone : r.retired)
    if (gone.get() == reinterpret_cast<stream_state*>(s)) {
      misuse(std::string(call) + ": stream " + hex(s) + " was destroyed");
      return nullptr;
    }
  misuse(std::string(call) + ": " + hex(s) + " is not a stream");
  return nullptr;
}

event_state* find_event(cudaEvent_t e, const char* call) {
  if (auto it = rt().event_index.find(static_cast<const void*>(e)); it != rt().event_index.end()) {
    if (it->second->destroyed) {
      misuse(std::string(call) + ": event " + hex(e) + " was destroyed");
      return nullptr;
    }
    return it->second;
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

// A device range used by work that runs now: misuse if it lies in memory from cudaMallocAsync
// whose stream has not reached the allocation (work on another stream not ordered after it).
void check_reached(const void* p, std::size_t bytes, const char* call) {
  if (!tagged(p)) return;
  allocation* a = owner_of(p, bytes);
  if (a == nullptr || a->ready == nullptr || a->ready->done) return;
  misuse(std::string(call) + ": device range " + hex(p) + " + " + std::to_string(bytes) +
         " bytes, from cudaMallocAsync, used before the allocating stream reached the allocation "
         "(work on another stream must be ordered after it)");
}

// Whether [p, p + bytes) lies in a range registered with cudaHostRegister.
bool registered_range(const void* p, std::size_t bytes) {
  auto& all = rt().registered;
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  auto it = all.upper_bound(address);
  if (it == all.begin()) return false;
  --it;
  return address + bytes <= it->first + it->second;
}

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

// The mark that keeps op from running (an implicit wait first, then an explicit one), or null.
const record_mark* blocker(const queued_op& op) {
  for (const auto& m : op.after)
    if (!m->done) return m.get();
  if (op.what == queued_op::kind::wait && !op.mark->done) return op.mark.get();
  return nullptr;
}

bool runnable(const queued_op& op) { return blocker(op) == nullptr; }

void execute(queued_op& op) {
  switch (op.what) {
    case queued_op::kind::copy: {
      check_reached(op.dst, op.bytes, "copy");
      check_reached(op.src, op.bytes, "copy");
      std::byte* dst = host_bytes(op.dst, op.bytes, "copy");
      const std::byte* src = op.staged.empty() ? host_bytes(op.src, op.bytes, "copy") : op.staged.data();
      if (dst != nullptr && src != nullptr) std::memmove(dst, src, op.bytes);  // else reported already
      break;
    }
    case queued_op::kind::memset:
      check_reached(op.dst, op.bytes, "memset");
      if (std::byte* dst = host_bytes(op.dst, op.bytes, "memset")) std::memset(dst, op.value, op.bytes);
      break;
    case queued_op::kind::record:
      op.mark->done = true;
      op.mark->at_ms = rt().clock_ms;
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
  if (op.tail) op.tail->done = true;
}

template <class F>
void for_each_stream(F&& f) {
  f(rt().legacy);
  for (auto& s : rt().streams) f(*s);
}

// Moves the streams that are gone and have nothing queued to `retired`. A destroyed stream whose
// handle the driver may hand out again (options.recycle_stream_handles) stays, to be reused.
void retire_ended_streams() {
  runtime& r = rt();
  r.ended = 0;
  std::erase_if(r.streams, [&](std::unique_ptr<stream_state>& s) {
    if (!s->destroyed) return false;
    if (!s->queue.empty() || s->capturing || (!s->per_thread && r.options.recycle_stream_handles)) {
      r.ended += s->queue.empty() ? 0 : 1;
      return false;
    }
    r.retired.push_back(std::move(s));
    return true;
  });
}

// Runs every queued operation that may run, until none can.
void drain() {
  // A stand-in kernel may call the runtime: streams are retired by the outermost drain only.
  static thread_local int depth = 0;
  struct nested {
    nested() { ++depth; }
    ~nested() { --depth; }
  } inside;
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
  if (depth == 1 && rt().ended > 0) retire_ended_streams();
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
      for (const auto& m : op.after)
        if (!m->done) out += "[after " + number(m->stream) + "]";
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
      // drain runs anything else on a free stream: the front waits for another stream's mark
      stream_state* next = blocker(at->queue.front())->stream;
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

// The host waits for one mark (cudaEventSynchronize: "Waits until the completion of all work
// currently captured in event"): the work before it runs, on held streams too (a busy GPU gets
// there), and the streams stay held for what was issued after it. Each step walks from the mark's
// stream through the marks that hold up its front to an operation that can run.
cudaError_t reach(const record_mark& goal, const char* call) {
  drain();
  while (!goal.done) {
    std::set<const stream_state*> chain;
    for (stream_state* at = goal.stream;;) {
      if (at->stuck) {
        misuse(std::string(call) + ": the host waits for work that never completes");
        return fail(cudaErrorLaunchTimeout);
      }
      if (!chain.insert(at).second || at->queue.empty()) {
        misuse(std::string(call) + ": streams wait for records that can never run (" + describe_queues() + ")");
        return fail(cudaErrorLaunchTimeout);
      }
      if (const record_mark* b = blocker(at->queue.front())) {
        at = b->stream;
        continue;
      }
      queued_op op = std::move(at->queue.front());
      at->queue.pop_front();
      execute(op);
      break;
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

// A mark done once everything now queued on s has run; null when nothing is queued.
std::shared_ptr<record_mark> tail_of(stream_state& s) {
  if (s.queue.empty()) return nullptr;
  queued_op& last = s.queue.back();
  if (!last.tail) {
    last.tail = std::make_shared<record_mark>();
    last.tail->stream = &s;
  }
  return last.tail;
}

// CUDA Runtime API, "Stream synchronization behavior", "Legacy default stream": "When an action is
// taken in the legacy stream such as a kernel launch or cudaStreamWaitEvent(), the legacy stream
// first waits on all blocking streams, the action is queued in the legacy stream, and then all
// blocking streams wait on the legacy stream." Blocking streams are those created without
// cudaStreamNonBlocking ("Non-blocking streams which do not synchronize with the legacy stream can
// be created using the cudaStreamNonBlocking flag") and the per-thread default streams. So work
// issued to the legacy stream waits for all work issued before it to every blocking stream, and
// work issued to a blocking stream waits for all work issued before it to the legacy stream. A
// destroyed blocking stream's queued work still counts: it still runs (cudaStreamDestroy).
void order_implicitly(stream_state& s, queued_op& op) {
  runtime& r = rt();
  auto wait_for = [&](stream_state& other) {
    if (auto mark = tail_of(other)) op.after.push_back(std::move(mark));
  };
  if (&s == &r.legacy) {
    for (auto& other : r.streams)
      if (other->blocking) wait_for(*other);
  } else if (s.blocking) {
    wait_for(r.legacy);
  }
}

void enqueue(stream_state& s, queued_op op) {
  if (s.capturing) {  // captured: it runs when the graph does (implicit waits are made at launch)
    s.captured.push_back(std::move(op));
    return;
  }
  order_implicitly(s, op);
  s.queue.push_back(std::move(op));
  drain();
}

// What CUDA answers an operation a capture does not allow on a capturing stream (a synchronisation,
// an event query): an error, and the capture is invalidated.
cudaError_t refuse_in_capture(stream_state& s) {
  s.capture_invalidated = true;
  return fail(cudaErrorStreamCaptureUnsupported);
}

// Where one end of a copy lies, for the rules of "API synchronization behavior". Pinned is
// page-locked host memory: cudaMallocHost, cudaHostAlloc, or a range registered with
// cudaHostRegister.
enum class place { pageable, pinned, managed, device };

place where(const void* p) {
  if (tagged(p)) return place::device;
  if (const allocation* a = owner_of(p, 1)) return a->kind == memory_kind::pinned ? place::pinned : place::managed;
  return registered_range(p, 1) ? place::pinned : place::pageable;
}

bool host_memory(place p) { return p == place::pageable || p == place::pinned; }

// CUDA Runtime API, "API synchronization behavior", Memcpy (cudaMemcpy: synchronous;
// cudaMemcpyAsync: asynchronous). The synchronous forms "issue these copies through the default
// stream": cudaMemcpy is queued on the legacy default stream with its implicit waits.
//   Synchronous: from pageable host memory to device memory "a stream sync is performed before the
//   copy is initiated. The function will return once the pageable buffer has been copied to the
//   staging memory ..., but the DMA to final destination may not have completed"; from pinned host
//   memory to device memory it "is synchronous with respect to the host"; from device to pageable
//   or pinned host memory it "returns only once the copy has completed"; from device memory to
//   device memory "no host-side synchronization is performed"; from any host memory to any host
//   memory it "is fully synchronous". Managed memory: fully synchronous (earlier editions of the
//   same section: "All transfers involving Unified Memory regions are fully synchronous").
//   Asynchronous: "For transfers between device memory and pageable host memory, the function
//   might be synchronous with respect to host", "If pageable memory must first be staged to pinned
//   memory, the driver may synchronize with the stream and stage the copy": the stand-in takes a
//   pageable source when the copy is issued and returns (the copy itself waits for its turn), and
//   returns from a copy into pageable memory once it is done. Host to host is "fully synchronous".
//   "For all other transfers, the function should be fully asynchronous": a page-locked, managed or
//   device source is read when the stream reaches the copy, not when it is issued.
cudaError_t copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, const char* call, bool synchronous) {
  if (bytes == 0) return cudaSuccess;
  stream_state* s = find_stream(stream, call);
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (host_bytes(dst, bytes, call) == nullptr || host_bytes(src, bytes, call) == nullptr) return fail(cudaErrorInvalidValue);
  const place from = where(src), to = where(dst);
  bool stream_sync_first = false, returns_when_done = false;
  if (host_memory(from) && host_memory(to)) {
    returns_when_done = true;
  } else if (synchronous) {
    stream_sync_first = from == place::pageable && to == place::device;
    returns_when_done = !stream_sync_first && !(from == place::device && to == place::device);
  } else {
    returns_when_done = to == place::pageable;
  }
  if (s->capturing && (stream_sync_first || returns_when_done)) return refuse_in_capture(*s);  // would wait for the copy
  if (stream_sync_first)
    if (const cudaError_t e = finish(*s, call); e != cudaSuccess) return e;
  queued_op op{queued_op::kind::copy};
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  if (from == place::pageable) {  // the runtime stages pageable memory before it returns
    const auto* taken = static_cast<const std::byte*>(src);
    op.staged.assign(taken, taken + bytes);
  }
  enqueue(*s, std::move(op));
  return returns_when_done ? finish(*s, call) : cudaSuccess;
}

// CUDA Runtime API, "API synchronization behavior", Memset: "The cudaMemset functions are
// asynchronous with respect to the host except when the target is pinned host memory or a Unified
// Memory region, in which case they are fully synchronous. The Async versions are always
// asynchronous with respect to the host." (cudaMemset into pageable memory, which CUDA refuses,
// is synchronous here.) cudaMemset goes through the legacy default stream.
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
  return synchronous && where(dst) != place::device ? finish(*s, call) : cudaSuccess;
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

void before_next_call(const std::string& call, std::function<void()> before) {
  call_hook& h = hook();
  std::lock_guard lock(h.mutex);
  h.call = call;
  h.before = std::move(before);
  h.armed.store(true, std::memory_order_release);
}

void inject(const std::string& call, int n, cudaError_t error, int times) {
  lock_type lock(rt().mutex);
  rt().faults[call].push_back({rt().calls[call] + n, error, times});
}

namespace {
stream_state* control_stream(cudaStream_t s) {
  if (stream_state* implicit = implicit_stream(s)) return implicit;  // cudaStreamPerThread: the caller's
  for (auto* list : {&rt().streams, &rt().retired})
    for (auto& owned : *list)
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
std::size_t streams_in_use() {
  lock_type lock(rt().mutex);
  drain();
  return rt().streams.size();
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
void reached(const void* p, std::size_t bytes, const char* what) {
  lock_type lock(rt().mutex);
  check_reached(p, bytes, what);
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
namespace {
std::atomic<bool> nvtx_recording{false};
std::mutex nvtx_mutex;
std::vector<std::string>& nvtx_entries() {
  static auto* entries = new std::vector<std::string>;  // never destroyed: ranges may close at exit
  return *entries;
}
}  // namespace
void nvtx_record(bool on) {
  std::lock_guard lock(nvtx_mutex);
  if (on) nvtx_entries().clear();
  nvtx_recording = on;
}
std::vector<std::string> nvtx_log() {
  std::lock_guard lock(nvtx_mutex);
  return nvtx_entries();
}
void advance_clock(double ms) {
  lock_type lock(rt().mutex);
  rt().clock_ms += ms;
}

}  // namespace cuda_standin

// ---- the NVTX shim ------------------------------------------------------------------------------

extern "C" void warden_nvtx_shim_push(const char* message) {
  if (!cuda_standin::nvtx_recording) return;
  std::lock_guard lock(cuda_standin::nvtx_mutex);
  cuda_standin::nvtx_entries().push_back(std::string("push ") + message);
}
extern "C" void warden_nvtx_shim_pop() {
  if (!cuda_standin::nvtx_recording) return;
  std::lock_guard lock(cuda_standin::nvtx_mutex);
  cuda_standin::nvtx_entries().push_back("pop");
}

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
  std::snprintf(prop->name, sizeof prop->name, "%s", rt().options.device_name.c_str());
  prop->totalGlobalMem = rt().options.device_memory;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->major = 9;
  prop->minor = 0;
  prop->unifiedAddressing = 1;
  prop->multiProcessorCount = rt().options.multiprocessors;
  return cudaSuccess;
}

// The attributes warden reads (the multiprocessors, which size the contents passes' grid); any
// other is cudaErrorInvalidValue, as an attribute the stand-in does not know would mislead.
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  STANDIN_ENTER("cudaDeviceGetAttribute");
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (device < 0 || device >= rt().options.devices) return fail(cudaErrorInvalidDevice);
  if (attr != cudaDevAttrMultiProcessorCount) return fail(cudaErrorInvalidValue);
  *value = rt().options.multiprocessors;
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

cudaError_t CUDARTAPI cudaHostAlloc(void** p, size_t bytes, unsigned int flags) {
  STANDIN_ENTER("cudaHostAlloc");
  if ((flags & ~(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) != 0) return fail(cudaErrorInvalidValue);
  return allocate(p, bytes, memory_kind::pinned);  // freed with cudaFreeHost, as cudaMallocHost's
}

// CUDA Runtime API, cudaHostRegister: "Page-locks the memory range specified by ptr and size"; the
// range is then page-locked host memory for copies (see copy), until cudaHostUnregister, whose
// "base address must be the same one specified to cudaHostRegister()".
cudaError_t CUDARTAPI cudaHostRegister(void* ptr, size_t bytes, unsigned int) {
  STANDIN_ENTER("cudaHostRegister");
  if (ptr == nullptr || bytes == 0 || tagged(ptr) || owner_of(ptr, 1) != nullptr) return fail(cudaErrorInvalidValue);
  auto& all = rt().registered;
  const auto base = reinterpret_cast<std::uintptr_t>(ptr);
  auto next = all.lower_bound(base);
  const bool overlaps = (next != all.end() && next->first < base + bytes) ||
                        (next != all.begin() && std::prev(next)->first + std::prev(next)->second > base);
  if (overlaps) return fail(cudaErrorHostMemoryAlreadyRegistered);
  all[base] = bytes;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostUnregister(void* ptr) {
  STANDIN_ENTER("cudaHostUnregister");
  auto it = rt().registered.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == rt().registered.end()) return fail(cudaErrorHostMemoryNotRegistered);
  finish_all("cudaHostUnregister");  // copies still reading the range read it while it is registered
  rt().registered.erase(it);
  return cudaSuccess;
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
  } else if (registered_range(ptr, 1)) {
    attributes->type = cudaMemoryTypeHost;
    attributes->devicePointer = const_cast<void*>(ptr);
    attributes->hostPointer = const_cast<void*>(ptr);
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  STANDIN_ENTER("cudaMallocAsync");
  stream_state* s = find_stream(stream, "cudaMallocAsync");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (const cudaError_t e = allocate(p, bytes, memory_kind::device); e != cudaSuccess || *p == nullptr) return e;
  if (s->capturing) return cudaSuccess;  // a graph's allocation node: warden never makes one
  // The allocation's point in the stream: CUDA, "Stream Ordered Memory Allocator": the memory may
  // be used by work on the stream after the call, and by other streams once ordered after it.
  auto mark = std::make_shared<record_mark>();
  mark->stream = s;
  queued_op op{queued_op::kind::record};
  op.mark = mark;
  enqueue(*s, std::move(op));
  if (!mark->done) rt().allocations[reinterpret_cast<std::uintptr_t>(*p)].ready = std::move(mark);
  return cudaSuccess;
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

// CUDA Runtime API, cudaStreamCreateWithFlags: cudaStreamDefault, or cudaStreamNonBlocking: "work
// running in the created stream may run concurrently with work in stream 0 (the NULL stream), and
// ... the created stream should perform no implicit synchronization with stream 0". A default
// stream is a blocking one (see order_implicitly).
cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  STANDIN_ENTER("cudaStreamCreateWithFlags");
  if (stream == nullptr || (flags & ~cudaStreamNonBlocking) != 0) return fail(cudaErrorInvalidValue);
  runtime& r = rt();
  stream_state* made = nullptr;
  if (r.options.recycle_stream_handles)
    for (auto& owned : r.streams)
      if (owned->destroyed && !owned->per_thread && owned->queue.empty()) {  // the driver may hand a dead handle out again
        *owned = stream_state{};
        made = owned.get();
        break;
      }
  if (made == nullptr) {
    r.streams.push_back(std::make_unique<stream_state>());
    made = r.streams.back().get();
  }
  made->blocking = (flags & cudaStreamNonBlocking) == 0;
  *stream = reinterpret_cast<cudaStream_t>(made);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  STANDIN_ENTER("cudaStreamDestroy");
  stream_state* s = find_stream(stream, "cudaStreamDestroy");
  if (s == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (s == &rt().legacy || s->per_thread) return fail(cudaErrorInvalidResourceHandle);  // implicit streams
  // CUDA Runtime API, cudaStreamDestroy: "In case the device is still doing work in the stream
  // stream when cudaStreamDestroy() is called, the function will return immediately and the
  // resources associated with stream will be released automatically once the device has completed
  // all work in stream." So it returns at once; the queued work still runs (on release, or when the
  // host waits for it: an event recorded on it, the device), and still orders the legacy stream.
  s->destroyed = true;
  ++rt().ended;  // retired by a later drain, once nothing is queued
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

// CUDA Runtime API, cudaStreamWaitEvent: "Makes all future work submitted to stream wait for all
// work captured in event"; it uses the event's most recent record at the time of the call
// (cudaEventRecord). On the legacy stream it is an action like any other ("Stream synchronization
// behavior"): the wait itself first waits for the blocking streams.
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
  rt().event_index[rt().events.back().get()] = rt().events.back().get();
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

// CUDA Runtime API, cudaEventRecord: "Captures in event the contents of stream at the time of this
// call ... Uses of stream after this call do not modify event"; recording again "will overwrite the
// previously captured state"; "Before the first call to cudaEventRecord(), an event represents an
// empty set of work, so for example cudaEventQuery() would return cudaSuccess." On the legacy
// stream the record waits for the blocking streams first (its "note on default stream behavior"),
// so it captures their earlier work too; on cudaStreamPerThread it is the calling thread's stream.
// cudaEventQuery: "cudaSuccess if all captured work has been completed, or cudaErrorNotReady if
// any captured work is incomplete". cudaEventSynchronize: see reach.
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

// "Computes the elapsed time between two events (in milliseconds)": cudaErrorNotReady while either
// has a record not yet reached, cudaErrorInvalidResourceHandle for one never recorded.
cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  STANDIN_ENTER("cudaEventElapsedTime");
  if (ms == nullptr) return fail(cudaErrorInvalidValue);
  event_state* a = find_event(start, "cudaEventElapsedTime");
  event_state* b = find_event(end, "cudaEventElapsedTime");
  if (a == nullptr || b == nullptr || a->latest == nullptr || b->latest == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (!a->latest->done || !b->latest->done) return fail(cudaErrorNotReady);
  *ms = static_cast<float>(b->latest->at_ms - a->latest->at_ms);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int* version) {
  STANDIN_ENTER("cudaDriverGetVersion");
  if (version == nullptr) return fail(cudaErrorInvalidValue);
  *version = rt().options.driver_version;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  STANDIN_ENTER("cudaEventSynchronize");
  event_state* e = find_event(event, "cudaEventSynchronize");
  if (e == nullptr) return fail(cudaErrorInvalidResourceHandle);
  if (e->latest == nullptr || e->latest->done) return cudaSuccess;
  const std::shared_ptr<record_mark> goal = e->latest;
  return reach(*goal, "cudaEventSynchronize");
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
