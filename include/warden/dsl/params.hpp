#pragma once
// The kernel's type: its block shape (block<X, Y, Z>) and parameter kinds (in, out, inout,
// atomic, value), and the symbolic handle each kind hands the body.
#include <string_view>

#include "../access.hpp"
#include "handles.hpp"

namespace warden {

// ---- the kernel's type: block shape and parameter kinds ------------------------------------------

template <int X, int Y = 1, int Z = 1>
struct block {
  static_assert(X > 0 && Y > 0 && Z > 0, "warden::block: every extent must be positive");
  static_assert(X * Y * Z <= 1024, "warden::block: at most 1024 threads per block (a CUDA limit)");
  static constexpr int x = X, y = Y, z = Z, threads = X * Y * Z;
};

namespace dsl {
// What every buffer parameter kind has in common; the kinds differ in their mode and name.
template <class T, class Mode>
struct buffer_param {
  using value_type = T;
  using mode = Mode;
  static constexpr bool is_buffer = true;
};
}  // namespace dsl

template <class T>
struct in : dsl::buffer_param<T, access::read> {
  static constexpr std::string_view kind = "in";
};
template <class T>
struct out : dsl::buffer_param<T, access::write> {
  static constexpr std::string_view kind = "out";
};
template <class T>
struct inout : dsl::buffer_param<T, access::read_write> {
  static constexpr std::string_view kind = "inout";
};
template <class T>
struct atomic : dsl::buffer_param<T, access::atomic> {
  static constexpr std::string_view kind = "atomic";
};
template <class T>
struct value {
  using value_type = T;
  static constexpr bool is_buffer = false;
  static constexpr std::string_view kind = "value";
};

namespace dsl {

template <int I, class Param>
constexpr auto make_handle() {
  using T = typename Param::value_type;
  if constexpr (Param::is_buffer) return buffer_handle<I, T, typename Param::mode>{};
  else return value_e<I, T>{};
}
}  // namespace dsl

}  // namespace warden
