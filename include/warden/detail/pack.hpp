#pragma once
// pack<T...>: a tiny aggregate tuple usable in constexpr host code and in CUDA device code alike
// (std::tuple is not __device__, and libcu++ is not on every host-only machine).

#include <cstddef>
#include <utility>

#include "../config.hpp"

namespace warden::detail {

template <std::size_t I, class T>
struct pack_leaf {
  T value;
};

template <class Indices, class... T>
struct pack_impl;

// Aggregates all the way down: a program made of packs can be a template argument (C++20
// class-type non-type template parameter), which is how the cuda backend gets its constants.
template <std::size_t... I, class... T>
struct pack_impl<std::index_sequence<I...>, T...> : pack_leaf<I, T>... {};

template <class... T>
struct pack : pack_impl<std::index_sequence_for<T...>, T...> {
  static constexpr std::size_t size = sizeof...(T);
};

template <class... T>
constexpr WARDEN_HOST_DEVICE pack<T...> make_pack(T... values) {
  return pack<T...>{{{values}...}};
}

template <std::size_t I, class T>
constexpr WARDEN_HOST_DEVICE T& get(pack_leaf<I, T>& leaf) noexcept { return leaf.value; }
template <std::size_t I, class T>
constexpr WARDEN_HOST_DEVICE const T& get(const pack_leaf<I, T>& leaf) noexcept { return leaf.value; }

// Calls f(element) for each element, in order.
WARDEN_EXEC_CHECK_DISABLE
template <class... T, class F>
constexpr WARDEN_HOST_DEVICE void for_each(const pack<T...>& p, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) { (f(get<I>(p)), ...); }(std::index_sequence_for<T...>{});
}

}  // namespace warden::detail
