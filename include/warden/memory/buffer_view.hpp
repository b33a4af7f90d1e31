#pragma once
// buffer_view: `count` elements of a buffer from element `offset`, bound to a kernel parameter as
// if it were a buffer of its own (`w::launch(k, g, w::view(x, base, n), y)`): the kernel's index 0
// is the buffer's element `offset`, its `size()` is `count`. What a CUDA kernel gets from
// `src = input + base` or `c += offset`, with the checks a buffer has:
//   * the range must lie inside the buffer (E101 when the view is made, naming the buffer);
//   * the kernel's accesses are bounded by the view's extent, not the buffer's (E101 at launch);
//   * two arguments whose memory overlaps, one of them writable, are refused (E100), so disjoint
//     views of one buffer may both be written by one launch, and overlapping ones may not;
//   * stream ordering, writes and graph capture are the buffer's: a launch through a view orders
//     after the buffer's earlier uses and counts as a use of the whole buffer.
// A view refers to the buffer object: make it where it is used, while the buffer lives and is not
// moved. A read-only buffer index that the launch would measure (launch/contents.hpp) is not
// measured through a view: its loads stay unbounded there (a gather through a view of its index
// array is refused unless the index is bounded otherwise).

#include <cstddef>
#include <string>
#include <type_traits>

#include "../error.hpp"
#include "buffer.hpp"
#include "transfer.hpp"

namespace warden {

// B: buffer<T, Space>, or const buffer<T, Space> for a view that only in<T> parameters take.
template <class B>
class buffer_view {
 public:
  using buffer_type = std::remove_const_t<B>;
  using value_type = typename buffer_type::value_type;
  using space_type = typename buffer_type::space_type;
  static constexpr bool read_only = std::is_const_v<B>;

  buffer_view(B& whole, std::size_t offset, std::size_t count, const char* call = "warden::view")
      : whole_(&whole), offset_(offset), count_(count) {
    if (offset > whole.size() || count > whole.size() - offset) {
      const std::string name = whole.program_name();
      throw bounds_error(call, "a view of elements [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                                   std::to_string(count) + ") of " + (name.empty() ? "a buffer" : name + ", a buffer") + " of " +
                                   std::to_string(whole.size()) + " elements" + (name.empty() ? "" : ",") +
                                   " reaches past its end; view at most " +
                                   std::to_string(offset <= whole.size() ? whole.size() - offset : 0) +
                                   " elements from there");
    }
  }

  std::size_t size() const noexcept { return count_; }
  std::size_t offset() const noexcept { return offset_; }
  B& whole() const noexcept { return *whole_; }
  bool moved_from() const noexcept { return whole_->moved_from(); }

  // The addresses a launch binds, as buffer::data's: the const one reads nothing and counts
  // nothing; the issued-write one is for a write the launch records on the whole buffer.
  const value_type* data() const noexcept { return std::as_const(*whole_).data() + offset_; }
  value_type* data(detail::issued_write w) const noexcept
    requires(!read_only)
  {
    return whole_->data(w) + offset_;
  }
  void count_write() const noexcept
    requires(!read_only)
  {
    whole_->count_write();
  }

  // What the cpu backend's copy of a device buffer does with a view (launch/run_cpu.hpp): stream
  // order and writes are the whole buffer's; the bytes copied back are the view's alone, so that
  // two disjoint views written by one launch do not overwrite each other's results.
  std::size_t bytes() const noexcept { return count_ * sizeof(value_type); }
  stream_ref stream() const noexcept { return whole_->stream(); }
  void order_before(stream_ref s, bool writes) const { whole_->order_before(s, writes); }
  void record_write(stream_ref s) const
    requires(!read_only)
  {
    whole_->record_write(s);
  }

 private:
  B* whole_;
  std::size_t offset_, count_;
};

// Elements [offset, offset + count) of `whole`, for a kernel argument.
template <class T, memory_space Space>
buffer_view<buffer<T, Space>> view(buffer<T, Space>& whole, std::size_t offset, std::size_t count) {
  return {whole, offset, count};
}
template <class T, memory_space Space>
buffer_view<const buffer<T, Space>> view(const buffer<T, Space>& whole, std::size_t offset, std::size_t count) {
  return {whole, offset, count};
}
namespace detail {
// The view's elements, copied to the host after the whole buffer's last writer (as download).
template <class B>
host_array<typename buffer_view<B>::value_type> download(const buffer_view<B>& src) {
  refuse_moved_from(src.whole(), "warden::launch", "a view's buffer");
  src.whole().wait_for_host(false);
  host_array<typename buffer_view<B>::value_type> result(src.size());
  const buffer_work_scope picking;  // the copy and the wait on one stream, which stays uncaptured
  const stream_ref s = src.stream();
  copy_bytes(result.data(), src.data(), src.bytes(), s);
  synchronize(s);
  return result;
}

// The buffer a launch argument belongs to: itself, or a view's.
template <class A>
auto& whole_of(A& arg) {
  if constexpr (requires { arg.whole(); }) return arg.whole();
  else return arg;
}
}  // namespace detail

// A view of a temporary buffer would outlive it.
template <class T, memory_space Space>
void view(buffer<T, Space>&& whole, std::size_t offset, std::size_t count) = delete;

}  // namespace warden
