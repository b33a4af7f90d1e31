#pragma once
// What tuning a launch must not change: timing a candidate runs the kernel, so a buffer it may
// write (out, inout, atomic) would hold the results of several runs, or a histogram counted
// several times. Before the first candidate runs, each writable buffer argument is copied to a
// buffer of its own (in stream order, on the launch's stream), and it is copied back before every
// run, the real one included: the kernel sees what the caller handed it, and the caller sees one
// launch. Values and read-only buffers need nothing.

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "../launch/arguments.hpp"
#include "../memory/buffer.hpp"
#include "../memory/buffer_view.hpp"
#include "../memory/transfer.hpp"
#include "../stream.hpp"

namespace warden::detail {

template <class Param, class Arg>
inline constexpr bool tuning_saves = [] {
  if constexpr (Param::is_buffer) return !std::is_same_v<typename Param::mode, access::read>;
  else return false;
}();

template <class Param, class Arg, bool Saves = tuning_saves<Param, Arg>>
class saved_argument {
 public:
  saved_argument(Arg&, stream_ref) {}
  void restore(Arg&, stream_ref) {}
};

template <class Param, class Arg>
class saved_argument<Param, Arg, true> {
  using whole_type = std::remove_cvref_t<decltype(whole_of(std::declval<Arg&>()))>;
  using copy_type = buffer<typename Param::value_type, typename whole_type::space_type>;

 public:
  saved_argument(Arg& arg, stream_ref s) : copy_(arg.size(), s) {
    arg.order_before(s, false);
    copy_bytes(copy_.data(issued_write{}), std::as_const(arg).data(), arg.bytes(), s);
    std::as_const(whole_of(arg)).record_read(s);
    copy_.record_write(s);
  }
  void restore(Arg& arg, stream_ref s) {
    arg.order_before(s, true);
    copy_.order_before(s, false);
    copy_bytes(arg.data(issued_write{}), std::as_const(copy_).data(), arg.bytes(), s);
    arg.record_write(s);
    copy_.record_read(s);
  }

 private:
  copy_type copy_;
};

template <class K, class Indices, class... Args>
struct saved_arguments;
template <class K, std::size_t... I, class... Args>
struct saved_arguments<K, std::index_sequence<I...>, Args...> {
  using type = std::tuple<saved_argument<typename K::template param<I>, Args>...>;
};

// Every writable argument of one launch, saved at construction (K names the parameters).
template <class K, class... Args>
class launch_snapshot {
 public:
  launch_snapshot(stream_ref s, Args&... args) : s_(s), saved_(make(std::index_sequence_for<Args...>{}, args...)) {}

  void restore(Args&... args) {
    restore_each(std::index_sequence_for<Args...>{}, args...);
  }

  static constexpr bool saves_anything = [] {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (tuning_saves<typename K::template param<I>, Args> || ...);
    }(std::index_sequence_for<Args...>{});
  }();

 private:
  template <std::size_t... I>
  auto make(std::index_sequence<I...>, Args&... args) {
    return std::tuple<saved_argument<typename K::template param<I>, Args>...>{
        saved_argument<typename K::template param<I>, Args>(args, s_)...};
  }
  template <std::size_t... I>
  void restore_each(std::index_sequence<I...>, Args&... args) {
    (std::get<I>(saved_).restore(args, s_), ...);
  }

  stream_ref s_;
  typename saved_arguments<K, std::index_sequence_for<Args...>, Args...>::type saved_;
};

}  // namespace warden::detail
