#pragma once
// Random host programs over warden's buffers, run against the CUDA runtime stand-in, with an oracle
// that checks data, not calls (issue 33, item 3). A program is a short random sequence of host
// operations: buffers of the three spaces made on a chosen stream (warden::streams, the default
// stream, the per-thread default stream), uploads from std::vector and from page-locked memory
// that the host refills at once, copies of every kind, launches that read one buffer and write
// another (the cpu backend, and "GPU" launches: stand-in kernels run in stream order), moves,
// frees, streams held and released at random (a GPU busy for a while), warden::streams destroyed
// while buffers that used them live on, captures and replays, and 2 or 3 threads each running its
// own part on its own buffers, handing buffers over at join points.
//
// The oracle: a model of what every buffer must hold, updated in program order (the order of one
// thread's ops; across threads, the order a hand-off at a join point defines). Every read-back
// (to_host, a to_host_async result read by the host, host indexing of pinned and managed buffers,
// a host view over a pinned buffer) is compared with the model. A mismatch is "stale" when each
// wrong element holds an earlier value of that buffer (a write overtaken by an older one, a read
// that ran before its writer), and "lost" otherwise (another buffer's data, a copy that never
// landed, garbage). An op refused with a warden::error leaves the model as it was; refusals are
// counted by kind, and those of correct programs are listed.
//
// Each program is made from one 64-bit seed; the op log (one line per op, per thread) is kept so a
// failing program can be printed and run again by its seed.

#include <warden/warden.hpp>

#include <cuda_standin.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <deque>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace warden_host_fuzz {

namespace w = warden;
namespace standin = cuda_standin;

// ---- kernels ---------------------------------------------------------------------------------

WARDEN_KERNEL(hf_next_k, w::kernel<w::block<32>, w::in<int>, w::out<int>>([](auto k, auto cur, auto next) {
  auto i = k.global_id();
  return w::when(i < next.size() && i < cur.size(), next[i] = cur[i] + 1);
}));

WARDEN_KERNEL(hf_bump_k, w::kernel<w::block<32>, w::inout<int>>([](auto k, auto a) {
  auto i = k.global_id();
  return w::when(i < a.size(), a[i] = a[i] + 1);
}));

// A gather whose loads the launch bounds by measuring idx (docs/memory.md, "The rule, call by
// call": a launch whose checks read an index buffer's contents waits for its last writer).
WARDEN_KERNEL(hf_gather_k, w::kernel<w::block<32>, w::in<int>, w::in<int>, w::out<int>>([](auto k, auto idx, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < idx.size() && i < dst.size(), dst[i] = src[idx[i]]);
}));

// Where the stand-in keeps the bytes of an address it handed out: device addresses carry a tag
// bit (bit 52, tests/support/cuda_standin/cuda_standin.cpp) that makes them unusable on the host;
// pinned and managed memory is host memory. Used only inside stand-in kernels, which stand for
// the GPU and so may touch device memory.
inline int* host_address(const void* p) {
  return reinterpret_cast<int*>(reinterpret_cast<std::uintptr_t>(p) & ~(std::uintptr_t{1} << 52));
}

// The <<<>>> call of hf_next_k and hf_bump_k on the stand-in: a stand-in kernel that does what the
// kernel does, when its stream gets to it (or at each replay of a graph it was captured into).
struct next_entry {
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t s, const Slots& slots) const {
    const int* cur = host_address(w::detail::get<0>(slots).ptr);
    int* next = host_address(w::detail::get<1>(slots).ptr);
    const int n = std::min(w::detail::get<0>(slots).size, w::detail::get<1>(slots).size);
    const void* cur_device = w::detail::get<0>(slots).ptr;
    const void* next_device = w::detail::get<1>(slots).ptr;
    standin::launch_kernel(s, [cur, next, n, cur_device, next_device] {
      standin::reached(cur_device, static_cast<std::size_t>(n) * sizeof(int), "kernel hf_next_k");
      standin::reached(next_device, static_cast<std::size_t>(n) * sizeof(int), "kernel hf_next_k");
      for (int i = 0; i < n; ++i) next[i] = cur[i] + 1;
    });
  }
};
struct bump_entry {
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t s, const Slots& slots) const {
    int* a = host_address(w::detail::get<0>(slots).ptr);
    const int n = w::detail::get<0>(slots).size;
    const void* a_device = w::detail::get<0>(slots).ptr;
    standin::launch_kernel(s, [a, n, a_device] {
      standin::reached(a_device, static_cast<std::size_t>(n) * sizeof(int), "kernel hf_bump_k");
      for (int i = 0; i < n; ++i) a[i] = a[i] + 1;
    });
  }
};

// hf_gather_k's call. An index outside src, which the launch should have refused, writes a value
// no program writes (the read-back reports it as lost) instead of reading outside the memory.
struct gather_entry {
  static constexpr int outside = INT_MIN + 1;
  template <class Slots>
  void operator()(dim3, dim3, cudaStream_t s, const Slots& slots) const {
    const auto& idx = w::detail::get<0>(slots);
    const auto& src = w::detail::get<1>(slots);
    const auto& dst = w::detail::get<2>(slots);
    const int* i = host_address(idx.ptr);
    const int* from = host_address(src.ptr);
    int* to = host_address(dst.ptr);
    const int n = std::min(idx.size, dst.size), m = src.size;
    const void* devices[3] = {idx.ptr, src.ptr, dst.ptr};
    const int sizes[3] = {idx.size, src.size, dst.size};
    standin::launch_kernel(s, [i, from, to, n, m, devices, sizes] {
      for (int k = 0; k < 3; ++k) standin::reached(devices[k], static_cast<std::size_t>(sizes[k]) * sizeof(int), "kernel hf_gather_k");
      for (int k = 0; k < n; ++k) to[k] = i[k] >= 0 && i[k] < m ? from[i[k]] : outside;
    });
  }
};

// ---- options and counts ------------------------------------------------------------------------

struct options {
  bool threads = true;      // programs of 2 or 3 threads too
  bool per_thread = true;   // ops on cudaStreamPerThread
  int min_ops = 20, max_ops = 60;
  bool views = true;        // host views (view_of) over pinned and managed buffers
  bool concurrent_captures = true;  // captures while other threads of the program run
  std::string focus;        // bias towards one situation of issue 33 (part::step)
  bool print_log = false;   // print every program's op log (--replay)
};

struct counts {
  long programs = 0, ops = 0, readbacks = 0, lost = 0, stale = 0, misuses = 0, failed_programs = 0;
  long leaked = 0;  // programs after which a pool holds an allocation no buffer owns
  long threaded_programs = 0, handoffs = 0, captures = 0, replays = 0;
  long gathers = 0, ordered_buffers = 0;  // gathers run on measured indices; buffers from the stream-ordered pool
  std::map<std::string, long> refusals;            // expected: the program broke a documented rule
  std::map<std::string, long> refusals_of_correct; // the program was correct: findings
  std::vector<std::string> reports;                // the first failing programs, with their logs
  std::vector<std::string> refusal_reports;        // the first refusals of correct programs

  void add(const counts& o) {
    programs += o.programs, ops += o.ops, readbacks += o.readbacks, lost += o.lost, stale += o.stale;
    misuses += o.misuses, failed_programs += o.failed_programs, threaded_programs += o.threaded_programs;
    leaked += o.leaked;
    handoffs += o.handoffs, captures += o.captures, replays += o.replays;
    gathers += o.gathers, ordered_buffers += o.ordered_buffers;
    for (auto& [k, v] : o.refusals) refusals[k] += v;
    for (auto& [k, v] : o.refusals_of_correct) refusals_of_correct[k] += v;
    for (auto& r : o.reports)
      if (reports.size() < 5) reports.push_back(r);
    for (auto& r : o.refusal_reports)
      if (refusal_reports.size() < 5) refusal_reports.push_back(r);
  }
};

// ---- the model ---------------------------------------------------------------------------------

constexpr int unknown = INT_MIN;  // an element nothing has written yet (uninitialised memory)

// What one buffer's memory must hold. It follows the memory: a move takes it along, and a graph
// that captured the memory keeps it (alive turns false when the memory is freed).
struct contents {
  std::vector<int> v;
  std::vector<std::vector<int>> history;  // earlier contents, newest last (for "stale")
  bool alive = true;
  bool moved_from = false;  // the model of a moved-from buffer: no memory, no contents
  int id = 0;

  void set(std::vector<int> next) {
    history.push_back(std::move(v));
    if (history.size() > 4) history.erase(history.begin());
    v = std::move(next);
  }
};
using contents_ptr = std::shared_ptr<contents>;

inline std::vector<int> plus_one(const std::vector<int>& v) {
  std::vector<int> r(v);
  for (int& x : r)
    if (x != unknown) ++x;
  return r;
}

// One buffer of any space (or none), and its model.
struct slot {
  std::optional<w::device_buffer<int>> d;
  std::optional<w::pinned_buffer<int>> p;
  std::optional<w::managed_buffer<int>> m;
  contents_ptr model;

  bool has() const { return d || p || m; }
  bool live() const { return has() && model && !model->v.empty(); }  // holds memory
  bool host_indexable() const { return p || m; }
  std::size_t size() const { return model ? model->v.size() : 0; }
  char kind() const { return d ? 'd' : p ? 'p' : m ? 'm' : '-'; }
  // Destroys the buffer object (its memory goes back to the pool, in stream order).
  void clear() {
    if (model && has() && !model->v.empty()) model->alive = false;
    d.reset();
    p.reset();
    m.reset();
    model.reset();
  }
};

template <class F>
void visit(slot& s, F&& f) {
  if (s.d) f(*s.d);
  else if (s.p) f(*s.p);
  else if (s.m) f(*s.m);
}

// A stream an op may use: a warden::stream of the part's (index >= 0), the default stream (-1),
// or the per-thread default stream (-2).
struct stream_choice {
  int index = -1;
  w::stream_ref ref;
  std::string name() const { return index >= 0 ? "s" + std::to_string(index) : index == -1 ? "default" : "per-thread"; }
};

struct program;

// A graph a part captured, and what each replay does to the model.
struct captured_graph {
  w::graph g;
  int stream_index = -1;  // the warden::stream it was captured on
  struct effect {
    bool next;  // next: dst = src + 1; else dst = dst + 1
    contents_ptr src, dst;
  };
  std::vector<effect> effects;
};

// ---- one program -------------------------------------------------------------------------------

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Set by the stream-ordered pool's observer when it throws, on the thread whose allocation it saw.
inline thread_local bool observer_threw = false;

constexpr int slots_per_thread = 6;
constexpr int streams_per_thread = 3;

struct program {
  std::uint64_t seed;
  const options& opt;
  int threads = 1;
  std::vector<slot> slots;
  std::deque<std::optional<w::stream>> streams;
  // Device buffers drawn from a pool over a stream-ordered upstream (cudaMallocAsync): memory the
  // stand-in lets other streams touch only once the allocating stream has reached it.
  std::optional<w::memory_pool> ordered_pool;
  std::vector<std::vector<int>> owned;  // the slots each thread owns in the current phase
  std::atomic<int> next_id{1};
  std::string log;  // the parts' logs, phase by phase
  counts c;
  bool failed = false;

  program(std::uint64_t s, const options& o) : seed(s), opt(o) {}
};

// One thread's part of a phase: its own ops on its own slots.
class part {
 public:
  part(program& prog, int thread, int phase, int ops, bool concurrent)
      : prog_(prog), opt_(prog.opt), thread_(thread), ops_(ops), concurrent_(concurrent),
        rng_(mix(prog.seed ^ (static_cast<std::uint64_t>(thread + 1) << 40) ^ (static_cast<std::uint64_t>(phase + 1) << 48))),
        value_base_(thread * 64 + phase + 1) {}

  void run() {
    for (int op = 0; op < ops_; ++op) {
      op_ = op;
      try {
        step();
      } catch (const w::error& e) {
        refusal("unexpected " + kind_of(e), e.what(), true);
      } catch (const std::exception& e) {
        fail(std::string("exception: ") + e.what());
      }
      ++c.ops;
    }
    graphs_.clear();  // graphs live within a part: the buffers they replay on are this thread's
  }

  counts c;
  std::string log;
  bool failed = false;

 private:
  // ---- random choices ----
  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  std::size_t any_size() {
    const int r = pick(100);
    return r < 40 ? 64 : r < 65 ? 256 : r < 80 ? 8 : r < 90 ? 1000 : 4096;
  }
  std::vector<int> fresh(std::size_t n) {  // values no other write of this program makes
    const int base = static_cast<int>(mix(prog_.seed * 1315423911ull + static_cast<std::uint64_t>(value_base_) * 4099u +
                                          static_cast<std::uint64_t>(writes_++)) & 0x3fffe000u);
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = base + static_cast<int>(i);
    return v;
  }
  std::vector<int>& mine() { return prog_.owned[static_cast<std::size_t>(thread_)]; }
  int any_slot_index() { return mine()[static_cast<std::size_t>(pick(static_cast<int>(mine().size())))]; }
  slot& at(int i) { return prog_.slots[static_cast<std::size_t>(i)]; }
  // A slot with a buffer holding memory, or -1.
  int live_slot(bool host_indexable = false) {
    std::vector<int> c;
    for (int i : mine())
      if (at(i).live() && (!host_indexable || at(i).host_indexable())) c.push_back(i);
    return c.empty() ? -1 : c[static_cast<std::size_t>(pick(static_cast<int>(c.size())))];
  }
  int other_live_slot(int not_this, std::size_t size) {  // size 0: any
    std::vector<int> c;
    for (int i : mine())
      if (i != not_this && at(i).live() && (size == 0 || at(i).size() == size)) c.push_back(i);
    return c.empty() ? -1 : c[static_cast<std::size_t>(pick(static_cast<int>(c.size())))];
  }
  std::vector<int> my_streams() {
    std::vector<int> r;
    for (int k = 0; k < streams_per_thread; ++k) {
      const int i = thread_ * streams_per_thread + k;
      if (prog_.streams[static_cast<std::size_t>(i)]) r.push_back(i);
    }
    return r;
  }
  stream_choice stream_of(int index) {
    if (index >= 0) return {index, prog_.streams[static_cast<std::size_t>(index)]->ref()};
    if (index == -1) return {-1, w::default_stream};
    return {-2, w::stream_ref(cudaStreamPerThread)};
  }
  stream_choice any_stream() {
    const std::vector<int> own = my_streams();
    const int r = pick(100);
    if (opt_.per_thread && r < 20) return stream_of(-2);
    if (r < 35 || own.empty()) return stream_of(-1);
    return stream_of(own[static_cast<std::size_t>(pick(static_cast<int>(own.size())))]);
  }
  stream_choice own_stream() {  // a warden::stream, or the default stream if the part has none
    const std::vector<int> own = my_streams();
    if (own.empty()) return stream_of(-1);
    return stream_of(own[static_cast<std::size_t>(pick(static_cast<int>(own.size())))]);
  }

  // ---- logging and verdicts ----
  void note(const std::string& what) {
    log += "  t" + std::to_string(thread_) + " #" + std::to_string(op_) + " " + what + "\n";
  }
  static std::string kind_of(const w::error& e) {
    if (dynamic_cast<const w::capture_error*>(&e)) return "capture_error (E109)";
    if (dynamic_cast<const w::observer_error*>(&e)) return "observer_error (E112)";
    if (dynamic_cast<const w::moved_from_error*>(&e)) return "moved_from_error (E110)";
    if (dynamic_cast<const w::size_mismatch*>(&e)) return "size_mismatch";
    if (dynamic_cast<const w::space_error*>(&e)) return "space_error (E105)";
    if (dynamic_cast<const w::out_of_memory*>(&e)) return "out_of_memory";
    if (dynamic_cast<const w::cuda_error*>(&e)) return "cuda_error";
    if (dynamic_cast<const w::grid_error*>(&e)) return "grid_error (E102)";
    return "warden::error";
  }
  // A refusal: expected (the program broke a documented rule) or of a correct program (a finding).
  void refusal(const std::string& kind, const std::string& message, bool of_correct) {
    note("  -> refused: " + kind + ": " + message.substr(0, 200));
    if (of_correct) {
      ++c.refusals_of_correct[kind];
      if (c.refusal_reports.size() < 5)
        c.refusal_reports.push_back("seed " + std::to_string(prog_.seed) + " thread " + std::to_string(thread_) + " op " +
                                    std::to_string(op_) + ": " + kind + ": " + message);
    } else {
      ++c.refusals[kind];
    }
  }
  void fail(const std::string& what) {
    note("  -> FAILED: " + what);
    failed = true;
  }

  // Compares a read-back with the model; classifies a mismatch as stale or lost.
  void compare(const contents& model, const std::vector<int>& got, const std::string& how, int slot_index) {
    ++c.readbacks;
    const std::vector<int>& want = model.v;
    if (got.size() != want.size()) {
      ++c.lost;
      fail(how + " of b" + std::to_string(slot_index) + ": " + std::to_string(got.size()) + " elements, expected " +
           std::to_string(want.size()));
      return;
    }
    std::size_t wrong = 0, first = 0;
    bool all_stale = true;
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (want[i] == unknown || got[i] == want[i]) continue;
      if (wrong++ == 0) first = i;
      bool earlier = false;
      for (const auto& h : model.history)
        if (i < h.size() && h[i] == got[i]) earlier = true;
      if (!earlier) all_stale = false;
    }
    if (wrong == 0) return;
    if (all_stale) ++c.stale;
    else ++c.lost;
    fail(std::string(all_stale ? "STALE" : "LOST") + " " + how + " of b" + std::to_string(slot_index) + " (model " +
         std::to_string(model.id) + "): " + std::to_string(wrong) + " of " + std::to_string(want.size()) +
         " elements wrong, first [" + std::to_string(first) + "] = " + std::to_string(got[first]) + ", expected " +
         std::to_string(want[first]));
  }

  // Reads a slot back in one of the ways the host can.
  void read_back(int i, const char* why) {
    slot& s = at(i);
    if (!s.has()) return;
    if (s.model->moved_from) return read_moved_from(i, why);
    // 0 to_host, 1 const indexing, 2 indexing, 3 a std::span over the buffer (its non-const
    // data(): a host access, docs/memory.md), 4 a read view.
    const int how = pick(s.host_indexable() ? (opt_.views ? 5 : 4) : 1);
    std::vector<int> got;
    std::string name;
    if (how == 0) {
      visit(s, [&](auto& b) { got = w::to_host(b); });
      name = "to_host";
    } else if (how == 1 || how == 2) {
      got.resize(s.size());
      auto read = [&](auto& b) {
        if (how == 1)
          for (std::size_t k = 0; k < got.size(); ++k) got[k] = std::as_const(b)[k];
        else
          for (std::size_t k = 0; k < got.size(); ++k) got[k] = b[k];
      };
      if (s.p) read(*s.p);
      else read(*s.m);
      name = how == 1 ? "const indexing" : "indexing";
    } else if (how == 3) {
      auto read = [&](auto& b) {
        const std::span<const int> span(b);
        got.assign(span.begin(), span.end());
      };
      if (s.p) read(*s.p);
      else read(*s.m);
      name = "a span over data()";
    } else {
      auto view = [&](auto& b) {
        auto v = w::view_of<w::access::read>(b);
        got.resize(v.size());
        for (std::size_t k = 0; k < v.size(); ++k) got[k] = v[k];
      };
      if (s.p) view(*s.p);
      else view(*s.m);
      name = "view_of<read>";
    }
    note(std::string("check b") + std::to_string(i) + " by " + name + " (" + why + ")");
    compare(*s.model, got, name, i);
  }

  // A moved-from buffer is empty: size() 0, and a read-back gives nothing or is refused (E110).
  void read_moved_from(int i, const char* why) {
    slot& s = at(i);
    ++c.readbacks;
    std::size_t size = 0;
    visit(s, [&](auto& b) { size = b.size() + (b.empty() ? 0 : 1); });
    note(std::string("check moved-from b") + std::to_string(i) + " (" + why + ")");
    if (size != 0) {
      ++c.lost;
      return fail("moved-from b" + std::to_string(i) + " is not empty: size() " + std::to_string(size));
    }
    try {
      std::vector<int> got;
      visit(s, [&](auto& b) { got = w::to_host(b); });
      if (!got.empty()) {
        ++c.lost;
        fail("to_host of moved-from b" + std::to_string(i) + " gave " + std::to_string(got.size()) + " elements");
      }
    } catch (const w::moved_from_error& e) {
      refusal("moved_from_error (E110): to_host of a moved-from buffer", e.what(), false);
    }
  }

  contents_ptr new_model(std::vector<int> v) {
    auto m = std::make_shared<contents>();
    m->v = std::move(v);
    m->id = prog_.next_id.fetch_add(1);
    return m;
  }

  // ---- the ops ----
  void step() {
    // The situations of issue 33, made on purpose now and then (always with --focus).
    const int macro = pick(100);
    const std::string& f = opt_.focus;
    const int bias = f.empty() ? 6 : 60;
    if (macro < bias) {
      const int which = f == "scratch" ? 0 : f == "stream-death" ? 1 : f == "pinned-refill" ? 2 : f == "per-thread" ? 3
                        : f == "moved-from" ? 4 : f == "gathers" ? 5 : pick(6);
      switch (which) {
        case 0: return scratch_reuse();
        case 1: if (!concurrent_) return stream_death(); break;
        case 2: return upload_pinned(true);
        case 3: if (opt_.per_thread) return per_thread_churn(); break;
        case 4: return move_op(true);
        case 5: return gathers_through_one_buffer();
      }
    }
    switch (pick(26)) {
      case 0: case 1: return make();
      case 2: case 3: return upload();
      case 4: return upload_pinned(false);
      case 5: return host_fill();
      case 6: return poke();
      case 7: case 8: case 9: return copy_op();
      case 10: return download();
      case 11: case 12: return launch_op();
      case 13: return move_op(false);
      case 14: return free_op();
      case 15: case 16: return hold_op();
      case 17: return concurrent_ ? hold_op() : stream_recycle();
      case 18: return capture_op();
      case 19: return replay_op();
      case 20: return index_write();
      case 21: return gather_op();
      default: {
        const int i = any_slot_index();
        if (at(i).has()) read_back(i, "now");
        else note("check b" + std::to_string(i) + ": empty");
      }
    }
  }

  void make() {
    const int i = any_slot_index();
    const std::size_t n = any_size();
    const stream_choice on = any_stream();
    const int kind = pick(3);
    slot& s = at(i);
    s.clear();
    const bool ordered = kind == 0 && prog_.ordered_pool && chance(40);
    if (ordered) {
      if (!make_ordered(i, n, on)) return;
    } else if (kind == 0) s.d.emplace(n, on.ref);
    else if (kind == 1) s.p.emplace(n, on.ref);
    else s.m.emplace(n, on.ref);
    s.model = new_model(std::vector<int>(n, unknown));
    note("make b" + std::to_string(i) + " " + s.kind() + " n=" + std::to_string(n) + " on " + on.name() +
         (ordered ? " from the stream-ordered pool" : ""));
    if (kind != 0 && chance(70)) fill_host_slot(i, "fill");
  }

  // A device buffer from the stream-ordered pool, whose observer (when the program set one) throws
  // as its allocated bytes rise past a budget: that allocation must be refused with observer_error
  // (E112), the block given back (the end of the program counts the pool's live allocations).
  bool make_ordered(int i, std::size_t n, const stream_choice& on) {
    observer_threw = false;
    try {
      at(i).d.emplace(n, *prog_.ordered_pool, on.ref);
    } catch (const w::observer_error& e) {
      note("make b" + std::to_string(i) + " d n=" + std::to_string(n) + " on " + on.name() + " from the stream-ordered pool");
      if (!observer_threw) refusal("observer_error (E112) with no throw from the observer", e.what(), true);
      else refusal("observer_error (E112): the pool's observer threw on the allocation", e.what(), false);
      return false;
    }
    if (observer_threw) {
      note("make b" + std::to_string(i) + " d n=" + std::to_string(n) + " on " + on.name() + " from the stream-ordered pool");
      fail("the pool's observer threw on this allocation, which went on: expected observer_error (E112)");
      at(i).d.reset();
      return false;
    }
    ++c.ordered_buffers;
    return true;
  }

  void fill_host_slot(int i, const char* what) {
    slot& s = at(i);
    std::vector<int> v = fresh(s.size());
    const bool by_view = opt_.views && chance(30);
    const bool by_data = !by_view && chance(30);  // std::memcpy(b.data(), ...): a host write (docs/memory.md)
    auto write = [&](auto& b) {
      if (by_view) {
        auto view = w::view_of<w::access::write>(b);
        for (std::size_t k = 0; k < v.size(); ++k) view[k] = v[k];
      } else if (by_data) {
        if (!v.empty()) std::memcpy(b.data(), v.data(), v.size() * sizeof(int));
      } else {
        for (std::size_t k = 0; k < v.size(); ++k) b[k] = v[k];
      }
    };
    if (s.p) write(*s.p);
    else write(*s.m);
    s.model->set(std::move(v));
    note(std::string(what) + " b" + std::to_string(i) + " from the host" +
         (by_view ? " (view_of<write>)" : by_data ? " (memcpy into data())" : ""));
  }

  void upload() {
    const int i = any_slot_index();
    const stream_choice on = any_stream();
    std::vector<int> v = fresh(any_size());
    const bool async = chance(50);
    w::device_buffer<int> b = async ? w::to_device_async(v, on.ref) : w::to_device(v, on.ref);
    slot& s = at(i);
    s.clear();
    s.d.emplace(std::move(b));
    s.model = new_model(v);
    // The host reuses its vector at once: the upload must have taken it.
    std::fill(v.begin(), v.end(), -7);
    note(std::string(async ? "to_device_async" : "to_device") + " vector -> b" + std::to_string(i) + " n=" +
         std::to_string(s.size()) + " on " + on.name());
  }

  // An upload from page-locked memory (a span over a pinned buffer), which the host refills at
  // once: a copy that reads its source late would take the new values.
  void upload_pinned(bool hold_first) {
    const int i = any_slot_index();
    const stream_choice on = any_stream();
    if (hold_first) {
      standin::hold(on.ref.native());
      note("hold " + on.name());
    }
    const bool async = chance(30);
    const std::size_t n = any_size();
    const bool temporary = chance(50) || live_slot(true) < 0;
    // The buffer itself as the range, untouched by the host first: the upload must wait for the
    // buffer's queued writer (a copy into it on a held stream).
    const bool whole_buffer = !temporary && chance(50);
    std::optional<w::pinned_buffer<int>> staging;
    int from = -1;
    int* src = nullptr;
    std::vector<int> sent;
    std::optional<w::device_buffer<int>> uploaded;
    if (temporary) {
      staging.emplace(n, any_stream().ref);
      sent = fresh(n);
      for (std::size_t k = 0; k < n; ++k) (*staging)[k] = sent[k];
      src = &(*staging)[0];
    } else if (whole_buffer) {
      from = live_slot(true);
      slot& f = at(from);
      sent = f.model->v;
      auto up = [&](auto& buffer) {
        uploaded.emplace(async ? w::to_device_async(buffer, on.ref) : w::to_device(buffer, on.ref));
      };
      if (f.p) up(*f.p);
      else up(*f.m);
    } else {
      from = live_slot(true);
      slot& f = at(from);
      src = f.p ? &(*f.p)[0] : &(*f.m)[0];  // waits for f's users, then the host owns it
      sent = f.model->v;
    }
    if (!uploaded) {
      const std::span<const int> range(src, sent.size());
      uploaded.emplace(async ? w::to_device_async(range, on.ref) : w::to_device(range, on.ref));
    }
    w::device_buffer<int> b = std::move(*uploaded);
    note(std::string(async ? "to_device_async" : "to_device") + (whole_buffer ? " the buffer " : " page-locked ") +
         (temporary ? "staging" : "b" + std::to_string(from)) + " -> b" + std::to_string(i) + " n=" +
         std::to_string(sent.size()) + " on " + on.name() + ", then the host refills the source");
    slot& s = at(i);
    if (i == from) {  // the source slot is replaced: refill it before it goes
      s.clear();
      from = -1;
    }
    s.clear();
    s.d.emplace(std::move(b));
    s.model = new_model(sent);
    if (temporary) {
      for (std::size_t k = 0; k < sent.size(); ++k) (*staging)[k] = -1000 - static_cast<int>(k);
      if (chance(50)) staging.reset();  // and its block goes back to the pool
    } else if (from >= 0) {
      fill_host_slot(from, "refill");
    }
  }

  void host_fill() {
    const int i = live_slot(true);
    if (i < 0) return note("fill: no pinned or managed buffer");
    fill_host_slot(i, "fill");
  }

  // Writes indices (small values, into some buffer's range or just past it) into a buffer, from the
  // host or by a copy queued on a stream, for gathers to measure.
  void index_write(int chosen = -1) {
    const int held = index_slot();
    const int i = chosen >= 0 ? chosen : held >= 0 && chance(60) ? held : live_slot();  // often a buffer gathers measured
    if (i < 0) return note("index write: nothing");
    slot& s = at(i);
    // Indices for a source of some live buffer's size, or one past it: a gather's verdict flips
    // between writes, so a measurement that missed a write (or waited for none) shows.
    const int other = other_live_slot(i, 0);
    const int range = (other >= 0 ? static_cast<int>(at(other).size()) : static_cast<int>(any_size())) + (chance(25) ? 1 : 0);
    std::vector<int> v(s.size());
    for (int& x : v) x = pick(range);
    const stream_choice on = any_stream();
    const bool from_host = s.host_indexable() && chance(50);
    if (from_host) {
      if (s.p) std::memcpy(s.p->data(), v.data(), v.size() * sizeof(int));
      else for (std::size_t k = 0; k < v.size(); ++k) (*s.m)[k] = v[k];
    } else {
      visit(s, [&](auto& b) { w::copy_async(b, w::to_device_async(v, on.ref), on.ref); });
    }
    s.model->set(std::move(v));
    note("index write b" + std::to_string(i) + " (values below " + std::to_string(range) + ")" +
         (from_host ? " from the host" : " by copy_async on " + on.name()));
  }

  // dst[k] = src[idx[k]]: accepted exactly when every index the model holds lies in src.
  // A live buffer whose model holds only small values (indices an index write left), or -1.
  int index_slot() {
    std::vector<int> c;
    for (int i : mine())
      if (at(i).live() && std::all_of(at(i).model->v.begin(), at(i).model->v.end(), [](int v) { return v >= 0 && v <= 4097; }))
        c.push_back(i);
    return c.empty() ? -1 : c[static_cast<std::size_t>(pick(static_cast<int>(c.size())))];
  }

  // Gathers through one index buffer, rewritten between them: each launch must measure what the
  // buffer holds then (a device buffer's measure is kept only until its next write).
  void gathers_through_one_buffer() {
    const int x = live_slot();
    if (x < 0) return note("gathers: no buffer");
    for (int round = 0; round < 3; ++round) {
      index_write(x);
      gather_op(x);
    }
  }

  void gather_op(int chosen = -1) {
    const int indices = index_slot();
    const int x = chosen >= 0 ? chosen : indices >= 0 && chance(85) ? indices : live_slot();
    if (x < 0) return note("gather: no index buffer");
    const contents& idx = *at(x).model;
    if (std::find(idx.v.begin(), idx.v.end(), unknown) != idx.v.end()) return note("gather: b" + std::to_string(x) + " holds unwritten indices");
    const int from = other_live_slot(x, 0);
    if (from < 0) return note("gather: no source");
    int to = -1;
    for (int k : mine())
      if (k != x && k != from && at(k).live() && at(k).size() == idx.v.size()) to = k;
    if (to < 0) return note("gather: no destination of the indices' size");
    const bool gpu = chance(60);
    const stream_choice on = any_stream();
    const std::vector<int>& src = at(from).model->v;
    const bool inside = std::all_of(idx.v.begin(), idx.v.end(), [&](int j) { return j >= 0 && j < static_cast<int>(src.size()); });
    note(std::string(gpu ? "gpu" : "cpu") + " gather b" + std::to_string(from) + "[b" + std::to_string(x) + "] -> b" +
         std::to_string(to) + " on " + on.name() + (inside ? "" : " (an index outside the source)"));
    const w::launch_config config = w::grid_for(at(to).size()).on(on.ref);
    try {
      visit(at(x), [&](auto& i) {
        visit(at(from), [&](auto& a) {
          visit(at(to), [&](auto& b) {
            if (gpu) w::detail::run_cuda(hf_gather_k, config, gather_entry{}, i, a, b);
            else w::launch(w::on_cpu, hf_gather_k, config, i, a, b);
          });
        });
      });
    } catch (const w::bounds_error& e) {
      refusal("bounds_error (E101): an index outside the source", e.what(), inside);
      return;
    }
    if (!inside) return fail("a gather with an index outside its source ran");
    ++c.gathers;
    std::vector<int> next(idx.v.size());
    for (std::size_t k = 0; k < next.size(); ++k) next[k] = src[static_cast<std::size_t>(idx.v[k])];
    at(to).model->set(std::move(next));
  }

  void poke() {
    const int i = live_slot(true);
    if (i < 0) return note("poke: no pinned or managed buffer");
    slot& s = at(i);
    const std::size_t k = static_cast<std::size_t>(pick(static_cast<int>(s.size())));
    const int v = fresh(1)[0];
    if (s.p) (*s.p)[k] = v;
    else (*s.m)[k] = v;
    std::vector<int> next = s.model->v;
    next[k] = v;
    s.model->set(std::move(next));
    note("poke b" + std::to_string(i) + "[" + std::to_string(k) + "]");
  }

  void copy_op() {
    const int from = live_slot();
    if (from < 0) return note("copy: nothing to copy");
    const bool mismatch = chance(8);
    int to = other_live_slot(from, mismatch ? 0 : at(from).size());
    if (to < 0) {  // a new destination of the right size
      to = any_slot_index();
      if (to == from) return note("copy: no destination");
      const stream_choice on = any_stream();
      const std::size_t n = at(from).size();
      slot& s = at(to);
      s.clear();
      const int kind = pick(3);
      if (kind == 0) s.d.emplace(n, on.ref);
      else if (kind == 1) s.p.emplace(n, on.ref);
      else s.m.emplace(n, on.ref);
      s.model = new_model(std::vector<int>(n, unknown));
      note("make b" + std::to_string(to) + " " + s.kind() + " n=" + std::to_string(n) + " on " + on.name());
    }
    const bool sync = chance(25);
    const stream_choice on = any_stream();
    slot& d = at(to);
    slot& s = at(from);
    note(std::string(sync ? "copy" : "copy_async") + " b" + std::to_string(from) + " (" + s.kind() + ") -> b" +
         std::to_string(to) + " (" + d.kind() + ")" + (sync ? "" : " on " + on.name()));
    const bool sizes_differ = d.size() != s.size();
    try {
      visit(d, [&](auto& db) {
        visit(s, [&](auto& sb) {
          if (sync) w::copy(db, sb);
          else w::copy_async(db, sb, on.ref);
        });
      });
    } catch (const w::size_mismatch& e) {
      if (sizes_differ) refusal("size_mismatch", e.what(), false);
      else refusal("size_mismatch (equal sizes)", e.what(), true);
      return;
    }
    if (sizes_differ) return fail("a copy between " + std::to_string(s.size()) + " and " + std::to_string(d.size()) + " elements ran");
    d.model->set(s.model->v);
  }

  void download() {
    const int from = live_slot();
    if (from < 0) return note("to_host_async: nothing");
    int to = any_slot_index();
    const stream_choice on = any_stream();
    std::optional<w::pinned_buffer<int>> back;
    visit(at(from), [&](auto& b) { back.emplace(w::to_host_async(b, on.ref)); });
    const std::vector<int> v = at(from).model->v;
    note("to_host_async b" + std::to_string(from) + " -> b" + std::to_string(to) + " on " + on.name());
    slot& s = at(to);
    s.clear();
    s.p = std::move(back);
    s.model = new_model(v);
    if (chance(40)) read_back(to, "the host reads the result");
  }

  void launch_op() {
    const bool gpu = chance(60);
    const bool next = chance(60);
    const stream_choice on = any_stream();
    if (next) {
      const int from = live_slot();
      if (from < 0) return note("launch: no buffer");
      const int to = other_live_slot(from, at(from).size());
      if (to < 0) return note("launch: no second buffer of its size");
      note(std::string(gpu ? "gpu" : "cpu") + " launch next b" + std::to_string(from) + " -> b" + std::to_string(to) +
           " on " + on.name());
      const w::launch_config config = w::grid_for(at(to).size()).on(on.ref);
      visit(at(from), [&](auto& a) {
        visit(at(to), [&](auto& b) {
          if (gpu) w::detail::run_cuda(hf_next_k, config, next_entry{}, a, b);
          else w::launch(w::on_cpu, hf_next_k, config, a, b);
        });
      });
      at(to).model->set(plus_one(at(from).model->v));
    } else {
      const int i = live_slot();
      if (i < 0) return note("launch: no buffer");
      note(std::string(gpu ? "gpu" : "cpu") + " launch bump b" + std::to_string(i) + " on " + on.name());
      const w::launch_config config = w::grid_for(at(i).size()).on(on.ref);
      visit(at(i), [&](auto& a) {
        if (gpu) w::detail::run_cuda(hf_bump_k, config, bump_entry{}, a);
        else w::launch(w::on_cpu, hf_bump_k, config, a);
      });
      at(i).model->set(plus_one(at(i).model->v));
    }
  }

  // Moves a buffer into another slot (move-construct into an empty one, move-assign over a live
  // one); the moved-from buffer must be empty: read back (nothing), destroyed, or reassigned.
  void move_op(bool check_moved_from) {
    const int from = live_slot();
    if (from < 0) return note("move: nothing");
    int to = any_slot_index();
    if (to == from) return note("move: same slot");
    slot& s = at(from);
    slot& d = at(to);
    const bool same_kind = d.kind() == s.kind() && d.has();
    note(std::string("move b") + std::to_string(from) + " -> b" + std::to_string(to) +
         (same_kind ? " (move-assigned over a live buffer)" : ""));
    if (same_kind) {  // operator= frees the target's memory
      if (d.model && !d.model->v.empty()) d.model->alive = false;
      if (s.d) *d.d = std::move(*s.d);
      else if (s.p) *d.p = std::move(*s.p);
      else *d.m = std::move(*s.m);
    } else {
      d.clear();
      if (s.d) d.d.emplace(std::move(*s.d));
      else if (s.p) d.p.emplace(std::move(*s.p));
      else d.m.emplace(std::move(*s.m));
    }
    d.model = s.model;
    s.model = new_model({});  // moved-from: size 0, no memory
    s.model->moved_from = true;
    const int then = check_moved_from ? pick(2) : pick(4);
    if (then == 0) {
      read_back(from, "moved-from");
    } else if (then == 1) {
      note("destroy moved-from b" + std::to_string(from));
      s.clear();
    } else if (then == 2) {
      const std::size_t n = any_size();
      const stream_choice on = any_stream();
      if (s.d) *s.d = w::device_buffer<int>(n, on.ref);
      else if (s.p) *s.p = w::pinned_buffer<int>(n, on.ref);
      else *s.m = w::managed_buffer<int>(n, on.ref);
      s.model = new_model(std::vector<int>(n, unknown));
      note("reassign moved-from b" + std::to_string(from) + " n=" + std::to_string(n) + " on " + on.name());
    }
  }

  void free_op() {
    const int i = any_slot_index();
    note("free b" + std::to_string(i));
    at(i).clear();
  }

  void hold_op() {
    const stream_choice on = any_stream();
    if (chance(55)) {
      standin::hold(on.ref.native());
      note("hold " + on.name());
    } else {
      standin::release(on.ref.native());
      note("release " + on.name());
    }
  }

  // A warden::stream destroyed (while buffers that used it live on) and a new one made in its place.
  void stream_recycle() {
    const int k = thread_ * streams_per_thread + pick(streams_per_thread);
    auto& st = prog_.streams[static_cast<std::size_t>(k)];
    if (st) {
      if (chance(50)) standin::hold(st->ref().native());
      st.reset();
      note("destroy stream s" + std::to_string(k));
    } else {
      st.emplace();
      note("create stream s" + std::to_string(k));
    }
  }

  // ---- the situations of issue 33 ----

  // A scratch buffer freed while its stream is held, its block handed out again on that stream,
  // and the new buffer filled from another stream (a reused block carries its free point).
  void scratch_reuse() {
    const stream_choice x = own_stream();
    stream_choice y = any_stream();
    const std::size_t n = any_size();
    standin::hold(x.ref.native());
    note("hold " + x.name());
    {
      w::device_buffer<int> scratch(n, x.ref);
      std::vector<int> junk = fresh(n);
      if (chance(50)) {
        w::device_buffer<int> up = w::to_device(junk, x.ref);
        w::copy_async(scratch, up, x.ref);
      } else {
        w::pinned_buffer<int> host(n, x.ref);
        for (std::size_t k = 0; k < n; ++k) host[k] = junk[k];
        w::copy_async(scratch, host, x.ref);
      }
      note("scratch n=" + std::to_string(n) + " on " + x.name() + ", written there, freed");
    }
    const int i = any_slot_index();
    slot& s = at(i);
    s.clear();
    s.d.emplace(n, x.ref);
    s.model = new_model(std::vector<int>(n, unknown));
    note("make b" + std::to_string(i) + " d n=" + std::to_string(n) + " on " + x.name());
    std::vector<int> v = fresh(n);
    if (chance(50)) {
      w::pinned_buffer<int> src(n, y.ref);
      for (std::size_t k = 0; k < n; ++k) src[k] = v[k];
      w::copy_async(*s.d, src, y.ref);
      note("fill b" + std::to_string(i) + " by copy_async from a pinned buffer on " + y.name());
    } else {
      w::device_buffer<int> src = w::to_device(v, y.ref);
      if (chance(50)) w::copy_async(*s.d, src, y.ref);
      else w::copy(*s.d, src);
      note("fill b" + std::to_string(i) + " by a copy from a device buffer on " + y.name());
    }
    s.model->set(v);
    if (chance(50)) {
      standin::release(x.ref.native());
      note("release " + x.name());
    }
    if (chance(60)) read_back(i, "after the refill");
  }

  // A buffer outliving its warden::stream, then read back.
  void stream_death() {
    const int k = thread_ * streams_per_thread + pick(streams_per_thread);
    auto& st = prog_.streams[static_cast<std::size_t>(k)];
    if (!st) st.emplace();
    const w::stream_ref x = st->ref();
    standin::hold(x.native());
    const int i = any_slot_index();
    slot& s = at(i);
    const std::size_t n = any_size();
    std::vector<int> v = fresh(n);
    s.clear();
    if (chance(50)) {
      s.d.emplace(w::to_device_async(v, x));
    } else {
      s.m.emplace(n, x);
      w::device_buffer<int> src = w::to_device(v, x);
      w::copy_async(*s.m, src, x);
    }
    s.model = new_model(v);
    if (chance(50)) {
      visit(s, [&](auto& b) { w::launch(w::on_cpu, hf_bump_k, w::grid_for(n).on(x), b); });
      s.model->set(plus_one(s.model->v));
      note("hold s" + std::to_string(k) + ", b" + std::to_string(i) + " written on it (upload, cpu bump)");
    } else {
      note("hold s" + std::to_string(k) + ", b" + std::to_string(i) + " written on it");
    }
    st.reset();
    note("destroy stream s" + std::to_string(k) + " (b" + std::to_string(i) + " lives on)");
    if (chance(50)) {
      st.emplace();
      note("create stream s" + std::to_string(k));
    }
    if (chance(70)) read_back(i, "after its stream died");
  }

  // cudaStreamPerThread in several threads: held, buffers freed and allocated on it.
  void per_thread_churn() {
    const stream_choice pt = stream_of(-2);
    standin::hold(cudaStreamPerThread);
    const std::size_t n = any_size();
    {
      w::device_buffer<int> scratch(n, pt.ref);
      std::vector<int> junk = fresh(n);
      w::device_buffer<int> up = w::to_device(junk, pt.ref);
      w::copy_async(scratch, up, pt.ref);
    }
    const int i = any_slot_index();
    slot& s = at(i);
    s.clear();
    std::vector<int> v = fresh(n);
    if (chance(50)) {
      s.d.emplace(w::to_device(v, pt.ref));
    } else {
      s.d.emplace(n, pt.ref);
      w::device_buffer<int> src = w::to_device(v, own_stream().ref);
      w::copy_async(*s.d, src, pt.ref);
    }
    s.model = new_model(v);
    note("hold per-thread; scratch n=" + std::to_string(n) + " written and freed there; b" + std::to_string(i) +
         " made and filled on per-thread");
    if (chance(50)) read_back(i, "per-thread churn");
  }

  // ---- graphs ----
  void capture_op() {
    // Also while other threads run: a buffer handed over keeps its home stream, and another
    // thread's free or download of it may meet a capture beginning there (the capture gate,
    // memory/capture_registry.hpp). `--no-concurrent-captures` leaves them out (as before the gate).
    if (concurrent_ && !opt_.concurrent_captures) return hold_op();
    if (graphs_.size() >= 2) graphs_.erase(graphs_.begin());
    const stream_choice s = chance(5) ? stream_of(-1) : own_stream();
    const bool on_default = s.index == -1;
    captured_graph cg;
    cg.stream_index = s.index;
    std::vector<captured_graph::effect> effects;
    std::string body_log;
    note("capture on " + s.name());
    try {
      cg.g = w::capture(s.ref, [&] {
        const int launches = 1 + pick(3);
        for (int l = 0; l < launches; ++l) {
          const int a = live_slot();
          if (a < 0) break;
          const int b = other_live_slot(a, at(a).size());
          if (b >= 0 && chance(60)) {
            const w::launch_config config = w::grid_for(at(b).size()).on(s.ref);
            visit(at(a), [&](auto& x) { visit(at(b), [&](auto& y) { w::detail::run_cuda(hf_next_k, config, next_entry{}, x, y); }); });
            effects.push_back({true, at(a).model, at(b).model});
            note("  captured: next b" + std::to_string(a) + " -> b" + std::to_string(b));
          } else {
            const w::launch_config config = w::grid_for(at(a).size()).on(s.ref);
            visit(at(a), [&](auto& x) { w::detail::run_cuda(hf_bump_k, config, bump_entry{}, x); });
            effects.push_back({false, nullptr, at(a).model});
            note("  captured: bump b" + std::to_string(a));
          }
        }
        if (chance(15)) {  // a transfer on the captured stream: refused (documented)
          const int a = live_slot();
          const int b = a >= 0 && chance(50) ? other_live_slot(a, at(a).size()) : -1;
          if (b >= 0) {
            // A copy whose source another stream may still be writing: refused as a transfer in
            // a capture (E109) before it orders anything, not met by the runtime's refusal of the
            // wait that would order it (a cuda_error; issue 55).
            note("  copy_async b" + std::to_string(a) + " -> b" + std::to_string(b) + " on the captured stream");
            try {
              visit(at(b), [&](auto& y) { visit(at(a), [&](auto& x) { w::copy_async(y, x, s.ref); }); });
              fail("a copy on a stream being captured ran");
            } catch (const w::capture_error& e) {
              refusal("capture_error: transfer on the captured stream", e.what(), false);
            } catch (const w::error& e) {
              fail(std::string("a copy on a stream being captured was refused with another error: ") + e.what());
            }
          } else if (a >= 0) {
            note("  to_host_async b" + std::to_string(a) + " on the captured stream");
            try {
              visit(at(a), [&](auto& x) { (void)w::to_host_async(x, s.ref); });
              fail("a transfer on a stream being captured ran");
            } catch (const w::capture_error& e) {
              refusal("capture_error: transfer on the captured stream", e.what(), false);
            }
          }
        }
        if (chance(15)) refused_in_capture(s);
        if (chance(10)) {  // another thread reads a buffer back during the capture (a hand-off in the body)
          const int a = live_slot();
          if (a >= 0 && !at(a).model->moved_from) {
            std::vector<int> got;
            std::string refused;
            std::thread reader([&] {
              try {
                visit(at(a), [&](auto& b) { got = w::to_host(b); });
              } catch (const std::exception& e) {
                refused = e.what();
              }
            });
            reader.join();
            note("  check b" + std::to_string(a) + " by to_host on another thread during the capture");
            if (!refused.empty()) refusal("to_host on another thread during a capture", refused, true);
            else compare(*at(a).model, got, "to_host on another thread during a capture", a);
          }
        }
        if (chance(10)) {  // a buffer freed during the capture: back to its pool, after its earlier uses
          const int a = live_slot();
          if (a >= 0) {
            note("  free b" + std::to_string(a) + " during the capture");
            at(a).clear();
          }
        }
        if (chance(15)) {  // a copy on another stream during the capture: happens at once
          const int a = live_slot();
          const int b = a >= 0 ? other_live_slot(a, at(a).size()) : -1;
          const stream_choice other = any_stream();
          if (b >= 0 && other.ref != s.ref) {
            note("  copy_async b" + std::to_string(a) + " -> b" + std::to_string(b) + " on " + other.name() +
                 " during the capture");
            try {
              visit(at(b), [&](auto& y) { visit(at(a), [&](auto& x) { w::copy_async(y, x, other.ref); }); });
              at(b).model->set(at(a).model->v);
            } catch (const w::capture_error& e) {
              refusal("capture_error: copy_async on another stream during a capture", e.what(), true);
            }
          }
        }
      });
    } catch (const w::capture_error& e) {
      if (on_default) refusal("capture_error: capture of the default stream", e.what(), false);
      else refusal("capture_error: capture", e.what(), true);
      return;
    }
    if (on_default) return fail("a capture of the default stream ran");
    ++c.captures;
    cg.effects = std::move(effects);
    graphs_.push_back(std::move(cg));
  }

  // One more call of docs/memory.md's table on the stream being captured: each is refused before it
  // touches the runtime (E109), and a gather, whose indices a capture does not measure, is
  // refused for its unbounded load (E101). The capture goes on.
  void refused_in_capture(const stream_choice& s) {
    const int a = live_slot();
    const int which = pick(6);
    std::vector<int> v = fresh(any_size());
    const char* names[] = {"a buffer made on", "to_device on", "to_device_async on", "copy into a buffer of",
                           "a cpu launch on", "a gather on"};
    note(std::string("  ") + names[which] + " the captured stream");
    try {
      if (which == 0) {
        w::device_buffer<int> made(v.size(), s.ref);
      } else if (which == 1) {
        (void)w::to_device(v, s.ref);
      } else if (which == 2) {
        (void)w::to_device_async(v, s.ref);
      } else if (a < 0) {
        return note("  (no buffer)");
      } else if (which == 3) {
        int into = -1;  // copy(dst, src) issues to dst's stream: a buffer made on the captured one
        for (int k : mine())
          if (k != a && at(k).live() && at(k).size() == at(a).size())
            visit(at(k), [&](auto& y) { if (y.stream() == s.ref) into = k; });
        if (into < 0) return note("  (no buffer of the captured stream)");
        visit(at(into), [&](auto& y) { visit(at(a), [&](auto& x) { w::copy(y, x); }); });
      } else if (which == 4) {
        visit(at(a), [&](auto& x) { w::launch(w::on_cpu, hf_bump_k, w::grid_for(at(a).size()).on(s.ref), x); });
      } else {
        const int to = other_live_slot(a, at(a).size());
        if (to < 0) return note("  (no second buffer)");
        visit(at(a), [&](auto& x) {
          visit(at(to), [&](auto& y) { w::detail::run_cuda(hf_gather_k, w::grid_for(at(to).size()).on(s.ref), gather_entry{}, x, x, y); });
        });
      }
      fail(std::string(names[which]) + " the captured stream ran");
    } catch (const w::capture_error& e) {
      if (which == 5) return fail(std::string("a gather in a capture refused with capture_error: ") + e.what());
      refusal(std::string("capture_error: ") + names[which] + " the captured stream", e.what(), false);
    } catch (const w::bounds_error& e) {
      if (which != 5) return fail(std::string(names[which]) + " the captured stream: bounds_error: " + e.what());
      refusal("bounds_error (E101): a gather in a capture (indices not measured)", e.what(), false);
    }
  }

  void replay_op() {
    if (graphs_.empty()) return capture_op();
    captured_graph& cg = graphs_[static_cast<std::size_t>(pick(static_cast<int>(graphs_.size())))];
    const bool own = chance(50);
    stream_choice on = own ? stream_choice{cg.stream_index, cg.g.stream()} : any_stream();
    const bool stream_dead = own && (cg.stream_index < 0 || !prog_.streams[static_cast<std::size_t>(cg.stream_index)] ||
                                     prog_.streams[static_cast<std::size_t>(cg.stream_index)]->ref() != cg.g.stream());
    bool freed = false;
    for (const auto& e : cg.effects)
      if (!e.dst->alive || (e.src && !e.src->alive)) freed = true;
    note("replay a graph of " + std::to_string(cg.effects.size()) + " launches on " +
         (own ? "its stream" : on.name()) + (freed ? " (a buffer of it was freed)" : "") + (stream_dead ? " (its stream is destroyed)" : ""));
    try {
      if (own) cg.g.replay();
      else cg.g.replay(on.ref);
    } catch (const w::capture_error& e) {
      if (freed) refusal("capture_error: replay after a buffer was freed", e.what(), false);
      else if (stream_dead) refusal("capture_error: replay on a destroyed stream", e.what(), false);
      else refusal("capture_error: replay", e.what(), true);
      return;
    }
    if (freed || stream_dead) return fail("a replay that must be refused ran");
    ++c.replays;
    for (const auto& e : cg.effects) e.dst->set(plus_one(e.next ? e.src->v : e.dst->v));
  }

  program& prog_;
  const options& opt_;
  int thread_;
  int ops_;
  bool concurrent_;
  std::mt19937_64 rng_;
  int value_base_;
  int writes_ = 0;
  int op_ = 0;
  std::vector<captured_graph> graphs_;
};

// Runs one program: phases of parts (one thread, or 2-3 threads at once), hand-offs at the joins,
// then every buffer read back once all streams are released. Returns its counts.
inline counts run_program(std::uint64_t seed, const options& opt) {
  program prog(seed, opt);
  std::mt19937_64 rng(mix(seed));
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  standin::options so;
  so.recycle_stream_handles = true;  // bounded stand-in state; a new stream may get a dead one's handle
  standin::reset(so);

  prog.threads = opt.threads && pick(100) < 35 ? 2 + pick(2) : 1;
  const int total_ops = opt.min_ops + pick(opt.max_ops - opt.min_ops + 1);
  const int phases = prog.threads == 1 ? 1 : 1 + pick(3);
  prog.slots.resize(static_cast<std::size_t>(prog.threads * slots_per_thread));
  prog.streams.resize(static_cast<std::size_t>(prog.threads * streams_per_thread));
  for (auto& s : prog.streams)
    if (pick(100) < 85) s.emplace();
  if (pick(100) < 50) {
    prog.ordered_pool.emplace(w::cuda_async_resource{});
    // A budget held by throwing from the observer (docs/memory.md: the allocation is refused, E112).
    if (pick(100) < 50) {
      const std::size_t budget = std::size_t{4096} << pick(4);
      prog.ordered_pool->observe({.allocated = budget}, [](const w::pool_event& e) {
        if (e.what != w::pool_event::kind::allocated_above) return;
        observer_threw = true;
        throw std::runtime_error("past the fuzzer's budget");
      });
    }
  }
  prog.owned.resize(static_cast<std::size_t>(prog.threads));
  for (int t = 0; t < prog.threads; ++t)
    for (int k = 0; k < slots_per_thread; ++k) prog.owned[static_cast<std::size_t>(t)].push_back(t * slots_per_thread + k);

  // Every block a program's buffers took goes back to its pool once they are gone: one kept is
  // memory lost for the rest of the process (a free that could not be ordered gave up on it).
  auto live_in_pools = [] {
    return w::default_pool<w::space::device>().stats().live_allocations + w::default_pool<w::space::pinned>().stats().live_allocations +
           w::default_pool<w::space::managed>().stats().live_allocations;
  };
  const std::size_t live_before = live_in_pools();

  counts total;
  ++total.programs;
  if (prog.threads > 1) ++total.threaded_programs;
  bool failed = false;
  std::string log = "program " + std::to_string(seed) + ": " + std::to_string(prog.threads) + " thread(s), " +
                    std::to_string(phases) + " phase(s)\n";
  for (int phase = 0; phase < phases; ++phase) {
    const int ops = std::max(4, total_ops / (phases * prog.threads));
    std::vector<std::unique_ptr<part>> parts;
    for (int t = 0; t < prog.threads; ++t) parts.push_back(std::make_unique<part>(prog, t, phase, ops, prog.threads > 1));
    if (prog.threads == 1) {
      parts[0]->run();
    } else {
      std::vector<std::thread> running;
      for (auto& p : parts) running.emplace_back([&p] { p->run(); });
      for (auto& t : running) t.join();
    }
    log += " phase " + std::to_string(phase) + "\n";
    for (auto& p : parts) {
      log += p->log;
      total.add(p->c);
      failed = failed || p->failed;
    }
    // The join point: hand buffers from one thread to another, recycle a stream.
    if (phase + 1 < phases) {
      const int handoffs = 1 + pick(2);
      for (int h = 0; h < handoffs; ++h) {
        const int from = pick(prog.threads), to = (from + 1 + pick(prog.threads - 1)) % prog.threads;
        auto& src = prog.owned[static_cast<std::size_t>(from)];
        if (src.size() <= 2) continue;
        const std::size_t k = static_cast<std::size_t>(pick(static_cast<int>(src.size())));
        const int slot_index = src[k];
        src.erase(src.begin() + static_cast<std::ptrdiff_t>(k));
        prog.owned[static_cast<std::size_t>(to)].push_back(slot_index);
        ++total.handoffs;
        log += "  join: b" + std::to_string(slot_index) + " from t" + std::to_string(from) + " to t" + std::to_string(to) + "\n";
      }
      if (pick(100) < 40) {
        const int k = pick(static_cast<int>(prog.streams.size()));
        auto& st = prog.streams[static_cast<std::size_t>(k)];
        if (st) {
          st.reset();
          log += "  join: destroy stream s" + std::to_string(k) + "\n";
        } else {
          st.emplace();
          log += "  join: create stream s" + std::to_string(k) + "\n";
        }
      }
    }
  }

  // The end: the GPU catches up, and every buffer must hold what the program last wrote.
  standin::release_all();
  for (std::size_t i = 0; i < prog.slots.size(); ++i) {
    slot& s = prog.slots[i];
    if (!s.has()) continue;
    if (s.model->moved_from) {
      bool empty = true;
      visit(s, [&](auto& b) { empty = b.empty() && b.size() == 0; });
      ++total.readbacks;
      if (!empty) {
        failed = true;
        ++total.lost;
        log += "  end: moved-from b" + std::to_string(i) + " is not empty\n";
      }
      continue;
    }
    std::vector<int> got;
    try {
      visit(s, [&](auto& b) { got = w::to_host(b); });
    } catch (const std::exception& e) {
      failed = true;
      log += "  end: to_host b" + std::to_string(i) + " threw: " + e.what() + "\n";
      continue;
    }
    ++total.readbacks;
    const std::vector<int>& want = s.model->v;
    bool ok = got.size() == want.size();
    bool stale = ok;
    for (std::size_t k = 0; ok && k < want.size(); ++k)
      if (want[k] != unknown && got[k] != want[k]) {
        bool earlier = false;
        for (const auto& h : s.model->history)
          if (k < h.size() && h[k] == got[k]) earlier = true;
        stale = stale && earlier;
        ok = false;
      }
    if (!ok) {
      failed = true;
      if (stale) ++total.stale;
      else ++total.lost;
      log += std::string("  end: ") + (stale ? "STALE" : "LOST") + " b" + std::to_string(i) + " (model " +
             std::to_string(s.model->id) + ")\n";
    }
  }
  for (auto& s : prog.slots) s.clear();
  if (prog.ordered_pool && prog.ordered_pool->stats().live_allocations != 0) {
    failed = true;
    ++total.leaked;
    log += "  end: the stream-ordered pool holds " + std::to_string(prog.ordered_pool->stats().live_allocations) +
           " allocations\n";
  }
  prog.ordered_pool.reset();
  prog.streams.clear();
  standin::release_all();
  if (const std::size_t live_after = live_in_pools(); live_after != live_before) {
    failed = true;
    ++total.leaked;
    log += "  end: the pools hold " + std::to_string(live_after) + " allocations, " + std::to_string(live_before) +
           " before the program\n";
  }
  const std::vector<std::string> misuse = standin::misuses();
  total.misuses += static_cast<long>(misuse.size());
  for (const auto& m : misuse) log += "  stand-in misuse: " + m + "\n";
  if (!misuse.empty()) failed = true;
  if (failed) {
    ++total.failed_programs;
    total.reports.insert(total.reports.begin(), log);
    if (total.reports.size() > 5) total.reports.resize(5);
  }
  if (opt.print_log) std::fputs(log.c_str(), stdout);
  return total;
}

}  // namespace warden_host_fuzz
