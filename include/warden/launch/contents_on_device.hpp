#pragma once
// The contents of a device buffer measured on the device (nvcc, a GPU answering): three passes
// of launch/contents_steps.hpp's steps, each a grid-stride loop whose threads keep a running tally,
// reduce it across the warp and add it to the answer with one atomic per warp; the answer (eight
// long longs) is the only thing copied to the host. Before, the whole buffer was copied and
// scanned on the host: 268 ms for 2^26 ints on an H200 against the kernel's 0.07 ms
// (launch/binding.hpp). The steps run on the host in CI (contents_measured_by_steps), and so does
// the host's part here, contents_slots_on_device, against the CUDA runtime stand-in with passes
// emulated through the runtime (tests/unit/contents_standin_test.cpp); what only a GPU runs is the
// kernels: their loop, reduction and atomics.

#include "../config.hpp"

#if WARDEN_CUDA_RUNTIME

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "../cuda_check.hpp"
#include "../memory/buffer.hpp"
#include "../error.hpp"
#include "../memory/capture_registry.hpp"
#include "contents_steps.hpp"

namespace warden::detail {

inline constexpr int contents_block = 256;

#if defined(__CUDACC__)

// The warp's tally into the answer: each slot combined across the 32 lanes, then one atomic.
__device__ inline void contents_publish(contents_tally& t, long long* answer, int first, int last) {
  for (int s = first; s < last; ++s) {
    long long v = t.slot[s];
    for (int offset = 16; offset > 0; offset /= 2) {
      const long long other = __shfl_down_sync(0xffffffffu, v, offset);
      v = contents_slot_keeps_greatest(s) ? (other > v ? other : v) : (other < v ? other : v);
    }
    if ((threadIdx.x % 32) == 0 && v != contents_slot_start(s)) {
      if (contents_slot_keeps_greatest(s)) atomicMax(answer + s, v);
      else atomicMin(answer + s, v);
    }
  }
}

template <class T>
__global__ void __launch_bounds__(contents_block) contents_range_pass(const T* v, std::size_t n, contents_order order, long long* answer) {
  contents_tally t;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    contents_range_step(v, i, order, t);
  contents_publish(t, answer, slot_lo, contents_slots);
}

template <class T>
__global__ void __launch_bounds__(contents_block) contents_places_pass(const T* v, std::size_t n, long long* answer) {
  if (answer[slot_wide] != 0) return;
  const long long lo = answer[slot_lo], hi = answer[slot_hi];
  contents_tally t;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    contents_places_step(v, i, lo, hi, t);
  contents_publish(t, answer, slot_lo_at, slot_hi_at + 1);
}

template <class T>
__global__ void __launch_bounds__(contents_block) contents_seen_pass(const T* v, std::size_t n, unsigned* bits, long long* answer) {
  if (answer[slot_wide] != 0) return;
  const long long lo = answer[slot_lo], hi = answer[slot_hi];
  if (!contents_span_fits(lo, hi, n)) {
    if (blockIdx.x == 0 && threadIdx.x == 0) answer[slot_wide] = 1;  // the host sorts instead
    return;
  }
  contents_tally t;
  const auto set_bit = [bits](std::size_t word, unsigned mask) { return atomicOr(bits + word, mask); };
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    contents_seen_step(v, i, lo, set_bit, t);
  contents_publish(t, answer, slot_repeat_seen, slot_repeat_seen + 1);
}

// Every pass for element type T, named so that nvcc's device pass compiles them where a launch
// may measure a T buffer (launch.hpp): the host path that launches them is not compiled there.
template <class T>
void name_contents_passes() {
  (void)&contents_range_pass<T>;
  (void)&contents_places_pass<T>;
  (void)&contents_seen_pass<T>;
}

// The passes for every buffer of integers a kernel K takes: what a launch of K may measure (a
// read-only buffer's contents, and a written one's before the kernel, where its range is wanted:
// check/launch/written_ranges.hpp).
// The element types the passes run for: integers up to 64 bits, not bool and not the character
// types (nvcc 13's kernel stub cannot pass a `const char8_t*`; such buffers are measured the host's way).
template <class T>
inline constexpr bool measured_on_device =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
    !std::is_same_v<T, char32_t> && !std::is_same_v<T, wchar_t> && sizeof(T) <= sizeof(long long);

template <class Param>
void name_contents_passes_for() {
  if constexpr (Param::is_buffer) {
    using T = typename Param::value_type;
    if constexpr (measured_on_device<T>) name_contents_passes<T>();
  }
}
template <class K, std::size_t... I>
void name_contents_passes_of(std::index_sequence<I...>) {
  (name_contents_passes_for<typename K::template param<I>>(), ...);
}

#endif  // __CUDACC__

#if !defined(__CUDA_ARCH__)
// The three passes as nvcc issues them, over `blocks` blocks on stream `s`; `words` is null where
// no distinct fact asks.
#if defined(__CUDACC__)
struct device_contents_passes {
  template <class T>
  void operator()(const T* v, std::size_t n, const contents_order& order, long long* answer, unsigned* words, unsigned blocks,
                  cudaStream_t s) const {
    contents_range_pass<T><<<blocks, contents_block, 0, s>>>(v, n, order, answer);
    contents_places_pass<T><<<blocks, contents_block, 0, s>>>(v, n, answer);
    if (words != nullptr) contents_seen_pass<T><<<blocks, contents_block, 0, s>>>(v, n, words, answer);
  }
};
#endif

// The answer's slots for `b`'s n elements, measured on the device on b's stream after its last
// writer by `passes` (device_contents_passes under nvcc); the host waits for the eight numbers.
// False, with nothing run, where b or the scratch the passes need is host memory, the device has
// no room for the scratch, or a capture is under way (the host's way then measures, or refuses).
template <class T, memory_space S, class Passes>
bool contents_slots_on_device(const buffer<T, S>& b, bool distinct, const contents_order& order, long long (&slot)[contents_slots],
                              Passes passes) {
  const std::size_t n = b.size();
  if (n == 0 || b.in_host_memory()) return false;
  // Under a capture the passes would join the graph (or, allocating, break it): the host's way
  // then refuses the download with E109, as it did before the passes.
  if (this_thread_captures()) return false;
  b.wait_for_host(false);
  const buffer_work_scope picking;  // as download: the passes and the wait on one uncaptured stream
  const stream_ref s = b.stream();
  if (being_captured(s)) return false;
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s.native(), &capturing) != cudaSuccess || capturing != cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    return false;
  }
  int device = 0, sms = 1;
  WARDEN_CUDA_CHECK(cudaGetDevice(&device));
  WARDEN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t wanted = (n + contents_block - 1) / contents_block;
  const std::size_t most = static_cast<std::size_t>(sms > 0 ? sms : 1) * 8;
  const unsigned blocks = static_cast<unsigned>(wanted < most ? wanted : most);
  for (int i = 0; i < contents_slots; ++i) slot[i] = contents_slot_start(i);
  // Scratch from the pool; where the device has no room for the bitmap (n bytes), the host's
  // way needs none of it.
  buffer<long long, S> answer;
  buffer<unsigned, S> bits;
  try {
    answer = buffer<long long, S>(contents_slots, s);
    bits = buffer<unsigned, S>(distinct ? contents_bitmap_words(n) : 0, s);
  } catch (const out_of_memory&) {
    return false;
  }
  if (answer.in_host_memory() || bits.in_host_memory()) return false;
  long long* const a = answer.data(issued_write{});
  unsigned* const words = distinct ? bits.data(issued_write{}) : nullptr;
  WARDEN_CUDA_CHECK(cudaMemcpyAsync(a, slot, sizeof slot, cudaMemcpyHostToDevice, s.native()));
  if (words != nullptr) WARDEN_CUDA_CHECK(cudaMemsetAsync(words, 0, bits.bytes(), s.native()));
  passes(b.data(), n, order, a, words, blocks, s.native());
  WARDEN_CUDA_CHECK(cudaGetLastError());
  WARDEN_CUDA_CHECK(cudaMemcpyAsync(slot, a, sizeof slot, cudaMemcpyDeviceToHost, s.native()));
  WARDEN_CUDA_CHECK(cudaStreamSynchronize(s.native()));
  return true;
}
#endif

}  // namespace warden::detail

#endif  // WARDEN_CUDA_RUNTIME
