#pragma once
// Kernels: kernel<block<Bx, By, Bz>, params...>(body) builds the program by calling `body` with
// symbolic handles, once, at compile time.
//
//   inline constexpr auto saxpy = w::kernel<w::block<256>, w::in<float>, w::inout<float>, w::value<float>>(
//       [](auto k, auto x, auto y, auto a) {
//         auto i = k.global_id();
//         return w::when(i < x.size(), y[i] = a * x[i] + y[i]);
//       });
//
// Scopes (loops, thread-private variables, shared tiles) take the kernel context `k` and hand a
// new one to their body: `for_range(k, 0, n, [](auto k, auto i) { ... })`. The context's type
// carries the nesting level, which names the scope's variable; use the innermost `k`.
#include <type_traits>

// The language first: a mode error raised in dsl/handles.hpp then shows the shortest chain of
// "included from" lines in the compilers' output.
#include "dsl/handles.hpp"
#include "dsl/atomics.hpp"
#include "dsl/program.hpp"
#include "dsl/shuffle.hpp"
#include "dsl/vector.hpp"
#include "dsl/registers.hpp"
#include "dsl/statements.hpp"
#include "dsl/lint_off.hpp"
#if defined(WARDEN_CHECKED_TABLE)
// nvcc's phases of a file the host precheck checked: the precheck's table (included first, by
// cmake/warden_host_precheck.cmake) stands for the checker, whose headers are not parsed here.
#include "dsl/checked_table.hpp"
#include "dsl/fingerprint.hpp"
#else
#include "check/diagnostic.hpp"
#include "check/lints.hpp"
#include "check/verdict.hpp"
#if defined(WARDEN_EMIT_CHECKED_TABLE)
#include "dsl/checked_table.hpp"
#include "dsl/fingerprint.hpp"
#endif
#endif

#if defined(WARDEN_CHECKED_TABLE) && defined(WARDEN_EMIT_CHECKED_TABLE)
#error "warden: WARDEN_CHECKED_TABLE (nvcc's phases, after the precheck) and WARDEN_EMIT_CHECKED_TABLE (the precheck) exclude each other"
#endif

namespace warden {

#if defined(WARDEN_EMIT_CHECKED_TABLE)
namespace detail {
// The precheck's row for an accepted kernel (dsl/checked_table.hpp): printed by naming
// warden_checked_table_row with it.
template <class Block, class F, class... Params>
constexpr int print_checked_row() {
  constexpr const dsl::obligation_list& obligations = check::verdict_on_body<Block, F, Params...>::value.finding.obligations;
  constexpr int length = dsl::encoded_size(obligations);
  constexpr auto row = dsl::encode_row<length>(dsl::fingerprint_of_body<Block, F, Params...>, obligations);
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return dsl::warden_checked_table_row<dsl::checked_row_begin, row[I]..., dsl::checked_row_end>();
  }(std::make_index_sequence<row.size()>{});
}
}  // namespace detail
#endif

// Defines a kernel and checks it: a program that may race or diverge at a barrier does not
// compile (W010-W040; see docs/diagnostics.md); an accepted one may warn of bank conflicts and
// uncoalesced accesses (W050, W051). `body` must not capture: pass run-time values as
// value<T> parameters and compile-time ones as template arguments or constexpr globals.
//
// A rejected kernel gives one error, its diagnostic, even where the program goes on to launch it:
// the diagnostic is raised by naming the type of a value of its class (check::report), not by a
// static_assert in this body, which made clang++ mark the function invalid, so that every use of
// the kernel added errors of its own (4 errors and 47 lines for one race; test
// compile_fail.launch_rejected_kernel); nor through a variable template's initializer
// (sizeof in a variable template), after which clang++ 19 still finds the function no constant expression and
// adds "constexpr variable 'definition' must be initialized by a constant expression".
//
// A translation unit compiled with -DWARDEN_RECORD_ONLY builds every kernel without the checker
// (as dsl::build_kernel does): its kernels can be recorded and pictured (w::record, w::picture),
// the way examples/pictures draws each example's broken variant, and never launched (W006). Keep
// such a file in a program of its own: the same WARDEN_KERNEL built both ways in one program
// would be two definitions of one entity.
template <class Block, class... Params, class F>
constexpr auto kernel(F body) {
  static_assert(std::is_default_constructible_v<F>,
                "warden::kernel: the body must be a lambda without captures (the checker rebuilds the program "
                "from its type); pass values as value<T> parameters");
#if defined(WARDEN_RECORD_ONLY)
  return dsl::build_kernel<Block, Params...>(body);
#elif defined(WARDEN_CHECKED_TABLE)
  constexpr int row = dsl::find_checked_row(::warden_checked_table::rows, ::warden_checked_table::size,
                                            dsl::fingerprint_of_body<Block, F, Params...>);
  static_assert(row >= 0,
                "W006 [unchecked-kernel] warden::kernel: nvcc compiles a kernel that the host precheck did not check: its "
                "description is in no row of the precheck's table (the body differs under __CUDA_ARCH__ or "
                "__CUDACC__, or the table is older than the file). Write the body the same way for every "
                "compiler, and build the file through warden_host_precheck again");
  auto program = dsl::build_program<Block, Params...>(body);
  // No row: W006 above is the one error, and the definition below stays a constant.
  return dsl::kernel_definition<Block, decltype(program), Params...>{
      program, "kernel", {}, row >= 0 ? dsl::decode_obligations(::warden_checked_table::rows + row + 2) : dsl::obligation_list{}};
#else
  using verdict = check::verdict_on_body<Block, F, Params...>;
  using diagnostic_raised [[maybe_unused]] =
      decltype(typename check::report<verdict, verdict::value.finding.code != diagnostic::code::none>::type{});
  // An accepted kernel's performance lints (W050, W051: check/lints.hpp) are warnings, raised here
  // unless the translation unit is compiled with -DWARDEN_LINTS=0.
#if !defined(WARDEN_LINTS) || WARDEN_LINTS
  if constexpr (check::verdict_on_body<Block, F, Params...>::value.finding.code == diagnostic::code::none)
    (void)check::raise_lints<check::verdict_on_body<Block, F, Params...>>();
#endif
#if defined(WARDEN_EMIT_CHECKED_TABLE)
  if constexpr (check::verdict_on_body<Block, F, Params...>::value.finding.code == diagnostic::code::none)
    (void)detail::print_checked_row<Block, F, Params...>();
#endif
  auto program = dsl::build_program<Block, Params...>(body);
  return dsl::kernel_definition<Block, decltype(program), Params...>{program, "kernel", {},
                                                          check::verdict_on_body<Block, F, Params...>::value.finding.obligations};
#endif
}

}  // namespace warden
