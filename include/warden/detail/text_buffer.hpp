#pragma once
// A fixed-capacity character buffer usable in constant evaluation (nvcc's front end does not run
// std::string there): the checker builds its diagnostics' text with it. Text past the capacity is
// cut and marked with "...".

#include <cstddef>
#include <string_view>

namespace warden::detail {

struct text_buffer {
  // Room for the longest explanation: two accesses with indices cut at 64 characters (explain.hpp)
  // and the reason after them.
  static constexpr int capacity = 400;
  char data[capacity + 1] = {};
  int size = 0;

  constexpr text_buffer& operator<<(std::string_view s) {
    for (char c : s) put(c);
    return *this;
  }
  constexpr text_buffer& operator<<(char c) {
    put(c);
    return *this;
  }
  constexpr text_buffer& operator<<(long long v) {
    if (v < 0) {
      put('-');
      v = -v;
    }
    char digits[24] = {};
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) put(digits[--n]);
    return *this;
  }
  constexpr text_buffer& operator<<(int v) { return *this << static_cast<long long>(v); }
  constexpr std::string_view view() const { return {data, static_cast<std::size_t>(size)}; }

 private:
  constexpr void put(char c) {
    if (size < capacity) data[size++] = c;
    if (size == capacity) data[capacity - 3] = data[capacity - 2] = data[capacity - 1] = '.';
  }
};

}  // namespace warden::detail
