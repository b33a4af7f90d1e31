#pragma once
// element_ref<T, Mode>: what indexing a typed view yields. It lets through exactly the operations
// Mode allows; a load through a write-only path (W004) or a store through a read-only one (W003)
// stops at a static_assert that names the code, the view and the fix.

#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "../config.hpp"
#include "../diagnostic/table.hpp"

namespace warden {

template <class T, access_mode Mode>
class element_ref {
 public:
  using value_type = std::remove_cv_t<T>;
  using mode = Mode;

  constexpr WARDEN_HOST_DEVICE explicit element_ref(T* element) noexcept : element_(element) {}
  element_ref(const element_ref&) = default;

  constexpr WARDEN_HOST_DEVICE value_type load() const {
    static_assert(Mode::can_load,
                  WARDEN_DIAGNOSTIC_MESSAGE(W004, "warden::element_ref",
                                            "a load through a view whose mode is write-only; view the range with "
                                            "access::read_write to read it back"));
    // The guard keeps a failed check to one error: without it the compiler goes on to complain
    // about the body as well.
    if constexpr (Mode::can_load) return *element_;
    else return value_type{};
  }

  constexpr WARDEN_HOST_DEVICE operator value_type() const { return load(); }

  template <class U>
  constexpr WARDEN_HOST_DEVICE const element_ref& operator=(U&& value) const {
    static_assert(Mode::can_store,
                  WARDEN_DIAGNOSTIC_MESSAGE(W003, "warden::element_ref",
                                            "a store through a view whose mode is read-only; view the range with "
                                            "access::write or access::read_write to store"));
    if constexpr (Mode::can_store) *element_ = std::forward<U>(value);
    return *this;
  }

  // Assigning one element to another is a store of a load, never a rebinding of the reference.
  constexpr WARDEN_HOST_DEVICE const element_ref& operator=(const element_ref& other) const {
    return *this = other.load();
  }

  // Compound assignment loads then stores: each half is checked by load() and operator=.
  template <class U> constexpr WARDEN_HOST_DEVICE const element_ref& operator+=(const U& v) const { return *this = load() + v; }
  template <class U> constexpr WARDEN_HOST_DEVICE const element_ref& operator-=(const U& v) const { return *this = load() - v; }
  template <class U> constexpr WARDEN_HOST_DEVICE const element_ref& operator*=(const U& v) const { return *this = load() * v; }
  template <class U> constexpr WARDEN_HOST_DEVICE const element_ref& operator/=(const U& v) const { return *this = load() / v; }

 private:
  T* element_;
};

}  // namespace warden
