#pragma once
// Launching kernels.
//
//   w::launch(saxpy, w::grid_for(n), x, y, 2.f);            // the default backend
//   w::launch(saxpy, w::grid_for(n).on(stream), x, y, 2.f); // ... on a stream
//   w::launch(w::on_cpu, saxpy, w::grid_for(n), x, y, 2.f); // the cpu reference backend
//   w::recording r = w::record(saxpy, w::grid_for(n), x, y, 2.f);  // cpu backend, every access logged
//
// Before any memory is touched: arguments are bound to parameters by mode (a buffer for in / out /
// inout / atomic, a value for value<T>; host-only memory is W002 at compile time); one buffer bound
// to two parameters of which one is writable throws aliasing_error (E100); an access whose index
// may leave its buffer throws bounds_error (E101) naming the parameter and the index expression.
// The default backend is cuda when this translation unit is compiled by nvcc and a GPU answers,
// cpu otherwise. A kernel declared with WARDEN_KERNEL (a kernel_handle) is compiled with its
// constants as immediates; a bare kernel_def passes its program as a kernel argument instead.

#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/cpu.hpp"
#include "backend/recording.hpp"
#include "backend/slots.hpp"
#include "check/launch_checks.hpp"
#include "check/rules.hpp"
#include "detail/cuda_check.hpp"
#include "detail/graph_recorder.hpp"
#include "detail/launch_check_cache.hpp"
#include "diagnostic/table.hpp"
#include "diagnostic/text.hpp"
#include "dsl/program.hpp"
#include "error.hpp"
#include "memory/buffer.hpp"
#include "memory/transfer.hpp"
#include "runtime.hpp"
#include "stream.hpp"

#if defined(__CUDACC__)
#include "backend/cuda_context.hpp"
#endif

namespace warden {

struct on_cpu_t {
  explicit constexpr on_cpu_t() = default;
};
inline constexpr on_cpu_t on_cpu{};

// The grid of a launch: a number of blocks, or enough blocks of the kernel's shape to cover
// nx (x ny (x nz)) threads; .on(stream) picks the stream. What it asks for is checked at launch
// (E102): no negative extent, none above CUDA's limits, no dimension with more threads than
// warden's int ids can number, and a grid_for with a dimension for each of the block's (a 1-D
// grid_for(n) on a 16x16 block would cover x only; it asks for grid_for(nx, ny)). An empty grid
// (grid_for(0), grid(0)) launches nothing.
class launch_config {
 public:
  launch_config(long long x, long long y, long long z) : extents_{x, y, z} {}
  launch_config(std::initializer_list<unsigned long long> elements) : extents_{0, 1, 1}, element_dims_(static_cast<int>(elements.size())) {
    int d = 0;
    for (unsigned long long e : elements) elements_[d++] = e;
  }
  launch_config on(stream_ref s) const {
    launch_config c = *this;
    c.stream_ = s;
    return c;
  }
  stream_ref stream() const { return stream_; }

  // The grid for a kernel with block shape Block; throws grid_error (E102) naming `kernel`.
  template <class Block>
  backend::dims3 blocks(std::string_view kernel = "kernel") const {
    long long extent[3] = {extents_[0], extents_[1], extents_[2]};
    const int block[3] = {Block::x, Block::y, Block::z};
    // What was asked for, in the user's words; built only for a message (a launch allocates nothing).
    const auto asked = [&] {
      std::string text;
      if (element_dims_ == 0) {
        text = "grid(" + std::to_string(extents_[0]) + ", " + std::to_string(extents_[1]) + ", " +
               std::to_string(extents_[2]) + ")";
      } else {
        text = "grid_for(";
        for (int d = 0; d < element_dims_; ++d) text += (d ? ", " : "") + std::to_string(elements_[d]);
        text += ")";
      }
      return text;
    };
    if (element_dims_ != 0) {
      const int block_dims = Block::z > 1 ? 3 : Block::y > 1 ? 2 : 1;
      if (element_dims_ < block_dims)
        throw grid_error(kernel, asked() + " covers " + std::string(element_dims_ == 1 ? "x only" : "x and y only") +
                                     ", but the block is " + std::to_string(Block::x) + "x" + std::to_string(Block::y) +
                                     (block_dims == 3 ? "x" + std::to_string(Block::z) : std::string()) +
                                     ": give one extent per block dimension, " +
                                     (block_dims == 2 ? "grid_for(nx, ny)" : "grid_for(nx, ny, nz)") +
                                     ", or a grid(...) of blocks");
      for (int d = 0; d < element_dims_; ++d) {
        const unsigned long long needed = elements_[d] / static_cast<unsigned long long>(block[d]) +
                                          (elements_[d] % static_cast<unsigned long long>(block[d]) != 0);
        extent[d] = needed > static_cast<unsigned long long>(max_extent[d]) ? max_extent[d] + 1LL : static_cast<long long>(needed);
      }
    }
    constexpr long long int_max = std::numeric_limits<int>::max();
    for (int d = 0; d < 3; ++d) {
      auto fail = [&](const std::string& why) {
        throw grid_error(kernel, asked() + " " + why);
      };
      const std::string dim(1, "xyz"[d]);  // short: no allocation
      if (extent[d] < 0) fail("has a negative extent in " + dim);
      if (extent[d] > max_extent[d])
        fail("needs " + std::to_string(extent[d]) + " blocks in " + dim + ", above CUDA's limit of " +
             std::to_string(max_extent[d]));
      if (extent[d] * block[d] > int_max)
        fail("has " + std::to_string(extent[d] * block[d]) + " threads in " + dim +
             ": warden's thread and global ids are int, which would overflow (at most " + std::to_string(int_max) + ")");
    }
    return {static_cast<int>(extent[0]), static_cast<int>(extent[1]), static_cast<int>(extent[2])};
  }

 private:
  static constexpr long long max_extent[3] = {2147483647LL, 65535LL, 65535LL};
  long long extents_[3];
  unsigned long long elements_[3] = {0, 1, 1};
  int element_dims_ = 0;  // 0: a grid of blocks; 1-3: grid_for with that many extents
  stream_ref stream_;
};

// Enough blocks to cover n threads along x (a 1-D block), nx x ny (a 2-D block; y may be 1 for a
// 1-D block too) or nx x ny x nz threads.
inline launch_config grid_for(std::size_t elements) { return launch_config({elements}); }
inline launch_config grid_for(std::size_t nx, std::size_t ny) { return launch_config({nx, ny}); }
inline launch_config grid_for(std::size_t nx, std::size_t ny, std::size_t nz) { return launch_config({nx, ny, nz}); }
inline launch_config grid(long long x, long long y = 1, long long z = 1) { return launch_config(x, y, z); }

namespace detail {

template <class T>
struct is_buffer : std::false_type {};
template <class T, class S>
struct is_buffer<buffer<T, S>> : std::true_type {};

#define WARDEN_W002_MESSAGE                                                                             \
  WARDEN_DIAGNOSTIC_MESSAGE(W002, "warden::launch",                                                       \
                            "a kernel buffer parameter is bound to host-only memory; copy it to the device " \
                            "with warden::to_device(range), or use a pinned_buffer or managed_buffer")

// Whether argument A can bind to parameter Param: a buffer (not host-only memory) for a buffer
// parameter, anything convertible for value<T>.
template <class Param, class A>
constexpr bool binds() {
  if constexpr (Param::is_buffer) return is_buffer<std::remove_cvref_t<A>>::value;
  else return true;
}

// One parameter's binding, checked up front; the instantiation names the position, the
// parameter kind and the argument's type in the compiler's output.
template <std::size_t Position, class Param, class Argument>
constexpr bool parameter_binds() {
  constexpr bool ok = binds<Param, Argument>();
  static_assert(ok, WARDEN_W002_MESSAGE);
  return ok;
}

// Refuses a kernel that dsl::build_kernel built without the checker.
template <class K>
constexpr bool launchable() {
  // Fix: define the kernel with warden::kernel<...>(body), which checks it; mark what the checker
  // cannot prove with trusted(...).
  static_assert(!dsl::is_unchecked<typename K::program_type>,
                WARDEN_DIAGNOSTIC_MESSAGE(W006, "warden::launch",
                                          "this kernel was built by dsl::build_kernel and never checked; define it "
                                          "with warden::kernel<...>(body), and mark what the checker cannot prove "
                                          "with trusted(...)"));
  return !dsl::is_unchecked<typename K::program_type>;
}

// Checks every argument against its parameter once, before anything else in the launch is
// instantiated, so that a host-only argument gives one error (W002) instead of a cascade.
template <class K, class... Args>
constexpr bool arguments_bind() {
  static_assert(sizeof...(Args) == K::arity, "warden::launch: the number of arguments differs from the kernel's parameters");
  if constexpr (sizeof...(Args) != K::arity) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (parameter_binds<I, typename K::template param<I>, std::tuple_element_t<I, std::tuple<Args...>>>() && ...);
    }(std::make_index_sequence<K::arity>{});
  }
}

// One argument, bound to parameter position I of kind Param.
template <class Param, class Arg>
auto bind_slot(Arg& arg) {
  using A = std::remove_cvref_t<Arg>;
  if constexpr (Param::is_buffer) {
    if constexpr (is_buffer<A>::value) {
      using T = typename Param::value_type;
      static_assert(std::is_same_v<typename A::value_type, T>,
                    "warden::launch: the buffer's element type differs from the parameter's");
      if constexpr (!std::is_same_v<typename Param::mode, access::read>)
        static_assert(!std::is_const_v<std::remove_reference_t<Arg>>,
                      "warden::launch: a writable parameter (out, inout, atomic) needs a non-const buffer");
      if (arg.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw bounds_error("warden::launch", "a buffer of " + std::to_string(arg.size()) +
                                                 " elements is larger than warden's int indices allow");
      return backend::slot<Param>{arg.data(), static_cast<int>(arg.size())};
    }
  } else {
    static_assert(std::is_convertible_v<A, typename Param::value_type>,
                  "warden::launch: a value<T> parameter takes a value convertible to T");
    return backend::slot<Param>{static_cast<typename Param::value_type>(arg)};
  }
}

// The kernel's value-level description. A kernel_handle's program is a compile-time constant, so
// it is described once per program run; a bare kernel_def (whose constants may differ between
// objects of one type) is described at each launch, into `scratch`.
template <class K>
const dsl::ir_builder& description_of(const K& any_kernel, dsl::ir_builder& scratch) {
  if constexpr (requires { typename K::holder; }) {
    static const dsl::ir_builder once = K::holder::definition.describe();
    return once;
  } else {
    scratch = any_kernel.describe();
    return scratch;
  }
}

// A buffer argument as stream ordering sees it, its type erased: the buffer and what its type
// does to order work after its last uses and to record a new one. (Whether the use writes is the
// bound argument's `writable`.)
struct ordered_buffer {
  void* buffer = nullptr;  // null for value arguments
  void (*order_before)(const void* buffer, stream_ref s, bool writes) = nullptr;
  void (*record_use)(void* buffer, stream_ref s, bool writes) = nullptr;
  void (*wait_for_host)(const void* buffer, bool writes) = nullptr;
  std::shared_ptr<detail::capture_link> (*link)(const void* buffer) = nullptr;
};

template <class A>
ordered_buffer ordering_of(A& buffer) {
  using B = std::remove_const_t<A>;
  return {const_cast<B*>(&buffer),
          [](const void* b, stream_ref s, bool w) { static_cast<const B*>(b)->order_before(s, w); },
          [](void* b, stream_ref s, bool w) {
            if (w) static_cast<B*>(b)->record_write(s);
            else static_cast<const B*>(b)->record_read(s);
          },
          [](const void* b, bool w) { static_cast<const B*>(b)->wait_for_host(w); },
          [](const void* b) { return static_cast<const B*>(b)->capture_link(); }};
}

// The launch's arguments, bound once: the slots the kernel receives, what the launch-time checks
// read (E100, E101 and the facts of the others) and what stream ordering reads, by position.
template <class Slots, std::size_t N>
struct bound_launch {
  Slots slots;
  std::array<check::bound_argument, N> checked;
  std::array<ordered_buffer, N> buffers;

  // Orders work issued to `s` after earlier uses of the buffers (before), or records it as their
  // latest use (after).
  void order(stream_ref s, bool after) const {
    for (std::size_t i = 0; i < N; ++i) {
      const ordered_buffer& b = buffers[i];
      if (b.buffer == nullptr) continue;
      if (!after) b.order_before(b.buffer, s, checked[i].writable);
      else b.record_use(b.buffer, s, checked[i].writable);
    }
  }
  // Hands the buffers' uses to a graph being captured, which orders and records them at each
  // replay (detail/graph_recorder.hpp).
  void capture_into(graph_recorder& capture, std::string_view kernel, std::span<const std::string_view> names) const {
    const int launch = capture.begin_launch();
    for (std::size_t i = 0; i < N; ++i) {
      const ordered_buffer& b = buffers[i];
      if (b.buffer == nullptr) continue;
      std::string what = i < names.size() && !names[i].empty() ? std::string(names[i]) : "p" + std::to_string(i);
      what += " of " + std::string(kernel) + " (launch " + std::to_string(launch) + " of the capture)";
      capture.use(b.link(b.buffer), checked[i].writable, std::move(what));
    }
  }
  // Blocks the host until the buffers' earlier uses are done (the cpu backend runs on the host).
  void wait_for_host() const {
    for (std::size_t i = 0; i < N; ++i)
      if (buffers[i].buffer != nullptr) buffers[i].wait_for_host(buffers[i].buffer, checked[i].writable);
  }
};

template <class Param, class Arg>
void describe_argument(Arg& arg, check::bound_argument& checked, ordered_buffer& ordered) {
  checked.kind = Param::kind;
  checked.is_buffer = Param::is_buffer;
  if constexpr (Param::is_buffer) {
    checked.writable = !std::is_same_v<typename Param::mode, access::read>;
    checked.address = arg.data();
    checked.size = static_cast<long long>(arg.size());
    ordered = ordering_of(arg);
  } else if constexpr (std::is_integral_v<typename Param::value_type>) {
    // The value the kernel receives: converted to T first (value<unsigned> given -1 is 4294967295).
    checked.value = static_cast<long long>(static_cast<typename Param::value_type>(arg));
  }
}

// The check cache of a kernel launched as `K`: a WARDEN_KERNEL handle's description is a constant
// of its type; a bare kernel_def's constants may differ between objects of one type, so it has none.
template <class K>
launch_check_cache<K::arity>* check_cache_for() {
  if constexpr (WARDEN_LAUNCH_CHECK_CACHE && requires { typename K::holder; }) return &check_cache_of<K>();
  else return nullptr;
}

// Binds the arguments and runs every launch-time check (check::check_launch), or finds that this
// signature passed them before (`cache`, detail/launch_check_cache.hpp); touches no memory.
template <class K, class... Args, std::size_t... I>
auto prepare(const K& kernel, const dsl::ir_builder& ir, backend::dims3 blocks,
             launch_check_cache<K::arity>* cache, std::index_sequence<I...>, Args&... args) {
  auto slots = detail::make_pack(bind_slot<typename K::template param<I>>(args)...);
  bound_launch<decltype(slots), K::arity> bound{slots, {}, {}};
  (describe_argument<typename K::template param<I>>(args, bound.checked[I], bound.buffers[I]), ...);
  launch_key<K::arity> key;
  if (cache != nullptr) {
    key = key_of(blocks, bound.checked);
    if (cache->passed(key)) return bound;
  }
  ++full_launch_checks();
  check::launch_request request;
  request.kernel = kernel.name;
  request.param_names = kernel.param_names;
  request.arguments = bound.checked;
  request.ir = &ir;
  request.obligations = &definition_of(kernel).obligations;
  request.block = {K::block_type::x, K::block_type::y, K::block_type::z};
  request.grid = blocks;
  check::check_launch(request);
  if (cache != nullptr) cache->remember(key);
  return bound;
}


// The cpu backend runs on host memory. On a GPU a device_buffer's memory is not the host's, so
// the cpu backend runs on a host copy of each such buffer: copied in before the run (after the
// buffer's last writer), and for writable parameters copied back after it, in stream order. An
// error during the run copies nothing back: the device buffer keeps its contents.
template <class A, bool = is_buffer<A>::value>
struct host_copy_of {
  using type = char;  // values and host-accessible buffers need none
};
template <class A>
struct host_copy_of<A, true> {
  using type = std::conditional_t<host_accessible<typename A::space_type>, char, detail::host_array<typename A::value_type>>;
};

template <class A>
constexpr bool needs_host_copy() {
  return !std::is_same_v<typename host_copy_of<std::remove_cvref_t<A>>::type, char>;
}

template <class K, class Slots, class Copies, class... Args, std::size_t... I>
void copy_to_host(Slots& slots, Copies& copies, std::index_sequence<I...>, Args&... args) {
  auto one = [&]<std::size_t P>(std::integral_constant<std::size_t, P>, auto& arg) {
    if constexpr (needs_host_copy<decltype(arg)>()) {
      std::get<P>(copies) = download(arg);
      detail::get<P>(slots).ptr = std::get<P>(copies).data();
    }
  };
  (one(std::integral_constant<std::size_t, I>{}, args), ...);
}

template <class K, class Copies, class... Args, std::size_t... I>
void copy_back(const Copies& copies, std::index_sequence<I...>, Args&... args) {
  auto one = [&]<std::size_t P>(std::integral_constant<std::size_t, P>, auto& arg) {
    using Param = typename K::template param<P>;
    if constexpr (needs_host_copy<decltype(arg)>())
      if constexpr (!std::is_same_v<typename Param::mode, access::read>) {
        arg.order_before(arg.stream(), true);
        copy_bytes(arg.data(), std::get<P>(copies).data(), arg.bytes(), arg.stream());  // staged: returns when taken
        arg.record_write(arg.stream());
      }
  };
  (one(std::integral_constant<std::size_t, I>{}, args), ...);
}

template <class K, class... Args>
void run_cpu(const K& any_kernel, const launch_config& config, recording* record, Args&... args) {
  const auto& kernel = definition_of(any_kernel);
  using indices = std::make_index_sequence<K::arity>;
  const backend::dims3 blocks = config.template blocks<typename K::block_type>(kernel.name);
  dsl::ir_builder scratch;
  auto bound = prepare(kernel, description_of(any_kernel, scratch), blocks, check_cache_for<K>(), indices{}, args...);
  if (graph_recorder* capture = capture_on(config.stream(), kernel.name)) {
    // Checked now, run at each replay (warden::capture without a GPU).
    if (capture->on_gpu())
      throw capture_error(kernel.name, "a cpu-backend launch on a stream being captured into a CUDA graph: only "
                                       "launches on the GPU are captured; launch it outside the capture");
    if (record != nullptr)
      throw capture_error(kernel.name, "warden::record on a stream being captured: record outside the capture");
    bound.capture_into(*capture, kernel.name, kernel.param_names);
    if (blocks.count() == 0) return;
    capture->step([program = kernel.program, slots = bound.slots, blocks, name = std::string(kernel.name)]() mutable {
      backend::run_on_cpu<typename K::block_type>(program, slots, blocks, nullptr, name);
    });
    return;
  }
  bound.wait_for_host();
  if (blocks.count() == 0) return;
  std::tuple<typename host_copy_of<std::remove_cvref_t<Args>>::type...> copies;
  const bool on_gpu = cuda_device_available() && (needs_host_copy<Args>() || ...);
  if (on_gpu) copy_to_host<K>(bound.slots, copies, indices{}, args...);
  backend::run_on_cpu<typename K::block_type>(kernel.program, bound.slots, blocks, record, kernel.name);
  if (on_gpu) copy_back<K>(copies, indices{}, args...);
}

#if WARDEN_CUDA_RUNTIME
// Launch errors, and (with WARDEN_SYNC_LAUNCHES, on by default in debug builds) asynchronous
// errors, become cuda_error naming the kernel.
inline void check_cuda_launch(std::string_view kernel, stream_ref s, bool captured = false) {
  auto fail = [&](cudaError_t status, const char* when) {
    cudaGetLastError();
    throw cuda_error("warden::launch(" + std::string(kernel) + ") " + when, static_cast<int>(status),
                     cudaGetErrorName(status), cudaGetErrorString(status));
  };
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess) fail(status, "at launch");
#if WARDEN_SYNC_LAUNCHES
  // A captured launch runs at replay, where warden::graph::replay synchronises instead.
  if (!captured)
    if (const cudaError_t status = cudaStreamSynchronize(s.native()); status != cudaSuccess) fail(status, "while running");
#else
  (void)s;
  (void)captured;
#endif
}

template <class K, class Entry, class... Args>
void run_cuda(const K& any_kernel, const launch_config& config, Entry entry, Args&... args) {
  const auto& kernel = definition_of(any_kernel);
  using indices = std::make_index_sequence<K::arity>;
  const backend::dims3 blocks = config.template blocks<typename K::block_type>(kernel.name);
  dsl::ir_builder scratch;
  const auto bound = prepare(kernel, description_of(any_kernel, scratch), blocks, check_cache_for<K>(), indices{}, args...);
  if (blocks.count() == 0) return;
  const stream_ref s = config.stream();
  const dim3 grid(blocks.x, blocks.y, blocks.z), block(K::block_type::x, K::block_type::y, K::block_type::z);
  if (graph_recorder* capture = capture_on(s, kernel.name)) {
    // Checked now; CUDA records the kernel call; the replay orders the buffers (warden::graph).
    bound.capture_into(*capture, kernel.name, kernel.param_names);
    entry(grid, block, s.native(), bound.slots);
    check_cuda_launch(kernel.name, s, true);
    return;
  }
  refuse_foreign_capture(kernel.name, s);
  bound.order(s, false);
  entry(grid, block, s.native(), bound.slots);
  check_cuda_launch(kernel.name, s);
  bound.order(s, true);
}
#endif  // WARDEN_CUDA_RUNTIME

}  // namespace detail

// The conditions on the launch under which the checker accepted `kernel` (its launch obligations,
// docs/soundness.md), one per line, or "" when it needs none. Launch checks each one before the
// kernel runs and throws obligation_error (E106) when one fails.
template <class K>
std::string obligations_of(const K& kernel) {
  const auto& definition = definition_of(kernel);
  const dsl::ir_builder ir = definition.describe();
  const std::vector<std::string> names = check::parameter_names(definition.param_names);
  std::string out;
  for (int fact : ir.stated) out += "given " + dsl::render(ir, fact, names) + " (stated; launch checks it, E107)\n";
  for (const check::obligation& o : definition.obligations) {
    if (o.kind == check::obligation_kind::positive) {
      const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
      const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
      out += std::string(diagnostic::to_string(o.protects)) + " holds for " + names[static_cast<std::size_t>(a.target)] + "[" +
             dsl::render(ir, a.index, names) + "] and " + names[static_cast<std::size_t>(c.target)] + "[" +
             dsl::render(ir, c.index, names) + "] if " + check::render_condition(o, names) +
             " (or one of them runs in no thread)\n";
      continue;
    }
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(o.loop)];
    out += std::string(diagnostic::to_string(o.protects)) + " holds if the loop over i" + std::to_string(loop.level) + " from " +
           dsl::render(ir, loop.lo, names) + " to " + dsl::render(ir, loop.hi, names) + " runs at most " +
           std::to_string(o.most_trips) + " trips\n";
  }
  return out;
}

// The cpu reference backend, whatever the machine has.
template <class K, class... Args>
void launch(on_cpu_t, const K& kernel, const launch_config& config, Args&&... args) {
  if constexpr (detail::launchable<K>() && detail::arguments_bind<K, Args...>()) detail::run_cpu(kernel, config, nullptr, args...);
}

// The cpu backend with every access recorded; the recording lists the conflicts it observed. It
// takes unchecked kernels (dsl::build_kernel) too: it is the oracle the checker is tested against.
template <class K, class... Args>
recording record(const K& kernel, const launch_config& config, Args&&... args) {
  recording r;
  if constexpr (detail::arguments_bind<K, Args...>()) detail::run_cpu(kernel, config, &r, args...);
  return r;
}

// The default backend.
template <class K, class... Args>
  requires(!std::is_same_v<std::remove_cvref_t<K>, on_cpu_t>)
void launch(const K& kernel, const launch_config& config, Args&&... args) {
  if constexpr (detail::launchable<K>() && detail::arguments_bind<K, Args...>()) {
#if defined(__CUDACC__)
  if (detail::cuda_device_available()) {
    const auto& definition = definition_of(kernel);
    using slots_type = decltype(detail::prepare(definition, std::declval<const dsl::ir_builder&>(), {}, nullptr,
                                                std::make_index_sequence<K::arity>{}, args...)
                                    .slots);
    auto entry = [&](dim3 g, dim3 b, cudaStream_t s, const slots_type& slots) {
      if constexpr (requires { typename K::holder; })
        backend::program_entry<typename K::holder, slots_type><<<g, b, 0, s>>>(slots);
      else
        backend::program_entry_dynamic<typename K::program_type, typename K::block_type, slots_type>
            <<<g, b, 0, s>>>(definition.program, slots);
    };
    detail::run_cuda(kernel, config, entry, args...);
    return;
  }
#endif
  detail::run_cpu(kernel, config, nullptr, args...);
  }
}

}  // namespace warden
