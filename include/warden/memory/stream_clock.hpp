#pragma once
// stream_clock: how the pool and the buffers learn how far a stream has got.
//
// record(s) marks "everything issued to s so far" and returns a ticket; tickets of one stream
// grow. mark(s) does the same more cheaply: the clock may record the actual event later, when
// somebody asks about the ticket, which covers more work than needed but never less (the pool
// marks every free this way, so same-stream reuse never calls the driver). reached(s, t) says whether s has executed past ticket t, without blocking. wait(s, t)
// blocks the host until it has. order(waiter, s, t) makes work issued to `waiter` from now on
// start only after s reaches t (stream-ordered, the host does not block).
//
// synchronous_clock is the cpu backend's: work runs as it is issued, so every ticket is reached
// at once. cuda_event_clock (memory/cuda_resources.hpp) records CUDA events. Tests script their own.

#include <cstdint>

#include "../stream.hpp"

namespace warden {

using ticket = std::uint64_t;

class stream_clock {
 public:
  virtual ~stream_clock() = default;
  virtual ticket record(stream_ref s) = 0;
  virtual ticket mark(stream_ref s) { return record(s); }
  virtual bool reached(stream_ref s, ticket t) = 0;
  virtual void wait(stream_ref s, ticket t) = 0;
  virtual void order(stream_ref waiter, stream_ref s, ticket t) = 0;
};

class synchronous_clock final : public stream_clock {
 public:
  ticket record(stream_ref) override { return 0; }
  bool reached(stream_ref, ticket) override { return true; }
  void wait(stream_ref, ticket) override {}
  void order(stream_ref, stream_ref, ticket) override {}
};

}  // namespace warden
