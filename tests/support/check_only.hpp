#pragma once
// Every launch-time check of a kernel on arguments that are only described (a buffer by its size,
// a value by its value), with no memory and no run: what a launch at 2^30 elements decides,
// asked on a machine that could not hold the buffers (shared_at_launch_test, solver_cross_test,
// benchmarks/launch_decision_bench.cpp). The same function a launch calls (check::check_launch),
// uncached: each call is a first launch.
#include <warden/warden.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace warden::testing {

// One argument as the checks read it: a buffer of `size` elements, or an integral value.
struct described_argument {
  bool is_buffer = false;
  long long number = 0;
};
inline described_argument buffer_of(long long size) { return {true, size}; }
inline described_argument value_of(long long v) { return {false, v}; }

// Runs check_launch for `kernel` (a WARDEN_KERNEL handle or a kernel definition) with this grid;
// throws what a launch would throw. Buffers get distinct, 256-byte-aligned fake addresses.
template <class K>
void check_only(const K& kernel, detail::dims3 grid, const std::vector<described_argument>& described) {
  const auto& definition = definition_of(kernel);
  static_assert(K::arity <= 64);
  const dsl::kernel_ir ir = definition.describe();
  std::vector<check::bound_argument> arguments(K::arity);
  std::array<std::string_view, K::arity> kinds{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((kinds[I] = K::template param<I>::kind), ...);
  }(std::make_index_sequence<K::arity>{});
  for (std::size_t i = 0; i < K::arity && i < described.size(); ++i) {
    check::bound_argument& a = arguments[i];
    a.kind = kinds[i];
    a.is_buffer = described[i].is_buffer;
    a.writable = a.is_buffer && kinds[i] != "in";
    if (a.is_buffer) {
      a.size = described[i].number;
      a.address = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(i + 1) << 44);
      a.bytes = 1;
    } else {
      a.value = described[i].number;
    }
  }
  check::launch_request request;
  request.kernel = definition.name;
  request.param_names = definition.param_names;
  request.source = definition.source;
  request.arguments = arguments;
  request.ir = &ir;
  request.obligations = &definition.obligations;
  request.block = {K::block_type::x, K::block_type::y, K::block_type::z};
  request.grid = grid;
  std::vector<check::argument_reading> read(K::arity);
  check::check_launch(request, read);
}

}  // namespace warden::testing
