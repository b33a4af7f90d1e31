#pragma once
// Moving data between spaces, in stream order.
//
//   to_device(range [, stream])        -> device_buffer<T>  the range may be reused at once (from
//                                                            page-locked memory, once the copy is done)
//   to_device_async(range, stream)     -> device_buffer<T>  staged through a pinned buffer, so the
//                                                            copy overlaps host work
//   to_host(buffer)                    -> std::vector<T>    waits for the buffer's last writer
//   to_host_async(buffer, stream)      -> pinned_buffer<T>  indexing it waits for the copy
//   copy(dst, src)                                         same size, any spaces; returns when done
//   copy_async(dst, src, stream)                           ordered after src's writer and dst's users
//
// On a GPU the copies are cudaMemcpyAsync (cudaMemcpyDefault: unified addressing tells the
// direction); on the cpu backend every space is host memory and a copy is a memcpy.

#include <cstring>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "../cuda_check.hpp"
#include "../error.hpp"
#include "../runtime.hpp"
#include "../stream.hpp"
#include "buffer.hpp"
#include "capture_registry.hpp"
#include "../profile/nvtx.hpp"

namespace warden {

namespace detail {

// On a stream being captured a transfer is refused: a CUDA capture would make it a node of the
// graph, run at each replay and not now, while the buffers recorded it as done (and the cpu
// backend would run it now, not at replay). Asked before anything is issued to the stream, the
// orders after the buffers' other streams included (the runtime refuses those in a capture).
inline void refuse_transfer_in_capture(stream_ref s) {
  refuse_capture(s, "warden::copy",
                 "a transfer on a stream being captured: only launches are captured; make the transfer before or "
                 "after the capture, or on another stream");
}

// Every transfer goes through here.
inline void copy_bytes(void* dst, const void* src, std::size_t bytes, stream_ref s) {
  refuse_transfer_in_capture(s);
  if (bytes == 0) return;
  const nvtx_range range([&](range_text& t) { t.add("warden::copy ").add(static_cast<long long>(bytes)).add(" bytes"); });
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) {
    WARDEN_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s.native()));
    return;
  }
#endif
  (void)s;
  std::memcpy(dst, src, bytes);
}

inline void synchronize(stream_ref s) {
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) WARDEN_CUDA_CHECK(cudaStreamSynchronize(s.native()));
#endif
  (void)s;
}

template <class R>
using range_value = std::remove_cvref_t<std::ranges::range_reference_t<R>>;

// Whether cudaMemcpyAsync from `p` returns only once the source is taken: memory the runtime did
// not allocate or register (pageable), which it stages before it returns (CUDA Runtime API,
// "API synchronization behavior", memcpy: "for transfers from pageable host memory to device
// memory ... the function will return once the pageable buffer has been copied to the staging
// memory"). From page-locked, managed or device memory the copy is fully asynchronous: the source
// is read when the stream gets to it. On the cpu backend every copy is a memcpy: taken at once.
inline bool source_taken_at_once(const void* p) {
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
      (void)cudaGetLastError();  // before CUDA 11, an unregistered host pointer was an error
      return true;
    }
    return attributes.type == cudaMemoryTypeUnregistered;
  }
#endif
  (void)p;
  return true;
}

// E110: a moved-from buffer owns no memory; a transfer from or into it would move nothing the
// program meant to move. Ranges that are not warden buffers pass.
template <class B>
void refuse_moved_from(const B& b, const char* call, const char* role) {
  if constexpr (requires { b.moved_from(); })
    if (b.moved_from()) {
      const std::string name = b.program_name();
      throw moved_from_error(call, std::string(role) + " (" + (name.empty() ? "" : name + ", ") + "a " + B::type_name() +
                                       ") was moved from, so it owns no memory; use the buffer it was moved into, "
                                       "or assign a new buffer to it first");
    }
}

// A range the host is about to read from (an upload's source): a warden buffer (pinned, managed)
// may have a queued writer, which the read waits for, as indexing it would. Other ranges are the
// host's own.
template <class R>
void host_reads(const R& range, const char* call) {
  refuse_moved_from(range, call, "the range");
  if constexpr (requires { range.wait_for_host(false); }) range.wait_for_host(false);
}

}  // namespace detail

template <class T, memory_space D, memory_space S>
void copy_async(buffer<T, D>& dst, const buffer<T, S>& src, stream_ref stream) {
  detail::refuse_foreign_stream(stream, "warden::copy");  // before the orders below touch `stream`
  detail::refuse_moved_from(dst, "warden::copy", "the destination");
  detail::refuse_moved_from(src, "warden::copy", "the source");
  if (dst.size() != src.size())
    throw size_mismatch("warden::copy: destination has " + std::to_string(dst.size()) +
                        " elements, source has " + std::to_string(src.size()));
  detail::refuse_transfer_in_capture(stream);  // before the orders below wait on it
  src.order_before(stream, false);
  dst.order_before(stream, true);
  detail::copy_bytes(dst.data(detail::issued_write{}), src.data(), src.bytes(), stream);
  src.record_read(stream);
  dst.record_write(stream);
}

template <class T, memory_space D, memory_space S>
void copy(buffer<T, D>& dst, const buffer<T, S>& src) {
  const detail::buffer_work_scope picking;  // the stream dst.stream() picks stays uncaptured
  copy_async(dst, src, dst.stream());
  dst.wait_for_host(false);
}

template <std::ranges::contiguous_range R>
  requires std::ranges::sized_range<R>
device_buffer<detail::range_value<R>> to_device(const R& range, stream_ref stream = default_stream,
                                                detail::source_location where = detail::source_location::current()) {
  using T = detail::range_value<R>;
  detail::host_reads(range, "warden::to_device");
  device_buffer<T> result(std::ranges::size(range), stream, where);
  // The range may be reused at once: from pageable memory cudaMemcpyAsync returns once the source
  // is staged; from page-locked, managed or device memory (a span over a pinned_buffer, memory from
  // cudaMallocHost) the copy reads it later, so the host waits for the copy.
  detail::copy_bytes(result.data(detail::issued_write{}), std::ranges::data(range), result.bytes(), stream);
  result.record_write(stream);
  if (!result.empty() && !detail::source_taken_at_once(std::ranges::data(range))) result.wait_for_host(false);
  return result;
}

template <std::ranges::contiguous_range R>
  requires std::ranges::sized_range<R>
device_buffer<detail::range_value<R>> to_device_async(const R& range, stream_ref stream,
                                                      detail::source_location where = detail::source_location::current()) {
  using T = detail::range_value<R>;
  detail::host_reads(range, "warden::to_device_async");
  pinned_buffer<T> staging(std::ranges::size(range), stream);
  if (!staging.empty()) std::memcpy(staging.data(), std::ranges::data(range), staging.bytes());
  device_buffer<T> result(staging.size(), stream, where);
  copy_async(result, staging, stream);
  return result;  // staging goes back to its pool in stream order, after the copy
}

namespace detail {
// An owning host array of T with data(): std::vector<bool> packs bits and has none, so copies of
// bool buffers go through this.
template <class T>
class host_array {
 public:
  host_array() = default;
  explicit host_array(std::size_t n) : data_(n == 0 ? nullptr : new T[n]()), size_(n) {}
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0;
};

template <class T, memory_space S>
host_array<T> download(const buffer<T, S>& src) {
  refuse_moved_from(src, "warden::to_host", "the source");
  src.wait_for_host(false);
  host_array<T> result(src.size());
  const buffer_work_scope picking;  // the copy and the wait on one stream, which stays uncaptured
  const stream_ref s = src.stream();
  detail::copy_bytes(result.data(), src.data(), src.bytes(), s);
  detail::synchronize(s);
  return result;
}
}  // namespace detail

template <class T, memory_space S>
std::vector<T> to_host(const buffer<T, S>& src) {
  detail::refuse_moved_from(src, "warden::to_host", "the source");
  if constexpr (std::is_same_v<T, bool>) {
    const detail::host_array<bool> bytes = detail::download(src);
    return std::vector<bool>(bytes.data(), bytes.data() + bytes.size());
  } else {
    src.wait_for_host(false);
    std::vector<T> result(src.size());
    const detail::buffer_work_scope picking;  // as download
    const stream_ref s = src.stream();
    detail::copy_bytes(result.data(), src.data(), src.bytes(), s);
    detail::synchronize(s);
    return result;
  }
}

// A std::vector<bool> (bits, no data()) to a device buffer of bool.
inline device_buffer<bool> to_device(const std::vector<bool>& flags, stream_ref stream = default_stream,
                                     detail::source_location where = detail::source_location::current()) {
  detail::host_array<bool> bytes(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i) bytes.data()[i] = flags[i];
  device_buffer<bool> result(flags.size(), stream, where);
  detail::copy_bytes(result.data(detail::issued_write{}), bytes.data(), result.bytes(), stream);
  detail::synchronize(stream);  // the bytes are freed on return: the copy must have taken them
  result.record_write(stream);
  return result;
}

template <class T, memory_space S>
pinned_buffer<T> to_host_async(const buffer<T, S>& src, stream_ref stream,
                               detail::source_location where = detail::source_location::current()) {
  detail::refuse_moved_from(src, "warden::to_host_async", "the source");
  pinned_buffer<T> result(src.size(), stream, where);
  copy_async(result, src, stream);
  return result;
}

}  // namespace warden
