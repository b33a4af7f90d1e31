#pragma once
// capture_link: how a CUDA graph (warden::graph) finds a buffer it captured when it is replayed.
//
// A graph replays launches whose buffer addresses were fixed at capture, and its replay must be
// ordered after the buffers' other uses and recorded as their latest use, as a launch is. The
// buffer object may move (the link follows it) or die (the link then says so, and replay refuses
// with E109 before anything runs). A buffer makes its link on its first capture; a buffer never
// captured has none and pays nothing.

#include "../stream.hpp"

namespace warden::detail {

struct capture_link {
  void* owner = nullptr;  // the buffer object that holds the memory now; null once it is freed
  void (*order_before)(const void* buffer, stream_ref s, bool writes) = nullptr;
  void (*record_use)(void* buffer, stream_ref s, bool writes) = nullptr;
  void (*wait_for_host)(const void* buffer, bool writes) = nullptr;
};

}  // namespace warden::detail
