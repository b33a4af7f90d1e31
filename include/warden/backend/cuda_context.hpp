#pragma once
// The cuda backend's view of one thread: ids from the hardware registers, block extents from the
// kernel's type (compile-time constants), parameters from the launch's slots, scopes as nested
// contexts that live in registers once inlined. Only meaningful under nvcc.

#include "../config.hpp"

#if defined(__CUDACC__)
#include <type_traits>

#include "../dsl/stmt.hpp"
#include "../dsl/vector.hpp"
#include "cuda_atomic.hpp"
#include "slots.hpp"

namespace warden::backend {

// Storage of the tile declared by the shared_s statement Tag: one static __shared__ array per
// statement type, so that two tiles never share storage (sibling scopes could otherwise race).
template <class Tag, class T, int N>
__device__ T* shared_tile() {
  __shared__ T storage[N];
  return storage;
}

// A load of an in<T> buffer (cuda_context::load). `__restrict__` promises what the launch
// guarantees: the buffer is read-only for the whole launch (W003) and shares no memory with a
// writable parameter (E100). nvcc then loads through the read-only data cache (ld.global.nc,
// LDG.E.CONSTANT), as for a twin's `const T* __restrict__` parameter, and still sees an ordinary
// load: unlike __ldg (an opaque asm volatile), neighbouring loads share one address computation
// and fold their constant offsets into the instruction (LDG [R6.64+-0x4]).
template <class T>
__device__ __forceinline__ T read_only_load(const T* __restrict__ p, int i) {
  return p[i];
}

template <class Block, class Program, class Slots>
struct cuda_context {
  const Slots& slots;
  // && and || evaluate a pure right operand before the test (dsl::eager_pure_logic).
  static constexpr bool eager_pure_logic = true;

  __device__ int thread_idx(int d) const {
    return d == 0 ? static_cast<int>(threadIdx.x) : d == 1 ? static_cast<int>(threadIdx.y) : static_cast<int>(threadIdx.z);
  }
  __device__ int block_idx(int d) const {
    return d == 0 ? static_cast<int>(blockIdx.x) : d == 1 ? static_cast<int>(blockIdx.y) : static_cast<int>(blockIdx.z);
  }
  __device__ constexpr int block_dim(int d) const { return d == 0 ? Block::x : d == 1 ? Block::y : Block::z; }
  __device__ int grid_dim(int d) const {
    return d == 0 ? static_cast<int>(gridDim.x) : d == 1 ? static_cast<int>(gridDim.y) : static_cast<int>(gridDim.z);
  }

  template <int I, class T>
  __device__ T value() const {
    return detail::get<I>(slots).value;
  }
  template <int I>
  __device__ int size() const {
    return detail::get<I>(slots).size;
  }
  // An in<T> buffer's loads go through read_only_load (above): the read-only data cache.
  template <int I, class T>
  __device__ T load(int i) const {
    auto* const p = detail::get<I>(slots).ptr;
    constexpr bool read_only = std::is_const_v<std::remove_pointer_t<decltype(p)>>;
    if constexpr (read_only) return read_only_load(p, i);
    else return p[i];
  }
  template <int I, class T>
  __device__ void store(int i, T v) const {
    detail::get<I>(slots).ptr[i] = v;
  }
  // One vector instruction (ld.global.v4 / st.global.v4): the buffer seen as vec<T, N>, whose
  // alignment launch has checked (E101).
  template <int I, class T, int N>
  __device__ vec<T, N> load_vector(int i) const {
    auto* const p = detail::get<I>(slots).ptr;
    constexpr bool read_only = std::is_const_v<std::remove_pointer_t<decltype(p)>>;
    if constexpr (read_only) return read_only_load(reinterpret_cast<const vec<T, N>*>(p), i);
    else return reinterpret_cast<const vec<T, N>*>(p)[i];
  }
  template <int I, class T, int N>
  __device__ void store_vector(int i, const vec<T, N>& v) const {
    reinterpret_cast<vec<T, N>*>(detail::get<I>(slots).ptr)[i] = v;
  }
  template <int I, class T, dsl::atomic_op Op>
  __device__ void atomic(int i, T v, T expected) const {
    // T is the element's type, or its signed or unsigned kind (w::as<U>): one object, two names.
    atomic_update<Op>(reinterpret_cast<T*>(detail::get<I>(slots).ptr + i), v, expected);
  }
  __device__ void sync() const { __syncthreads(); }

  // Every lane takes part (the checker's W031 guarantees that all 32 reach the shuffle), so the
  // mask is the full warp. Types narrower than int travel as int: CUDA has no overload for them.
  template <dsl::shuffle_kind Kind, class T>
  __device__ T shuffle(T v, int operand) const {
    using W = std::conditional_t<(std::is_integral_v<T> && sizeof(T) < sizeof(int)), int, T>;
    constexpr unsigned all_lanes = 0xffffffffu;
    const W x = static_cast<W>(v);
    if constexpr (Kind == dsl::shuffle_kind::down) return static_cast<T>(__shfl_down_sync(all_lanes, x, static_cast<unsigned>(operand)));
    else if constexpr (Kind == dsl::shuffle_kind::up) return static_cast<T>(__shfl_up_sync(all_lanes, x, static_cast<unsigned>(operand)));
    else if constexpr (Kind == dsl::shuffle_kind::xor_lanes) return static_cast<T>(__shfl_xor_sync(all_lanes, x, operand));
    else return static_cast<T>(__shfl_sync(all_lanes, x, operand));
  }

  template <int L, class T>
  __device__ T& var() const;  // never called: every level is bound by a scope (see bound_* below)
  template <int L, class T>
  __device__ T tile_load(int) const;
  template <int L, class T>
  __device__ void tile_store(int, T) const;
  template <int L, class T, dsl::atomic_op Op>
  __device__ void tile_atomic(int, T, T) const;

  template <int L, class T>
  __device__ auto bind(T v) const;
  template <int L, class T>
  __device__ auto bind_ref(T& v) const;
  template <int L, class T, int N, class Tag>
  __device__ auto bind_tile() const;
};

// A context with one more scope: a value (loop variable), a reference (local) or a tile.
template <class Parent, int L, class T, int Kind>  // Kind: 0 value, 1 reference, 2 tile
struct cuda_bound : Parent {
  using slot_type = std::conditional_t<Kind == 0, T, T*>;
  mutable slot_type slot;

  __device__ cuda_bound(const Parent& parent, slot_type s) : Parent(parent), slot(s) {}

  template <int L2, class U>
  __device__ U& var() const {
    if constexpr (L2 == L && Kind == 0) return slot;
    else if constexpr (L2 == L && Kind == 1) return *slot;
    else return Parent::template var<L2, U>();
  }
  template <int L2, class U>
  __device__ U tile_load(int i) const {
    if constexpr (L2 == L && Kind == 2) return slot[i];
    else return Parent::template tile_load<L2, U>(i);
  }
  template <int L2, class U>
  __device__ void tile_store(int i, U v) const {
    if constexpr (L2 == L && Kind == 2) slot[i] = v;
    else Parent::template tile_store<L2, U>(i, v);
  }
  // The built-ins on a pointer into __shared__ memory: nvcc emits the shared-memory atomics
  // (atom.shared), as for a hand-written privatised histogram.
  template <int L2, class U, dsl::atomic_op Op>
  __device__ void tile_atomic(int i, U v, U expected) const {
    if constexpr (L2 == L && Kind == 2) atomic_update<Op>(slot + i, v, expected);
    else Parent::template tile_atomic<L2, U, Op>(i, v, expected);
  }
  template <int L2, class U>
  __device__ auto bind(U v) const {
    return cuda_bound<cuda_bound, L2, U, 0>(*this, v);
  }
  template <int L2, class U>
  __device__ auto bind_ref(U& v) const {
    return cuda_bound<cuda_bound, L2, U, 1>(*this, &v);
  }
  template <int L2, class U, int N, class Tag>
  __device__ auto bind_tile() const {
    return cuda_bound<cuda_bound, L2, U, 2>(*this, shared_tile<Tag, U, N>());
  }
};

template <class Block, class Program, class Slots>
template <int L, class T>
__device__ auto cuda_context<Block, Program, Slots>::bind(T v) const {
  return cuda_bound<cuda_context, L, T, 0>(*this, v);
}
template <class Block, class Program, class Slots>
template <int L, class T>
__device__ auto cuda_context<Block, Program, Slots>::bind_ref(T& v) const {
  return cuda_bound<cuda_context, L, T, 1>(*this, &v);
}
template <class Block, class Program, class Slots>
template <int L, class T, int N, class Tag>
__device__ auto cuda_context<Block, Program, Slots>::bind_tile() const {
  return cuda_bound<cuda_context, L, T, 2>(*this, shared_tile<Tag, T, N>());
}

// The one __global__ function every warden kernel becomes. Holder::definition is the kernel (see
// named_kernel): its program, constants included, is known while this function is compiled, so
// the constants are immediates, as in hand-written CUDA.
template <class Holder, class Slots>
__global__ void __launch_bounds__(std::remove_cvref_t<decltype(Holder::definition)>::threads) program_entry(Slots slots) {
  using K = std::remove_cvref_t<decltype(Holder::definition)>;
  constexpr auto program = Holder::definition.program;
  const cuda_context<typename K::block_type, typename K::program_type, Slots> ctx{slots};
  auto c = ctx;
  program.run(c);
}

// The same, with the program passed at run time (a kernel_definition launched directly, not through a
// named_kernel): its constants are then kernel parameters.
template <class Program, class Block, class Slots>
__global__ void __launch_bounds__(Block::threads) program_entry_dynamic(Program program, Slots slots) {
  const cuda_context<Block, Program, Slots> ctx{slots};
  auto c = ctx;
  program.run(c);
}

}  // namespace warden::backend

#endif  // __CUDACC__
