#pragma once
// Math functions and struct fields as kernel expressions: w::sqrt(x), w::exp(x), w::pow(x, y), ... and the
// fast-math variants w::fast::exp(x), ..., w::fast::rsqrt(x), w::fast::divide(x, y) (CUDA's
// intrinsics __expf, rsqrtf, __fdividef and kin on the device, the precise function on the host). Each is a call of a stateless function object (expr.hpp's
// call_e): the checker treats the result as data, like any computed value, so a math function may
// appear anywhere a value may, and never in a proof about an index.
//
// float arguments call the float functions (sqrtf), double ones the double functions; integer
// arguments are converted to double, as C++'s <cmath> overloads do.

#include <cmath>
#include <type_traits>

#include "../config.hpp"
#include "expr.hpp"

namespace warden::dsl::math {

template <class T>
using real_t = std::conditional_t<std::is_same_v<T, float>, float, double>;

#define WARDEN_DSL_MATH_UNARY(name, float_fn, double_fn, fast_fn)                  \
  struct name##_fn {                                                                \
    WARDEN_EXEC_CHECK_DISABLE                                                       \
    template <class T>                                                              \
    constexpr WARDEN_HOST_DEVICE real_t<T> operator()(T x) const {                  \
      if constexpr (std::is_same_v<T, float>) return float_fn(x);                   \
      else return double_fn(static_cast<double>(x));                                \
    }                                                                               \
  };                                                                                \
  struct fast_##name##_fn {                                                         \
    WARDEN_EXEC_CHECK_DISABLE                                                       \
    template <class T>                                                              \
    constexpr WARDEN_HOST_DEVICE float operator()(T x) const {                      \
      WARDEN_DSL_MATH_FAST(fast_fn, float_fn, static_cast<float>(x))               \
    }                                                                               \
  };

#if defined(__CUDA_ARCH__)
#define WARDEN_DSL_MATH_FAST(fast_fn, float_fn, x) return fast_fn(x);
#else
#define WARDEN_DSL_MATH_FAST(fast_fn, float_fn, x) return float_fn(x);
#endif

WARDEN_DSL_MATH_UNARY(sqrt, ::sqrtf, ::sqrt, ::__fsqrt_rn)
WARDEN_DSL_MATH_UNARY(exp, ::expf, ::exp, ::__expf)
WARDEN_DSL_MATH_UNARY(log, ::logf, ::log, ::__logf)
WARDEN_DSL_MATH_UNARY(sin, ::sinf, ::sin, ::__sinf)
WARDEN_DSL_MATH_UNARY(cos, ::cosf, ::cos, ::__cosf)
WARDEN_DSL_MATH_UNARY(tanh, ::tanhf, ::tanh, ::tanhf)
WARDEN_DSL_MATH_UNARY(fabs, ::fabsf, ::fabs, ::fabsf)
WARDEN_DSL_MATH_UNARY(floor, ::floorf, ::floor, ::floorf)
WARDEN_DSL_MATH_UNARY(ceil, ::ceilf, ::ceil, ::ceilf)
WARDEN_DSL_MATH_UNARY(round, ::roundf, ::round, ::roundf)
#undef WARDEN_DSL_MATH_UNARY

struct pow_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class T, class U>
  constexpr WARDEN_HOST_DEVICE auto operator()(T x, U y) const {
    if constexpr (std::is_same_v<T, float> && std::is_same_v<U, float>) return ::powf(x, y);
    else return ::pow(static_cast<double>(x), static_cast<double>(y));
  }
};
struct fast_pow_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class T, class U>
  constexpr WARDEN_HOST_DEVICE float operator()(T x, U y) const {
#if defined(__CUDA_ARCH__)
    return ::__powf(static_cast<float>(x), static_cast<float>(y));
#else
    return ::powf(static_cast<float>(x), static_cast<float>(y));
#endif
  }
};
// rsqrtf and __fdividef, as CUDA code calls them: on the host, 1 / sqrtf(x) and x / y.
struct fast_rsqrt_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class T>
  constexpr WARDEN_HOST_DEVICE float operator()(T x) const {
#if defined(__CUDA_ARCH__)
    return ::rsqrtf(static_cast<float>(x));
#else
    return 1.0f / ::sqrtf(static_cast<float>(x));
#endif
  }
};
struct fast_divide_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class T, class U>
  constexpr WARDEN_HOST_DEVICE float operator()(T x, U y) const {
#if defined(__CUDA_ARCH__)
    return ::__fdividef(static_cast<float>(x), static_cast<float>(y));
#else
    return static_cast<float>(x) / static_cast<float>(y);
#endif
  }
};
#undef WARDEN_DSL_MATH_FAST

}  // namespace warden::dsl::math

namespace warden {

#define WARDEN_MATH_FUNCTION(name)                                  \
  template <dsl::operand X>                                         \
  constexpr WARDEN_HOST_DEVICE auto name(X&& x) {                    \
    return call(dsl::math::name##_fn{}, std::forward<X>(x));         \
  }
WARDEN_MATH_FUNCTION(sqrt)
WARDEN_MATH_FUNCTION(exp)
WARDEN_MATH_FUNCTION(log)
WARDEN_MATH_FUNCTION(sin)
WARDEN_MATH_FUNCTION(cos)
WARDEN_MATH_FUNCTION(tanh)
WARDEN_MATH_FUNCTION(fabs)
WARDEN_MATH_FUNCTION(floor)
WARDEN_MATH_FUNCTION(ceil)
WARDEN_MATH_FUNCTION(round)
#undef WARDEN_MATH_FUNCTION
template <dsl::operand X, dsl::operand Y>
constexpr WARDEN_HOST_DEVICE auto pow(X&& x, Y&& y) {
  return call(dsl::math::pow_fn{}, std::forward<X>(x), std::forward<Y>(y));
}

// Fast-math variants (CUDA's intrinsics on the device: less precise, faster; float results).
namespace fast {
#define WARDEN_FAST_FUNCTION(name)                                        \
  template <dsl::operand X>                                               \
  constexpr WARDEN_HOST_DEVICE auto name(X&& x) {                          \
    return call(dsl::math::fast_##name##_fn{}, std::forward<X>(x));        \
  }
WARDEN_FAST_FUNCTION(sqrt)
WARDEN_FAST_FUNCTION(exp)
WARDEN_FAST_FUNCTION(log)
WARDEN_FAST_FUNCTION(sin)
WARDEN_FAST_FUNCTION(cos)
#undef WARDEN_FAST_FUNCTION
template <dsl::operand X, dsl::operand Y>
constexpr WARDEN_HOST_DEVICE auto pow(X&& x, Y&& y) {
  return call(dsl::math::fast_pow_fn{}, std::forward<X>(x), std::forward<Y>(y));
}
// rsqrtf(x): 1 / sqrt(x).
template <dsl::operand X>
constexpr WARDEN_HOST_DEVICE auto rsqrt(X&& x) {
  return call(dsl::math::fast_rsqrt_fn{}, std::forward<X>(x));
}
// __fdividef(x, y): x / y, approximate on the device (see CUDA's documentation for the range of y).
template <dsl::operand X, dsl::operand Y>
constexpr WARDEN_HOST_DEVICE auto divide(X&& x, Y&& y) {
  return call(dsl::math::fast_divide_fn{}, std::forward<X>(x), std::forward<Y>(y));
}
}  // namespace fast

}  // namespace warden

// ---- fields of array-of-struct elements ------------------------------------------------------------

namespace warden::dsl {
template <auto Member>
struct field_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class S>
  constexpr WARDEN_HOST_DEVICE auto operator()(const S& s) const {
    return s.*Member;
  }
};
template <auto Member>
struct with_field_fn {
  WARDEN_EXEC_CHECK_DISABLE
  template <class S, class V>
  constexpr WARDEN_HOST_DEVICE S operator()(S s, V v) const {
    s.*Member = static_cast<std::remove_cvref_t<decltype(s.*Member)>>(v);
    return s;
  }
};
}  // namespace warden::dsl

namespace warden {
// field<&particle::x>(p[i]): one member of a struct element, as a value (`p[i].x`).
template <auto Member, dsl::operand S>
constexpr WARDEN_HOST_DEVICE auto field(S&& element) {
  return call(dsl::field_fn<Member>{}, std::forward<S>(element));
}
// with_field<&particle::x>(p[i], v): the element with one member replaced, to store back:
// `p[i] = w::with_field<&particle::x>(p[i], v)` is `p[i].x = v` as a store of the whole element
// (the checker judges elements, so two threads writing two members of one element race for it).
template <auto Member, dsl::operand S, dsl::operand V>
constexpr WARDEN_HOST_DEVICE auto with_field(S&& element, V&& v) {
  return call(dsl::with_field_fn<Member>{}, std::forward<S>(element), std::forward<V>(v));
}
}  // namespace warden
