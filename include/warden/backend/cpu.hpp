#pragma once
// The cpu reference backend. Blocks run one after another; inside a block every statement runs
// for all threads of the block (those whose guards hold) before the next statement starts. So each
// barrier phase finishes for every thread before the next begins, which is exactly what sync()
// guarantees, and a race-free program computes what it computes on a GPU.
//
// Every access is bounds-checked (an overrun throws bounds_error, E101, instead of corrupting
// memory); with a recording attached, every access is logged for conflict detection.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../dsl/lint_off.hpp"
#include "../dsl/program.hpp"
#include "../dsl/stmt.hpp"
#include "../dsl/vector.hpp"
#include "../dsl/registers.hpp"
#include "../error.hpp"
#include "recording.hpp"
#include "slots.hpp"

namespace warden::backend {

// The names a kernel's cpu-backend messages give its parameters and tiles, by position and by
// tile id ("" where it has none).
struct cpu_names {
  std::vector<std::string_view> params;  // views of the definition's names (string literals)
  std::span<const std::string> tiles;     // the kernel type's, kept for the program's life
};

// Everything a block's execution shares: geometry, parameters, phase, recording.
template <class Block, class Slots>
struct cpu_block_state {
  const Slots* slots;
  dims3 grid;
  int block[3];
  int block_linear;
  int phase = 0;
  recording* record = nullptr;
  std::string_view kernel_name;
  // The kernel's names for its messages (E101 at an access, E108), by parameter and by tile id:
  // the source's where it gives them (launch/run_cpu.hpp), else "parameter 1", "tile0".
  const cpu_names* names = nullptr;
  // The program node making the access about to be made (dsl::at_site), for the recording; each
  // recorded access takes it and clears it, so an access no node announced is attributed to none.
  const void* site = nullptr;

  std::string name_of(dsl::memory_kind m, int target) const {
    const bool global = m == dsl::memory_kind::global;
    const auto at = static_cast<std::size_t>(target);
    if (names != nullptr && target >= 0) {
      if (global && at < names->params.size() && !names->params[at].empty()) return std::string(names->params[at]);
      if (!global && at < names->tiles.size() && !names->tiles[at].empty()) return names->tiles[at];
    }
    return global ? "parameter " + std::to_string(target) : "tile" + std::to_string(target);
  }
};

template <class Ctx>
struct cpu_thread;

// The root context of a block: parameter access for thread t. Scopes derive from it.
template <class Block, class Slots>
struct cpu_root {
  cpu_block_state<Block, Slots>* state;

  int thread_idx(int t, int d) const { return d == 0 ? t % Block::x : d == 1 ? (t / Block::x) % Block::y : t / (Block::x * Block::y); }
  int block_idx(int d) const { return state->block[d]; }
  int grid_dim(int d) const { return state->grid[d]; }

  void note(int t, dsl::memory_kind m, int target, long long i, dsl::access_kind k) const {
    if (state->record != nullptr) state->record->record({state->block_linear, t, state->phase, m, target, i, k, state->site});
    state->site = nullptr;
  }
  // Whether element i of a buffer or tile of `size` elements may be accessed. Outside it: under
  // w::record_anyway the recording reports the access and the caller skips it (false); otherwise
  // E101, which the launch-time checks make unreachable for a checked launch.
  bool check(int t, int i, int size, const char* what, int target, dsl::memory_kind m, dsl::access_kind k) const {
    if (i >= 0 && i < size) return true;
    if (state->record != nullptr && state->record->anyway()) {
      state->record->out_of_bounds({state->block_linear, t, state->phase, m, target, i, k, state->site}, size);
      state->site = nullptr;
      return false;
    }
    (void)what;
    throw bounds_error(state->kernel_name, state->name_of(m, target) + " accessed at index " +
                                               std::to_string(i) + ", outside [0, " + std::to_string(size) +
                                               ") (cpu backend)");
  }

  template <int I, class T>
  T value(int) const {
    return detail::get<I>(*state->slots).value;
  }
  template <int I>
  int size(int) const {
    return detail::get<I>(*state->slots).size;
  }
  template <int I, class T>
  T load(int t, int i) const {
    const auto& s = detail::get<I>(*state->slots);
    if (!check(t, i, s.size, "parameter", I, dsl::memory_kind::global, dsl::access_kind::load)) return T{};
    note(t, dsl::memory_kind::global, I, i, dsl::access_kind::load);
    return s.ptr[i];
  }
  template <int I, class T>
  void store(int t, int i, T v) const {
    const auto& s = detail::get<I>(*state->slots);
    if (!check(t, i, s.size, "parameter", I, dsl::memory_kind::global, dsl::access_kind::store)) return;
    note(t, dsl::memory_kind::global, I, i, dsl::access_kind::store);
    s.ptr[i] = v;
  }
  // A vector access: elements N i .. N i + N - 1, each checked and recorded as the checker sees them.
  template <int I, class T, int N>
  vec<T, N> load_vector(int t, int i) const {
    vec<T, N> v{};
    const void* site = state->site;  // every component's access is the vector access's
    for (int c = 0; c < N; ++c) {
      state->site = site;
      v[c] = load<I, T>(t, N * i + c);
    }
    return v;
  }
  template <int I, class T, int N>
  void store_vector(int t, int i, const vec<T, N>& v) const {
    const void* site = state->site;
    for (int c = 0; c < N; ++c) {
      state->site = site;
      store<I, T>(t, N * i + c, v[c]);
    }
  }
  template <int I, class T, dsl::atomic_op Op>
  void atomic(int t, int i, T v, T expected) const {
    const auto& s = detail::get<I>(*state->slots);
    if (!check(t, i, s.size, "parameter", I, dsl::memory_kind::global, dsl::access_kind::atomic)) return;
    note(t, dsl::memory_kind::global, I, i, dsl::access_kind::atomic);
    // T is the element's type, or its signed or unsigned kind (w::as<U>), which may alias it.
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(s.ptr + i));
    if constexpr (Op == dsl::atomic_op::add) {
      ref.fetch_add(v);
    } else if constexpr (Op == dsl::atomic_op::exchange) {
      ref.exchange(v);
    } else if constexpr (Op == dsl::atomic_op::compare_exchange) {
      ref.compare_exchange_strong(expected, v);
    } else {
      T old = ref.load();
      while (!ref.compare_exchange_weak(old, dsl::atomic_result<Op>(old, v))) {
      }
    }
  }

  // Unbound levels: unreachable, every level is bound by the scope that declares it.
  template <int L, class T>
  T& var(int) const;
  template <int L, class T>
  T tile_load(int, int) const;
  template <int L, class T>
  void tile_store(int, int, T) const;
  template <int L, class T, dsl::atomic_op Op>
  void tile_atomic(int, int, T, T) const;
};

// One more scope: per-thread values (Kind 0: loop variable, 1: local) or a tile (Kind 2).
template <class Parent, int L, class T, int Kind>
struct cpu_scope : Parent {
  T* data;                       // per thread (Kinds 0, 1) or the tile's elements (Kind 2)
  unsigned char* written;        // Kind 2: which elements some earlier phase or thread stored
  int* written_by;               // Kind 2: the phase and thread of that store (unwritten-load reports)
  int elements;

  template <int L2, class U>
  U& var(int t) const {
    if constexpr (L2 == L && Kind != 2) return data[t];
    else return Parent::template var<L2, U>(t);
  }
  template <int L2, class U>
  U tile_load(int t, int i) const {
    if constexpr (L2 == L && Kind == 2) {
      if (!this->check(t, i, elements, "tile", L, dsl::memory_kind::shared, dsl::access_kind::load)) return U{};
      this->note(t, dsl::memory_kind::shared, L, i, dsl::access_kind::load);
      const bool seen = written[i] != 0 && (written_by[2 * i] < this->state->phase || written_by[2 * i + 1] == t);
      if (!seen) unstored_read(t, i, dsl::access_kind::load, "loads");
      return data[i];
    } else {
      return Parent::template tile_load<L2, U>(t, i);
    }
  }
  template <int L2, class U>
  void tile_store(int t, int i, U v) const {
    if constexpr (L2 == L && Kind == 2) {
      if (!this->check(t, i, elements, "tile", L, dsl::memory_kind::shared, dsl::access_kind::store)) return;
      this->note(t, dsl::memory_kind::shared, L, i, dsl::access_kind::store);
      written[i] = 1;
      written_by[2 * i] = this->state->phase;
      written_by[2 * i + 1] = t;
      data[i] = v;
    } else {
      Parent::template tile_store<L2, U>(t, i, v);
    }
  }
  // A read (a load, or an atomic's) of tile element i that thread t cannot see stored: the
  // recording reports it; without one, an element no thread of the block has stored at all throws
  // E108 in debug builds, where tiles start poisoned (the poison would flow on silently).
  void unstored_read(int t, int i, dsl::access_kind kind, [[maybe_unused]] const char* verb) const {
    if (this->state->record != nullptr) {
      this->state->record->uninitialised_load(
          {this->state->block_linear, t, this->state->phase, dsl::memory_kind::shared, L, i, kind});
      return;
    }
#if WARDEN_SHARED_POISON
    if (written[i] == 0)
      throw uninitialised_read_error(
          this->state->kernel_name,
          "thread " + std::to_string(t) + " of block " + std::to_string(this->state->block_linear) + " " + verb + " " +
              this->state->name_of(dsl::memory_kind::shared, L) + " element " + std::to_string(i) +
              ", which no thread of the block has stored (cpu backend; shared tiles start poisoned in debug builds)");
#endif
  }
  // The block's threads run one at a time here, so the read-modify-write is whole by itself. It
  // reads the element: what an unstored element gives is reported as a load's would be.
  template <int L2, class U, dsl::atomic_op Op>
  void tile_atomic(int t, int i, U v, U expected) const {
    if constexpr (L2 == L && Kind == 2) {
      if (!this->check(t, i, elements, "tile", L, dsl::memory_kind::shared, dsl::access_kind::atomic)) return;
      this->note(t, dsl::memory_kind::shared, L, i, dsl::access_kind::atomic);
      if (written[i] == 0) unstored_read(t, i, dsl::access_kind::atomic, "atomically updates");
      U& slot = data[i];
      if constexpr (Op == dsl::atomic_op::compare_exchange) {
        if (slot == expected) slot = v;
      } else {
        slot = dsl::atomic_result<Op>(slot, v);
      }
      written[i] = 1;
      written_by[2 * i] = this->state->phase;
      written_by[2 * i + 1] = t;
    } else {
      Parent::template tile_atomic<L2, U, Op>(t, i, v, expected);
    }
  }
};

// A block context seen from thread t: the interface expressions and simple statements use.
template <class Ctx>
struct cpu_thread {
  const Ctx* ctx;
  int t;
  int thread_idx(int d) const { return ctx->thread_idx(t, d); }
  int block_idx(int d) const { return ctx->block_idx(d); }
  int block_dim(int d) const { return d == 0 ? Ctx::block_x : d == 1 ? Ctx::block_y : Ctx::block_z; }
  int grid_dim(int d) const { return ctx->grid_dim(d); }
  // The node making the next access (dsl::at_site): kept for the recording.
  void at_site(const void* node) const { ctx->state->site = node; }
  template <int I, class T>
  T value() const {
    return ctx->template value<I, T>(t);
  }
  template <int I>
  int size() const {
    return ctx->template size<I>(t);
  }
  template <int I, class T>
  T load(int i) const {
    return ctx->template load<I, T>(t, i);
  }
  template <int I, class T>
  void store(int i, T v) const {
    ctx->template store<I, T>(t, i, v);
  }
  template <int I, class T, int N>
  vec<T, N> load_vector(int i) const {
    return ctx->template load_vector<I, T, N>(t, i);
  }
  template <int I, class T, int N>
  void store_vector(int i, const vec<T, N>& v) const {
    ctx->template store_vector<I, T, N>(t, i, v);
  }
  template <int I, class T, dsl::atomic_op Op>
  void atomic(int i, T v, T expected) const {
    ctx->template atomic<I, T, Op>(t, i, v, expected);
  }
  template <int L, class T>
  T& var() const {
    return ctx->template var<L, T>(t);
  }
  template <int L, class T>
  T tile_load(int i) const {
    return ctx->template tile_load<L, T>(t, i);
  }
  template <int L, class T>
  void tile_store(int i, T v) const {
    ctx->template tile_store<L, T>(t, i, v);
  }
  template <int L, class T, dsl::atomic_op Op>
  void tile_atomic(int i, T v, T expected) const {
    ctx->template tile_atomic<L, T, Op>(t, i, v, expected);
  }
};

using active_threads = std::vector<int>;

template <class Ctx, class E>
auto eval_at(const Ctx& ctx, int t, const E& e) {
  const cpu_thread<Ctx> view{&ctx, t};
  return e.eval(view);
}

// A statement with no control flow of its own: each active thread runs it.
template <class Ctx, class S>
void exec(const Ctx& ctx, const S& s, const active_threads& active) {
  for (int t : active) {
    cpu_thread<Ctx> view{&ctx, t};
    s.run(view);
  }
}

template <class Ctx>
void exec(const Ctx&, const dsl::nothing_s&, const active_threads&) {}

template <class Ctx>
void exec(const Ctx& ctx, const dsl::sync_s&, const active_threads& active) {
  if (static_cast<int>(active.size()) != Ctx::threads && ctx.state->record != nullptr)
    ctx.state->record->divergent_barrier(ctx.state->block_linear, ctx.state->phase, static_cast<int>(active.size()));
  ++ctx.state->phase;
}

template <class Ctx, class... S>
void exec(const Ctx& ctx, const dsl::seq_s<S...>& s, const active_threads& active) {
  detail::for_each(s.body, [&](const auto& statement) { exec(ctx, statement, active); });
}

template <class Ctx, class Body>
void exec(const Ctx& ctx, const dsl::trusted_s<Body>& s, const active_threads& active) {
  exec(ctx, s.body, active);
}

template <class Ctx, unsigned char Mask, class Body>
void exec(const Ctx& ctx, const dsl::lint_off_s<Mask, Body>& s, const active_threads& active) {
  exec(ctx, s.body, active);
}

// A program build_kernel built without the checker runs as the program it wraps, statement by
// statement (its tiles and locals need the block-wide walk, not one thread's run).
template <class Ctx, class P>
void exec(const Ctx& ctx, const dsl::unchecked_program<P>& s, const active_threads& active) {
  exec(ctx, s.program, active);
}

template <class Ctx, class C, class T, class E>
void exec(const Ctx& ctx, const dsl::when_s<C, T, E>& s, const active_threads& active) {
  active_threads yes, no;
  for (int t : active) (eval_at(ctx, t, s.condition) ? yes : no).push_back(t);
  if (!yes.empty()) exec(ctx, s.then_branch, yes);
  if (!no.empty()) exec(ctx, s.else_branch, no);
}

template <class Ctx, class F, class Body>
void exec(const Ctx& ctx, const dsl::given_s<F, Body>& s, const active_threads& active) {
  active_threads holds;
  for (int t : active)
    if (eval_at(ctx, t, s.fact)) holds.push_back(t);
  if (!holds.empty()) exec(ctx, s.body, holds);
}

template <int L, class T, int Kind, class Ctx>
cpu_scope<Ctx, L, T, Kind> scope(const Ctx& ctx, T* data, int elements = 0, unsigned char* written = nullptr,
                                 int* written_by = nullptr) {
  return cpu_scope<Ctx, L, T, Kind>{ctx, data, written, written_by, elements};
}

// Runs `body` for the active threads while i < end, i advancing by step, with i bound at level L.
template <int L, class Ctx, class Body>
void run_loop(const Ctx& ctx, const Body& body, const active_threads& active, std::vector<int>& i,
              const std::vector<int>& end, const std::vector<int>& step) {
  const auto inner = scope<L, int, 0>(ctx, i.data());
  active_threads running;
  for (;;) {
    running.clear();
    for (int t : active)
      if (i[static_cast<std::size_t>(t)] < end[static_cast<std::size_t>(t)]) running.push_back(t);
    if (running.empty()) return;
    exec(inner, body, running);
    for (int t : running) i[static_cast<std::size_t>(t)] += step[static_cast<std::size_t>(t)];
  }
}

// A counted loop: per active thread, i from first(t) while i < end(t), by step(t).
template <int L, class Ctx, class Body, class First, class End, class Step>
void exec_loop(const Ctx& ctx, const Body& body, const active_threads& active, First first, End end, Step step) {
  std::vector<int> i(Ctx::threads), ends(Ctx::threads), steps(Ctx::threads);
  for (int t : active) {
    const auto at = static_cast<std::size_t>(t);
    i[at] = first(t);
    ends[at] = end(t);
    steps[at] = step(t);
  }
  run_loop<L>(ctx, body, active, i, ends, steps);
}

template <class Ctx, int L, class Lo, class Hi, class Step, class Body>
void exec(const Ctx& ctx, const dsl::for_s<L, Lo, Hi, Step, Body>& s, const active_threads& active) {
  exec_loop<L>(
      ctx, s.body, active, [&](int t) { return eval_at(ctx, t, s.lo); }, [&](int t) { return eval_at(ctx, t, s.hi); },
      [&](int t) { return eval_at(ctx, t, s.step); });
}

template <class Ctx, int L, int N, class Body>
void exec(const Ctx& ctx, const dsl::unroll_s<L, N, Body>& s, const active_threads& active) {
  exec_loop<L>(ctx, s.body, active, [](int) { return 0; }, [](int) { return N; }, [](int) { return 1; });
}

template <class Ctx, int L, class N, class Body>
void exec(const Ctx& ctx, const dsl::grid_stride_s<L, N, Body>& s, const active_threads& active) {
  exec_loop<L>(
      ctx, s.body, active, [&](int t) { return ctx.block_idx(0) * Ctx::block_x + ctx.thread_idx(t, 0); },
      [&](int t) { return eval_at(ctx, t, s.n); }, [&](int) { return ctx.grid_dim(0) * Ctx::block_x; });
}

template <class Ctx, int L, class T, class Init, class Body>
void exec(const Ctx& ctx, const dsl::local_s<L, T, Init, Body>& s, const active_threads& active) {
  std::unique_ptr<T[]> values(new T[Ctx::threads]());
  for (int t : active) values[static_cast<std::size_t>(t)] = static_cast<T>(eval_at(ctx, t, s.init));
  exec(scope<L, T, 1>(ctx, values.get()), s.body, active);
}

// A warp shuffle, as the hardware does it: every active lane's value first, then each lane takes
// its source lane's. A warp only part of which arrives is reported (the GPU result is undefined).
template <class Ctx, int L, class T, dsl::shuffle_kind K, class V, class Lane, class Body>
void exec(const Ctx& ctx, const dsl::shuffle_s<L, T, K, V, Lane, Body>& s, const active_threads& active) {
  constexpr int n = Ctx::threads, lanes = dsl::warp_lanes;
  std::unique_ptr<T[]> mine(new T[n]()), theirs(new T[n]());
  std::vector<int> arrived((n + lanes - 1) / lanes, 0);
  std::vector<char> reached(n, 0);
  for (int t : active) {
    mine[static_cast<std::size_t>(t)] = static_cast<T>(eval_at(ctx, t, s.value));
    reached[static_cast<std::size_t>(t)] = 1;
    ++arrived[static_cast<std::size_t>(t / lanes)];
  }
  if (ctx.state->record != nullptr)
    for (int w = 0; w < static_cast<int>(arrived.size()); ++w)
      if (arrived[static_cast<std::size_t>(w)] != 0 && arrived[static_cast<std::size_t>(w)] != lanes)
        ctx.state->record->divergent_shuffle(ctx.state->block_linear, ctx.state->phase, w, arrived[static_cast<std::size_t>(w)]);
  for (int t : active) {
    const int operand = eval_at(ctx, t, s.lane);
    if (operand < 0 || operand >= lanes)
      throw bounds_error(ctx.state->kernel_name, "shuffle lane operand " +
                         std::to_string(operand) + " in thread " + std::to_string(t) + ", outside [0, 32) (cpu backend)");
    const int lane = t % lanes;
    const int source = dsl::source_lane(K, lane, operand);
    const int from = source < 0 ? t : t - lane + source;
    const bool present = from < n && reached[static_cast<std::size_t>(from)] != 0;
    theirs[static_cast<std::size_t>(t)] = mine[static_cast<std::size_t>(present ? from : t)];
  }
  exec(scope<L, T, 1>(ctx, theirs.get()), s.body, active);
}

template <class Ctx, int L, class T, int R, int C, int P, class Body>
void exec(const Ctx& ctx, const dsl::shared_s<L, T, R, C, P, Body>& s, const active_threads& active) {
  constexpr int n = dsl::shared_s<L, T, R, C, P, Body>::elements;
  std::unique_ptr<T[]> tile(new T[n]());
#if WARDEN_SHARED_POISON
  // All bits set: NaN, -1, the maximum; what a missed store leaves behind is visible, not zero.
  if constexpr (std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool>) std::memset(static_cast<void*>(tile.get()), 0xff, sizeof(T) * n);
#endif
  std::unique_ptr<unsigned char[]> written(new unsigned char[n]());
  std::unique_ptr<int[]> written_by(new int[2 * n]());
  exec(scope<L, T, 2>(ctx, tile.get(), n, written.get(), written_by.get()), s.body, active);
}

// The root context type for a kernel with block shape Block.
template <class Block, class Slots>
struct cpu_block_context : cpu_root<Block, Slots> {
  static constexpr int threads = Block::threads;
  static constexpr int block_x = Block::x, block_y = Block::y, block_z = Block::z;
};

// Runs a whole grid on the host.
template <class Block, class Program, class Slots>
void run_on_cpu(const Program& program, const Slots& slots, dims3 grid, recording* record, std::string_view name,
                const cpu_names* names = nullptr) {
  active_threads all(Block::threads);
  for (int t = 0; t < Block::threads; ++t) all[static_cast<std::size_t>(t)] = t;
  for (int z = 0; z < grid.z; ++z)
    for (int y = 0; y < grid.y; ++y)
      for (int x = 0; x < grid.x; ++x) {
        cpu_block_state<Block, Slots> state{&slots, grid, {x, y, z}, x + grid.x * (y + grid.y * z), 0, record, name, names};
        const cpu_block_context<Block, Slots> root{{&state}};
        exec(root, program, all);
      }
}

}  // namespace warden::backend
