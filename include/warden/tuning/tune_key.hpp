#pragma once
// What a tuned kernel's choice depends on: a few integers computed from a launch's arguments. Two
// launches with equal keys share one choice (warden/tuned.hpp). The default key is every buffer
// argument's size and every integral value argument, each rounded up to a power of two
// (bucket_pow2); a kernel whose best shape depends on something else says so with .keyed(f).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace warden {

class tune_key {
 public:
  static constexpr int capacity = 8;

  tune_key() = default;
  tune_key(std::initializer_list<long long> values) {
    for (long long v : values) add(v);
  }

  void add(long long value) {
    if (count_ == capacity)
      throw std::length_error("warden::tune_key: at most " + std::to_string(capacity) + " values; combine some in the key function");
    values_[static_cast<std::size_t>(count_++)] = value;
  }
  int size() const noexcept { return count_; }
  long long operator[](int i) const noexcept { return values_[static_cast<std::size_t>(i)]; }

  // "1048576,256": how reports and the cache file write it.
  std::string text() const {
    std::string out;
    for (int i = 0; i < count_; ++i) out += (i ? "," : "") + std::to_string(values_[static_cast<std::size_t>(i)]);
    return out.empty() ? "-" : out;
  }

  friend bool operator==(const tune_key& a, const tune_key& b) noexcept {
    if (a.count_ != b.count_) return false;
    for (int i = 0; i < a.count_; ++i)
      if (a.values_[static_cast<std::size_t>(i)] != b.values_[static_cast<std::size_t>(i)]) return false;
    return true;
  }

  std::size_t hash() const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < count_; ++i) h = (h ^ static_cast<std::uint64_t>(values_[static_cast<std::size_t>(i)])) * 1099511628211ull;
    return static_cast<std::size_t>(h ^ static_cast<std::uint64_t>(count_));
  }

 private:
  std::array<long long, capacity> values_{};
  int count_ = 0;
};

struct tune_key_hash {
  std::size_t operator()(const tune_key& k) const noexcept { return k.hash(); }
};

// The smallest power of two at least n (1 for n <= 1): sizes 600k and 1M share a choice.
constexpr long long bucket_pow2(long long n) {
  long long b = 1;
  while (b < n && b < (1LL << 62)) b <<= 1;
  return b;
}

namespace detail {

// The default key: buffers by size, integral values by value, both bucketed; floating values are
// left out (a scale factor rarely changes the best shape).
struct default_tune_key {
  template <class... Args>
  tune_key operator()(const Args&... args) const {
    tune_key key;
    (add_argument(key, args), ...);
    return key;
  }

 private:
  template <class A>
  static void add_argument(tune_key& key, const A& arg) {
    if constexpr (requires { arg.size(); }) key.add(bucket_pow2(static_cast<long long>(arg.size())));
    else if constexpr (std::is_integral_v<A> || std::is_enum_v<A>) key.add(bucket_pow2(static_cast<long long>(arg)));
  }
};

}  // namespace detail

}  // namespace warden
