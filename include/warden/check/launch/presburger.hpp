#pragma once
// A kernel's expressions as Presburger formulas (linear constraints over the integers, with
// floor division and remainders by constants), written in isl's notation for integer_set.hpp,
// with the launch's numbers written in: value parameters, buffer sizes, block and grid extents
// become constants, and what still varies (thread and block coordinates, loop variables) becomes
// a variable of the set. What a launch asks, "can two different threads reach one element", is
// then a question about the points of one set, decided exactly at any grid size.
//
// The kernel's integers are the mathematical ones here: E104 (integer_wrap.hpp) has already
// refused a launch where an operation deciding an index, guard or loop bound wraps or overflows.
// Each operation, with its launch-uniform operands folded to constants as the kernel computes
// them (exact_value):
//   +, -, negation, a product with a constant       linear
//   / and % by a constant                           C's truncation: floor where the dividend is
//                                                   never negative, else a quotient variable
//                                                   with the two signs' constraints
//   << and >> by a constant                         a product, or floor division, by 2^k
//   & with a constant mask                          a sum over the mask's runs of one-bits of
//                                                   (x >> lo) mod 2^(hi - lo), times 2^lo (two's
//                                                   complement, so exact for negative x as well)
//   |, ^ with a constant                            x + m - (x & m), x + m - 2 (x & m)
//   min, max, select, a comparison as a value       a variable and a disjunction of its cases
//   a local that holds its init                     its init
//   a load of a buffer the kernel never writes       a variable within what the launch measured
//                                                   of the buffer, or the element type's range
//                                                   (loaded_value: the set then holds every value
//                                                   the data could give, over_approximated)
// What it cannot write: other data (loads of shared memory or of a buffer the kernel writes,
// calls, assigned locals), floating point, a product, quotient, shift or mask of two values that
// both vary. An index made of those leaves the question
// undecided (the caller refuses the launch and says why); a guard made of those is taken to
// hold, and a select on one takes either side, so that the set only grows (over_approximated).

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../../dsl/ir.hpp"
#include "../order.hpp"
#include "launch_request.hpp"
#include "stated_facts.hpp"

namespace warden::check::launch_impl {

// One run of an access in a question: a thread, by its coordinates, at one trip of each loop
// around the access.
struct presburger_instance {
  std::string thread[3], block[3];  // variables, or "0" where the launch has extent 1
  std::vector<std::string> loop;    // by loop id: the loop variable's value at the trip, "" where not bound
  std::vector<std::string> trip;    // by loop id: the trip's number (0 for the first), "" where not bound
  std::map<std::string, std::string> terms;  // an expression's form -> its term, already written
};

class presburger_question {
 public:
  presburger_question(const dsl::kernel_ir& ir, const launch_facts& facts) : ir_(ir), facts_(facts) {
    relate_loads_ = ir.stated_order();
  }

  // The buffers the kernel writes whose loads this question may write, by parameter position
  // (proposals/0011, piece 2): every pair of a store and a load of each is race-free for this
  // launch, proved without this question (check/launch/obligations.hpp decides them first). Two
  // loads of one element of such a buffer in one barrier phase of one block then load one value
  // (relate_written_load); a buffer not listed stays unwritten, as data.
  void write_loads_of(const std::vector<char>* race_free) { race_free_ = race_free; }

  // A new variable of the set, named after `base`; its index is its position in the points isl returns.
  std::string variable(const std::string& base) {
    std::string name = base + "_" + std::to_string(dims_.size());
    dims_.push_back(name);
    return name;
  }
  int dimension_of(const std::string& name) const {
    for (std::size_t i = 0; i < dims_.size(); ++i)
      if (dims_[i] == name) return static_cast<int>(i);
    return -1;
  }
  std::size_t dimensions() const { return dims_.size(); }
  void require(std::string formula) { constraints_.push_back(std::move(formula)); }

  // A thread of the launch: its coordinates' variables, each within the launch's extent.
  presburger_instance thread(const std::string& tag) {
    presburger_instance in;
    in.loop.assign(ir_.loops.size(), std::string());
    in.trip.assign(ir_.loops.size(), std::string());
    const long long thread_extent[3] = {facts_.block.x, facts_.block.y, facts_.block.z};
    const long long block_extent[3] = {facts_.grid.x, facts_.grid.y, facts_.grid.z};
    for (int d = 0; d < 3; ++d) {
      in.thread[d] = coordinate(tag + "_t" + "xyz"[d], thread_extent[d]);
      in.block[d] = coordinate(tag + "_b" + "xyz"[d], block_extent[d]);
    }
    return in;
  }

  // Binds the loops around access `a` (outermost first) in `in`: each loop's variable starts at
  // its lo, steps by its step (a positive constant for this launch) and stays below its hi.
  // False, with why_not(), where a bound cannot be written or the step is not a positive constant;
  // `loose`: such a loop's variable and trip are left free instead (the set only grows, as the
  // shared-memory rules' listing lists a loop it cannot count as one pass at an unknown trip).
  bool enter_loops(const dsl::ir_access& a, presburger_instance& in, const std::string& tag, bool loose = false) {
    for (int p = a.loop_begin; p < a.loop_end; ++p) {
      const int l = ir_.loop_pool[static_cast<std::size_t>(p)];
      if (!in.loop[static_cast<std::size_t>(l)].empty()) continue;
      const dsl::ir_loop& loop = ir_.loops[static_cast<std::size_t>(l)];
      const std::optional<long long> step = exact_value(ir_, loop.step, facts_);
      if (!loose && (!step || *step < 1)) return fail("a loop's step is not a positive constant for this launch");
      std::optional<std::string> lo, hi;
      if (step && *step >= 1) {
        if (loose) ++quiet_;  // (a bound that cannot be written is then no reason to give up)
        lo = term(loop.lo, in);
        hi = term(loop.hi, in);
        if (loose) --quiet_;
      }
      if (!loose && (!lo || !hi)) return false;  // (term said why)
      const std::string v = variable(tag + "_loop" + std::to_string(l));
      std::string k;
      if (lo && *step == 1) {  // the trip is v - lo: no variable of its own
        require(v + " >= " + *lo);
        k = "(" + v + " - " + *lo + ")";
      } else {
        k = variable(tag + "_trip" + std::to_string(l));
        require(k + " >= 0");
        if (lo) require(v + " = " + *lo + " + " + std::to_string(*step) + " * " + k);
        else over_approximated_ = true;
      }
      if (hi) require(v + " < " + *hi);
      else over_approximated_ = true;
      in.loop[static_cast<std::size_t>(l)] = v;
      in.trip[static_cast<std::size_t>(l)] = k;
    }
    return true;
  }

  // The guards [begin, end) as constraints: each one that can be written; the others are taken
  // to hold. False when one is false for every thread of this launch (the access never runs).
  bool enter_guards(int begin, int end, presburger_instance& in) {
    for (int g = begin; g < end; ++g) {
      const dsl::ir_guard& guard = ir_.guard_pool[static_cast<std::size_t>(g)];
      const std::optional<std::string> c = condition(guard.condition, in, !guard.negated);
      if (!c) {
        over_approximated_ = true;
        continue;
      }
      if (*c == never) return false;
      if (*c != always) require(*c);
    }
    return true;
  }

  // Expression `id` as an affine term of the set's variables; nullopt (and why_not()) where it
  // cannot be written. Launch-uniform parts are folded to the constants the kernel computes.
  std::optional<std::string> term(int id, presburger_instance& in) {
    if (id < 0) return fail_term("an expression is missing");
    // Memoised by the expression's form, not its node: a kernel that writes `8 >> level` twice
    // makes two nodes, and two variables with a disjunction each would multiply isl's cases.
    const std::string& key = form_of(id);
    if (const auto it = in.terms.find(key); it != in.terms.end()) return it->second;
    std::optional<std::string> t = write_term(id, in);
    if (t) in.terms.emplace(key, *t);
    return t;
  }

  // term(), where a failure is no reason to give up (a guard, a bound the caller can leave out):
  // why_not() is left alone.
  std::optional<std::string> quiet_term(int id, presburger_instance& in) {
    ++quiet_;
    std::optional<std::string> t = term(id, in);
    --quiet_;
    return t;
  }

  // Condition `id` (holds: as written; else its negation) as a formula; nullopt where it cannot
  // be written (data): the caller decides what an unknown condition means.
  std::optional<std::string> condition(int id, presburger_instance& in, bool holds) {
    using dsl::ir_op;
    if (id < 0) return std::nullopt;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.is_float) return std::nullopt;
    if (const std::optional<long long> v = exact_value(ir_, id, facts_)) return (*v != 0) == holds ? always : never;
    switch (e.op) {
      case ir_op::logical_not: return condition(e.a, in, !holds);
      case ir_op::logical_and:
      case ir_op::logical_or: {
        // (a && b) holds: both; fails: either fails. An unknown side may be either way, so the
        // formula drops it where that only widens (a conjunct) and gives up where it would not.
        const bool conjunction = (e.op == ir_op::logical_and) == holds;
        const std::optional<std::string> x = condition(e.a, in, holds), y = condition(e.b, in, holds);
        if (conjunction) {
          if (!x && !y) return std::nullopt;
          if (!x || !y) {
            over_approximated_ = true;
            return x ? x : y;
          }
          return join(*x, *y, " and ");
        }
        if (!x || !y) return std::nullopt;
        return join(*x, *y, " or ");
      }
      case ir_op::less: case ir_op::less_equal: case ir_op::greater: case ir_op::greater_equal:
      case ir_op::equal: case ir_op::not_equal: {
        const std::optional<std::string> x = quiet_term(e.a, in), y = quiet_term(e.b, in);
        if (!x || !y) return std::nullopt;
        static constexpr const char* as_written[] = {" < ", " <= ", " > ", " >= ", " = ", " != "};
        static constexpr const char* negated[] = {" >= ", " > ", " <= ", " < ", " != ", " = "};
        const int k = static_cast<int>(e.op) - static_cast<int>(ir_op::less);
        return "(" + *x + (holds ? as_written[k] : negated[k]) + *y + ")";
      }
      default: {  // a value: true where it is not 0
        const std::optional<std::string> x = quiet_term(id, in);
        if (!x) return std::nullopt;
        return "(" + *x + (holds ? " != 0)" : " = 0)");
      }
    }
  }

  // The set: every variable, under every constraint.
  std::string text() const {
    std::string out = "{ [";
    for (std::size_t i = 0; i < dims_.size(); ++i) out += (i ? ", " : "") + dims_[i];
    out += "]";
    for (std::size_t i = 0; i < constraints_.size(); ++i) out += (i ? " and " : " : ") + constraints_[i];
    return out + " }";
  }

  // The set of the `kept` variables' values, the others bound by an existential: the projection
  // that a question "is every element some thread loads stored by some thread" subtracts.
  std::string text_keeping(const std::vector<std::string>& kept) const {
    std::string out = "{ [", hidden;
    for (std::size_t i = 0; i < kept.size(); ++i) out += (i ? ", " : "") + kept[i];
    for (const std::string& d : dims_)
      if (std::find(kept.begin(), kept.end(), d) == kept.end()) hidden += (hidden.empty() ? "" : ", ") + d;
    std::string body;
    for (std::size_t i = 0; i < constraints_.size(); ++i) body += (i ? " and " : "") + constraints_[i];
    if (body.empty()) body = "0 = 0";
    out += "] : ";
    return out + (hidden.empty() ? body : "exists (" + hidden + " : " + body + ")") + " }";
  }

  const std::string& why_not() const { return why_not_; }
  // Whether a guard or a select's condition could not be written, so that the set may hold
  // points no thread reaches (a meeting found is then possible, not certain).
  bool over_approximated() const { return over_approximated_; }
  // The product of the numbers of cases of the set's disjunctions: a bound on the disjuncts isl
  // may have to take apart (its work grows with it), for a caller that has a cheaper way.
  double case_product() const { return case_product_; }

  static constexpr const char* always = "(0 = 0)";
  static constexpr const char* never = "(1 = 0)";

 private:
  const dsl::kernel_ir& ir_;
  const launch_facts& facts_;
  std::vector<std::string> dims_, constraints_;
  std::string why_not_;
  bool over_approximated_ = false;
  struct recorded_load {
    int buffer = -1;
    std::string index, value;  // the element's term and the value's variable
    const presburger_instance* in = nullptr;  // the run that loads it
  };
  bool relate_loads_ = false;         // the kernel states an order fact: loads are related
  std::vector<recorded_load> loads_;  // every load written so far, where relate_loads_
  struct written_load {
    int access = -1;  // the load's access
    std::string index, value;
    const presburger_instance* in = nullptr;  // the run that loads it
  };
  const std::vector<char>* race_free_ = nullptr;  // write_loads_of
  std::vector<written_load> written_loads_;
  double case_product_ = 1;
  int quiet_ = 0;  // > 0: a term that fails is a condition's, taken to hold; why_not_ is left alone

  std::vector<std::string> forms_;  // by expression id: its form (form_of), "" until computed

  // A text that two expressions share exactly when they compute the same thing the same way.
  const std::string& form_of(int id) {
    if (forms_.size() < ir_.exprs.size()) forms_.resize(ir_.exprs.size());
    std::string& f = forms_[static_cast<std::size_t>(id)];
    if (!f.empty()) return f;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    // A read of a local is the value it holds there: two reads of one local may differ (an
    // assignment between them), two reads of one value may not.
    if (const int held = ir_.held_value(e); held >= 0) return f = form_of(held);
    std::string out = std::to_string(static_cast<int>(e.op)) + ":" + std::to_string(e.value) + ":" + std::to_string(e.is_float) +
                      std::to_string(e.unsigned_bits) + "(";
    if (e.op == dsl::ir_op::load || e.op == dsl::ir_op::tile_load || e.op == dsl::ir_op::call || e.op == dsl::ir_op::local_var)
      out += "#" + std::to_string(id);  // data, or a local not followed: its own
    if (e.a >= 0) out += form_of(e.a);
    out += ",";
    if (e.b >= 0) out += form_of(e.b);
    f = out + ")";
    return f;
  }

  static std::string number(long long v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }
  static std::string join(const std::string& x, const std::string& y, const char* op) { return "(" + x + op + y + ")"; }

  void note_cases(std::size_t n) { case_product_ *= static_cast<double>(n < 1 ? 1 : n); }

  std::string coordinate(const std::string& name, long long extent) {
    if (extent <= 1) return "0";
    const std::string v = variable(name);
    require("0 <= " + v + " < " + std::to_string(extent));
    return v;
  }
  bool fail(const char* why) {
    if (quiet_ == 0 && why_not_.empty()) why_not_ = why;
    return false;
  }
  std::optional<std::string> fail_term(const char* why) {
    fail(why);
    return std::nullopt;
  }

  // Whether expression `id` is never negative, from its form alone (no solver): ids, extents,
  // sizes, unsigned values, and sums, products, quotients of those.
  bool never_negative(int id) const {
    using dsl::ir_op;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.is_unsigned || e.unsigned_bits > 0) return true;  // E104: unsigned operands and results are not negative
    if (const std::optional<long long> v = exact_value(ir_, id, facts_)) return *v >= 0;
    switch (e.op) {
      case ir_op::thread_id: case ir_op::block_id: case ir_op::global_id: case ir_op::block_dim:
      case ir_op::grid_dim: case ir_op::param_size:
        return true;
      case ir_op::loop_var: {
        const dsl::ir_loop& loop = ir_.loops[static_cast<std::size_t>(e.value)];
        return never_negative(loop.lo);  // steps are at least 1 (E103)
      }
      case ir_op::local_var: {
        const int init = ir_.held_value(e);
        return init >= 0 && never_negative(init);
      }
      case ir_op::add: case ir_op::mul: case ir_op::div: case ir_op::mod: case ir_op::shr: case ir_op::min:
        return never_negative(e.a) && never_negative(e.b);
      case ir_op::max: return never_negative(e.a) || never_negative(e.b);
      case ir_op::bit_and: return never_negative(e.a) || never_negative(e.b);
      case ir_op::select: {
        const dsl::ir_expr& sides = ir_.exprs[static_cast<std::size_t>(e.b)];
        return never_negative(sides.a) && never_negative(sides.b);
      }
      default:
        return e.op >= ir_op::less && e.op <= ir_op::logical_or;  // 0 or 1
    }
  }

  // trunc(x / c) for a constant c != 0, as C divides.
  std::string quotient(int dividend, const std::string& x, long long c) {
    const long long m = c < 0 ? -c : c;
    std::string q;
    if (never_negative(dividend)) {
      q = "floor((" + x + ") / " + std::to_string(m) + ")";
    } else {
      // x >= 0: m q <= x < m q + m; x < 0: m q - m < x <= m q (rounded toward zero).
      q = variable("quotient");
      const std::string mq = std::to_string(m) + " * " + q;
      require("((" + x + " >= 0 and " + mq + " <= " + x + " < " + mq + " + " + std::to_string(m) + ") or (" + x + " < 0 and " +
              mq + " - " + std::to_string(m) + " < " + x + " <= " + mq + "))");
    }
    return c < 0 ? "(-" + q + ")" : q;
  }

  // x & m for a constant mask m (two's complement): a sum over m's runs of one-bits.
  static std::string masked(const std::string& x, long long m) {
    if (m == 0) return "0";
    if (m == -1) return x;
    std::string sum;
    int bit = 0;
    while (bit < 63) {
      if ((m >> bit & 1) == 0) {
        ++bit;
        continue;
      }
      int end = bit;
      while (end < 63 && (m >> end & 1) != 0) ++end;
      const long long low = 1LL << bit;
      std::string part;
      if (end == 63 && m < 0) {  // the run goes on through the sign: every bit from `bit` up
        part = std::to_string(low) + " * floor((" + x + ") / " + std::to_string(low) + ")";
      } else {
        const std::string shifted = bit == 0 ? "(" + x + ")" : "floor((" + x + ") / " + std::to_string(low) + ")";
        part = "(" + shifted + " mod " + std::to_string(1LL << (end - bit)) + ")";
        if (bit > 0) part = std::to_string(low) + " * " + part;
      }
      sum += (sum.empty() ? "" : " + ") + part;
      bit = end;
    }
    return "(" + sum + ")";
  }

  // A variable equal to `then` where `c` holds and to `other` where it does not; either where c
  // cannot be written.
  std::string choice(const std::optional<std::string>& c, const std::optional<std::string>& c_fails, const std::string& then,
                     const std::string& other) {
    const std::string v = variable("choice");
    note_cases(2);
    if (!c || !c_fails) {
      over_approximated_ = true;
      require("(" + v + " = " + then + " or " + v + " = " + other + ")");
    } else {
      require("((" + *c + " and " + v + " = " + then + ") or (" + *c_fails + " and " + v + " = " + other + "))");
    }
    return v;
  }

  // A load of a buffer the kernel never writes: in one run of the access, one value, somewhere in
  // what the launch measured of the buffer (launch/contents.hpp) or else in the element's type. A
  // free variable of the set, which then holds the points of every value the data could give
  // (over_approximated): an empty set decides the question for any data; a point is an answer
  // only for some data. A buffer the kernel writes may change between two loads: not written.
  std::optional<std::string> loaded_value(const dsl::ir_expr& e, presburger_instance& in) {
    const dsl::ir_access& a = ir_.accesses[static_cast<std::size_t>(e.value)];
    if (a.memory != dsl::memory_kind::global) return fail_term("a value loaded from shared memory (data)");
    bool written = false;
    for (const dsl::ir_access& other : ir_.accesses)
      written = written || (other.memory == dsl::memory_kind::global && other.target == a.target && other.kind != dsl::access_kind::load);
    const auto buffer = static_cast<std::size_t>(a.target);
    if (written && (race_free_ == nullptr || buffer >= race_free_->size() || !(*race_free_)[buffer] || a.vector_bytes != 0 || e.is_float))
      return fail_term("a value loaded from a buffer the kernel also writes (data)");
    // One run loading one element twice loads one value: the value already written, with no
    // variable or axiom of its own (`cur[b]` in both `keys[cur[b] * W + t]` and `keys[cur[b] * W + t + 1]`).
    // For a buffer the kernel writes, only where no barrier or store to it lies between (one_phase).
    // A component of a vector load (w::vectors<N>) is described by the vector's access, whose
    // index is the vector's, not the component's: never one value with another load, nor ordered.
    const bool vector = a.vector_bytes != 0;
    if ((written || relate_loads_) && !vector) {
      const std::optional<std::string> index = quiet_term(a.index, in);
      if (index && written) {
        for (const written_load& l : written_loads_)
          if (l.in == &in && l.index == *index && ir_.accesses[static_cast<std::size_t>(l.access)].target == a.target &&
              one_phase(l.access, e.value, true))
            return l.value;
      } else if (index) {
        for (const recorded_load& l : loads_)
          if (l.in == &in && l.buffer == a.target && l.index == *index) return l.value;
      }
    }
    const std::string v = variable("loaded");
    over_approximated_ = true;
    const auto p = static_cast<std::size_t>(a.target);
    if (p < facts_.contents.size() && facts_.contents[p]) {
      require(number(facts_.contents[p]->lo) + " <= " + v + " <= " + number(facts_.contents[p]->hi));
    } else if (e.narrow_bits > 0) {  // uint8_t, short, ...: its type's range, whatever memory holds
      const long long span = 1LL << e.narrow_bits;
      require(e.is_unsigned ? "0 <= " + v + " < " + std::to_string(span)
                            : number(-span / 2) + " <= " + v + " < " + std::to_string(span / 2));
    } else if (e.is_unsigned) {
      require(v + " >= 0");
    }
    if (written) relate_written_load(e.value, v, in);
    else if (relate_loads_ && !vector) relate_load(a, v, in);
    return v;
  }

  // Whether two loads of one buffer the kernel writes, `x` and `y`, run in one barrier phase of a
  // block when the runs that make them are at the same trips of their common loops: no barrier
  // lies between them in the program, nor in a loop around one of them only. `one_thread`: both in
  // one run, which may itself store between them; then no store to the buffer may lie there either.
  bool one_phase(int x, int y, bool one_thread) const {
    return !separated_in_program(ir_, ir_.accesses[static_cast<std::size_t>(x)], ir_.accesses[static_cast<std::size_t>(y)], one_thread);
  }

  // Two loads of one element of a buffer the kernel writes, by threads of one block at the same
  // trips of their common loops, in one barrier phase (one_phase), load one value: a store to that
  // element in that phase, by any thread, would race with one of the two loads (it differs from
  // at least one loader, and nothing orders them); a store by another block would race with both;
  // a store in an earlier phase is seen by both (the barrier orders global memory within a block).
  // The caller lists only buffers whose store and load pairs it proved race-free first
  // (write_loads_of), so the axiom rests on no question that uses it: the data-race-free argument
  // of the C++ memory model, as an order of proofs.
  void relate_written_load(int access, const std::string& value, presburger_instance& in) {
    const dsl::ir_access& a = ir_.accesses[static_cast<std::size_t>(access)];
    const std::optional<std::string> index = quiet_term(a.index, in);
    if (!index) return;
    for (const written_load& l : written_loads_) {
      const dsl::ir_access& other = ir_.accesses[static_cast<std::size_t>(l.access)];
      if (other.target != a.target || !one_phase(l.access, access, l.in == &in)) continue;
      std::string differ = *index + " < " + l.index + " or " + *index + " > " + l.index;
      bool written = true;
      if (l.in != &in) {
        for (int d = 0; d < 3; ++d)
          if (in.block[d] != "0") differ += " or " + in.block[d] + " < " + l.in->block[d] + " or " + in.block[d] + " > " + l.in->block[d];
        const int common = [&] {
          int n = 0;
          while (a.loop_begin + n < a.loop_end && other.loop_begin + n < other.loop_end &&
                 ir_.loop_pool[static_cast<std::size_t>(a.loop_begin + n)] == ir_.loop_pool[static_cast<std::size_t>(other.loop_begin + n)])
            ++n;
          return n;
        }();
        for (int k = 0; k < common; ++k) {
          const auto loop = static_cast<std::size_t>(ir_.loop_pool[static_cast<std::size_t>(a.loop_begin + k)]);
          const std::string &x = in.trip[loop], &y = l.in->trip[loop];
          if (x.empty() || y.empty()) written = false;  // a trip not bound: no axiom
          else differ += " or " + x + " < " + y + " or " + x + " > " + y;
        }
      }
      if (!written) continue;
      note_cases(3);
      require("(" + differ + " or " + value + " = " + l.value + ")");
    }
    written_loads_.push_back({access, *index, value, &in});
  }

  // Facts about data, as axioms over the loads of one question (docs/soundness.md, "Facts about
  // data"): two loads of one read-only buffer at one element load one value (the kernel never
  // writes it, and nothing writable shares its memory: E100), and where a stated fact orders the
  // buffer, loads at ordered elements load ordered values. Written only where the kernel states
  // an order (sorted, non_decreasing), so that other kernels' questions keep their size. With
  // them, `lo[t] <= v && v < lo[t + 1]` over a non-decreasing lo holds for one t at most: two
  // threads t < u would have v < lo[t + 1] <= lo[u] <= v.
  // An order stated over rows of n elements (.rows(n)) relates two loads only where their
  // elements lie in one row, floor(i / n) = floor(j / n); one with a bound (sorted(x).below(hi))
  // is strict only where the earlier value is below hi. Each is what the launch measured
  // (E107 refuses a launch where it is false), over the pairs of elements it covers.
  void relate_load(const dsl::ir_access& a, const std::string& value, presburger_instance& in) {
    const std::optional<std::string> index = quiet_term(a.index, in);
    if (!index) return;
    const std::vector<stated_row_order> orders = orders_of(a.target);
    for (const recorded_load& l : loads_) {
      if (l.buffer != a.target) continue;
      const std::string &i = *index, &j = l.index, &x = value, &y = l.value;
      if (orders.empty()) {
        note_cases(3);
        require("(" + i + " < " + j + " or " + i + " > " + j + " or " + x + " = " + y + ")");
        continue;
      }
      // Each order as one disjunction of the cases it distinguishes (a sum of products: isl takes
      // a product of sums apart into every combination first): elements in two rows, no order
      // between them; one element, one value; i before j in one row, x <= y, and for sorted
      // x < y, or with a bound x at or above it. The one-element case also holds every order's
      // "one value" axiom.
      for (const stated_row_order& o : orders) {
        std::string same_row, cases;
        if (o.row > 0) {
          const std::string n = std::to_string(o.row), ri = "floor((" + i + ") / " + n + ")", rj = "floor((" + j + ") / " + n + ")";
          same_row = ri + " = " + rj + " and ";
          cases = ri + " < " + rj + " or " + ri + " > " + rj + " or ";
        }
        const auto ordered = [&](const std::string& before, const std::string& after, const std::string& v, const std::string& w) {
          const std::string head = "(" + same_row + before + " < " + after + " and ";
          if (!o.strict) return head + v + " <= " + w + ")";
          if (!o.bounded) return head + v + " < " + w + ")";
          return head + v + " < " + w + ") or " + head + v + " >= " + number(o.below) + " and " + v + " <= " + w + ")";
        };
        cases += ordered(i, j, x, y) + " or " + ordered(j, i, y, x) + " or (" + i + " = " + j + " and " + x + " = " + y + ")";
        note_cases((o.row > 0 ? 2 : 0) + (o.strict && o.bounded ? 4 : 2) + 1);
        require("(" + cases + ")");
      }
    }
    loads_.push_back({a.target, *index, value, &in});
  }

  // The orders stated of buffer p, each with its rows and bound for this launch. One whose row
  // length or bound cannot be computed, or whose rows are empty, gives no axiom (such a launch is
  // refused by E107 before any question: dropping an axiom only makes the answer less exact).
  struct stated_row_order {
    bool strict = false;  // sorted, not non_decreasing
    long long row = 0;    // 0: the whole buffer
    bool bounded = false;
    long long below = 0;
  };
  // Only a fact stated alone or as a conjunct holds (as dsl::kernel_ir::states reads them): one
  // under || or ! is no axiom.
  void orders_in(int id, int p, std::vector<stated_row_order>& out) const {
    if (id < 0) return;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.op == dsl::ir_op::logical_and) {
      orders_in(e.a, p, out);
      orders_in(e.b, p, out);
      return;
    }
    if ((e.op != dsl::ir_op::contents_sorted && e.op != dsl::ir_op::contents_non_decreasing) || e.value != p) return;
    const std::optional<detail::contents_order> order = stated_order_of(ir_, id, facts_);
    if (!order || rows_empty(ir_, id, order)) return;
    out.push_back({e.op == dsl::ir_op::contents_sorted, order->row, order->bounded, order->below});
  }
  std::vector<stated_row_order> orders_of(int p) const {
    std::vector<stated_row_order> out;
    for (int fact : ir_.stated) orders_in(fact, p, out);
    return out;
  }

  std::optional<std::string> write_term(int id, presburger_instance& in) {
    using dsl::ir_op;
    const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(id)];
    if (e.is_float) return fail_term("a floating-point value");
    if (const std::optional<long long> v = exact_value(ir_, id, facts_)) return number(*v);
    const int d = static_cast<int>(e.value % 3);
    switch (e.op) {
      case ir_op::thread_id: return in.thread[d];
      case ir_op::block_id: return in.block[d];
      case ir_op::global_id: {
        const long long extent[3] = {facts_.block.x, facts_.block.y, facts_.block.z};
        return "(" + std::to_string(extent[d]) + " * " + in.block[d] + " + " + in.thread[d] + ")";
      }
      case ir_op::loop_var: {
        const auto l = static_cast<std::size_t>(e.value);
        if (l < in.loop.size() && !in.loop[l].empty()) return in.loop[l];
        return fail_term("a loop variable outside its loop");
      }
      case ir_op::local_var: {
        if (const int init = ir_.held_value(e); init >= 0) return term(init, in);
        return fail_term("a thread-private variable that the kernel assigns");
      }
      case ir_op::load: return loaded_value(e, in);
      case ir_op::tile_load: return fail_term("a value loaded from shared memory (data)");
      case ir_op::call: return fail_term("the result of a function call");
      case ir_op::param_value: return fail_term("a value parameter that is not an integer");
      case ir_op::constant: case ir_op::block_dim: case ir_op::grid_dim: case ir_op::param_size:
      case ir_op::contents_distinct: case ir_op::contents_sorted: case ir_op::contents_non_decreasing: case ir_op::contents_within:
        return fail_term("a launch number that cannot be computed (division by zero or overflow)");
      default: break;
    }
    if (e.op == ir_op::select) {
      const dsl::ir_expr& sides = ir_.exprs[static_cast<std::size_t>(e.b)];
      const std::optional<std::string> x = term(sides.a, in), y = term(sides.b, in);
      if (!x || !y) return std::nullopt;
      return choice(condition(e.a, in, true), condition(e.a, in, false), *x, *y);
    }
    if (e.op >= ir_op::less && e.op <= ir_op::logical_not && e.op != ir_op::min && e.op != ir_op::max &&
        e.op != ir_op::negate) {
      // A condition used as a number: 1 where it holds, 0 where not.
      return choice(condition(id, in, true), condition(id, in, false), "1", "0");
    }
    const std::optional<std::string> x = term(e.a, in);
    if (!x) return std::nullopt;
    if (e.op == ir_op::negate) return "(-" + *x + ")";
    if (e.op == ir_op::bit_not)  // ~x: -x - 1, or 2^bits - 1 - x in an unsigned type
      return e.unsigned_bits > 0 && e.unsigned_bits < 64
                 ? "(" + std::to_string((1ULL << e.unsigned_bits) - 1) + " - " + *x + ")"
                 : "(-" + *x + " - 1)";
    const std::optional<long long> cb = exact_value(ir_, e.b, facts_), ca = exact_value(ir_, e.a, facts_);
    const std::optional<std::string> y = term(e.b, in);
    if (!y) return std::nullopt;
    const std::string reason_before = why_not_;
    if (std::optional<std::string> t = combine(e, *x, ca, *y, cb)) return t;
    if (e.op == ir_op::add || e.op == ir_op::sub || e.op == ir_op::min || e.op == ir_op::max) return std::nullopt;
    // Both operands vary: where one takes few values (it reads only loops of constant bounds,
    // `4 >> level`, `t ^ j` in a bitonic network), one case per value, exact.
    for (const int side : {1, 0}) {
      const int operand = side == 1 ? e.b : e.a;
      const std::optional<std::vector<long long>> values = few_values(operand, in);
      if (!values) continue;
      const std::string v = variable("cases");
      std::string cases;
      bool all = true;
      for (const long long c : *values) {
        const std::optional<std::string> t =
            side == 1 ? combine(e, *x, ca, number(c), c) : combine(e, number(c), c, *y, cb);
        if (!t) {
          all = false;
          break;
        }
        cases += (cases.empty() ? "" : " or ") + std::string("(") + (side == 1 ? *y : *x) + " = " + number(c) + " and " + v + " = " + *t + ")";
      }
      if (!all) continue;
      why_not_ = reason_before;  // written after all
      note_cases(values->size());
      require("(" + cases + ")");
      return v;
    }
    return std::nullopt;
  }

  // The most values few_values lists: past it, an operation of two varying values stays unwritten.
  static constexpr std::size_t max_case_values = 64;

  // The values expression `id` takes, where it reads only loop variables of loops with constant
  // bounds (bound in `in`) and launch numbers, and they are at most max_case_values; nullopt else.
  std::optional<std::vector<long long>> few_values(int id, const presburger_instance& in) {
    std::vector<int> loops;
    bool only_loops = true;
    const auto walk = [&](auto&& self, int x) -> void {
      if (x < 0 || !only_loops) return;
      const dsl::ir_expr& e = ir_.exprs[static_cast<std::size_t>(x)];
      if (exact_value(ir_, x, facts_)) return;
      if (e.op == dsl::ir_op::loop_var) {
        if (std::find(loops.begin(), loops.end(), static_cast<int>(e.value)) == loops.end()) loops.push_back(static_cast<int>(e.value));
        return;
      }
      if (e.op < dsl::ir_op::add || e.is_float) {
        only_loops = false;
        return;
      }
      self(self, e.a);
      self(self, e.b);
    };
    walk(walk, id);
    if (!only_loops || loops.empty()) return std::nullopt;
    std::vector<long long> lo(loops.size()), hi(loops.size()), step(loops.size());
    std::size_t combinations = 1;
    for (std::size_t k = 0; k < loops.size(); ++k) {
      const auto l = static_cast<std::size_t>(loops[k]);
      if (l >= in.loop.size() || in.loop[l].empty()) return std::nullopt;
      const dsl::ir_loop& loop = ir_.loops[l];
      const std::optional<long long> a = exact_value(ir_, loop.lo, facts_), b = exact_value(ir_, loop.hi, facts_),
                                     c = exact_value(ir_, loop.step, facts_);
      if (!a || !b || !c || *c < 1) return std::nullopt;
      lo[k] = *a, hi[k] = *b, step[k] = *c;
      const long long trips = *b > *a ? (*b - *a + *c - 1) / *c : 0;
      if (trips == 0) return std::vector<long long>{};
      combinations *= static_cast<std::size_t>(trips);
      if (combinations > max_case_values) return std::nullopt;
    }
    thread_point at;
    at.loop_value.assign(ir_.loops.size(), 0);
    at.loop_set.assign(ir_.loops.size(), 0);
    for (std::size_t k = 0; k < loops.size(); ++k) {
      at.loop_set[static_cast<std::size_t>(loops[k])] = 1;
      at.loop_value[static_cast<std::size_t>(loops[k])] = lo[k];
    }
    std::vector<long long> values;
    for (std::size_t n = 0; n < combinations; ++n) {
      const std::optional<long long> v = exact_value(ir_, id, facts_, &at);
      if (!v) return std::nullopt;
      if (std::find(values.begin(), values.end(), *v) == values.end()) values.push_back(*v);
      for (std::size_t k = 0; k < loops.size(); ++k) {  // the next combination, an odometer
        long long& value = at.loop_value[static_cast<std::size_t>(loops[k])];
        value += step[k];
        if (value < hi[k]) break;
        value = lo[k];
      }
    }
    return values;
  }

  // Binary operation `e` on terms x and y, where the one it needs constant is (ca, cb: their
  // values where they are launch-uniform); nullopt, with why_not(), where neither is.
  std::optional<std::string> combine(const dsl::ir_expr& e, const std::string& x, std::optional<long long> ca, const std::string& y,
                                     std::optional<long long> cb) {
    using dsl::ir_op;
    switch (e.op) {
      case ir_op::add: return "(" + x + " + " + y + ")";
      case ir_op::sub: return "(" + x + " - " + y + ")";
      case ir_op::min: case ir_op::max: {
        const std::string pick_x = "(" + x + (e.op == ir_op::min ? " <= " : " >= ") + y + ")";
        const std::string pick_y = "(" + x + (e.op == ir_op::min ? " > " : " < ") + y + ")";
        return choice(pick_x, pick_y, x, y);
      }
      case ir_op::mul:
        if (cb) return "(" + std::to_string(*cb) + " * " + x + ")";
        if (ca) return "(" + std::to_string(*ca) + " * " + y + ")";
        return fail_term("a product of two values that vary by thread or trip");
      case ir_op::div: case ir_op::mod: {
        if (!cb || *cb == 0) return fail_term("a division by a value that varies by thread or trip");
        const std::string q = quotient(e.a, x, *cb);
        if (e.op == ir_op::div) return q;
        if (never_negative(e.a)) return "((" + x + ") mod " + std::to_string(*cb < 0 ? -*cb : *cb) + ")";
        return "(" + x + " - " + std::to_string(*cb) + " * " + q + ")";
      }
      case ir_op::shl: case ir_op::shr: {
        if (!cb || *cb < 0 || *cb > 62) return fail_term("a shift by a value that varies by thread or trip");
        // By the operand's width or more: undefined in C++ (the device takes the amount modulo
        // the width), so no value to write.
        const int width = e.unsigned_bits > 0 ? e.unsigned_bits : e.signed_bits > 0 ? e.signed_bits : 32;
        if (*cb >= width) return fail_term("a shift by its operand's width or more (undefined)");
        if (ca) {  // a constant shifted: the kernel's value, as it computes it
          const long long scale = 1LL << *cb;
          long long shifted = 0;
          if (e.op == ir_op::shl) {
            if (__builtin_mul_overflow(*ca, scale, &shifted)) return fail_term("a shift past 64 bits");
            return number(shifted);
          }
          return number(*ca >= 0 ? *ca / scale : -((-*ca + scale - 1) / scale));
        }
        const long long scale = 1LL << *cb;
        if (e.op == ir_op::shl) return "(" + std::to_string(scale) + " * " + x + ")";
        return "floor((" + x + ") / " + std::to_string(scale) + ")";  // arithmetic shift: floor
      }
      case ir_op::bit_and: case ir_op::bit_or: case ir_op::bit_xor: {
        std::string var = x;
        std::optional<long long> mask = cb;
        if (!mask) {
          if (!ca) return fail_term("a bit operation on two values that vary by thread or trip");
          var = y;
          mask = ca;
        }
        const std::string both = masked(var, *mask);
        if (e.op == ir_op::bit_and) return both;
        if (e.op == ir_op::bit_or) return "(" + var + " + " + number(*mask) + " - " + both + ")";
        return "(" + var + " + " + number(*mask) + " - 2 * " + both + ")";
      }
      default: return fail_term("an operation the solver does not model");
    }
  }
};

}  // namespace warden::check::launch_impl
