#pragma once
// The exceptions warden throws. Every one derives from warden::error, so `catch (warden::error&)`
// sees them all; each message starts with the entity that failed.

#include <cstddef>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "diagnostic/text.hpp"

namespace warden {

class error : public std::runtime_error {
 public:
  explicit error(const std::string& message) : std::runtime_error(message) {}
  explicit error(const char* message) : std::runtime_error(message) {}
  const char* what() const noexcept override { return noted_ ? noted_->c_str() : std::runtime_error::what(); }
  // Appends `note` to the message: what the place that catches it on its way out knows and the
  // place that threw did not (a launch's buffers as the program names them: launch/binding.hpp).
  void add_note(std::string_view note) {
    auto longer = std::make_shared<std::string>(what());
    *longer += note;
    noted_ = std::move(longer);
  }

 private:
  std::shared_ptr<const std::string> noted_;  // shared: copying an exception must not throw
};

// An error with a code of the table (diagnostic/table.hpp): its message is made by the one
// formatter, "E101 [out-of-bounds] <entity>: <detail>", where the entity is what failed (the
// kernel, the buffer's constructor) and the detail names the user's buffers and values.
template <diagnostic::code Code>
class coded_error : public error {
 public:
  static constexpr diagnostic::code code = Code;
  coded_error(std::string_view entity, std::string_view detail) : error(diagnostic::text(Code, entity, detail)) {}
};

// A CUDA runtime call failed. Names the call, the error's name (cudaErrorInvalidValue) and its
// description.
class cuda_error : public error {
 public:
  cuda_error(std::string call, int code, std::string name, std::string description)
      : error(call + " failed: " + name + " (" + description + ")"),
        call_(std::move(call)), code_(code), name_(std::move(name)) {}
  const std::string& call() const noexcept { return call_; }
  int code() const noexcept { return code_; }               // the cudaError_t value
  const std::string& error_name() const noexcept { return name_; }

 private:
  std::string call_;
  int code_;
  std::string name_;
};

// A pool could not serve a request even after releasing its cache. The message holds the request
// and the pool's statistics at the time.
class out_of_memory : public error {
 public:
  out_of_memory(const std::string& message, std::size_t requested_bytes)
      : error(message), requested_bytes_(requested_bytes) {}
  std::size_t requested_bytes() const noexcept { return requested_bytes_; }

 private:
  std::size_t requested_bytes_;
};

// E100: one buffer bound to two kernel parameters, one of them writable. Thrown before the launch.
class aliasing_error : public coded_error<diagnostic::code::E100> {
 public:
  using coded_error::coded_error;
};

// E101: an access may overrun its buffer or tile. Thrown before the launch (or, on the cpu backend,
// at the access that would have overrun, before it happens).
class bounds_error : public coded_error<diagnostic::code::E101> {
 public:
  using coded_error::coded_error;
};

// E102: the grid has extent > 1 in a dimension the kernel never refers to (its block ids there
// would all be 0, so its blocks would repeat each other's work and race; the checker assumes 1).
class grid_error : public coded_error<diagnostic::code::E102> {
 public:
  using coded_error::coded_error;
};

// E103: a run-time loop's step may be zero or negative for this launch's values (the loop would
// never end). Thrown before the launch.
class loop_error : public coded_error<diagnostic::code::E103> {
 public:
  using coded_error::coded_error;
};

// E104: an operation the kernel carries out in an unsigned type may wrap around for this launch
// (a negative operand, or a result outside the type's range), or int arithmetic may overflow.
// Thrown before the launch.
class wrap_error : public coded_error<diagnostic::code::E104> {
 public:
  using coded_error::coded_error;
};

// E105: a buffer of a space the host indexes (pinned, managed, host) was to be made from a pool
// whose memory the host cannot reach (device), or such a pool was made a default pool for it.
// Thrown before any memory is allocated.
class space_error : public coded_error<diagnostic::code::E105> {
 public:
  using coded_error::coded_error;
};

// E106: a launch obligation fails for this launch: a condition on the launch's values under which
// the checker proved the kernel (dsl/obligation.hpp; `w::obligations_of(kernel)` lists them).
// Names the condition, the rule it protects and the values. Thrown before the launch.
class obligation_error : public coded_error<diagnostic::code::E106> {
 public:
  using coded_error::coded_error;
};

// E107: a fact the kernel states with given(...) is false for this launch's values. Names the
// fact and the values. Thrown before the launch.
class fact_error : public coded_error<diagnostic::code::E107> {
 public:
  using coded_error::coded_error;
};

// E108: a load of a shared-tile element that no thread of the block has stored. Raised by the cpu
// backend at the load, in builds with WARDEN_SHARED_POISON (debug builds), where tiles start
// filled with a poison pattern instead of zeros that would hide the bug (on a GPU the element
// holds whatever the last block left there).
class uninitialised_read_error : public coded_error<diagnostic::code::E108> {
 public:
  using coded_error::coded_error;
};

// E109: a graph (warden::capture) cannot run as captured: replayed after a buffer it captured or
// its stream was freed, a capture on the default stream or inside another, a transfer, allocation
// or replay on the captured stream inside the body, work another thread issues to that stream, or
// warden work on a stream that cudaStreamBeginCapture captures outside warden::capture (its
// ordering would be wrong). Thrown before anything is issued.
class capture_error : public coded_error<diagnostic::code::E109> {
 public:
  using coded_error::coded_error;
};

// E110: a buffer that was moved from is bound to a launch, a copy, a download or a host view. It
// owns no memory, so the operation would do nothing the program meant (a launch over it would
// cover no elements; a download would return nothing). Thrown before anything is issued.
class moved_from_error : public coded_error<diagnostic::code::E110> {
 public:
  using coded_error::coded_error;
};

// E111: work issued on one thread to a stream_ref that stands for another thread's per-thread
// default stream (made from cudaStreamPerThread there): the handle would name this thread's
// stream. Thrown before anything is issued.
class foreign_stream_error : public coded_error<diagnostic::code::E111> {
 public:
  using coded_error::coded_error;
};

// E112: a pool's observer (memory_pool::observe) threw while an allocation reported to it. The
// allocation is undone (nothing leaked) and this reaches the allocation's caller; cause() is what
// the observer threw. (An observer that throws on a free is reported on stderr with this code:
// a free cannot throw.)
class observer_error : public coded_error<diagnostic::code::E112> {
 public:
  observer_error(std::string_view entity, std::string_view detail, std::exception_ptr cause)
      : coded_error(entity, detail), cause_(std::move(cause)) {}
  const std::exception_ptr& cause() const noexcept { return cause_; }

 private:
  std::exception_ptr cause_;
};

// Two buffers of different sizes were given to copy().
class size_mismatch : public error {
 public:
  using error::error;
};

}  // namespace warden
