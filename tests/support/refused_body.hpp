#pragma once
// A kernel body the checker refuses, kept with its source text as WARDEN_KERNEL keeps a
// definition's (dsl/program.hpp), so that a test can read the diagnostic w::kernel would print,
// in the body's own names, without failing the build:
//
//   WARDEN_TEST_BODY(reverse_racy, [](auto k, auto in, auto out) { ... });
//   w::testing::message_of<w::block<64>, w::in<float>, w::out<float>>(reverse_racy)
//
// is what the compilers print after the code's rule ("why: ..."), and code_of (verdict_probe.hpp)
// its code.
#include <warden/warden.hpp>

#include <string>
#include <string_view>

#define WARDEN_TEST_BODY(name, ...)                                       \
  struct name##_warden_source {                                          \
    static constexpr ::std::string_view text = #__VA_ARGS__;             \
    static constexpr ::std::string_view kernel = #name;                  \
  };                                                                     \
  struct name##_holder {                                                 \
    friend name##_warden_source warden_kernel_source(auto);              \
    static constexpr auto body = __VA_ARGS__;                            \
  };                                                                     \
  inline constexpr auto name = name##_holder::body

namespace warden::testing {

// The explanation w::kernel<Block, Params...>(body) would print for a body it refuses ("" where it
// accepts it), with the names of the body's source.
template <class Block, class... Params, class Body>
std::string message_of(Body) {
  return std::string(check::verdict_on_body<Block, Body, Params...>::value.text.view());
}

}  // namespace warden::testing
