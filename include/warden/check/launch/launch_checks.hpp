#pragma once
// The launch-time checks, as launch calls them: check_launch runs them all on one list of bound
// arguments; each first_* returns "" when the launch may run, or the detail of its error, with the
// user's names. One check per file, here in check/launch/: stated_facts.hpp (E107),
// integer_wrap.hpp (E104), loop_steps.hpp (E103), obligations.hpp (E106), overrun.hpp (E101),
// over an interval analysis (interval.hpp, interval_evaluator.hpp), and check_launch.hpp, which
// runs them in order with E100 and E102. None of them includes the static rules (check/rules.hpp;
// scripts/include-graph holds it). Inline in every file that launches (header-only), or, with
// WARDEN_SEPARATE_RUNTIME, compiled once per program (warden/separate_runtime.hpp), so that a
// file that launches does not generate their code again (docs/benchmarks.md).

#include <span>
#include <string>
#include <vector>

#include "../../config.hpp"
#include "../../error.hpp"
#include "../../dsl/ir.hpp"
#include "../../dsl/obligation.hpp"
#include "launch_names.hpp"
#include "launch_request.hpp"

namespace warden::check {

// The functions live in an inline namespace named after the mode (header_only or
// separate_runtime), so that files built in the two modes never share a symbol: a program that
// mixes them is well-formed, and one built separate without the library fails to link.
inline namespace WARDEN_RUNTIME_ABI {

// E107: the first fact stated with given(...) that is false for this launch.
WARDEN_RUNTIME_API std::string first_false_fact(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                const launch_names& names);
// E104: the first operation deciding an index, guard, loop bound or lane that may wrap or overflow
// (`*wrapped`, where given: that operation's expression, else -1 for a loop's int counter).
WARDEN_RUNTIME_API std::string first_integer_wrap(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                  const launch_names& names, int* wrapped = nullptr);
// E103: the first run-time loop whose step may be below 1.
WARDEN_RUNTIME_API std::string first_bad_step(const dsl::kernel_ir& ir, const launch_facts& facts,
                                              const launch_names& names);
// E106: the first obligation of the kernel's proof that this launch does not meet (`*failed`, where
// given: its index in `duties` when it is a condition on the launch's values of a pair, else -1).
WARDEN_RUNTIME_API std::string first_unmet_obligation(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                      const launch_names& names, const obligation_list& duties,
                                                      int* failed = nullptr);
// E101: the first access that may overrun its buffer or tile (with `site`, where).
WARDEN_RUNTIME_API std::string first_overrun(const dsl::kernel_ir& ir, const launch_facts& facts,
                                             const launch_names& names, const std::vector<std::string>& kinds,
                                             overrun_site* site = nullptr);
// By parameter position, the order the facts stated of each buffer ask the launch to measure
// (sorted, non_decreasing, with this launch's rows(n) and below(hi); not wanted where none).
WARDEN_RUNTIME_API std::vector<detail::contents_order> stated_orders(const dsl::kernel_ir& ir, const launch_facts& facts,
                                                                     std::size_t arity);
// An obligation's condition in the user's names (w::obligations_of).
WARDEN_RUNTIME_API std::string render_condition(const obligation& o, const launch_names& names);
// Two accesses as the kernel writes them, `out[i % n + i / n * n] and out[...]` (w::obligations_of).
WARDEN_RUNTIME_API std::string pair_text(const dsl::kernel_ir& ir, const launch_names& names, int first, int second);
// A tile access as the kernel writes it, `store tile0[t + r]` (E106 messages on tiles).
WARDEN_RUNTIME_API std::string tile_access_text(const dsl::kernel_ir& ir, const launch_names& names, const dsl::ir_access& x);

}  // inline namespace WARDEN_RUNTIME_ABI

// Every launch-time check, in order: E100 (aliasing), E102 (a grid dimension the kernel never
// names), E107 (stated facts), E104 (integer wrap), E103 (loop steps), E106 (obligations), E101
// (bounds). Throws the first error, naming the user's buffers and values; touches no memory.
// Writes each argument's reading to `read` (one per argument), and reads the arguments only
// through them: besides the kernel (its description, obligations, block and names), the verdict
// depends on the grid and `read` alone.
inline namespace WARDEN_RUNTIME_ABI {
WARDEN_RUNTIME_API void check_launch(const launch_request& launch, std::span<argument_reading> read);
// What a launch's argument is in the program (buffer::program_name): its name, "" where none, and
// whether it is a view of that buffer.
struct argument_name {
  std::string name;
  bool view = false;
};
// A launch's refusal with the buffers it names as the program names them (launch/binding.hpp).
WARDEN_RUNTIME_API void note_argument_names(error& refused, std::span<const std::string_view> param_names, std::string_view source,
                                            const dsl::kernel_ir& ir, std::span<const argument_name> arguments) noexcept;
}

}  // namespace warden::check

#if !WARDEN_SEPARATE_RUNTIME
#include "check_launch.hpp"
#endif
