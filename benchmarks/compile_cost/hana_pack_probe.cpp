// Compile-time probe (issue 15, item 4): warden's hand-written pack (detail/pack.hpp) against
// Boost.Hana's basic_tuple and tuple for what warden does with packs: build one of N distinct
// element types, walk it in order, read element I, and pass it as a template argument (the cuda
// backend passes a kernel's program, made of packs, that way), on the host and, under nvcc, in a
// kernel. scripts/hana-cost compiles it with -DPROBE_PACK=0 (warden), 1 (hana::basic_tuple) and
// 2 (hana::tuple) and reports the times; -DPROBE_DEVICE_FOR_EACH=1 also walks the pack with
// for_each in the kernel, which Hana's for_each cannot do (it is not a __device__ function).
#include <cstddef>
#include <utility>

#if PROBE_PACK == 0
#include <warden/detail/pack.hpp>
#define PROBE_MAKE(...) warden::detail::make_pack(__VA_ARGS__)
#define PROBE_GET(I, p) warden::detail::get<I>(p)
#define PROBE_FOR_EACH(p, f) warden::detail::for_each(p, f)
#else
#include <boost/hana/at.hpp>
#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#if PROBE_PACK == 1
#define PROBE_MAKE(...) boost::hana::make_basic_tuple(__VA_ARGS__)
#else
#define PROBE_MAKE(...) boost::hana::make_tuple(__VA_ARGS__)
#endif
#define PROBE_GET(I, p) boost::hana::at_c<I>(p)
#define PROBE_FOR_EACH(p, f) boost::hana::for_each(p, f)
#endif

#ifndef PROBE_N
#define PROBE_N 48
#endif

template <std::size_t I>
struct element {
  int value;
};

template <std::size_t... I>
constexpr auto make_all(std::index_sequence<I...>) {
  return PROBE_MAKE(element<I>{static_cast<int>(I)}...);
}

constexpr auto probe_program = make_all(std::make_index_sequence<PROBE_N>{});

template <auto Program>
struct holder {
  static int sum() {
    int s = 0;
    PROBE_FOR_EACH(Program, [&](const auto& e) { s += e.value; });
    return s;
  }
};

template <std::size_t... I>
constexpr int read_all(std::index_sequence<I...>) {
  return (PROBE_GET(I, probe_program).value + ...);
}
static_assert(read_all(std::make_index_sequence<PROBE_N>{}) == PROBE_N * (PROBE_N - 1) / 2);

int probe() { return holder<probe_program>::sum(); }

#ifdef __CUDACC__
// The same walks in device code, as the cuda backend runs a program; nvcc's host stubs take a named
// class, not a namespace-scope object, as a __global__ template's argument (hence the holder).
struct program_holder {
  static constexpr auto value = probe_program;
};
template <class Holder, std::size_t... I>
__device__ int read_on_device(std::index_sequence<I...>) {
  return (PROBE_GET(I, Holder::value).value + ...);
}
template <class Holder>
__global__ void walk(int* out) {
  int s = read_on_device<Holder>(std::make_index_sequence<PROBE_N>{});
#if PROBE_DEVICE_FOR_EACH
  constexpr auto program = Holder::value;  // a copy in the kernel, as the cuda backend makes
  PROBE_FOR_EACH(program, [&](const auto& e) { s += e.value; });
#endif
  *out = s;
}
template __global__ void walk<program_holder>(int*);
#endif
