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

namespace warden::testing {

// Source text with runs of spaces and line breaks as one space: a fix the tests apply to a body's
// source is compared as text, not as layout.
inline std::string squeezed(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// One past the closing parenthesis of the call whose name begins at `at`; npos where unbalanced.
inline std::size_t call_end(const std::string& text, std::size_t at) {
  int depth = 0;
  for (std::size_t i = text.find('(', at); i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

}  // namespace warden::testing
