#pragma once
// Streams. A stream_ref names a queue of work (a cudaStream_t on the cuda backend; an id on the
// cpu backend, where work runs at once). warden::stream owns one.

#include <atomic>
#include <cstdint>

#include "config.hpp"
#include "detail/cuda_check.hpp"
#include "runtime.hpp"

namespace warden {

class stream_ref {
 public:
  constexpr stream_ref() noexcept = default;  // the default (legacy) stream
  constexpr explicit stream_ref(void* handle) noexcept : handle_(handle) {}
#if WARDEN_CUDA_RUNTIME
  stream_ref(cudaStream_t s) noexcept : handle_(static_cast<void*>(s)) {}  // NOLINT: implicit by design
  cudaStream_t native() const noexcept { return static_cast<cudaStream_t>(handle_); }
#endif
  constexpr void* handle() const noexcept { return handle_; }
  friend constexpr bool operator==(stream_ref, stream_ref) noexcept = default;

 private:
  void* handle_ = nullptr;
};

inline constexpr stream_ref default_stream{};

// An owning stream: a non-blocking CUDA stream when warden runs on a GPU, otherwise a fresh id
// (the cpu backend executes work as it is issued, so the id only keeps streams apart).
class stream {
 public:
  stream() {
#if WARDEN_CUDA_RUNTIME
    if (detail::cuda_device_available()) {
      cudaStream_t s = nullptr;
      WARDEN_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      ref_ = stream_ref(s);
      owns_cuda_ = true;
      return;
    }
#endif
    static std::atomic<std::uintptr_t> next_id{1};
    // Odd fake addresses never collide with real stream handles, which are aligned.
    ref_ = stream_ref(reinterpret_cast<void*>(next_id.fetch_add(2) | 1u));
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() {
#if WARDEN_CUDA_RUNTIME
    if (owns_cuda_) detail::cuda_check_noexcept(cudaStreamDestroy(ref_.native()), "cudaStreamDestroy");
#endif
  }
  stream_ref ref() const noexcept { return ref_; }
  operator stream_ref() const noexcept { return ref_; }  // NOLINT: a stream is usable where a ref is

 private:
  stream_ref ref_;
  [[maybe_unused]] bool owns_cuda_ = false;
};

}  // namespace warden
