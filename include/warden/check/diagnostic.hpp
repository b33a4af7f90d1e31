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
struct W031_shuffle_divergence {
  static_assert(check::always_false<What>,
                "W031 [shuffle-divergence] a warp shuffle that part of a warp skips: keep it out of conditions and "
                "loops that differ within a warp (t < 32 is fine, i < n is not), in a block of whole warps");
};
template <class What>
struct W040_atomic_plain_mix {
  static_assert(check::always_false<What>,
                "W040 [atomic-plain-mix] one element is accessed atomically and plainly in one phase: make "
                "every access atomic, or separate them with sync()");
};

namespace check {

// What the checker says of a kernel: the first finding and its explanation.
struct verdict {
  check::finding finding;
  detail::text_buffer text;
};

// The explanation as a type the compilers print legibly.
template <class Source, class Indices>
struct text_of;
template <class Source, std::size_t... I>
struct text_of<Source, std::index_sequence<I...>> {
#if WARDEN_DETAIL_CHARS_AS_PACK
  using type = what<Source::value.text.data[I]...>;
#else
  using type = what<fixed_text<sizeof...(I) + 1>(Source::value.text)>;
#endif
};

template <rule R, class What>
struct diagnostic_for { using type = int; };
template <class What> struct diagnostic_for<rule::W010, What> { using type = W010_global_write_write_race<What>; };
template <class What> struct diagnostic_for<rule::W011, What> { using type = W011_global_read_write_race<What>; };
template <class What> struct diagnostic_for<rule::W012, What> { using type = W012_data_dependent_store<What>; };
template <class What> struct diagnostic_for<rule::W020, What> { using type = W020_shared_race<What>; };
template <class What> struct diagnostic_for<rule::W021, What> { using type = W021_loop_carried_shared_race<What>; };
template <class What> struct diagnostic_for<rule::W022, What> { using type = W022_uninitialised_shared_load<What>; };
template <class What> struct diagnostic_for<rule::W030, What> { using type = W030_barrier_divergence<What>; };
template <class What> struct diagnostic_for<rule::W031, What> { using type = W031_shuffle_divergence<What>; };
template <class What> struct diagnostic_for<rule::W040, What> { using type = W040_atomic_plain_mix<What>; };

// `Source::value` is a constexpr verdict. With a finding, `report<Source>` names the code's class,
// whose instantiation (sizeof at the use) fails its static_assert: one error, no cascade.
template <class Source, bool Found = Source::value.finding.code != rule::none>
struct report {
  using type = int;
};
template <class Source>
struct report<Source, true> {
  using type = typename diagnostic_for<
      Source::value.finding.code,
      typename text_of<Source, std::make_index_sequence<static_cast<std::size_t>(Source::value.text.size)>>::type>::type;
};

}  // namespace check
}  // namespace warden
