#pragma once
// What a launch hands the backend for each kernel parameter: a pointer and an element count for a
// buffer, the value itself for value<T>. slots<Params...> packs them in parameter order.

#include "../detail/dims3.hpp"
#include "../detail/pack.hpp"
#include "../dsl/params.hpp"

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

// The launch geometry both backends see (detail/dims3.hpp).
using detail::dims3;

}  // namespace warden::backend
