#pragma once
// upstream_resource: what a memory_pool draws its segments from. warden's own concept (not
// std::pmr's): allocations are stream-ordered, failure is a null pointer rather than an exception
// (the pool decides what to do about it), and the resource says how big it is so that a pool can
// be limited to a fraction of it.

#include <concepts>
#include <cstddef>
#include <memory>
#include <string_view>

#include "../space.hpp"
#include "../stream.hpp"
#include "stream_clock.hpp"

namespace warden {

template <class R>
concept upstream_resource =
    std::movable<R> && memory_space<typename R::memory_space> &&
    requires(R& r, const R& cr, std::size_t bytes, std::size_t alignment, void* p, stream_ref s) {
      { r.allocate(bytes, alignment, s) } -> std::same_as<void*>;  // nullptr when out of memory
      { r.deallocate(p, bytes, alignment, s) } noexcept;
      { cr.capacity() } -> std::same_as<std::size_t>;             // total bytes; 0 when unknown
      { cr.name() } -> std::convertible_to<std::string_view>;
      { cr.make_clock() } -> std::same_as<std::unique_ptr<stream_clock>>;  // how its streams progress
    };

}  // namespace warden
