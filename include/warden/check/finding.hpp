#pragma once
// What a rule found: the code of its row in the one table (diagnostic/codes.hpp), the accesses,
// threads and element it names, and, for an accepted kernel, the conditions on the launch its
// proof rests on.

#include "../diagnostic/codes.hpp"
#include "../dsl/obligation.hpp"

namespace warden::check {

// A finding names its rule by its code in the one table (diagnostic/codes.hpp): a row of kind
// race, or diagnostic::code::none for a kernel the rules accept.
struct finding {
  diagnostic::code code = diagnostic::code::none;
  int first = -1, second = -1;  // accesses
  int sync = -1;                // W030: the barrier
  int expr = -1;                // W030, W031: the thread-dependent condition or bound; W012: the index
  int loop = -1;                // W021, W030, W031: the loop
  bool across_blocks = false;   // W010, W011, W040: threads of different blocks
  long long element = -1;       // shared memory: an element both touch
  int thread1 = -1, thread2 = -1;
  int shuffle = -1;             // W031: the shuffle (then `element` is the block's thread count)
  // An accepted kernel (code none): the conditions on the launch its proof rests on (E106).
  obligation_list obligations{};
  constexpr explicit operator bool() const { return code != diagnostic::code::none; }
};

}  // namespace warden::check
