#pragma once
// buffer<T, Space>: a move-only owner of `size()` elements in one memory space, allocated from a
// pool. device_buffer<T>, pinned_buffer<T> and managed_buffer<T> are its three faces.
//
// Host code may index pinned and managed buffers; indexing a device buffer on the host is W001.
// Each buffer remembers the last stream that wrote it and the streams that read it (as stream_clock
// tickets): host access waits for them, work on another stream is ordered after them, and the
// destructor gives the memory back to the pool in stream order, after every recorded use.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include "../detail/contents_order.hpp"
#include "../detail/program_names.hpp"
#include "../detail/source_location.hpp"
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../space.hpp"
#include "../diagnostic/table.hpp"
#include "../error.hpp"
#include "../stream.hpp"
#include "capture_link.hpp"
#include "capture_registry.hpp"
#include "default_pool.hpp"
#include "memory_pool.hpp"
#include "stream_clock.hpp"

// One message for every way of indexing (static_assert needs a literal, hence the macro).
#define WARDEN_W001_INDEX_MESSAGE                                                                         \
  WARDEN_DIAGNOSTIC_MESSAGE(W001, "warden::device_buffer",                                               \
                            "host code indexes device memory; copy it to the host with warden::to_host(buffer), " \
                            "or keep a host mirror (warden::pinned_buffer, warden::to_host_async)")

namespace warden {

namespace detail {
// What a launch measured of a buffer's contents (launch/contents.hpp), kept with the buffer: the
// least and greatest element and where each first occurs, valid while the buffer's writes() is
// `writes`. The same fields as check::contents_range, which the buffer does not include.
// The tag of data(issued_write): the address for a write warden issues itself and records
// (transfers into the buffer, a launch's writable slot). Not an escape: see buffer::escaped().
struct issued_write {};

struct contents_memo {
  bool valid = false;
  bool measurable = false;  // false: an element outside long long (unsigned 64-bit), no range
  std::uint64_t writes = 0;
  long long lo = 0, hi = 0, lo_at = 0, hi_at = 0;
  bool distinct_known = false, distinct = false;  // measured only where a stated fact asks
  long long repeat_at = 0, repeat_of = 0;
  bool order_known = false;  // measured only where a stated fact asks, for that fact's rows and bound
  contents_order order;
  long long not_rising_at = -1, falling_at = -1;
};
}  // namespace detail

// One recorded use of a buffer by a stream.
struct stream_use {
  stream_ref stream;
  ticket at = 0;
};

// A buffer holds a block of the pool's (memory_pool.hpp), whose types differ with WARDEN_POOL_DEBUG:
// so does buffer, in the pool's inline namespace.
inline namespace WARDEN_POOL_ABI {

template <class T, memory_space Space>
class buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "warden::buffer: the element type must be trivially copyable (buffers are copied with memcpy)");
  static_assert(!std::is_same_v<Space, space::shared>,
                "warden::buffer: shared memory is declared inside a kernel (k.shared<T, N>()), not owned by the host");
  static_assert(!std::is_same_v<Space, space::host>,
                "warden::buffer: host memory is a std::vector; view it with warden::view_of");

 public:
  using value_type = T;
  using space_type = Space;

  buffer() noexcept = default;

  // n elements (uninitialised) from the default pool of Space, usable by work on `stream`.
  explicit buffer(std::size_t n, stream_ref stream = default_stream,
                  detail::source_location where = detail::source_location::current())
      : buffer(n, default_pool<Space>(), stream, where) {}

  buffer(std::size_t n, memory_pool& pool, stream_ref stream = default_stream,
         detail::source_location where = detail::source_location::current())
      : pool_(pool.core()), stream_(stream), size_(n), made_at_(where) {
    detail::check_pool_space<Space>(pool, "warden::buffer", where);
    if (n > static_cast<std::size_t>(-1) / sizeof(T))  // n * sizeof(T) would wrap to a small size
      throw out_of_memory("warden::buffer: " + std::to_string(n) + " elements of " + std::to_string(sizeof(T)) +
                              " bytes are more bytes than a size_t can count",
                          static_cast<std::size_t>(-1));
    allocation_ = pool.allocate(n * sizeof(T), stream, where);
    // Memory freed on `stream` and handed back at once: work queued there before the free (a
    // copy into the buffer that had it) may still write it. On `stream` that work runs first; any
    // other stream, and the host, order after the free as after a writer (docs/memory.md, "Ordering").
    if (allocation_.freed_at != 0) {
      writer_ = {allocation_.freed_on, allocation_.freed_at};
      has_writer_ = true;
      host_synced_ = false;
    }
  }

  // `where`: the line that moved it (`auto b = std::move(a);`), which names it if it declares
  // something; a move inside a function (a factory's return) does not, and the buffer keeps the
  // name of the line that made it. The moved-from buffer keeps its own, for E110 to name it.
  buffer(buffer&& other, detail::source_location where = detail::source_location::current()) noexcept
      : made_at_(other.made_at_), moved_at_(where) {
    swap(other);
    other.mark_moved_from();
  }
  buffer& operator=(buffer&& other) noexcept {
    if (this != &other) {
      release();
      buffer empty;
      swap(empty);  // this is empty; `empty` takes what release() left (a size, a pool) and drops it
      swap(other);  // and the moved-from buffer is empty: size() 0, no memory, no uses
      other.mark_moved_from();  // (and this one is moved-from only if `other` was)
      // The target keeps its own name (`in = std::move(out)` in a swap leaves `in` named in);
      // one made without a line (default-constructed) takes the source's.
      if (made_at_.line() == 0) {
        made_at_ = other.made_at_;
        moved_at_ = other.moved_at_;
      }
    }
    return *this;
  }
  buffer(const buffer&) = delete;  // an owner; copy the contents with warden::copy
  buffer& operator=(const buffer&) = delete;

  ~buffer() { release(); }

  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  // Whether this buffer was moved from (and not assigned since): it owns no memory, and binding it
  // to a launch, a copy, a download or a host view is E110 (moved_from_error), where an empty
  // buffer made empty is not. Its destructor and assigning a new buffer to it stay fine.
  bool moved_from() const noexcept { return moved_from_; }
  // What messages call this kind of buffer.
  static constexpr const char* type_name() noexcept {
    if constexpr (std::is_same_v<Space, space::device>) return "warden::device_buffer";
    else if constexpr (std::is_same_v<Space, space::pinned>) return "warden::pinned_buffer";
    else return "warden::managed_buffer";
  }
  // The stream the buffer's own work goes to (transfers, its free): the one it was made for while
  // that stream lives and this thread can issue to it; the default stream once it is destroyed
  // (a buffer may outlive every stream it touched: its recorded uses there stay known to the
  // pool's clock, which orders after them), on a thread other than the one whose per-thread
  // default stream it was made for (cudaStreamPerThread there names this thread's stream), and
  // while another thread captures it (a buffer handed over may be read back meanwhile).
  stream_ref stream() const noexcept {
    const bool usable = stream_.issuable_here() && detail::live_streams::instance().alive(stream_) &&
                        !detail::captured_by_another_thread(stream_);
    return usable ? stream_ : default_stream;
  }

  // The raw address. Non-const access counts as a write (writes(), below), and the address has
  // escaped: what is done through the pointer, now or later, is out of warden's sight. In a
  // host-accessible space (pinned, managed) the host may then read and write the memory through
  // it (std::memcpy(staging.data(), ...), a std::span over the buffer), so it first waits, as
  // operator[] does, for the last writer and every reader (docs/memory.md, "The rule, call by
  // call"). The const overload is the address alone, for handing to CUDA: it waits for nothing.
  T* data() {
    if constexpr (Space::is_host_accessible)
      if (!moved_from_) host_access();
    ++writes_;
    escaped_ = true;
    return static_cast<T*>(allocation_.ptr);
  }
  // The address for a write warden issues itself: it counts that write where it records it
  // (record_write, count_write), so this one neither counts nor hands the address out.
  T* data(detail::issued_write) noexcept { return static_cast<T*>(allocation_.ptr); }
  const T* data() const noexcept { return static_cast<const T*>(allocation_.ptr); }

  // Host access: only where the space is host-accessible, and only after the device is done.
  T& operator[](std::size_t i) {
    static_assert(Space::is_host_accessible, WARDEN_W001_INDEX_MESSAGE);
    host_access();
    return data()[i];  // counts as a write
  }
  const T& operator[](std::size_t i) const {
    static_assert(Space::is_host_accessible, WARDEN_W001_INDEX_MESSAGE);
    host_access();
    return data()[i];
  }
  T& operator*() { return (*this)[0]; }
  T* begin() {
    static_assert(Space::is_host_accessible,
                  WARDEN_DIAGNOSTIC_MESSAGE(W001, "warden::device_buffer",
                                            "host code iterates over device memory; copy it to the host with "
                                            "warden::to_host(buffer), or keep a host mirror (warden::pinned_buffer)"));
    host_access();
    return data();  // counts as a write
  }
  T* end() { return begin() + size_; }

  // ---- contents ------------------------------------------------------------------------------

  // How many times the contents may have changed: every write warden issues (launches that may
  // write the buffer, transfers into it, graph replays) and every non-const access from the host
  // (data(), operator[], begin()). What a launch measured of the contents (launch/contents.hpp)
  // holds while this count stays the same.
  std::uint64_t writes() const noexcept { return writes_; }
  void count_write() noexcept { ++writes_; }
  // Whether a non-const data() ever handed the address out: a pointer kept may write the memory
  // at any time after, uncounted, so a measurement of the contents holds for one launch only.
  bool escaped() const noexcept { return escaped_; }
  // That measurement, kept with the buffer: valid while memo.writes == writes().
  detail::contents_memo& contents_memo() const noexcept { return memo_; }

  // ---- stream ordering (used by transfers and launches) -------------------------------------

  // Work just issued to `s` writes this buffer.
  void record_write(stream_ref s) {
    ++writes_;
    if (pool_ == nullptr) return;
    writer_ = {s, detail::pool_clock(*pool_).mark(s)};
    has_writer_ = true;
    host_synced_ = false;
  }

  // Work just issued to `s` reads this buffer. Const: the uses are bookkeeping, not contents.
  void record_read(stream_ref s) const {
    if (pool_ == nullptr) return;
    const ticket at = detail::pool_clock(*pool_).mark(s);
    host_synced_ = false;
    for (stream_use& r : readers_)
      if (r.stream == s) {
        r.at = at;
        return;
      }
    readers_.push_back({s, at});
  }

  // Makes work issued to `s` from now on wait for the last writer (and, before a write, the readers).
  void order_before(stream_ref s, bool writes) const {
    if (pool_ == nullptr) return;
    if (has_writer_) detail::pool_clock(*pool_).order(s, writer_.stream, writer_.at);
    if (writes)
      for (const stream_use& r : readers_) detail::pool_clock(*pool_).order(s, r.stream, r.at);
  }

  // Blocks the host until the last writer is done (and, before a host write, the readers too).
  void wait_for_host(bool writes) const {
    if (pool_ == nullptr) return;
    if (has_writer_) detail::pool_clock(*pool_).wait(writer_.stream, writer_.at);
    if (writes)
      for (const stream_use& r : readers_) detail::pool_clock(*pool_).wait(r.stream, r.at);
  }

  // The link a graph keeps to this buffer (memory/capture_link.hpp), made on the first capture.
  std::shared_ptr<detail::capture_link> capture_link() const {
    if (!link_) link_ = std::make_shared<detail::capture_link>(detail::capture_link{detail::ordered(*this)});
    return link_;
  }

  void swap(buffer& other) noexcept {
    std::swap(pool_, other.pool_);
    std::swap(allocation_, other.allocation_);
    std::swap(stream_, other.stream_);
    std::swap(size_, other.size_);
    std::swap(writer_, other.writer_);
    std::swap(has_writer_, other.has_writer_);
    std::swap(readers_, other.readers_);
    std::swap(host_synced_, other.host_synced_);
    std::swap(link_, other.link_);
    std::swap(writes_, other.writes_);
    std::swap(escaped_, other.escaped_);
    std::swap(memo_, other.memo_);
    std::swap(moved_from_, other.moved_from_);
    if (link_) link_->owner.buffer = this;  // a graph follows the memory, not the object
    if (other.link_) other.link_->owner.buffer = &other;
  }

  // Where the buffer was made: the line that declares it, for messages to name it as the program
  // does (detail/program_names.hpp); a buffer moved into another passes it on.
  const detail::source_location& made_at() const noexcept { return made_at_; }
  const detail::source_location& moved_at() const noexcept { return moved_at_; }
  // The program's name for the buffer: the variable of the line that moved it here, else of the
  // line that made it; "" where neither declares one (detail/program_names.hpp).
  std::string program_name() const {
    std::string name = detail::program_name(moved_at_);
    return name.empty() ? detail::program_name(made_at_) : name;
  }

  // Whether the memory is the host's (a host-accessible pool, or host memory standing for device
  // memory on the cpu backend): the device's contents passes (launch/contents_on_device.hpp) run
  // only on memory that is not.
  bool in_host_memory() const noexcept { return pool_ != nullptr && detail::pool_host_accessible(*pool_); }

 private:
  // operator[] returns a reference that may be read or written: wait for both, once.
  void host_access() const {
    if (host_synced_) return;
    if (moved_from_) {
      const std::string name = program_name();
      throw moved_from_error(type_name(), (name.empty() ? std::string("a buffer") : name) +
                                              " was indexed on the host after it was moved from: it owns no memory");
    }
    wait_for_host(true);
    host_synced_ = true;
  }

  // A moved-from buffer owns nothing: its first host access takes host_access's slow path, which
  // reports it.
  void mark_moved_from() noexcept {
    moved_from_ = true;
    host_synced_ = false;
  }

  // Back to the pool on the buffer's stream, ordered after every recorded use on other streams.
  void release() noexcept {
    if (link_) {  // graphs that captured this memory refuse to replay from now on (E109)
      link_->owner.buffer = nullptr;
      link_.reset();
    }
    if (pool_ == nullptr || allocation_.block == nullptr) return;
    const detail::buffer_work_scope picking;  // no capture begins between picking the stream and the free
    // Not a stream destroyed since (the pool would file the block there), nor one being captured
    // (no event can be recorded there until the capture ends: the block goes back on the default
    // stream, after the uses recorded before the capture, whose events warden::capture recorded).
    const stream_ref own = stream();
    const stream_ref home = detail::being_captured(own) ? default_stream : own;
    try {
      order_before(home, true);
    } catch (const std::exception& e) {
      // Cannot order the free after its users: wait for them instead, or keep the memory.
      std::fprintf(stderr, "warden::buffer: %s; waiting before freeing\n", e.what());
      try {
        wait_for_host(true);
      } catch (...) {
        std::fprintf(stderr, "warden::buffer: the wait failed too; %zu bytes are not returned to the pool\n",
                     allocation_.bytes);
        allocation_ = {};
        return;
      }
    }
    detail::pool_deallocate(*pool_, allocation_, home);
    allocation_ = {};
  }

  std::shared_ptr<detail::pool_core> pool_;  // shared: a buffer may outlive its pool's handle
  pool_allocation allocation_;
  stream_ref stream_;
  std::size_t size_ = 0;
  stream_use writer_;
  bool has_writer_ = false;
  mutable std::vector<stream_use> readers_;
  mutable bool host_synced_ = true;
  mutable std::shared_ptr<detail::capture_link> link_;  // null unless a graph captured this buffer
  std::uint64_t writes_ = 0;
  bool escaped_ = false;
  mutable detail::contents_memo memo_;
  bool moved_from_ = false;
  detail::source_location made_at_{}, moved_at_{};
};

template <class T>
using device_buffer = buffer<T, space::device>;
template <class T>
using pinned_buffer = buffer<T, space::pinned>;
template <class T>
using managed_buffer = buffer<T, space::managed>;

}  // inline namespace WARDEN_POOL_ABI

}  // namespace warden
