#pragma once
// Launching kernels.
//
//   w::launch(saxpy, w::grid_for(n), x, y, 2.f);            // the default backend
//   w::launch(saxpy, w::grid_for(n).on(stream), x, y, 2.f); // ... on a stream
//   w::launch(w::on_cpu, saxpy, w::grid_for(n), x, y, 2.f); // the cpu reference backend
//   w::recording r = w::record(saxpy, w::grid_for(n), x, y, 2.f);  // cpu backend, every access logged
//
// Before any memory is touched: arguments are bound to parameters by mode (a buffer for in / out /
// inout / atomic, a value for value<T>; host-only memory is W002 at compile time); one buffer bound
// to two parameters of which one is writable throws aliasing_error (E100); an access whose index
// may leave its buffer throws bounds_error (E101) naming the parameter and the index expression.
// The default backend is cuda when this translation unit is compiled by nvcc and a GPU answers,
// cpu otherwise. A kernel declared with WARDEN_KERNEL (a named_kernel) is compiled with its
// constants as immediates; a bare kernel_definition passes its program as a kernel argument instead.
//
// The parts, in launch/: the grid (launch_config.hpp), the compile-time argument checks
// (arguments.hpp), binding and the launch-time checks (binding.hpp, with check_cache.hpp), and the
// two runs (run_cpu.hpp, run_cuda.hpp). This file holds what users call.

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/recording.hpp"
#include "check/launch/launch_checks.hpp"
#include "check/rules.hpp"
#include "dsl/program.hpp"
#include "launch/arguments.hpp"
#include "launch/launch_config.hpp"
#include "launch/run_cpu.hpp"
#include "launch/run_cuda.hpp"
#include "runtime.hpp"

#if defined(__CUDACC__)
#include "backend/cuda_context.hpp"
#endif

namespace warden {

// The conditions on the launch under which the checker accepted `kernel` (its launch obligations,
// docs/soundness.md), one per line, or "" when it needs none. Launch checks each one before the
// kernel runs and throws obligation_error (E106) when one fails.
template <class K>
std::string obligations_of(const K& kernel) {
  const auto& definition = definition_of(kernel);
  const dsl::kernel_ir ir = definition.describe();
  const check::launch_names names = check::launch_names_from_source(definition.param_names, definition.source, ir);
  std::string out;
  for (int fact : ir.stated) out += "given " + check::render(ir, fact, names) + " (stated; launch checks it, E107)\n";
  for (const check::obligation& o : definition.obligations) {
    if (o.kind == check::obligation_kind::shared_at_launch) {
      out += std::string(diagnostic::to_string(o.protects)) +
             " holds on the tiles if no two threads meet in one barrier phase, listed by launch with its own values\n";
      continue;
    }
    if (o.kind == check::obligation_kind::positive) {
      const auto& a = ir.accesses[static_cast<std::size_t>(o.first)];
      const auto& c = ir.accesses[static_cast<std::size_t>(o.second)];
      // Pairs of one rendering under one condition (a load and a store of one element, a pair
      // in a loop and one after it) read as one line.
      const std::string line = std::string(diagnostic::to_string(o.protects)) + " holds for " + names[static_cast<std::size_t>(a.target)] +
                               "[" + check::render(ir, a.index, names) + "] and " + names[static_cast<std::size_t>(c.target)] + "[" +
                               check::render(ir, c.index, names) + "] if " + check::render_condition(o, names) +
                               " (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n";
      if (out.find(line) == std::string::npos) out += line;
      continue;
    }
    const dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(o.loop)];
    out += std::string(diagnostic::to_string(o.protects)) + " holds if the loop over " + names.loop(ir, loop) + " from " +
           check::render(ir, loop.lo, names) + " to " + check::render(ir, loop.hi, names) + " runs at most " +
           std::to_string(o.most_trips) + " trips\n";
  }
  for (int p = 0; p < definition.obligations.pair_count; ++p) {
    const dsl::global_pair& pair = definition.obligations.pairs[p];
    const std::string line = std::string(diagnostic::to_string(pair.protects)) + " holds for " +
                             check::pair_text(ir, names, pair.first, pair.second) +
                             " if launch lists both with its own values and no two threads reach one element\n";
    if (out.find(line) == std::string::npos) out += line;
  }
  return out;
}

// The cpu reference backend, whatever the machine has.
template <class K, class... Args>
void launch(on_cpu_t, const K& kernel, const launch_config& config, Args&&... args) {
  if constexpr (detail::launchable<K>() && detail::arguments_bind<K, Args...>()) detail::run_cpu(kernel, config, nullptr, args...);
}

// The cpu backend with every access recorded; the recording lists the conflicts it observed. It
// takes unchecked kernels (dsl::build_kernel) too: it is the oracle the checker is tested against.
template <class K, class... Args>
recording record(const K& kernel, const launch_config& config, Args&&... args) {
  recording r;
  if constexpr (detail::arguments_bind<K, Args...>()) detail::run_cpu(kernel, config, &r, args...);
  return r;
}

// The cpu backend with every access recorded, even where the launch-time checks refuse the launch
// (E100-E107): to see the race, overrun or divergence a refusal predicts. The recording's
// refusal() holds what launch would have thrown (empty where it passes), and an access outside
// its buffer or tile is reported and not made. Like record, it runs only in the recorder.
template <class K, class... Args>
recording record_anyway(const K& kernel, const launch_config& config, Args&&... args) {
  recording r{recording::anyway_t{}};
  if constexpr (detail::arguments_bind<K, Args...>()) detail::run_cpu(kernel, config, &r, args...);
  return r;
}

// The default backend.
template <class K, class... Args>
  requires(!std::is_same_v<std::remove_cvref_t<K>, on_cpu_t>)
void launch(const K& kernel, const launch_config& config, Args&&... args) {
  if constexpr (detail::launchable<K>() && detail::arguments_bind<K, Args...>()) {
#if WARDEN_DEVICE_PASS
    // nvcc's device pass: the kernel's entry, instantiated as the host pass launches it, and nothing
    // of the host path (config.hpp).
    using slots_type = detail::slots_for<K>;
    if constexpr (requires { typename K::holder; })
      (void)&backend::program_entry<typename K::holder, slots_type>;
    else
      (void)&backend::program_entry_dynamic<typename K::program_type, typename K::block_type, slots_type>;
#if WARDEN_CUDA_RUNTIME
    detail::name_contents_passes_of<K>(std::make_index_sequence<K::arity>{});  // what the launch may measure
#endif
    (void)kernel, (void)config, ((void)args, ...);
#else
#if defined(__CUDACC__)
  if (detail::cuda_device_available()) {
    const auto& definition = definition_of(kernel);
    using slots_type = detail::slots_for<K>;
    auto entry = [&](dim3 g, dim3 b, cudaStream_t s, const slots_type& slots) {
      if constexpr (requires { typename K::holder; })
        backend::program_entry<typename K::holder, slots_type><<<g, b, 0, s>>>(slots);
      else
        backend::program_entry_dynamic<typename K::program_type, typename K::block_type, slots_type>
            <<<g, b, 0, s>>>(definition.program, slots);
    };
    detail::run_cuda(kernel, config, entry, args...);
    return;
  }
#endif
  detail::run_cpu(kernel, config, nullptr, args...);
#endif  // WARDEN_DEVICE_PASS
  }
}

}  // namespace warden
