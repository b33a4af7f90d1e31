#pragma once
// scratch<T>: an owning array for the checker's constant-evaluated hot loops. std::vector's
// constructors initialise element by element through several library calls, which is slow in
// g++'s and clang's constant evaluators; `new T[n]` costs next to
// nothing, and the checker writes every element before reading it (reading one it did not write
// is a compile error in constant evaluation, so a mistake cannot go unnoticed there).

#include <cstddef>

namespace warden::detail {

template <class T>
class scratch {
 public:
  constexpr scratch() = default;
  constexpr explicit scratch(int n) : data_(n > 0 ? new T[static_cast<std::size_t>(n)] : nullptr), size_(n > 0 ? n : 0) {}
  constexpr scratch(int n, const T& value) : scratch(n) {
    for (int i = 0; i < size_; ++i) data_[i] = value;
  }
  constexpr scratch(const scratch& o) : scratch(o.size_) {
    for (int i = 0; i < size_; ++i) data_[i] = o.data_[i];
  }
  constexpr scratch(scratch&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  constexpr scratch& operator=(scratch o) noexcept {
    T* d = data_;
    data_ = o.data_;
    o.data_ = d;
    const int s = size_;
    size_ = o.size_;
    o.size_ = s;
    return *this;
  }
  constexpr ~scratch() { delete[] data_; }

  // A copy with room for n elements, the first min(n, size()) kept.
  constexpr scratch resized(int n) const {
    scratch r(n);
    for (int i = 0; i < size_ && i < n; ++i) r.data_[i] = data_[i];
    return r;
  }

  constexpr T* data() { return data_; }
  constexpr const T* data() const { return data_; }
  constexpr int size() const { return size_; }
  constexpr T& operator[](int i) { return data_[i]; }
  constexpr const T& operator[](int i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  int size_ = 0;
};

}  // namespace warden::detail
