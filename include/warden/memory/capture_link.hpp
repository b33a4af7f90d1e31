#pragma once
// capture_link: how a graph (warden::graph) finds a buffer it captured when it is replayed.
//
// A graph replays launches whose buffer addresses were fixed at capture, and its replay must be
// ordered after the buffers' other uses and recorded as their latest use, as a launch is. The
// buffer object may move (the link follows it) or die (the link then says so, and replay refuses
// with E109 before anything runs). A buffer makes its link on its first capture; a buffer never
// captured has none and pays nothing.

#include "buffer_ordering.hpp"

namespace warden::detail {

struct capture_link {
  // The buffer object that holds the memory now, and its type's table; owner.buffer is null once
  // the memory is freed.
  ordered_buffer owner;
};

}  // namespace warden::detail
