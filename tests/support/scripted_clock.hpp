#pragma once
// A stream_clock whose streams finish only when the test says so: record() issues tickets,
// finish(s) makes stream s catch up with everything issued to it. wait() finishes the stream, as
// a real host wait would. Lets the pool's stream-ordered reuse be tested without a GPU.

#include <warden/memory/stream_clock.hpp>

#include <map>
#include <mutex>

namespace warden::testing {

class scripted_clock final : public stream_clock {
 public:
  struct shared_state {
    std::mutex mutex;
    std::map<void*, ticket> issued, completed;
    int waits = 0;
  };

  explicit scripted_clock(std::shared_ptr<shared_state> state) : state_(std::move(state)) {}

  ticket record(stream_ref s) override {
    std::lock_guard lock(state_->mutex);
    return ++state_->issued[s.handle()];
  }
  bool reached(stream_ref s, ticket t) override {
    std::lock_guard lock(state_->mutex);
    return t <= state_->completed[s.handle()];
  }
  void wait(stream_ref s, ticket t) override {
    std::lock_guard lock(state_->mutex);
    ++state_->waits;
    auto& done = state_->completed[s.handle()];
    if (done < t) done = t;
  }
  void order(stream_ref, stream_ref, ticket) override {}

 private:
  std::shared_ptr<shared_state> state_;
};

// finish(state, s): stream s has executed everything issued to it.
inline void finish(scripted_clock::shared_state& state, stream_ref s) {
  std::lock_guard lock(state.mutex);
  state.completed[s.handle()] = state.issued[s.handle()];
}

}  // namespace warden::testing
