#pragma once
// The access-mode rules of kernel parameters, decided on the kernel's description: a store through
// an in<T> parameter (W003), a load through an out<T> parameter (W004), a plain load or store of an
// atomic<T> parameter (W040), and a store that would truncate a floating-point value into an
// integral element of a parameter (W008). The handles describe such an access and run it as nothing
// (dsl/handles.hpp), so that the checker reports it as it reports a race: with the parameter's
// name, the statement, and a fix chosen from what the rest of the kernel does with the parameter.
// Atomic updates and vector accesses are refused the same way (dsl/atomics.hpp, dsl/vector.hpp).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "finding.hpp"
#include "../dsl/ir.hpp"

namespace warden::check {

// The element type as the source would spell it, for the suggested declaration (inout<float>);
// "T" for a type without a name here.
template <class T>
constexpr std::string_view type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, unsigned>) return "unsigned";
  else if constexpr (std::is_same_v<T, long>) return "long";
  else if constexpr (std::is_same_v<T, unsigned long>) return "unsigned long";
  else if constexpr (std::is_same_v<T, long long>) return "long long";
  else if constexpr (std::is_same_v<T, unsigned long long>) return "unsigned long long";
  else if constexpr (std::is_same_v<T, short>) return "short";
  else if constexpr (std::is_same_v<T, unsigned short>) return "unsigned short";
  else if constexpr (std::is_same_v<T, char>) return "char";
  else if constexpr (std::is_same_v<T, signed char>) return "signed char";
  else if constexpr (std::is_same_v<T, unsigned char>) return "unsigned char";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else return "T";
}

// Each parameter's kind ("in", "atomic", ...) of the kernel definition
// (or kernel handle) D.
template <class D>
constexpr std::array<std::string_view, D::arity> param_kinds() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, D::arity>{D::template param<I>::kind...};
  }(std::make_index_sequence<D::arity>{});
}

// The first access that its parameter's mode forbids, or no finding.
template <std::size_t N>
constexpr finding mode_finding(const dsl::kernel_ir& ir, const std::array<std::string_view, N>& kinds) {
  for (int id = 0; id < static_cast<int>(ir.accesses.size()); ++id) {
    const auto& a = ir.accesses[static_cast<std::size_t>(id)];
    if (a.memory != dsl::memory_kind::global) continue;
    if (a.target < 0 || static_cast<std::size_t>(a.target) >= N) continue;
    const std::string_view kind = kinds[static_cast<std::size_t>(a.target)];
    const bool atomic = a.kind == dsl::access_kind::atomic;  // an update both loads and stores
    finding f;
    f.first = id;
    if (kind == "atomic" && !atomic) f.code = diagnostic::code::W040;
    else if (kind == "in" && (a.kind == dsl::access_kind::store || atomic)) f.code = diagnostic::code::W003;
    else if (kind == "out" && (a.kind == dsl::access_kind::load || atomic)) f.code = diagnostic::code::W004;
    else if (a.narrowing) f.code = diagnostic::code::W008;
    if (f.code != diagnostic::code::none) return f;
  }
  return {};
}

// Whether the kernel also accesses parameter `target` with `kind` (W003's fix: inout<T> where the
// kernel also loads the parameter, out<T> where it only stores it).
constexpr bool also_accessed(const dsl::kernel_ir& ir, int target, dsl::access_kind kind) {
  for (const auto& a : ir.accesses)
    if (a.memory == dsl::memory_kind::global && a.target == target && a.kind == kind) return true;
  return false;
}

}  // namespace warden::check
