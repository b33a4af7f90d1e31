#pragma once
// One configuration of a tuned kernel (warden/tuned.hpp): a block shape and, for a body that
// takes them as template arguments, compile-time constants such as items per thread.
//
//   w::candidate<w::block<256>>        the body `[](auto k, auto x, ...)` on 256 threads
//   w::candidate<w::block<128>, 8>     the body `[]<int Items>(auto k, auto x, ...)` with Items = 8
//
// Each candidate is its own kernel, checked on its own: the one body is instantiated once per
// candidate (candidate_body), so a shape that could race is rejected like any other kernel.

#include <cstddef>
#include <string>
#include <type_traits>

#include "../dsl/params.hpp"

namespace warden {

template <class Block, auto... Constants>
struct candidate {
  using block_type = Block;
  static constexpr std::size_t constant_count = sizeof...(Constants);

  // "block<256>", "block<16, 16>", "block<128> with 8": how reports and the cache name it.
  static std::string name() {
    std::string text = "block<" + std::to_string(Block::x);
    if (Block::y > 1 || Block::z > 1) text += ", " + std::to_string(Block::y);
    if (Block::z > 1) text += ", " + std::to_string(Block::z);
    text += ">";
    if constexpr (sizeof...(Constants) > 0) {
      text += " with";
      const char* separator = " ";
      ((text += separator + std::to_string(Constants), separator = ", "), ...);
    }
    return text;
  }
};

namespace detail {

// A candidate as written in a list: w::block<256> alone means candidate<block<256>>.
template <class C>
struct as_candidate_impl {
  using type = C;
};
template <int X, int Y, int Z>
struct as_candidate_impl<block<X, Y, Z>> {
  using type = candidate<block<X, Y, Z>>;
};
template <class C>
using as_candidate = typename as_candidate_impl<C>::type;

// The tuned body with a candidate's constants bound: a captureless class, so that the checker can
// rebuild the program from its type as it does for a lambda.
template <class Body, class Candidate>
struct candidate_body;
template <class Body, class Block, auto... Constants>
struct candidate_body<Body, candidate<Block, Constants...>> {
  template <class... Handles>
  constexpr auto operator()(Handles... handles) const {
    if constexpr (sizeof...(Constants) == 0) return Body{}(handles...);
    else return Body{}.template operator()<Constants...>(handles...);
  }
};

}  // namespace detail

}  // namespace warden
