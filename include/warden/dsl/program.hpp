#pragma once
// A kernel's definition without its verdict: kernel_definition (block, parameters, program, names,
// obligations), named_kernel and WARDEN_KERNEL (a kernel named by a type), definition_of, and
// build_program / build_kernel (a program built without the checker). warden/kernel.hpp adds the
// checker: `w::kernel` is defined there.
#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "source_text.hpp"
#include "context.hpp"
#include "ir.hpp"
#include "params.hpp"
#include "obligation.hpp"

namespace warden::dsl {

// A defined kernel: its block shape, parameter kinds and program. Literal, so `inline constexpr`.
template <class Block, class Program, class... Params>
struct kernel_definition {
  using block_type = Block;
  using program_type = Program;
  static constexpr int threads = Block::threads;
  static constexpr std::size_t arity = sizeof...(Params);
  template <std::size_t I>
  using param = std::tuple_element_t<I, std::tuple<Params...>>;

  Program program;
  std::string_view name = "kernel";
  std::array<std::string_view, sizeof...(Params)> param_names{};
  // What launch must check before running it (E106): the conditions the checker's proof rests on.
  check::obligation_list obligations{};
  // WARDEN_KERNEL's text (check::with_source), for launch-time messages in its names; else empty.
  std::string_view source{};

  // The same kernel with a name (and parameter names) for messages.
  template <class... Names>
  constexpr kernel_definition named(std::string_view kernel_name, Names... names) const {
    static_assert(sizeof...(Names) == 0 || sizeof...(Names) == sizeof...(Params),
                  "warden::kernel(...).named: name every parameter, or none");
    kernel_definition copy = *this;
    copy.name = kernel_name;
    if constexpr (sizeof...(Names) > 0) copy.param_names = {std::string_view(names)...};
    return copy;
  }

  // The value-level description of the program.
  constexpr dsl::kernel_ir describe() const {
    dsl::kernel_ir b;
    program.describe(b);
    return b;
  }
};

// A kernel identified by a named type: Holder::definition is its kernel_definition. The cuda backend
// instantiates its __global__ entry on Holder, so the program, constants included, is known while
// the kernel is compiled (nvcc accepts neither lambda closure types nor, in its host stubs,
// references to namespace-scope objects as template arguments of __global__ functions; a named
// class is what remains). WARDEN_KERNEL(name, definition) declares both at once. So a kernel has
// two forms, not four nouns: w::kernel<...>(body) checks a body and returns its kernel_definition
// (a literal value); a named_kernel is that definition reached through a type, `holder`, the class
// whose static member holds it, which is what a __global__ template can be instantiated on.
template <class Holder>
struct named_kernel {
  using holder = Holder;
  using definition_type = std::remove_cvref_t<decltype(Holder::definition)>;
  using block_type = typename definition_type::block_type;
  using program_type = typename definition_type::program_type;
  static constexpr int threads = definition_type::threads;
  static constexpr std::size_t arity = definition_type::arity;
  template <std::size_t I>
  using param = typename definition_type::template param<I>;
  static constexpr const definition_type& definition() { return Holder::definition; }
  constexpr dsl::kernel_ir describe() const { return Holder::definition.describe(); }
};

// The kernel_definition behind a kernel or a kernel handle.
template <class K>
constexpr const auto& definition_of(const K& kernel) {
  if constexpr (requires { typename K::holder; }) return K::holder::definition;
  else return kernel;
}

// The program of a body, built without the checker.
template <class Block, class... Params, class F>
constexpr auto build_program(F body) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return dsl::to_statement(body(dsl::kernel_context<Block, 0>{}, dsl::make_handle<static_cast<int>(I), Params>()...));
  }(std::index_sequence_for<Params...>{});
}

// A program nobody checked (build_kernel's): it can be described, given a verdict and recorded,
// but launch refuses it, so that no unchecked kernel runs by accident.
template <class P>
struct unchecked_program {
  P program;
  WARDEN_EXEC_CHECK_DISABLE
  template <class C>
  constexpr WARDEN_HOST_DEVICE void run(C& c) const {
    program.run(c);
  }
  constexpr void describe(kernel_ir& b) const { program.describe(b); }
};
template <class P>
inline constexpr bool is_unchecked = false;
template <class P>
inline constexpr bool is_unchecked<unchecked_program<P>> = true;

// The kernel_definition of a body, unchecked: tests and the fuzzer use it to look at the verdict of
// programs the checker rejects (check::verdict_of) and to record them; launch refuses it.
template <class Block, class... Params, class F>
constexpr auto build_kernel(F body) {
  using program_type = decltype(build_program<Block, Params...>(body));
  return kernel_definition<Block, unchecked_program<program_type>, Params...>{{build_program<Block, Params...>(body)}};
}

}  // namespace warden::dsl

// WARDEN_KERNEL(name, w::kernel<...>(body)): declares the kernel `name` at namespace scope, named
// "name" in messages, with zero-cost CUDA launches (see named_kernel).
//
// The definition's source text goes with it (a hidden friend the checker finds from the body's
// type, check/source_names.hpp), so that its diagnostics use the names written there.
#define WARDEN_KERNEL(name, ...)                                              \
  struct name##_warden_source {                                               \
    static constexpr ::std::string_view text = #__VA_ARGS__;                  \
    static constexpr ::std::string_view kernel = #name;                       \
  };                                                                          \
  struct name##_warden_kernel {                                               \
    friend name##_warden_source warden_kernel_source(auto);                   \
    static constexpr auto definition =                                        \
        ::warden::dsl::with_source((__VA_ARGS__).named(#name), name##_warden_source::text); \
  };                                                                          \
  inline constexpr ::warden::dsl::named_kernel<name##_warden_kernel> name {}
