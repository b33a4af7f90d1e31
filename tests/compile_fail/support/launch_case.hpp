#pragma once
// Every compile-fail case that defines a kernel also launches it, as a real program does: the
// diagnostics are measured where the user meets them (docs/diagnostics.md), and a rejected kernel
// must stay one error when launched (issue 16). launch_case(kernel) binds a zeroed device buffer
// of `elements` to each buffer parameter and `value` to each value parameter, and launches on the
// cpu backend (and, under nvcc, on the cuda backend too, so its kernel is instantiated). Only the
// compilation is the test; a launch-time refusal (E101, E106, ...) of these made-up arguments is
// caught.
#include <warden/warden.hpp>

#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

namespace warden_case {

namespace w = warden;

template <class Param>
auto argument(std::size_t elements, int value) {
  using T = typename Param::value_type;
  if constexpr (Param::is_buffer) {
    return w::to_device(std::vector<T>(elements));
  } else {
    return static_cast<T>(value);
  }
}

template <class Kernel>
int launch_case(const Kernel& kernel, w::launch_config grid = w::grid(1), std::size_t elements = 1024, int value = 16) {
  using D = std::remove_cvref_t<decltype(w::dsl::definition_of(kernel))>;
  auto arguments = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::make_tuple(argument<typename D::template param<I>>(elements, value)...);
  }(std::make_index_sequence<D::arity>{});
  try {
    std::apply([&](auto&... a) { w::launch(w::on_cpu, kernel, grid, a...); }, arguments);
#ifdef __CUDACC__
    std::apply([&](auto&... a) { w::launch(kernel, grid, a...); }, arguments);
#endif
  } catch (const w::error&) {
    // A refusal of the made-up arguments: the case is about what the compiler says.
  }
  return 0;
}

}  // namespace warden_case
