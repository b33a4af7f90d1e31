#pragma once
// Whether a launch's arguments fit its kernel, decided at compile time before anything else of the
// launch is instantiated: the number of arguments, a buffer (not host-only memory, W002) for each
// buffer parameter, something convertible for each value<T>, and a kernel the checker accepted
// (W006). Each failure is one static_assert naming the parameter, not a cascade.

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../diagnostic/table.hpp"
#include "../dsl/program.hpp"
#include "../memory/buffer.hpp"
#include "../memory/buffer_view.hpp"

namespace warden::detail {

template <class T>
struct is_buffer : std::false_type {};
template <class T, class S>
struct is_buffer<buffer<T, S>> : std::true_type {};
template <class B>
struct is_buffer<buffer_view<B>> : std::true_type {};  // a part of one (memory/buffer_view.hpp)

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
                                          "this kernel was built by dsl::build_kernel (or in a file compiled with "
                                          "WARDEN_RECORD_ONLY) and never checked; define it with "
                                          "warden::kernel<...>(body), and mark what the checker cannot prove "
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

}  // namespace warden::detail
