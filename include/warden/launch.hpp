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
#include "dsl/program.hpp"
#include "launch/arguments.hpp"
#include "launch/launch_config.hpp"
#include "launch/run_cpu.hpp"
#include "launch/run_cuda.hpp"
#include "runtime.hpp"

#if defined(__CUDACC__)
#include "backend/cuda_context.hpp"
#endif
// w::obligations_of renders with the checker's text helpers: not in nvcc's phases of a file the
// precheck checked (WARDEN_CHECKED_TABLE), which parse no checker header; there it comes with
// #include <warden/obligations_of.hpp>.
#if !defined(WARDEN_CHECKED_TABLE)
#include "obligations_of.hpp"
#endif

namespace warden {

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
