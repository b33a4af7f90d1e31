#pragma once
// What a launch hands the backend for each kernel parameter: a pointer and an element count for a
// buffer, the value itself for value<T>. slots<Params...> packs them in parameter order.

#include "../detail/pack.hpp"
#include "../dsl/kernel.hpp"

namespace warden::backend {

template <class Param>
struct slot;

template <class T>
struct slot<in<T>> {
  const T* ptr;
  int size;
};
template <class T>
struct slot<out<T>> {
  T* ptr;
  int size;
};
template <class T>
struct slot<inout<T>> {
  T* ptr;
  int size;
};
template <class T>
struct slot<atomic<T>> {
  T* ptr;
  int size;
};
template <class T>
struct slot<value<T>> {
  T value;
};

// The launch geometry both backends see.
struct dims3 {
  int x = 1, y = 1, z = 1;
  constexpr int operator[](int d) const { return d == 0 ? x : d == 1 ? y : z; }
  constexpr long long count() const { return static_cast<long long>(x) * y * z; }
};

}  // namespace warden::backend
