#pragma once
// host_resource: aligned host memory as a pool upstream. It is the "device" of the cpu backend
// and what the pool's tests run on; an optional capacity makes it behave like a device of that
// size (allocations past it fail), so limits and out-of-memory recovery are testable without a GPU.

#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <string_view>

#include "../space.hpp"
#include "stream_clock.hpp"

namespace warden {

class host_resource {
 public:
  using memory_space = space::host;

  host_resource() = default;
  explicit host_resource(std::size_t capacity) : state_(std::make_shared<state>(capacity)) {}

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref) {
    if (state_->capacity != 0) {
      std::size_t used = state_->used.load(std::memory_order_relaxed);
      do {
        if (bytes > state_->capacity - used) return nullptr;
      } while (!state_->used.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    }
    void* p = ::operator new(bytes, std::align_val_t{alignment}, std::nothrow);
    if (p == nullptr && state_->capacity != 0) state_->used.fetch_sub(bytes, std::memory_order_relaxed);
    return p;
  }

  void deallocate(void* p, std::size_t bytes, std::size_t alignment, stream_ref) noexcept {
    ::operator delete(p, std::align_val_t{alignment});
    if (state_->capacity != 0) state_->used.fetch_sub(bytes, std::memory_order_relaxed);
  }

  std::size_t capacity() const noexcept { return state_->capacity; }
  std::size_t used() const noexcept { return state_->used.load(std::memory_order_relaxed); }
  std::string_view name() const noexcept { return "host_resource"; }
  std::unique_ptr<stream_clock> make_clock() const { return std::make_unique<synchronous_clock>(); }

 private:
  // Shared so that copies of the resource (it is movable into a pool) count against one capacity.
  struct state {
    explicit state(std::size_t c = 0) : capacity(c) {}
    std::size_t capacity;
    std::atomic<std::size_t> used{0};
  };
  std::shared_ptr<state> state_ = std::make_shared<state>();
};

}  // namespace warden
