#pragma once
// w::explain: the checker's verdict on a kernel as text, at run time. g++ prints a rejected
// kernel's explanation as a string in its error; clang++ and nvcc print it as a pack of characters
// ('o', 'u', 't', ...), which their error points here for. So, for a kernel that does not compile:
//
//   constexpr auto body = [](auto k, auto in, auto out) { ... };   // the kernel's body, apart
//   std::puts(w::explain<w::block<256>, w::in<float>, w::out<float>>(body).c_str());
//
// or w::explain(w::dsl::build_kernel<...>(body)). It prints the code, its rule and fix, and the
// explanation (in the body's own names where WARDEN_KERNEL gave its source, else kind#position);
// for a kernel the checker accepts, "accepted", and what each launch must meet (E106, E107).
#include <string>
#include <type_traits>

#include "check/verdict.hpp"
#include "diagnostic/codes.hpp"
#include "dsl/program.hpp"

namespace warden {

namespace detail {
inline std::string explained(const check::verdict& v) {
  if (v.finding.code == diagnostic::code::none) return "accepted";
  const diagnostic::entry& e = diagnostic::row(v.finding.code);
  std::string out;
  out.append(e.name).append(" [").append(e.short_name).append("] ").append(e.rule).append(": ").append(e.fix);
  out.append("\n  ").append(v.text.view());
  return out;
}
}  // namespace detail

// The verdict on a kernel definition: a w::kernel, a WARDEN_KERNEL handle, or a program
// dsl::build_kernel built without the checker.
template <class K>
  requires requires { K::arity; }
std::string explain(const K& kernel) {
  return detail::explained(check::verdict_of(kernel));
}

// The verdict on a body with this block and these parameters (the body of a w::kernel that does
// not compile): the same analysis w::kernel runs, without failing the build.
template <class Block, class... Params, class F>
  requires(!requires { F::arity; })
std::string explain(F) {
  static_assert(std::is_default_constructible_v<F>,
                "warden::explain: the body must be a lambda without captures, as for warden::kernel");
  return detail::explained(check::verdict_on_body<Block, F, Params...>::value);
}

}  // namespace warden
