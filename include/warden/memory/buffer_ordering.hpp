#pragma once
// buffer_ordering: a buffer type's stream-ordering operations with the type erased, one constant
// table per buffer type (ordering_of<B>). A launch binds arguments of many buffer types and orders
// its work around each one's uses; a graph replays work on buffers it captured and must do the
// same. Both hold an ordered_buffer, the buffer's address and its type's table (two pointers), and
// call through the table: neither needs the buffer's type, nor a copy of its functions each.

#include <memory>
#include <type_traits>

#include "../detail/source_location.hpp"
#include "../stream.hpp"

namespace warden::detail {

struct capture_link;  // memory/capture_link.hpp

struct buffer_ordering {
  // Makes work issued to `s` from now on wait for the buffer's earlier uses (buffer::order_before).
  void (*order_before)(const void* buffer, stream_ref s, bool writes);
  // Records work just issued to `s` as the buffer's latest use (buffer::record_write/record_read).
  void (*record_use)(void* buffer, stream_ref s, bool writes);
  // Blocks the host until the buffer's earlier uses are done (buffer::wait_for_host).
  void (*wait_for_host)(const void* buffer, bool writes);
  // The link a graph keeps to the buffer (buffer::capture_link).
  std::shared_ptr<capture_link> (*link)(const void* buffer);
  // Where the buffer was made and moved (buffer::made_at, moved_at), for messages to name it.
  void (*made_where)(const void* buffer, source_location& made, source_location& moved);
};

// One buffer, its type erased. Whether a use writes is the caller's to say.
struct ordered_buffer {
  void* buffer = nullptr;  // null: no buffer (a value argument of a launch, a freed buffer)
  const buffer_ordering* ops = nullptr;

  void order_before(stream_ref s, bool writes) const { ops->order_before(buffer, s, writes); }
  void record_use(stream_ref s, bool writes) const { ops->record_use(buffer, s, writes); }
  void wait_for_host(bool writes) const { ops->wait_for_host(buffer, writes); }
  std::shared_ptr<capture_link> link() const { return ops->link(buffer); }
  void made_where(source_location& made, source_location& moved) const { ops->made_where(buffer, made, moved); }
};

template <class B>
struct ordering_functions {
  static void order_before(const void* b, stream_ref s, bool writes) { static_cast<const B*>(b)->order_before(s, writes); }
  static void record_use(void* b, stream_ref s, bool writes) {
    if (writes) static_cast<B*>(b)->record_write(s);
    else static_cast<const B*>(b)->record_read(s);
  }
  static void wait_for_host(const void* b, bool writes) { static_cast<const B*>(b)->wait_for_host(writes); }
  static std::shared_ptr<capture_link> link(const void* b) { return static_cast<const B*>(b)->capture_link(); }
  static void made_where(const void* b, source_location& made, source_location& moved) {
    made = static_cast<const B*>(b)->made_at();
    moved = static_cast<const B*>(b)->moved_at();
  }
};

template <class B>
inline constexpr buffer_ordering ordering_of{&ordering_functions<B>::order_before, &ordering_functions<B>::record_use,
                                             &ordering_functions<B>::wait_for_host, &ordering_functions<B>::link,
                                             &ordering_functions<B>::made_where};

// `buffer` as ordering sees it. Recording a use of a const buffer is bookkeeping, not a change of
// its contents (buffer::record_read is const), hence the const_cast.
template <class B>
ordered_buffer ordered(B& buffer) {
  using T = std::remove_const_t<B>;
  return {const_cast<T*>(&buffer), &ordering_of<T>};
}

}  // namespace warden::detail
