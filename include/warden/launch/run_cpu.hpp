#pragma once
// A launch on the cpu reference backend (w::launch(w::on_cpu, ...), w::record, and w::launch where
// no GPU answers): bind and check the arguments, then run the kernel on the host after the
// buffers' earlier uses, or, on a stream being captured, keep it as a step of the graph.

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../profile/nvtx.hpp"
#include "../access.hpp"
#include "../backend/cpu.hpp"
#include "../backend/recording.hpp"
#include "../error.hpp"
#include "../graph/recorder.hpp"
#include "../memory/capture_registry.hpp"
#include "../memory/transfer.hpp"
#include "../runtime.hpp"
#include "../space.hpp"
#include "../check/launch/launch_names.hpp"
#include "../check/modes.hpp"
#include "binding.hpp"
#include "launch_config.hpp"

namespace warden::detail {

// The cpu backend runs on host memory. On a GPU a device_buffer's memory is not the host's, so
// the cpu backend runs on a host copy of each such buffer: copied in before the run (after the
// buffer's last writer), and for writable parameters copied back after it, in stream order. An
// error during the run copies nothing back: the device buffer keeps its contents.
template <class A, bool = is_buffer<A>::value>
struct host_copy_of {
  using type = char;  // values and host-accessible buffers need none
};
template <class A>
struct host_copy_of<A, true> {
  using type = std::conditional_t<host_accessible<typename A::space_type>, char, detail::host_array<typename A::value_type>>;
};

template <class A>
constexpr bool needs_host_copy() {
  return !std::is_same_v<typename host_copy_of<std::remove_cvref_t<A>>::type, char>;
}

template <class K, class Slots, class Copies, class... Args, std::size_t... I>
void copy_to_host(Slots& slots, Copies& copies, std::index_sequence<I...>, Args&... args) {
  auto one = [&]<std::size_t P>(std::integral_constant<std::size_t, P>, auto& arg) {
    if constexpr (needs_host_copy<decltype(arg)>()) {
      std::get<P>(copies) = download(arg);
      detail::get<P>(slots).ptr = std::get<P>(copies).data();
    }
  };
  (one(std::integral_constant<std::size_t, I>{}, args), ...);
}

template <class K, class Copies, class... Args, std::size_t... I>
void copy_back(const Copies& copies, std::index_sequence<I...>, Args&... args) {
  auto one = [&]<std::size_t P>(std::integral_constant<std::size_t, P>, auto& arg) {
    using Param = typename K::template param<P>;
    if constexpr (needs_host_copy<decltype(arg)>())
      if constexpr (!std::is_same_v<typename Param::mode, access::read>) {
        arg.order_before(arg.stream(), true);
        copy_bytes(arg.data(issued_write{}), std::get<P>(copies).data(), arg.bytes(), arg.stream());  // staged: returns when taken
        arg.record_write(arg.stream());
      }
  };
  (one(std::integral_constant<std::size_t, I>{}, args), ...);
}

template <class K>
void refuse_mode_violation(std::string_view kernel, const dsl::kernel_ir& ir) {
  if (const check::finding f = check::mode_finding(ir, check::param_kinds<K>()))
    throw error(diagnostic::text(f.code, kernel,
                                 "parameter " + std::to_string(ir.accesses[static_cast<std::size_t>(f.first)].target) +
                                     (f.code == diagnostic::code::W008 ? " is given a floating-point value for an integral element"
                                                                       : " is accessed as its mode forbids") +
                                     ", which this program cannot run as written; w::check::verdict_of(kernel) explains it"));
}

template <class K, class... Args>
void run_cpu(const K& any_kernel, const launch_config& config, recording* record, Args&... args) {
#if WARDEN_DEVICE_PASS && WARDEN_CUDA_RUNTIME
  // On a GPU machine a cpu-backend launch's device buffers are device memory, which the launch
  // measures on the device (launch/contents_on_device.hpp): the passes' device code is compiled here.
  name_contents_passes_of<K>(std::make_index_sequence<K::arity>{});
#endif
#if !WARDEN_DEVICE_PASS  // the host pass compiles the run (config.hpp)
  const auto& kernel = definition_of(any_kernel);
  using indices = std::make_index_sequence<K::arity>;
  const backend::dims3 blocks = config.template blocks<typename K::block_type>(kernel.name);
  const nvtx_range range([&](range_text& t) {
    t.add(kernel.name).add("<<<").add_dims(blocks.x, blocks.y, blocks.z).add(", ");
    t.add_dims(K::block_type::x, K::block_type::y, K::block_type::z).add(">>> on the cpu backend");
  });
  dsl::kernel_ir scratch;
  const dsl::kernel_ir& ir = description_of(any_kernel, scratch);
  // A program build_kernel built without the checker may hold an access its parameter's mode
  // forbids (W003, W004, W040) or a narrowing store (W008), which runs as nothing
  // (dsl/handles.hpp): the recording would not
  // be the program as written. w::kernel's programs never hold one (the checker reports it).
  if constexpr (dsl::is_unchecked<typename K::program_type>)
    refuse_mode_violation<K>(kernel.name, ir);
  std::vector<char> contents_scratch;
  // w::record_anyway: a refused launch is bound and recorded all the same, the refusal kept.
  std::string refusal;
  const bool anyway = record != nullptr && record->anyway();
  auto bound = bind_and_check(kernel, ir, contents_read_of(any_kernel, ir, contents_scratch), blocks, anyway ? nullptr : check_cache_for<K>(),
                              config.stream(), anyway ? &refusal : nullptr, indices{}, args...);
  if (anyway) record->refuse(refusal);
  // The kernel's names for the backend's messages and the recording's report: its parameters'
  // (.named's, or WARDEN_KERNEL's from the body), and its tiles' as its source names them, read
  // once per kernel type (a kernel's type fixes its source) at its first launch here.
  static const std::vector<std::string> tile_names = [&] {
    const check::launch_names from_source = check::launch_names_from_source(kernel.param_names, kernel.source, ir);
    std::vector<std::string> tiles;
    for (std::size_t t = 0; t < ir.tiles.size(); ++t) tiles.emplace_back(from_source.user.tile(static_cast<int>(t)));
    return tiles;
  }();
  const backend::cpu_names names{{kernel.param_names.begin(), kernel.param_names.end()}, tile_names};
  if (record != nullptr) {
    record->name_parts({kernel.param_names.begin(), kernel.param_names.end()}, tile_names);
    // The program described again at run time, on the object that runs, so that each access
    // record knows its node (ir_access::origin) and the recording each event's access.
    const dsl::kernel_ir live = kernel.describe();
    std::vector<const void*> origins;
    for (const dsl::ir_access& a : live.accesses) origins.push_back(a.origin);
    record->access_origins(std::move(origins));
  }
  if (graph_recorder* capture = capture_on(config.stream(), kernel.name)) {
    // Checked now, run at each replay (warden::capture without a GPU).
    if (capture->on_gpu())
      throw capture_error(kernel.name, "a cpu-backend launch on a stream being captured into a CUDA graph: only "
                                       "launches on the GPU are captured; launch it outside the capture");
    if (record != nullptr)
      throw capture_error(kernel.name, "warden::record on a stream being captured: record outside the capture");
    bound.capture_into(*capture, kernel.name, kernel.param_names);
    if (blocks.count() == 0) return;
    capture->step([program = kernel.program, slots = bound.slots, blocks, name = std::string(kernel.name), names]() mutable {
      backend::run_on_cpu<typename K::block_type>(program, slots, blocks, nullptr, name, &names);
    });
    return;
  }
  bound.wait_for_host();
  if (blocks.count() == 0) return;
  std::tuple<typename host_copy_of<std::remove_cvref_t<Args>>::type...> copies;
  const bool on_gpu = cuda_device_available() && (needs_host_copy<Args>() || ...);
  if (on_gpu) copy_to_host<K>(bound.slots, copies, indices{}, args...);
  backend::run_on_cpu<typename K::block_type>(kernel.program, bound.slots, blocks, record, kernel.name, &names);
  if (on_gpu) copy_back<K>(copies, indices{}, args...);
#else
  (void)any_kernel, (void)config, (void)record, ((void)args, ...);
#endif
}

}  // namespace warden::detail
