#pragma once
// host_view<T, Mode>: a non-owning, typed window on a contiguous host range whose access mode is
// part of its type. view_of<access::read>(v) can only be read, view_of<access::write>(v) only
// written; the compiler rejects the rest with W003/W004 (see memory/element_ref.hpp).

#include <cstddef>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "../diagnostic/table.hpp"
#include "../error.hpp"
#include "../space.hpp"
#include "element_ref.hpp"

namespace warden {

template <class T, access_mode Mode>
class host_view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using mode = Mode;
  using space_type = space::host;

  constexpr host_view() noexcept = default;
  constexpr host_view(T* data, std::size_t size) noexcept : data_(data), size_(size) {}

  constexpr std::size_t size() const noexcept { return size_; }
  constexpr std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  constexpr bool empty() const noexcept { return size_ == 0; }

  // Unchecked, like std::span: bounds are the caller's contract on the host.
  constexpr element_ref<T, Mode> operator[](std::size_t i) const noexcept {
    return element_ref<T, Mode>(data_ + i);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// view_of<Mode>(range): a host_view of a contiguous range. A read-only view holds const elements,
// so the mode also protects the memory from code that reaches past the view.
template <access_mode Mode, std::ranges::contiguous_range R>
  requires std::ranges::sized_range<R> && std::is_lvalue_reference_v<std::ranges::range_reference_t<R>>
constexpr auto view_of(R&& range) {
  using element = std::remove_reference_t<std::ranges::range_reference_t<R>>;
  static_assert(!(Mode::can_store && std::is_const_v<element>),
                WARDEN_DIAGNOSTIC_MESSAGE(W003, "warden::view_of",
                                          "a writable view of const elements; view them with access::read, or pass "
                                          "a non-const range"));
  using viewed = std::conditional_t<Mode::can_store, element, const element>;
  if constexpr (requires { range.moved_from(); }) {  // a warden buffer (pinned or managed)
    if (range.moved_from())  // E110
      throw moved_from_error("warden::view_of", std::string("the range (a ") + std::remove_cvref_t<R>::type_name() +
                                                    ") was moved from, so it owns no memory; view the buffer it was "
                                                    "moved into, or assign a new buffer to it first");
    // A view is host access, as indexing is: a read view waits for the buffer's last writer, a
    // writable one for its readers too (a queued copy from it).
    range.wait_for_host(Mode::can_store);
    if constexpr (!Mode::can_store) {
      // The address through the const overload: a non-const data() is a host write's access,
      // which would wait for the readers as well (docs/memory.md, "The rule, call by call"). Still
      // counted as a change, as every view is (writes()).
      range.count_write();
      return host_view<viewed, Mode>(std::as_const(range).data(), std::ranges::size(range));
    }
  }
  return host_view<viewed, Mode>(std::ranges::data(range), std::ranges::size(range));
}

}  // namespace warden
