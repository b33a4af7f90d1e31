#pragma once
// The launch-time checks, as launch calls them: check_launch runs them all on one list of bound
// arguments; each first_* returns "" when the launch may run, or the detail of its error (E107
// stated facts, E104 integer wrap, E103 loop steps, E106 obligations, E101 bounds), with the
// user's names. Their definitions are check/bounds.hpp (an interval analysis over the kernel's
// description) and check/run_launch_checks.hpp: inline in every file that launches (header-only),
// or, with WARDEN_SEPARATE_RUNTIME, compiled once per program (warden/separate_runtime.hpp), so
// that a file that launches does not generate their code again (docs/benchmarks.md).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../config.hpp"
#include "../detail/dims3.hpp"
#include "../dsl/ir.hpp"
#include "../dsl/obligation.hpp"

namespace warden::check {

// What the launch knows: geometry and the integral value of every value<T> parameter (if integral).
struct launch_facts {
  detail::dims3 block, grid;
  std::vector<std::optional<long long>> values;  // by parameter position
  std::vector<long long> sizes;                  // by parameter position (buffers)
};

// The functions live in an inline namespace named after the mode (header_only or
// separate_runtime), so that files built in the two modes never share a symbol: a program that
// mixes them is well-formed, and one built separate without the library fails to link.
inline namespace WARDEN_RUNTIME_ABI {

// E107: the first fact stated with given(...) that is false for this launch.
WARDEN_RUNTIME_API std::string first_false_fact(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                const std::vector<std::string>& names);
// E104: the first operation deciding an index, guard, loop bound or lane that may wrap or overflow.
WARDEN_RUNTIME_API std::string first_integer_wrap(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                  const std::vector<std::string>& names);
// E103: the first run-time loop whose step may be below 1.
WARDEN_RUNTIME_API std::string first_bad_step(const dsl::kernel_ir& ir, const launch_facts& facts,
                                              const std::vector<std::string>& names);
// E106: the first obligation of the kernel's proof that this launch does not meet.
WARDEN_RUNTIME_API std::string first_unmet_obligation(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                      const std::vector<std::string>& names, const obligation_list& duties);
// E101: the first access that may overrun its buffer or tile.
WARDEN_RUNTIME_API std::string first_overrun(const dsl::kernel_ir& ir, const launch_facts& facts,
                                             const std::vector<std::string>& names, const std::vector<std::string>& kinds);
// An obligation's condition in the user's names (w::obligations_of).
WARDEN_RUNTIME_API std::string render_condition(const obligation& o, const std::vector<std::string>& names);

}  // inline namespace WARDEN_RUNTIME_ABI

// The names messages give a kernel's parameters: the user's, or p0, p1, ... where none was given.
inline std::vector<std::string> parameter_names(std::span<const std::string_view> given) {
  std::vector<std::string> names;
  names.reserve(given.size());
  for (std::size_t i = 0; i < given.size(); ++i)
    names.push_back(given[i].empty() ? "p" + std::to_string(i) : std::string(given[i]));
  return names;
}

// One argument of a launch as the checks read it. launch builds the list once per launch, from
// the arguments and the parameters' kinds; E100, E101 and the facts of every other check read it.
struct bound_argument {
  std::string_view kind;           // the parameter's kind: in, out, inout, atomic, value
  bool is_buffer = false;
  bool writable = false;           // out, inout, atomic
  const void* address = nullptr;   // a buffer's memory (E100)
  long long size = 0;              // a buffer's elements (E101)
  std::optional<long long> value;  // an integral value, as the kernel receives it (converted to T)
};

// A launch as the checks see it.
struct launch_request {
  std::string_view kernel;                        // the kernel's name
  std::span<const std::string_view> param_names;  // by position, one per argument; "" where the user gave none
  std::span<const bound_argument> arguments;      // by position
  const dsl::kernel_ir* ir = nullptr;            // the kernel's description
  const obligation_list* obligations = nullptr;   // what its proof rests on
  detail::dims3 block, grid;
};

// Every launch-time check, in order: E100 (aliasing), E102 (a grid dimension the kernel never
// names), E107 (stated facts), E104 (integer wrap), E103 (loop steps), E106 (obligations), E101
// (bounds). Throws the first error, naming the user's buffers and values; touches no memory.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API void check_launch(const launch_request& launch);
}

}  // namespace warden::check

#if !WARDEN_SEPARATE_RUNTIME
#include "run_launch_checks.hpp"
#endif
