#pragma once
// Intervals of integers, and how each operation of a kernel's description combines them: the
// algebra of the launch-time checks' interval analysis (interval_evaluator.hpp). An interval
// always contains every value the expression can take; top() is "cannot be bounded".

#include <algorithm>
#include <cstdint>
#include <limits>

#include "../../dsl/ir.hpp"

namespace warden::check {

struct interval {
  long long lo = std::numeric_limits<long long>::min();
  long long hi = std::numeric_limits<long long>::max();
  bool bounded() const {
    return lo != std::numeric_limits<long long>::min() && hi != std::numeric_limits<long long>::max();
  }
  static interval top() { return {}; }
  static interval point(long long v) { return {v, v}; }
};

namespace launch_impl {

constexpr long long big = std::numeric_limits<long long>::max() / 4;

inline long long clamp(long double v) {
  if (v > static_cast<long double>(big)) return std::numeric_limits<long long>::max();
  if (v < -static_cast<long double>(big)) return std::numeric_limits<long long>::min();
  return static_cast<long long>(v);
}

inline interval combine(dsl::ir_op op, interval a, interval b) {
  using dsl::ir_op;
  if (op >= ir_op::less && op <= ir_op::logical_or) return {0, 1};
  // min and max are exact on intervals, infinite ends included.
  if (op == ir_op::min) return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  if (op == ir_op::max) return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  if (!a.bounded() || !b.bounded()) {
    // A bounded positive modulus or mask still bounds the result.
    if (op == ir_op::mod && b.bounded() && b.lo > 0) {
      const long long m = b.hi - 1;  // the sign follows the dividend
      return {a.lo >= 0 ? 0 : -m, m};
    }
    if (op == ir_op::bit_and && b.bounded() && b.lo >= 0) return {0, b.hi};
    if (op == ir_op::bit_and && a.bounded() && a.lo >= 0) return {0, a.hi};
    return interval::top();
  }
  auto ld = [](long long v) { return static_cast<long double>(v); };
  switch (op) {
    case ir_op::add: return {clamp(ld(a.lo) + ld(b.lo)), clamp(ld(a.hi) + ld(b.hi))};
    case ir_op::sub: return {clamp(ld(a.lo) - ld(b.hi)), clamp(ld(a.hi) - ld(b.lo))};
    case ir_op::mul: {
      const long double p[] = {ld(a.lo) * ld(b.lo), ld(a.lo) * ld(b.hi), ld(a.hi) * ld(b.lo), ld(a.hi) * ld(b.hi)};
      return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
    }
    case ir_op::div:
      if (b.lo > 0) {  // C++ truncates toward zero
        const long double p[] = {ld(a.lo) / ld(b.lo), ld(a.lo) / ld(b.hi), ld(a.hi) / ld(b.lo), ld(a.hi) / ld(b.hi)};
        return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
      }
      return interval::top();
    case ir_op::mod:
      if (b.lo > 0) {
        if (a.lo >= 0) return {0, std::min(a.hi, b.hi - 1)};
        return {-(b.hi - 1), b.hi - 1};
      }
      return interval::top();
    // A shift by 32 or more is undefined in C++ for int (x86 shifts by the amount mod 32): unbounded.
    // x << s is x * 2^s (C++20, negative x too; E104 checks the result stays in the type), and
    // x >> s rounds toward minus infinity: both are monotone in x and in s, so the corners bound
    // them. Exact here because the checker's polynomials (affine.hpp) take x << c as 2^c * x: an
    // interval that gave up would hide an overflow the polynomial reasons past.
    case ir_op::shl:
      if (b.lo >= 0 && b.hi <= 30) {
        const long double p[] = {ld(a.lo) * ld(1LL << b.lo), ld(a.lo) * ld(1LL << b.hi), ld(a.hi) * ld(1LL << b.lo),
                                 ld(a.hi) * ld(1LL << b.hi)};
        return {clamp(*std::min_element(p, p + 4)), clamp(*std::max_element(p, p + 4))};
      }
      return interval::top();
    case ir_op::shr:
      if (b.lo >= 0 && b.hi <= 31) {
        const long long p[] = {a.lo >> b.lo, a.lo >> b.hi, a.hi >> b.lo, a.hi >> b.hi};
        return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
      }
      return interval::top();
    case ir_op::bit_and:
      if (a.lo >= 0 && b.lo >= 0) return {0, std::min(a.hi, b.hi)};
      if (b.lo >= 0) return {0, b.hi};
      if (a.lo >= 0) return {0, a.hi};
      [[fallthrough]];
    case ir_op::bit_or:
    case ir_op::bit_xor: {
      if (a.lo >= 0 && b.lo >= 0) {
        long long m = std::max(a.hi, b.hi), p = 1;
        while (p <= m && p < big) p <<= 1;
        return {0, p - 1};
      }
      // Operands in [-2^k, 2^k - 1] (two's complement, k bits and a sign): so is the result.
      long long p = 1;
      while ((p < -a.lo || p < -b.lo || p <= a.hi || p <= b.hi) && p < big) p <<= 1;
      return {-p, p - 1};
    }
    default: return interval::top();
  }
}

}  // namespace launch_impl

}  // namespace warden::check
