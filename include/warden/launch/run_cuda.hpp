#pragma once
// A launch on the GPU (w::launch where this file is compiled by nvcc and a GPU answers): bind and
// check the arguments, then issue the kernel on the stream after the buffers' earlier uses and
// record it as their latest; on a stream being captured, CUDA records the kernel call and the
// graph orders the buffers at each replay. `entry` issues the kernel (launch.hpp makes it, the one
// place that needs the <<<...>>> syntax).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "../config.hpp"
#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../graph/recorder.hpp"
#include "../memory/capture_registry.hpp"
#include "../profile/nvtx.hpp"
#include "../stream.hpp"
#include "binding.hpp"
#include "launch_config.hpp"

#if WARDEN_CUDA_RUNTIME
namespace warden::detail {

// Launch errors, and (with WARDEN_SYNC_LAUNCHES, on by default in debug builds) asynchronous
// errors, become cuda_error naming the kernel.
inline void check_cuda_launch(std::string_view kernel, stream_ref s, bool captured = false) {
  auto fail = [&](cudaError_t status, const char* when) {
    cudaGetLastError();
    throw cuda_error("warden::launch(" + std::string(kernel) + ") " + when, static_cast<int>(status),
                     cudaGetErrorName(status), cudaGetErrorString(status));
  };
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess) fail(status, "at launch");
#if WARDEN_SYNC_LAUNCHES
  // A captured launch runs at replay, where warden::graph::replay synchronises instead.
  if (!captured)
    if (const cudaError_t status = cudaStreamSynchronize(s.native()); status != cudaSuccess) fail(status, "while running");
#else
  (void)s;
  (void)captured;
#endif
}

template <class K, class Entry, class... Args>
void run_cuda(const K& any_kernel, const launch_config& config, Entry entry, Args&... args) {
  const auto& kernel = definition_of(any_kernel);
  using indices = std::make_index_sequence<K::arity>;
  const backend::dims3 blocks = config.template blocks<typename K::block_type>(kernel.name);
  const nvtx_range range([&](range_text& t) {
    t.add(kernel.name).add("<<<").add_dims(blocks.x, blocks.y, blocks.z).add(", ");
    t.add_dims(K::block_type::x, K::block_type::y, K::block_type::z).add(">>>");
  });
  dsl::kernel_ir scratch;
  const dsl::kernel_ir& ir = description_of(any_kernel, scratch);
  std::vector<char> contents_scratch;
  const auto bound = bind_and_check(kernel, ir, contents_read_of(any_kernel, ir, contents_scratch), blocks, check_cache_for<K>(),
                              config.stream(), nullptr, indices{}, args...);
  if (blocks.count() == 0) return;
  const stream_ref s = config.stream();
  const dim3 grid(blocks.x, blocks.y, blocks.z), block(K::block_type::x, K::block_type::y, K::block_type::z);
  if (graph_recorder* capture = capture_on(s, kernel.name)) {
    // Checked now; CUDA records the kernel call; the replay orders the buffers (warden::graph).
    bound.capture_into(*capture, kernel.name, kernel.param_names);
    entry(grid, block, s.native(), bound.slots);
    check_cuda_launch(kernel.name, s, true);
    return;
  }
  refuse_foreign_capture(kernel.name, s);
  bound.order(s, false);
  entry(grid, block, s.native(), bound.slots);
  check_cuda_launch(kernel.name, s);
  bound.order(s, true);
}

}  // namespace warden::detail
#endif  // WARDEN_CUDA_RUNTIME
