#pragma once
// The cuda backend's atomic updates, on CUDA's atomic built-ins: what a hand-written kernel calls
// (atomicAdd, atomicMin, ...), so the instructions are the twin's, and no header is needed (libcu++'s
// <cuda/atomic> alone added several seconds to every nvcc compile of a warden program). Relaxed, device
// scope, like the built-ins. Types and operations without a built-in take a compare-and-swap loop
// on the value's bits (floating-point min and max, 64-bit signed add, ...).

#include "../config.hpp"

#if defined(__CUDACC__)
#include <cstring>
#include <type_traits>

#include "../dsl/stmt.hpp"

namespace warden::backend {

template <class T, class... U>
inline constexpr bool one_of = (std::is_same_v<T, U> || ...);

// The bits of a 4- or 8-byte value, as the unsigned type atomicCAS takes.
template <class T>
using cas_word = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

template <class T>
__device__ cas_word<T> bits_of(T v) {
  cas_word<T> w;
  memcpy(&w, &v, sizeof(T));
  return w;
}
template <class T>
__device__ T value_of(cas_word<T> w) {
  T v;
  memcpy(&v, &w, sizeof(T));
  return v;
}

// A read-modify-write by compare-and-swap: `next(current)` is the new value, or `current` itself
// when nothing is to change (then no swap is attempted).
template <class T, class Next>
__device__ void cas_loop(T* target, Next next) {
  auto* word = reinterpret_cast<cas_word<T>*>(target);
  cas_word<T> seen = *reinterpret_cast<volatile cas_word<T>*>(word);
  for (;;) {
    const T current = value_of<T>(seen);
    const T wanted = next(current);
    const cas_word<T> desired = bits_of(wanted);
    if (desired == seen) return;
    const cas_word<T> before = atomicCAS(word, seen, desired);
    if (before == seen) return;
    seen = before;
  }
}

template <dsl::atomic_op Op, class T>
__device__ void atomic_update(T* target, T v, T expected) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "warden::atomic: the element must be 4 or 8 bytes (what CUDA's atomics update)");
  using dsl::atomic_op;
  if constexpr (Op == atomic_op::add && one_of<T, int, unsigned int, unsigned long long, float, double>) {
    atomicAdd(target, v);
  } else if constexpr (Op == atomic_op::min && one_of<T, int, unsigned int, long long, unsigned long long>) {
    atomicMin(target, v);
  } else if constexpr (Op == atomic_op::max && one_of<T, int, unsigned int, long long, unsigned long long>) {
    atomicMax(target, v);
  } else if constexpr (Op == atomic_op::exchange && one_of<T, int, unsigned int, unsigned long long, float>) {
    atomicExch(target, v);
  } else if constexpr (Op == atomic_op::sub && one_of<T, int, unsigned int>) {
    atomicSub(target, v);
  } else if constexpr (Op == atomic_op::bit_and && one_of<T, int, unsigned int, unsigned long long>) {
    atomicAnd(target, v);
  } else if constexpr (Op == atomic_op::bit_or && one_of<T, int, unsigned int, unsigned long long>) {
    atomicOr(target, v);
  } else if constexpr (Op == atomic_op::bit_xor && one_of<T, int, unsigned int, unsigned long long>) {
    atomicXor(target, v);
  } else if constexpr (Op == atomic_op::inc) {
    atomicInc(target, v);
  } else if constexpr (Op == atomic_op::dec) {
    atomicDec(target, v);
  } else if constexpr (Op == atomic_op::compare_exchange) {
    // Compares the bits, as std::atomic_ref::compare_exchange_strong does.
    atomicCAS(reinterpret_cast<cas_word<T>*>(target), bits_of(expected), bits_of(v));
  } else {
    cas_loop(target, [v](T current) { return dsl::atomic_result<Op>(current, v); });
  }
}

}  // namespace warden::backend

#endif  // __CUDACC__
