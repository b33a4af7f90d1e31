#pragma once
// Turning a finding into a compiler error that reads as a safety diagnostic.
//
// A static_assert message must be a literal, so the computed part (which buffer, which accesses)
// travels in a type the compiler prints while instantiating the diagnostic: with g++ a class-type
// template argument, which it prints as a string; clang++ and nvcc print such arguments as
// numbers, so for them the text is a pack of characters, which they print as 'o', 'u', 't', ...
// Each code has its own class template, so its name shows in the instantiation line as well.

#include <cstddef>
#include <utility>

#include "../detail/text_buffer.hpp"
#include "rules.hpp"

namespace warden {

namespace check {
template <class>
inline constexpr bool always_false = false;

template <std::size_t N>
struct fixed_text {
  char text[N] = {};
  constexpr fixed_text(const detail::text_buffer& b) {
    for (std::size_t i = 0; i + 1 < N; ++i) text[i] = b.data[i];
  }
};
}  // namespace check

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__NVCOMPILER)
template <check::fixed_text Text>
struct what {};
#define WARDEN_DETAIL_CHARS_AS_PACK 0
#else
template <char... Text>
struct what {};
#define WARDEN_DETAIL_CHARS_AS_PACK 1
#endif

// One class per code; the static_assert's first words are the code and the rule's short name.
// Fix: see docs/diagnostics.md for the section of each code.
template <class What>
struct W010_global_write_write_race {
  static_assert(check::always_false<What>,
                "W010 [write-write-race] two threads of the grid may store to one element: give each thread its "
                "own index (guard it), or use atomic<T>");
};
template <class What>
struct W011_global_read_write_race {
  static_assert(check::always_false<What>,
                "W011 [read-write-race] a thread may load an element another thread stores, with no sync() between "
                "(blocks never synchronise): read a different buffer, or split the kernel");
};
template <class What>
struct W012_data_dependent_store {
  static_assert(check::always_false<What>,
                "W012 [data-dependent-store] a store index depends on loaded data: use atomic<T>, or wrap the store "
                "in trusted(...) if the data guarantees distinct indices");
};
template <class What>
struct W020_shared_race {
  static_assert(check::always_false<What>,
                "W020 [shared-race] two threads touch one shared element in one barrier phase, one of them "
                "storing: add sync() between the store and the other access");
};
template <class What>
struct W021_loop_carried_shared_race {
  static_assert(check::always_false<What>,
                "W021 [loop-carried-shared-race] the next iteration reuses a shared tile another thread still "
                "reads or writes: add sync() at the end of the loop body");
};
template <class What>
struct W022_uninitialised_shared_load {
  static_assert(check::always_false<What>,
                "W022 [uninitialised-shared-load] a shared element is loaded that no earlier phase stores: store "
                "it first (and sync()), or load only what is stored");
};
template <class What>
struct W030_barrier_divergence {
  static_assert(check::always_false<What>,
                "W030 [barrier-divergence] sync() under a condition or loop bound that differs between threads: "
                "move sync() out, or make the condition uniform (parameters, block ids)");
};
template <class What>
struct W040_atomic_plain_mix {
  static_assert(check::always_false<What>,
                "W040 [atomic-plain-mix] one element is accessed atomically and plainly in one phase: make "
                "every access atomic, or separate them with sync()");
};

namespace check {

template <rule R, class What>
constexpr int fail_with() {
  if constexpr (R == rule::W010) return static_cast<void>(sizeof(W010_global_write_write_race<What>)), 0;
  else if constexpr (R == rule::W011) return static_cast<void>(sizeof(W011_global_read_write_race<What>)), 0;
  else if constexpr (R == rule::W012) return static_cast<void>(sizeof(W012_data_dependent_store<What>)), 0;
  else if constexpr (R == rule::W020) return static_cast<void>(sizeof(W020_shared_race<What>)), 0;
  else if constexpr (R == rule::W021) return static_cast<void>(sizeof(W021_loop_carried_shared_race<What>)), 0;
  else if constexpr (R == rule::W022) return static_cast<void>(sizeof(W022_uninitialised_shared_load<What>)), 0;
  else if constexpr (R == rule::W030) return static_cast<void>(sizeof(W030_barrier_divergence<What>)), 0;
  else if constexpr (R == rule::W040) return static_cast<void>(sizeof(W040_atomic_plain_mix<What>)), 0;
  else return 0;
}

// What the checker says of a kernel: the first finding and its explanation.
struct verdict {
  check::finding finding;
  detail::text_buffer text;
};

// `Source::value` is a constexpr verdict; a finding becomes a compile error (and only one: the
// code's own static_assert fails, while report() itself still returns 0).
template <class Source>
constexpr int report() {
  constexpr const verdict& v = Source::value;
  if constexpr (v.finding.code == rule::none) {
    return 0;
  } else {
#if WARDEN_DETAIL_CHARS_AS_PACK
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return fail_with<Source::value.finding.code, what<Source::value.text.data[I]...>>();
    }(std::make_index_sequence<static_cast<std::size_t>(v.text.size)>{});
#else
    return fail_with<v.finding.code, what<fixed_text<static_cast<std::size_t>(v.text.size) + 1>(v.text)>>();
#endif
  }
}

}  // namespace check
}  // namespace warden
