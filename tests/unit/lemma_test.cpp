// Lemma-level differential tests (issue 14): each analysis lemma of the checker against brute-force
// enumeration on small domains, over thousands of random instances from a fixed seed.
//
//   1. injectivity (W010 on a single store `out[index]`, check/affine.hpp's radix_injective with
//      the guard facts of `learn`): random index expressions over thread ids, block ids, one or two
//      loops, constants, a value parameter, with negative coefficients and negated or subtracted
//      terms, under random guards. The checker's promise (docs/soundness.md): no two distinct
//      threads of the grid (of one block or of two) store to one element. Brute force enumerates
//      every thread, block (grids of 1 to 3 blocks), loop iteration and parameter value of a small
//      range, evaluates guards and index as C++ does, and looks for two executions by different
//      threads that store to one element. One thread storing twice to an element is no race.
//   2. separation between blocks (rules.hpp's blocks_separated, and W010 on `b * S + f(t, i)`).
//   3. the launch-time bounds (check/launch/: the interval analysis, first_overrun): when first_overrun
//      says nothing, no execution leaves [0, size); and every index lies in index_interval.
//   4. unsigned and floating-point scalars, mixed into the three: a floating-point value parameter
//      (no integer symbol: the checker must not rely on it) and operations computed in a 32-bit
//      unsigned type, evaluated with wraparound. The checker may reason about those as integers
//      only because launch refuses a launch in which one may wrap (E104, first_integer_wrap), so
//      such launches are left out of the brute force (and counted).
//   5. bounds through measured contents (launch/contents.hpp): gathers, CSR loops and loads
//      through loads of a read-only buffer d, whose loads launch bounds by the least and greatest
//      element it measured; brute force runs each launch on d's random contents.
//
// A checker verdict that claims safety where brute force finds a conflict fails the test and prints
// the instance; a verdict that rejects where brute force finds none is imprecision, counted and
// printed as a rate. The instances are built by hand with dsl::kernel_ir, as the fuzzer's
// `lowering` does.
#include <warden/check/launch/interval_evaluator.hpp>
#include <warden/check/launch/launch_checks.hpp>
#include <warden/check/launch/launch_values.hpp>
#include <warden/check/rules.hpp>

#include <catch2/catch.hpp>

#include "../support/integer_set_readers.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

namespace dsl = warden::dsl;
namespace chk = warden::check;
using dsl::ir_op;

// ---- abstract expressions, described into an kernel_ir the way the kernel language does -------

// data: a load d[a] of the read-only buffer d (parameter 3) whose contents launch measures; dsize: d.size().
enum class kind : unsigned char { konst, fconst, tid, bid, bdim, gdim, gid, par_n, par_p, size, loopv, bin, neg, sel, data, dsize };

struct ex;
using expr = std::shared_ptr<const ex>;
struct ex {
  kind k = kind::konst;
  long long v = 0;       // constant; dimension; loop number
  double f = 0;          // floating-point constant
  bool unsigned_literal = false;  // `3u`
  ir_op op = ir_op::add;
  expr a, b;
  expr c;  // sel: a ? b : c
};

expr leaf(kind k, long long v = 0) {
  auto e = std::make_shared<ex>();
  e->k = k;
  e->v = v;
  return e;
}
expr K(long long v, bool u = false) {
  auto e = std::make_shared<ex>();
  e->v = v;
  e->unsigned_literal = u;
  return e;
}
expr F(double f) {
  auto e = std::make_shared<ex>();
  e->k = kind::fconst;
  e->f = f;
  return e;
}
expr T(int d = 0) { return leaf(kind::tid, d); }
expr Bid() { return leaf(kind::bid); }
expr Gid() { return leaf(kind::gid); }
expr N() { return leaf(kind::par_n); }
expr P() { return leaf(kind::par_p); }
expr Size() { return leaf(kind::size); }
expr L(int loop) { return leaf(kind::loopv, loop); }
expr DSize() { return leaf(kind::dsize); }
expr D(expr index) {
  auto e = std::make_shared<ex>();
  e->k = kind::data;
  e->a = std::move(index);
  return e;
}
expr bin(ir_op op, expr a, expr b) { return std::make_shared<ex>(ex{kind::bin, 0, 0, false, op, std::move(a), std::move(b)}); }
expr add(expr a, expr b) { return bin(ir_op::add, std::move(a), std::move(b)); }
expr sub(expr a, expr b) { return bin(ir_op::sub, std::move(a), std::move(b)); }
expr mul(expr a, expr b) { return bin(ir_op::mul, std::move(a), std::move(b)); }
expr neg(expr a) { return std::make_shared<ex>(ex{kind::neg, 0, 0, false, ir_op::negate, std::move(a), nullptr}); }
expr sel(expr condition, expr x, expr y) {
  auto e = std::make_shared<ex>(ex{kind::sel, 0, 0, false, ir_op::select, std::move(condition), std::move(x)});
  e->c = std::move(y);
  return e;
}
expr complement(expr a) { return std::make_shared<ex>(ex{kind::neg, 0, 0, false, ir_op::bit_not, std::move(a), nullptr}); }
expr negation(expr a) { return std::make_shared<ex>(ex{kind::neg, 0, 0, false, ir_op::logical_not, std::move(a), nullptr}); }

// The highest loop an expression refers to, or -1.
int loops_in(const expr& e) {
  if (!e) return -1;
  if (e->k == kind::loopv) return static_cast<int>(e->v);
  return std::max({loops_in(e->a), loops_in(e->b), loops_in(e->c)});
}

struct loop_spec {
  expr lo, hi, step;
};
struct guard_spec {
  expr condition;
  bool negated = false;  // the store sits in the otherwise branch
  int depth = 0;         // inside this many loops
};
struct instance {
  int bx = 4, by = 1;
  bool n_unsigned = false;  // value<unsigned> n rather than value<int> n
  bool distinct = false;    // under given(distinct(d), ...): lemma 6
  std::vector<loop_spec> loops;  // nested, outermost first
  std::vector<guard_spec> guards;
  expr index;
};

// An instance as the checker reads it, with what brute force needs besides.
struct built {
  dsl::kernel_ir ir;
  int bx = 4, by = 1, nloops = 0;
  std::vector<int> lo, hi, step;  // per loop
  struct guard {
    int condition;
    bool negated;
    int depth;
  };
  std::vector<guard> guards;
  int index = -1, access = -1;
  std::unordered_map<int, double> float_constants;  // the real value of each floating-point constant
  bool uses_n = false, uses_p = false, uses_size = false, has_unsigned = false, has_float = false;
  int grid_dims = 0;
};

enum class type : unsigned char { i32, u32, f64, boolean };

class describer {
 public:
  explicit describer(built& out, bool n_unsigned) : b_(out), n_unsigned_(n_unsigned) {}
  int operator()(const expr& e, type& t) {
    dsl::kernel_ir& ir = b_.ir;
    switch (e->k) {
      case kind::konst: t = e->unsigned_literal ? type::u32 : type::i32; return ir.constant(e->v, false);
      case kind::fconst: {
        t = type::f64;
        const int id = ir.constant(static_cast<long long>(e->f), true);  // its integer part, as lit<double> describes it
        b_.float_constants[id] = e->f;
        return id;
      }
      case kind::tid: t = type::i32; return ir.leaf(ir_op::thread_id, e->v);
      case kind::bid: t = type::i32; return ir.leaf(ir_op::block_id, 0);
      case kind::bdim: t = type::i32; return ir.leaf(ir_op::block_dim, e->v);
      case kind::gdim: t = type::i32; return ir.leaf(ir_op::grid_dim, 0);
      case kind::gid: t = type::i32; return ir.leaf(ir_op::global_id, 0);
      case kind::par_n: t = n_unsigned_ ? type::u32 : type::i32; return ir.leaf(ir_op::param_value, 1, n_unsigned_, false);
      case kind::par_p: t = type::f64; return ir.leaf(ir_op::param_value, 2, false, true);
      case kind::size: t = type::i32; return ir.leaf(ir_op::param_size, 0);
      case kind::loopv: t = type::i32; return ir.leaf(ir_op::loop_var, e->v);
      case kind::dsize: t = type::i32; return ir.leaf(ir_op::param_size, 3);
      case kind::data: {  // as dsl::load_e describes an in<int> load: its access, then the value
        type ti{};
        const int at = (*this)(e->a, ti);
        t = type::i32;
        return ir.leaf(ir_op::load, ir.access(dsl::access_kind::load, dsl::memory_kind::global, 3, at), false, false, 0);
      }
      case kind::neg: {
        type ta{};
        const int a = (*this)(e->a, ta);
        if (e->op == ir_op::logical_not) {
          t = type::boolean;
          return ir.node(ir_op::logical_not, a);
        }
        t = ta == type::boolean ? type::i32 : ta;
        // ~ takes integers only: on a floating-point operand the generator's complement is a negation.
        const ir_op op = e->op == ir_op::bit_not && t != type::f64 ? ir_op::bit_not : ir_op::negate;
        return ir.node(op, a, -1, t == type::f64, t == type::u32 ? 32 : 0);
      }
      case kind::sel: {
        // As dsl::select_e describes it: the condition, then a choice node of the two arms, the
        // select in the arms' common type (unsigned bits where it is unsigned).
        type tc{}, ta{}, tb{};
        const int c = (*this)(e->a, tc);
        const int a = (*this)(e->b, ta);
        const int b = (*this)(e->c, tb);
        if (ta == type::boolean) ta = type::i32;
        if (tb == type::boolean) tb = type::i32;
        t = ta == type::f64 || tb == type::f64 ? type::f64 : ta == type::u32 || tb == type::u32 ? type::u32 : type::i32;
        const int pair = ir.node(ir_op::choice, a, b, t == type::f64);
        return ir.node(ir_op::select, c, pair, t == type::f64, t == type::u32 ? 32 : 0);
      }
      case kind::bin: {
        type ta{}, tb{};
        const int a = (*this)(e->a, ta);
        const int b = (*this)(e->b, tb);
        // C++'s usual arithmetic conversions (bool promotes to int); a shift: its left operand.
        type computed = ta == type::f64 || tb == type::f64 ? type::f64 : ta == type::u32 || tb == type::u32 ? type::u32 : type::i32;
        if (e->op == ir_op::shl || e->op == ir_op::shr) computed = ta == type::boolean ? type::i32 : ta;
        if (e->op == ir_op::logical_and || e->op == ir_op::logical_or) {
          t = type::boolean;
          return ir.node(e->op, a, b);
        }
        const bool comparison = e->op >= ir_op::less && e->op <= ir_op::not_equal;
        t = comparison ? type::boolean : computed;
        return ir.node(e->op, a, b, computed == type::f64, computed == type::u32 ? 32 : 0);
      }
    }
    return -1;
  }

 private:
  built& b_;
  bool n_unsigned_;
};

built build(const instance& in) {
  built out;
  out.bx = in.bx;
  out.by = in.by;
  out.nloops = static_cast<int>(in.loops.size());
  describer describe(out, in.n_unsigned);
  type t{};
  if (in.distinct) {  // as dsl::given_s describes given(distinct(d), ...): a stated fact, and a guard
    const int fact = out.ir.leaf(ir_op::contents_distinct, 3);
    out.ir.stated.push_back(fact);
    out.ir.guard_stack.push_back({fact, false});
  }
  for (int d = 0; d <= out.nloops; ++d) {
    for (const guard_spec& g : in.guards)
      if (g.depth == d) {
        const int c = describe(g.condition, t);
        out.ir.guard_stack.push_back({c, g.negated});
        out.guards.push_back({c, g.negated, d});
      }
    if (d == out.nloops) break;
    const loop_spec& l = in.loops[static_cast<std::size_t>(d)];
    dsl::ir_loop loop;
    loop.level = d + 1;
    loop.lo = describe(l.lo, t);
    loop.hi = describe(l.hi, t);
    loop.step = describe(l.step, t);
    out.lo.push_back(loop.lo);
    out.hi.push_back(loop.hi);
    out.step.push_back(loop.step);
    out.ir.enter_loop(loop);
  }
  out.index = describe(in.index, t);
  out.access = out.ir.access(dsl::access_kind::store, dsl::memory_kind::global, 0, out.index);
  out.ir.loop_stack.clear();
  out.ir.guard_stack.clear();
  for (const dsl::ir_expr& e : out.ir.exprs) {
    out.uses_n = out.uses_n || (e.op == ir_op::param_value && e.value == 1);
    out.uses_p = out.uses_p || (e.op == ir_op::param_value && e.value == 2);
    out.uses_size = out.uses_size || e.op == ir_op::param_size;
    out.has_unsigned = out.has_unsigned || e.unsigned_bits != 0 || e.is_unsigned;
    out.has_float = out.has_float || e.is_float;
  }
  out.grid_dims = chk::grid_dims_of(out.ir);
  return out;
}

const std::vector<std::string> names{"out", "n", "p"};

std::string render(const built& b, int id) { return dsl::render(b.ir, id, names); }

// The instance as text: the kernel's shape, loops, guards and the store.
std::string show(const built& b) {
  std::string s = "block<" + std::to_string(b.bx) + (b.by > 1 ? ", " + std::to_string(b.by) : std::string()) + ">";
  for (const dsl::ir_expr& e : b.ir.exprs)
    if (e.op == ir_op::param_value && e.value == 1) {
      s += e.is_unsigned ? ", value<unsigned> n" : ", value<int> n";
      break;
    }
  if (b.uses_p) s += ", value<float> p";
  s += "\n";
  std::string indent = "  ";
  for (int d = 0; d <= b.nloops; ++d) {
    for (const built::guard& g : b.guards)
      if (g.depth == d) {
        s += indent + (g.negated ? "when(!(" : "when(") + render(b, g.condition) + (g.negated ? "))" : ")") + "\n";
        indent += "  ";
      }
    if (d == b.nloops) break;
    s += indent + "for i" + std::to_string(d + 1) + " from " + render(b, b.lo[static_cast<std::size_t>(d)]) + " below " +
         render(b, b.hi[static_cast<std::size_t>(d)]) + " step " + render(b, b.step[static_cast<std::size_t>(d)]) + "\n";
    indent += "  ";
  }
  s += indent + "out[" + render(b, b.index) + "] = ...\n";
  // The unsigned operations, which render like signed ones.
  std::string unsigned_ops;
  for (std::size_t i = 0; i < b.ir.exprs.size(); ++i)
    if (b.ir.exprs[i].unsigned_bits != 0) unsigned_ops += "  " + render(b, static_cast<int>(i)) + "\n";
  if (!unsigned_ops.empty()) s += "computed in 32-bit unsigned:\n" + unsigned_ops;
  for (const auto& [id, v] : b.float_constants) s += "float constant " + render(b, id) + " is " + std::to_string(v) + "\n";
  return s;
}

// ---- brute force: the kernel as C++ runs it ----------------------------------------------------

struct launch {
  int grid = 1;
  long long n = 0;  // as passed (converted to unsigned for value<unsigned>)
  double p = 0;
  long long size = 1 << 20;
  std::vector<long long> data = {};  // d's contents (lemma 5)
};

std::string show(const launch& l, const built& b) {
  std::string s = "grid(" + std::to_string(l.grid) + ")";
  if (b.uses_n) s += ", n = " + std::to_string(l.n);
  if (b.uses_p) s += ", p = " + std::to_string(l.p);
  if (b.uses_size) s += ", out.size() = " + std::to_string(l.size);
  return s;
}

struct value {
  long long i = 0;
  double f = 0;
  bool fl = false;
  double as_double() const { return fl ? f : static_cast<double>(i); }
  bool truth() const { return fl ? f != 0 : i != 0; }
};

struct execution {
  long long index = 0;  // the element: the index converted to int
  long long raw = 0;    // the index expression's value (truncated, if floating-point)
  int block = 0, tx = 0, ty = 0;
  long long it[2] = {0, 0};
  int owner() const { return (block * 64 + ty) * 64 + tx; }
};

class machine {
 public:
  machine(const built& b, const launch& l) : b_(b), l_(l) {}

  // Every execution of the store (guards ignored if asked), in C++'s semantics. False if a loop ran
  // away (it cannot on the domains generated).
  bool run(std::vector<execution>& out, bool ignore_guards = false) {
    ignore_guards_ = ignore_guards;
    out_ = &out;
    for (int blk = 0; blk < l_.grid; ++blk)
      for (int y = 0; y < b_.by; ++y)
        for (int x = 0; x < b_.bx; ++x) {
          e_ = execution{};
          e_.block = blk;
          e_.tx = x;
          e_.ty = y;
          if (!step(0)) return false;
        }
    return true;
  }

  value eval(int id) const {
    const dsl::ir_expr& e = b_.ir.exprs[static_cast<std::size_t>(id)];
    const int d = static_cast<int>(e.value % 3);
    value r;
    switch (e.op) {
      case ir_op::constant:
        if (e.is_float) {
          r.fl = true;
          r.f = b_.float_constants.at(id);
        } else {
          r.i = e.value;
        }
        return r;
      case ir_op::thread_id: r.i = d == 0 ? e_.tx : d == 1 ? e_.ty : 0; return r;
      case ir_op::block_id: r.i = d == 0 ? e_.block : 0; return r;
      case ir_op::block_dim: r.i = d == 0 ? b_.bx : d == 1 ? b_.by : 1; return r;
      case ir_op::grid_dim: r.i = d == 0 ? l_.grid : 1; return r;
      case ir_op::global_id: r.i = d == 0 ? static_cast<long long>(e_.block) * b_.bx + e_.tx : d == 1 ? e_.ty : 0; return r;
      case ir_op::param_value:
        if (e.value == 2) {
          r.fl = true;
          r.f = l_.p;
        } else {
          r.i = e.is_unsigned ? static_cast<long long>(static_cast<std::uint32_t>(l_.n)) : l_.n;
        }
        return r;
      case ir_op::param_size: r.i = e.value == 3 ? static_cast<long long>(l_.data.size()) : l_.size; return r;
      case ir_op::loop_var: r.i = e_.it[e.value]; return r;
      case ir_op::load: {  // d[index]: outside d, remembered (launch must refuse it) and read as 0
        const long long at = eval(b_.ir.accesses[static_cast<std::size_t>(e.value)].index).i;
        if (at < 0 || at >= static_cast<long long>(l_.data.size())) {
          load_outside_ = true;
          return r;
        }
        r.i = l_.data[static_cast<std::size_t>(at)];
        return r;
      }
      default: break;
    }
    if (e.op == ir_op::select) {  // the arm chosen, in the select's type
      const dsl::ir_expr& pair = b_.ir.exprs[static_cast<std::size_t>(e.b)];
      value v = eval(eval(e.a).truth() ? pair.a : pair.b);
      if (e.is_float && !v.fl) {
        v.fl = true;
        v.f = static_cast<double>(v.i);
      } else if (e.unsigned_bits == 32 && !v.fl) {
        v.i = static_cast<long long>(static_cast<std::uint32_t>(v.i));
      }
      return v;
    }
    const value a = eval(e.a);
    if (e.op == ir_op::logical_and) return a.truth() ? value{eval(e.b).truth() ? 1 : 0} : value{0};
    if (e.op == ir_op::logical_or) return a.truth() ? value{1} : value{eval(e.b).truth() ? 1 : 0};
    if (e.op == ir_op::logical_not) return value{a.truth() ? 0 : 1};
    const value b = e.b >= 0 ? eval(e.b) : value{};
    if (e.is_float || a.fl || b.fl) {
      const double x = a.as_double(), y = b.as_double();
      switch (e.op) {
        case ir_op::add: r.f = x + y; break;
        case ir_op::sub: r.f = x - y; break;
        case ir_op::mul: r.f = x * y; break;
        case ir_op::div: r.f = x / y; break;
        case ir_op::min: r.f = std::min(x, y); break;
        case ir_op::max: r.f = std::max(x, y); break;
        case ir_op::negate: r.f = -x; break;
        case ir_op::less: return value{x < y};
        case ir_op::less_equal: return value{x <= y};
        case ir_op::greater: return value{x > y};
        case ir_op::greater_equal: return value{x >= y};
        case ir_op::equal: return value{x == y};
        case ir_op::not_equal: return value{x != y};
        default: FAIL("floating-point operation not modelled"); break;
      }
      r.fl = true;
      return r;
    }
    if (e.unsigned_bits == 32) {
      const std::uint32_t x = static_cast<std::uint32_t>(a.i), y = static_cast<std::uint32_t>(b.i);
      std::uint32_t v = 0;
      switch (e.op) {
        case ir_op::add: v = x + y; break;
        case ir_op::sub: v = x - y; break;
        case ir_op::mul: v = x * y; break;
        case ir_op::div: v = x / y; break;
        case ir_op::mod: v = x % y; break;
        case ir_op::shl: v = x << (b.i & 31); break;
        case ir_op::shr: v = x >> (b.i & 31); break;
        case ir_op::bit_and: v = x & y; break;
        case ir_op::min: v = std::min(x, y); break;
        case ir_op::max: v = std::max(x, y); break;
        case ir_op::negate: v = 0u - x; break;
        case ir_op::bit_not: v = ~x; break;
        case ir_op::less: return value{x < y};
        case ir_op::less_equal: return value{x <= y};
        case ir_op::greater: return value{x > y};
        case ir_op::greater_equal: return value{x >= y};
        case ir_op::equal: return value{x == y};
        case ir_op::not_equal: return value{x != y};
        default: FAIL("unsigned operation not modelled"); break;
      }
      r.i = v;
      return r;
    }
    const long long x = a.i, y = b.i;
    switch (e.op) {
      case ir_op::add: r.i = x + y; break;
      case ir_op::sub: r.i = x - y; break;
      case ir_op::mul: r.i = x * y; break;
      case ir_op::div: r.i = x / y; break;  // truncates toward zero, as C++
      case ir_op::mod: r.i = x % y; break;
      case ir_op::shl: r.i = x * (1LL << y); break;
      case ir_op::shr: r.i = x >> y; break;
      case ir_op::bit_and: r.i = x & y; break;
      case ir_op::min: r.i = std::min(x, y); break;
      case ir_op::max: r.i = std::max(x, y); break;
      case ir_op::negate: r.i = -x; break;
      case ir_op::bit_not: r.i = ~x; break;
      case ir_op::less: r.i = x < y; break;
      case ir_op::less_equal: r.i = x <= y; break;
      case ir_op::greater: r.i = x > y; break;
      case ir_op::greater_equal: r.i = x >= y; break;
      case ir_op::equal: r.i = x == y; break;
      case ir_op::not_equal: r.i = x != y; break;
      default: FAIL("operation not modelled"); break;
    }
    return r;
  }

  // The element an index value names: converted to the int a buffer is indexed with.
  static long long element(value v) {
    if (v.fl) return static_cast<long long>(std::trunc(v.f));
    if (v.i >= (1LL << 31) && v.i < (1LL << 32)) return v.i - (1LL << 32);  // an unsigned int converted to int
    return v.i;
  }

 private:
  bool step(int depth) {
    if (!ignore_guards_)
      for (const built::guard& g : b_.guards)
        if (g.depth == depth && eval(g.condition).truth() == g.negated) return true;
    if (depth == b_.nloops) {
      const value v = eval(b_.index);
      e_.raw = v.fl ? static_cast<long long>(std::trunc(v.f)) : v.i;
      e_.index = element(v);
      out_->push_back(e_);
      return true;
    }
    const long long lo = eval(b_.lo[static_cast<std::size_t>(depth)]).i, hi = eval(b_.hi[static_cast<std::size_t>(depth)]).i,
                    st = eval(b_.step[static_cast<std::size_t>(depth)]).i;
    if (st < 1) return false;
    int trips = 0;
    for (long long i = lo; i < hi; i += st) {
      if (++trips > 256) return false;
      e_.it[depth] = i;
      if (!step(depth + 1)) return false;
    }
    return true;
  }

  const built& b_;
  const launch& l_;
  execution e_;
  std::vector<execution>* out_ = nullptr;
  bool ignore_guards_ = false;

 public:
  mutable bool load_outside_ = false;  // some execution loaded d outside [0, d.size())
};

std::string show(const execution& e, const built& b) {
  std::string s = "block " + std::to_string(e.block) + ", thread " + std::to_string(e.tx);
  if (b.by > 1) s += "," + std::to_string(e.ty);
  for (int d = 0; d < b.nloops; ++d) s += ", i" + std::to_string(d + 1) + " = " + std::to_string(e.it[d]);
  return s + " -> out[" + std::to_string(e.index) + "]";
}

// Two executions by different threads (of one block or two) at one element; with `across_only`,
// of two different blocks.
std::optional<std::pair<execution, execution>> conflict(std::vector<execution>& runs, bool across_only) {
  std::sort(runs.begin(), runs.end(), [](const execution& x, const execution& y) { return x.index < y.index; });
  for (std::size_t i = 0; i < runs.size();) {
    std::size_t j = i;
    while (j < runs.size() && runs[j].index == runs[i].index) ++j;
    for (std::size_t k = i + 1; k < j; ++k)
      if (across_only ? runs[k].block != runs[i].block : runs[k].owner() != runs[i].owner()) return std::make_pair(runs[i], runs[k]);
    i = j;
  }
  return std::nullopt;
}

chk::launch_facts facts_of(const built& b, const launch& l) {
  chk::launch_facts f;
  f.block = {b.bx, b.by, 1};
  f.grid = {l.grid, 1, 1};
  f.values.resize(3);
  for (const dsl::ir_expr& e : b.ir.exprs)
    if (e.op == ir_op::param_value && e.value == 1)  // the value the kernel receives, converted to its type
      f.values[1] = e.is_unsigned ? static_cast<long long>(static_cast<std::uint32_t>(l.n)) : l.n;
  f.sizes = {l.size, 0, 0};
  return f;
}

// Does launch refuse this launch before the checker's integers could differ from the kernel's
// (E104), or because the grid extends where the kernel never looks (E102)?
// Whether launch refuses `l` before running: E102 (a grid for a kernel that names no block), E104
// (an unsigned operation that decides something may wrap), or E106 (one of the verdict's launch
// obligations fails), as launch.hpp's prepare does.
bool refused(const built& b, const launch& l, const chk::obligation_list& obligations = chk::obligation_list{}) {
  if (b.grid_dims == 0 && l.grid > 1) return true;
  const chk::launch_facts facts = facts_of(b, l);
  if (b.has_unsigned && !chk::first_integer_wrap(b.ir, facts, names).empty()) return true;
  return !chk::first_unmet_obligation(b.ir, facts, names, obligations).empty();
}

// ---- random instances --------------------------------------------------------------------------

class random_source {
 public:
  explicit random_source(unsigned seed) : rng_(seed) {}
  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  int between(int lo, int hi) { return lo + pick(hi - lo + 1); }  // inclusive
  bool chance(int percent) { return pick(100) < percent; }
  template <class V>
  void shuffle(V& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(pick(static_cast<int>(i)))]);
  }

 private:
  std::mt19937 rng_;
};

// The launches an instance is judged on: grids of 1 to 3 blocks (1 where the kernel names no block
// coordinate), and small ranges of the parameters it uses, at most `cap` of them.
std::vector<launch> launches_of(const built& b, random_source& r, std::size_t cap) {
  std::vector<long long> ns{0}, sizes{1 << 20};
  std::vector<double> ps{0};
  if (b.uses_n) {
    ns.clear();
    for (long long v = -2; v <= 9; ++v) ns.push_back(v);
    for (long long v : {b.bx - 1, b.bx, b.bx + 1, 2 * b.bx - 1, 2 * b.bx, 2 * b.bx + 1, 3 * b.bx, 4 * b.bx, 13, 16, 24})
      if (std::find(ns.begin(), ns.end(), v) == ns.end()) ns.push_back(v);
  }
  if (b.uses_p) ps = {-1.5, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.5, 7.5, b.bx - 0.5, b.bx + 0.5, 2 * b.bx - 0.5};
  if (b.uses_size) sizes = {0, 1, 2, 3, 4, 5, 7, 8, b.bx, 2LL * b.bx, 3LL * b.bx + 1, 16, 24};
  std::vector<launch> all;
  const int grids = b.grid_dims == 0 ? 1 : 3;
  for (int g = 1; g <= grids; ++g)
    for (long long n : ns)
      for (double p : ps)
        for (long long s : sizes) all.push_back({g, n, p, s});
  if (all.size() > cap) {
    r.shuffle(all);
    all.resize(cap);
  }
  return all;
}

// How an instance fared: a verdict, and what brute force found.
struct tally {
  const char* name;
  int instances = 0, accepted = 0, rejected = 0, racy = 0;
  int unsound = 0;        // accepted, brute force conflicts
  int imprecise = 0;      // rejected, brute force finds no conflict
  int launches = 0, launches_refused = 0;  // E102 / E104 / E106
  int with_obligations = 0;                // accepted under launch obligations (E106 checks them)
  int obligation_refused = 0, obligation_refused_clean = 0;  // launches refused by E106 alone; of them, clean
  int unsigned_instances = 0, unsigned_accepted = 0, float_instances = 0, float_accepted = 0;
  void print() const {
    std::printf(
        "lemma %s: %d instances, %d accepted, %d rejected; brute force conflicts in %d; accepted but conflicting: %d; "
        "rejected without conflict: %d (imprecision %.1f%% of rejections); %d accepted under launch obligations; "
        "%d launches refused by E106 alone, of which %d would have run clean; %d launches judged, %d refused by E102/E104/E106; unsigned instances %d (%d accepted), floating-point instances %d (%d accepted)\n",
        name, instances, accepted, rejected, racy, unsound, imprecise, rejected > 0 ? 100.0 * imprecise / rejected : 0.0,
        with_obligations, obligation_refused, obligation_refused_clean, launches - launches_refused, launches_refused, unsigned_instances, unsigned_accepted, float_instances, float_accepted);
  }
};

// Index generation by digits: variables, each with a stride and a sign, in the order of a mixed
// radix (the stride of each the span of those before it), perturbed so that many instances collide.
struct digit {
  digit(expr v, int e, long long s) : var(std::move(v)), extent(e), scale(s) {}
  expr var;
  int extent = 1;         // how many values it takes (approximately, for a run-time loop)
  long long scale = 1;    // the distance between its consecutive values (a loop's step)
  expr stride;
  long long stride_value = 1;  // when numeric
  bool numeric = true;
  bool negative = false;
  bool is_block = false;
};

class generator {
 public:
  explicit generator(unsigned seed) : r_(seed) {}
  random_source& random() { return r_; }

  // Lemma 1: a mixed-radix index over threads, loops and (maybe) the block, under random guards.
  instance injective() {
    start();
    std::vector<digit> digits = thread_and_loop_digits();
    const bool with_block = r_.chance(55);
    r_.shuffle(digits);
    if (with_block) {
      digit blk{Bid(), 3, 1};
      blk.is_block = true;
      if (r_.chance(80)) digits.push_back(blk);
      else digits.insert(digits.begin() + r_.pick(static_cast<int>(digits.size()) + 1), blk);
    }
    assign_strides(digits);
    in_.index = index_of(digits);
    guards(digits);
    return in_;
  }

  // Lemma 2: b * S + f(t, i), S a constant or a parameter.
  instance separated() {
    start();
    std::vector<digit> digits = thread_and_loop_digits();
    r_.shuffle(digits);
    assign_strides(digits);
    long long span = 0;  // of f, if numeric
    bool numeric = true;
    for (const digit& d : digits) {
      numeric = numeric && d.numeric;
      if (d.numeric) span += d.stride_value * d.scale * (d.extent - 1);
    }
    expr f = index_of(digits);
    expr S;
    switch (r_.pick(7)) {
      case 0: case 1: S = K(numeric ? span + 1 : in_.bx); break;        // the window, exactly
      case 2: S = K(numeric ? std::max<long long>(1, span) : 2); break;  // one short
      case 3: S = K(numeric ? span + 1 + r_.pick(4) : 8); break;
      case 4: S = N(); break;
      case 5: S = add(Size(), K(r_.between(-2, 4), unsigned_literal())); break;
      default: S = K(r_.between(1, 2 * in_.bx)); break;
    }
    expr b = Bid();
    switch (r_.pick(5)) {
      case 0: b = sub(K(r_.between(0, 3), unsigned_literal()), Bid()); break;  // blocks in reverse
      case 1: b = add(Bid(), K(r_.between(-2, 2))); break;
      default: break;
    }
    expr window = r_.chance(50) ? mul(b, S) : mul(S, b);
    in_.index = r_.chance(50) ? add(window, f) : r_.chance(50) ? add(f, window) : sub(window, neg(f));
    if (r_.chance(55)) guards(digits, S);
    return in_;
  }

  // Lemma 3: an index of any shape (division, modulo, min, max, masks, shifts, parameters, sizes)
  // under guards that mention it, its parts, or other expressions.
  instance bounded() {
    start();
    const int nloops = r_.pick(100) < 40 ? 0 : r_.chance(65) ? 1 : 2;
    for (int l = 0; l < nloops; ++l) {
      loop_spec s;
      switch (r_.pick(6)) {
        case 0: s = {K(0), N(), K(1)}; break;                   // run-time trip count
        case 1: s = {T(), Size(), K(in_.bx)}; break;            // strided over the buffer
        case 2: s = {K(0), l > 0 ? add(L(l - 1), K(1)) : K(r_.between(1, 4)), K(1)}; break;  // triangular
        case 3:  // pairs: from 2t (or 3t) by twice (three times) the block, so every value is a multiple
          if (r_.chance(50)) {
            const int g = r_.chance(70) ? 2 : 3;
            // Off the lattice by a constant, sometimes (2t + 1 is odd: no multiple of 2 any more).
            const expr start = r_.chance(50) ? mul(T(), K(g)) : add(mul(T(), K(g)), K(r_.between(0, g)));
            s = {start, r_.chance(50) ? Size() : N(), K(g * in_.bx)};
            break;
          }
          [[fallthrough]];
        default: {
          const int lo = r_.between(-2, 2), st = r_.chance(70) ? 1 : 2, trips = r_.between(1, 5);
          s = {K(lo), K(lo + st * (trips - 1) + 1), K(st)};
        }
      }
      in_.loops.push_back(s);
    }
    nloops_ = nloops;
    in_.index = any_expr(3);
    // The loop's next element (`in[i + 1]` in a loop of pairs): bounded through the loop's lattice.
    if (nloops > 0 && r_.chance(20)) in_.index = add(L(nloops - 1), K(r_.between(0, 2)));
    const int ng = r_.pick(100) < 20 ? 0 : r_.between(1, 3);
    for (int g = 0; g < ng; ++g) {
      expr subject;
      switch (r_.pick(6)) {
        case 0: case 1: subject = in_.index; break;  // the index itself: when(i < size, out[i])
        case 2: subject = part_of(in_.index); break;
        case 5: subject = regrouped_part(in_.index); break;  // `b + c < n` over the index `a + b + c`
        case 3: subject = atom(); break;
        default: subject = any_expr(2);
      }
      expr limit;
      switch (r_.pick(6)) {
        case 0: limit = Size(); break;
        case 1: limit = N(); break;
        case 2: limit = sub(Size(), K(r_.between(0, 3), unsigned_literal())); break;
        case 3: limit = r_.chance(30) ? P() : K(r_.between(-1, 6)); break;
        default: limit = K(r_.between(-2, 24), unsigned_literal());
      }
      expr c = compare(subject, limit);
      if (r_.chance(15)) c = bin(r_.chance(60) ? ir_op::logical_and : ir_op::logical_or, c, compare(atom(), K(r_.between(0, 8))));
      if (r_.chance(8)) c = bin(ir_op::equal, subject, K(r_.between(0, 8)));
      if (r_.chance(6)) c = negation(c);
      add_guard(c, r_.chance(15));
    }
    // Floating-point values under guards: the parameter bounded on both sides, or an expression
    // with a floating-point constant next to the same shape with an integer one.
    if (float_mode_ && r_.chance(60)) {
      static constexpr ir_op ops[] = {ir_op::less, ir_op::less_equal, ir_op::greater, ir_op::greater_equal};
      if (r_.chance(50)) {
        add_guard(bin(ops[r_.pick(2) + 2], P(), K(r_.between(-2, 1))), false);
        add_guard(bin(ops[r_.pick(2)], P(), K(r_.between(1, 6))), false);
        switch (r_.pick(3)) {
          case 0: in_.index = mul(P(), K(r_.between(1, 3))); break;
          case 1: add_guard(bin(ir_op::less, T(), P()), false); in_.index = T(); break;
          default: in_.index = add(P(), K(r_.between(0, 3))); break;
        }
      } else {
        const long long c = r_.between(0, 3);
        const double frac = 0.5 + 0.25 * r_.pick(2);
        add_guard(bin(ops[r_.pick(2)], add(T(), K(c)), K(r_.between(1, in_.bx))), false);
        add_guard(bin(ops[r_.pick(2) + 2], add(T(), K(c)), K(r_.between(-1, 1))), false);
        in_.index = mul(add(T(), F(static_cast<double>(c) + frac)), K(r_.between(1, 3)));
      }
    }
    return in_;
  }

 private:
  void start() {
    in_ = instance{};
    in_.bx = std::vector<int>{2, 3, 4, 5, 6, 7, 8, 12, 16}[static_cast<std::size_t>(r_.pick(9))];
    if (r_.chance(15)) {
      in_.bx = r_.between(2, 4);
      in_.by = r_.between(2, 3);
    }
    unsigned_mode_ = r_.chance(18);
    float_mode_ = r_.chance(12);
    in_.n_unsigned = unsigned_mode_ && r_.chance(50);
    nloops_ = 0;
  }
  bool unsigned_literal() { return unsigned_mode_ && r_.chance(35); }

  // The threads' and loops' digits; the loops are created here.
  std::vector<digit> thread_and_loop_digits() {
    std::vector<digit> digits;
    digits.emplace_back(T(0), in_.bx, 1);
    if (in_.by > 1) digits.emplace_back(T(1), in_.by, 1);
    const int nloops = r_.pick(100) < 25 ? 0 : r_.chance(60) ? 1 : 2;
    for (int l = 0; l < nloops; ++l) {
      const int trips = r_.between(1, 5);
      const int lo = r_.chance(60) ? 0 : r_.between(-2, 2);
      const int st = r_.chance(70) ? 1 : r_.between(2, 3);
      loop_spec s{K(lo), K(lo + st * (trips - 1) + 1 + r_.pick(st)), K(st)};
      if (r_.chance(8) && !in_.n_unsigned) s.hi = N();                                 // run-time trip count
      else if (l > 0 && r_.chance(8)) s.hi = add(L(l - 1), K(r_.between(1, 3)));  // triangular
      in_.loops.push_back(s);
      digits.emplace_back(L(l), trips, st);
    }
    nloops_ = nloops;
    return digits;
  }

  void assign_strides(std::vector<digit>& digits) {
    expr stride = K(1);
    long long value = 1;
    bool numeric = true;
    for (digit& d : digits) {
      d.stride = stride;
      d.stride_value = value;
      d.numeric = numeric;
      if (d.is_block) {
        switch (r_.pick(6)) {
          case 0: d.stride = N(); d.numeric = false; break;
          case 1: d.stride = Size(); d.numeric = false; break;
          case 2: if (numeric) { d.stride_value = value + r_.between(-1, 2); d.stride = K(std::max<long long>(d.stride_value, 1)); } break;
          default: break;
        }
      } else if (numeric && r_.chance(25)) {  // perturbed: often collides
        switch (r_.pick(5)) {
          case 0: d.stride_value = std::max<long long>(1, value - 1); break;
          case 1: d.stride_value = value + 1; break;
          case 2: d.stride_value = value * 2; break;
          case 3: d.stride_value = std::max<long long>(1, value / 2); break;
          default: d.stride_value = 1; break;
        }
        d.stride = K(d.stride_value);
      } else if (numeric && value == in_.bx && r_.chance(25)) {
        d.stride = leaf(kind::bdim, 0);  // block_dim.x
      }
      d.negative = r_.chance(35);
      // The next stride: past this digit's span.
      if (d.is_block) {
        stride = mul(d.stride, leaf(kind::gdim));
        numeric = false;
      } else if (d.numeric) {
        value = d.stride_value * d.scale * d.extent;
        stride = K(value);
      } else {
        stride = mul(d.stride, K(d.scale * d.extent));
      }
      if (float_mode_ && r_.chance(20)) {
        stride = P();
        numeric = false;
      }
    }
  }

  // One digit's contribution, sign included, in one of several spellings.
  expr term(const digit& d, bool negative) {
    const expr& v = d.var;
    const expr& c = d.stride;
    const bool one = d.numeric && d.stride_value == 1;
    if (!negative) {
      switch (r_.pick(3)) {
        case 0: return mul(v, c);
        case 1: return mul(c, v);
        default: return one ? v : mul(c, v);
      }
    }
    switch (r_.pick(6)) {
      case 0: return one ? neg(v) : neg(mul(c, v));
      case 1: return sub(K(0), mul(v, c));
      case 2: return mul(sub(K(r_.between(0, d.extent), unsigned_literal()), v), c);  // (m - v) * c
      case 3: return mul(c, sub(K(r_.between(0, d.extent)), v));
      case 4: return d.numeric ? mul(v, K(-d.stride_value)) : neg(mul(v, c));
      default: return neg(one ? v : mul(v, c));
    }
  }

  expr sum_of(const std::vector<digit>& digits, const std::vector<bool>& negative) {
    expr acc;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      const bool neg_i = negative[i];
      if (!acc) acc = term(digits[i], neg_i);
      else if (r_.chance(35)) acc = sub(acc, term(digits[i], !neg_i));  // acc - (-x)
      else acc = r_.chance(80) ? add(acc, term(digits[i], neg_i)) : add(term(digits[i], neg_i), acc);
    }
    return acc ? acc : K(0);
  }

  expr index_of(std::vector<digit>& digits) {
    std::vector<bool> negative;
    for (const digit& d : digits) negative.push_back(d.negative);
    std::vector<digit> order = digits;
    std::vector<std::size_t> perm(order.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
    if (r_.chance(50)) r_.shuffle(perm);  // the terms in any order
    std::vector<digit> written;
    std::vector<bool> written_negative;
    for (std::size_t i : perm) {
      written.push_back(order[i]);
      written_negative.push_back(negative[i]);
    }
    expr e = sum_of(written, written_negative);
    // global_id for t + b * bx, where the index has exactly that.
    if (r_.chance(5)) e = add(e, sub(Gid(), add(mul(Bid(), K(in_.bx)), T())));
    if (r_.chance(40)) e = r_.chance(50) ? add(e, K(r_.between(-5, 5), unsigned_literal())) : sub(e, K(r_.between(-3, 5)));
    if (!float_mode_ && r_.chance(4)) e = bin(r_.chance(50) ? ir_op::div : ir_op::mod, e, K(r_.between(2, 3)));  // not affine
    if (!float_mode_ && r_.chance(3)) e = bin(ir_op::shl, e, K(1));
    if (float_mode_ && r_.chance(25)) e = add(e, mul(P(), K(0)));
    return e;
  }

  expr compare(expr x, expr y) {
    static constexpr ir_op ops[] = {ir_op::less, ir_op::less_equal, ir_op::greater, ir_op::greater_equal};
    const ir_op op = ops[r_.pick(4)];
    return r_.chance(70) ? bin(op, std::move(x), std::move(y)) : bin(op, std::move(y), std::move(x));
  }

  void add_guard(expr c, bool negated) {
    const int need = loops_in(c) + 1;
    in_.guards.push_back({c, negated, r_.between(need, nloops_)});
  }

  // Guards over the digits: partial sums of the index (the low digits), with the index's signs or
  // others, against constants, the parameter or the size; single variables; pins.
  void guards(const std::vector<digit>& digits, expr window = nullptr) {
    const int ng = r_.pick(100) < 25 ? 0 : r_.between(1, 3);
    for (int g = 0; g < ng; ++g) {
      expr subject;
      long long span = 0;
      const int kind_of = r_.pick(10);
      if (kind_of < 6 && !digits.empty()) {
        std::vector<digit> low;
        std::vector<bool> negative;
        const int m = r_.between(1, static_cast<int>(digits.size()));
        for (int i = 0; i < m; ++i) {
          low.push_back(digits[static_cast<std::size_t>(i)]);
          negative.push_back(r_.chance(70) ? digits[static_cast<std::size_t>(i)].negative : !digits[static_cast<std::size_t>(i)].negative);
          if (low.back().numeric) span += low.back().stride_value * low.back().scale * (low.back().extent - 1);
        }
        subject = sum_of(low, negative);
        if (window && r_.chance(30)) subject = add(mul(Bid(), window), subject);
      } else if (kind_of < 8 && !digits.empty()) {
        const digit& d = digits[static_cast<std::size_t>(r_.pick(static_cast<int>(digits.size())))];
        subject = d.var;
        span = d.scale * (d.extent - 1);
      } else if (kind_of < 9) {
        subject = add(mul(K(r_.between(-3, 3)), T()), mul(K(r_.between(-3, 3)), nloops_ > 0 ? L(0) : Bid()));
        span = 3LL * in_.bx;
      } else {  // a pin
        const expr c = r_.chance(50) ? bin(ir_op::equal, T(), K(r_.between(0, in_.bx - 1))) : bin(ir_op::equal, Bid(), K(0));
        add_guard(c, false);
        continue;
      }
      expr limit;
      switch (r_.pick(8)) {
        case 0: case 1: limit = N(); break;
        case 2: limit = sub(N(), K(r_.between(0, 2), unsigned_literal())); break;
        case 3: limit = Size(); break;
        case 4: limit = float_mode_ ? P() : K(r_.between(-2, static_cast<int>(std::min<long long>(span, 40)) + 2)); break;
        default: limit = K(r_.between(-2, static_cast<int>(std::min<long long>(span, 40)) + 2), unsigned_literal());
      }
      expr c = compare(subject, limit);
      if (r_.chance(10)) c = bin(ir_op::logical_and, c, compare(T(), K(r_.between(0, in_.bx))));
      if (r_.chance(5)) c = negation(c);
      add_guard(c, r_.chance(12));
    }
  }

  // Lemma 3's expressions.
  expr atom() {
    switch (r_.pick(12)) {
      case 0: case 1: return T();
      case 2: return in_.by > 1 ? T(1) : Gid();
      case 3: return Bid();
      case 4: return Gid();
      case 5: case 6: return nloops_ > 0 ? L(r_.pick(nloops_)) : T();
      case 7: return N();
      case 8: return float_mode_ ? P() : Size();
      case 9: return float_mode_ && r_.chance(50) ? F(r_.between(-4, 8) + 0.5) : K(r_.between(-3, 12), unsigned_literal());
      case 10: return Size();
      default: return K(r_.between(0, 5));
    }
  }
  // The terms of a sum or difference, with their signs.
  static void terms_of(const expr& e, int sign, std::vector<std::pair<expr, int>>& out) {
    if (e->k == kind::bin && (e->op == ir_op::add || e->op == ir_op::sub)) {
      terms_of(e->a, sign, out);
      terms_of(e->b, e->op == ir_op::add ? sign : -sign, out);
      return;
    }
    out.emplace_back(e, sign);
  }
  // Some of the index's terms (two or more, not all), summed in another grouping and order, or
  // negated: what launch's regrouping bounds the index through. Falls back to part_of.
  expr regrouped_part(const expr& index) {
    std::vector<std::pair<expr, int>> terms;
    terms_of(index, 1, terms);
    if (terms.size() < 3) return part_of(index);
    std::vector<std::pair<expr, int>> chosen;
    for (const auto& t : terms)
      if (r_.chance(50)) chosen.push_back(t);
    if (chosen.size() < 2 || chosen.size() == terms.size()) chosen.assign(terms.end() - 2, terms.end());
    for (std::size_t i = chosen.size(); i > 1; --i) std::swap(chosen[i - 1], chosen[static_cast<std::size_t>(r_.pick(static_cast<int>(i)))]);
    const int flip = r_.chance(25) ? -1 : 1;
    expr sum = chosen[0].second * flip > 0 ? chosen[0].first : neg(chosen[0].first);
    for (std::size_t i = 1; i < chosen.size(); ++i) sum = chosen[i].second * flip > 0 ? add(sum, chosen[i].first) : sub(sum, chosen[i].first);
    return sum;
  }
  expr part_of(const expr& e) {
    if (e->k != kind::bin || r_.chance(30)) return e;
    return part_of(r_.chance(50) || !e->b ? e->a : e->b);
  }
  expr any_expr(int depth) {
    if (depth == 0 || r_.chance(25)) return atom();
    const expr x = any_expr(depth - 1);
    switch (r_.pick(15)) {
      case 0: case 1: return add(x, any_expr(depth - 1));
      case 2: case 3: return sub(x, any_expr(depth - 1));
      case 4: return mul(x, K(r_.between(-3, 4)));
      case 5: return mul(x, any_expr(depth - 1));
      case 6: return bin(ir_op::div, x, K(r_.between(1, 4)));
      case 7: return bin(ir_op::mod, x, r_.chance(70) ? K(r_.between(1, 8)) : add(Size(), K(1)));
      case 8: return bin(ir_op::min, x, r_.chance(50) ? K(r_.between(-2, 20)) : any_expr(depth - 1));
      case 9: return bin(ir_op::max, x, r_.chance(50) ? K(r_.between(-2, 4)) : any_expr(depth - 1));
      case 10: return bin(ir_op::bit_and, x, K(r_.between(0, 15)));
      case 11: return bin(ir_op::shl, x, K(r_.between(0, 2)));
      case 12: return bin(ir_op::shr, x, K(r_.between(0, 2)));
      case 13:
        if (r_.chance(50)) {
          // A select whose condition speaks of an arm: a clamp (`x < l ? x : l - 1`, `x >= 0 ? x : 0`)
          // or its wrong twin, which only the condition's narrowing can bound.
          const expr limit = r_.chance(50) ? any_expr(0) : K(r_.between(-2, 12));
          const ir_op cmp = r_.chance(50) ? ir_op::less : ir_op::greater_equal;
          const expr other = r_.chance(60) ? add(limit, K(r_.between(-2, 1))) : any_expr(depth - 1);
          return r_.chance(50) ? sel(bin(cmp, x, limit), x, other) : sel(bin(cmp, x, limit), other, x);
        }
        [[fallthrough]];
      default:
        // The complement, alone or as a mask that clears bits (`t & ~j`, a bitonic sort's
        // partner): in unsigned int it is 2^32 - 1 - x, no wrap.
        if (r_.chance(30)) return r_.chance(50) ? complement(x) : bin(ir_op::bit_and, x, complement(any_expr(depth - 1)));
        return neg(x);
    }
  }

  random_source r_;
  instance in_;
  int nloops_ = 0;
  bool unsigned_mode_ = false, float_mode_ = false;
};

bool shifts_are_sane(const built& b) {
  // Lemma 3's random trees may shift a float or by a float; C++ rejects those: skip such instances.
  for (const dsl::ir_expr& e : b.ir.exprs)
    if ((e.op == ir_op::shl || e.op == ir_op::shr || e.op == ir_op::mod || e.op == ir_op::bit_and) &&
        (b.ir.exprs[static_cast<std::size_t>(e.a)].is_float || b.ir.exprs[static_cast<std::size_t>(e.b)].is_float || e.is_float))
      return false;
  return true;
}

// Does any floating-point node reach the index?
bool float_in(const built& b, int id) {
  if (id < 0) return false;
  const dsl::ir_expr& e = b.ir.exprs[static_cast<std::size_t>(id)];
  return e.is_float || float_in(b, e.a) || float_in(b, e.b);
}

constexpr int max_reports = 4;

// Lemma 1 and the checker half of lemma 2: W010 on the single store against brute force.
void judge_w010(const built& b, random_source& r, tally& t, int& reports) {
  ++t.instances;
  const chk::finding f = chk::analyse(b.ir, chk::block_shape{b.bx, b.by, 1});
  REQUIRE((f.code == warden::diagnostic::code::none || f.code == warden::diagnostic::code::W010));
  const bool accepted = f.code == warden::diagnostic::code::none;
  (accepted ? t.accepted : t.rejected) += 1;
  t.with_obligations += accepted && !f.obligations.empty();
  if (b.has_unsigned) {
    ++t.unsigned_instances;
    t.unsigned_accepted += accepted;
  }
  if (b.uses_p || b.has_float) {
    ++t.float_instances;
    t.float_accepted += accepted;
  }
  // A floating-point value is no integer symbol: an index made with one is never proved.
  if (accepted && float_in(b, b.index)) {
    ++t.unsound;
    if (reports++ < max_reports) FAIL_CHECK("lemma " << t.name << ": accepted an index computed in floating point\n" << show(b));
  }
  std::vector<execution> runs;
  bool racy = false;
  for (const launch& l : launches_of(b, r, 60)) {
    ++t.launches;
    if (refused(b, l, f.obligations)) {
      ++t.launches_refused;
      if (!refused(b, l)) {  // refused by E106 alone: would the launch have been clean?
        ++t.obligation_refused;
        runs.clear();
        machine m(b, l);
        REQUIRE(m.run(runs));
        t.obligation_refused_clean += !conflict(runs, false);
      }
      continue;
    }
    runs.clear();
    machine m(b, l);
    REQUIRE(m.run(runs));
    if (auto c = conflict(runs, false)) {
      racy = true;
      if (accepted) {
        ++t.unsound;
        if (reports++ < max_reports)
          FAIL_CHECK("lemma " << t.name << ": W010 accepted, but two threads store to one element\n"
                              << show(b) << "launch " << show(l, b) << "\n  " << show(c->first, b) << "\n  " << show(c->second, b));
      }
      break;
    }
  }
  t.racy += racy;
  t.imprecise += !accepted && !racy;
}


// Lemma 3 on `count` random instances: what first_overrun and index_interval say against brute force.
// Misses in launches of instances with a floating-point value are counted apart; `float_only`
// judges only those instances.
struct bounds_result {
  int instances = 0, skipped = 0, judged = 0, refused = 0, silent = 0, reporting = 0, overran = 0;
  int missed = 0, interval_missed = 0, imprecise = 0, unsigned_judged = 0, float_judged = 0;
  int float_missed = 0, float_interval_missed = 0;
  int tape_judged = 0, tape_missed = 0;  // lemma 4
  std::string first_float_miss;
};

bounds_result run_bounds(unsigned seed, int count, bool float_only) {
  generator gen(seed);
  bounds_result res;
  int reports = 0;
  std::vector<execution> runs;
  for (int i = 0; i < count; ++i) {
    const built b = build(gen.bounded());
    const bool floating = b.uses_p || b.has_float;
    if (!shifts_are_sane(b) || (float_only && !floating)) {
      ++res.skipped;
      continue;
    }
    ++res.instances;
    random_source& r = gen.random();
    for (int k = 0; k < 6; ++k) {
      launch l;
      l.grid = b.grid_dims == 0 ? 1 : r.between(1, 3);
      l.n = r.between(-3, 24);
      l.p = r.between(-6, 16) * 0.5 + (r.chance(50) ? 0.25 : 0.0);
      l.size = r.between(0, 48);
      if (refused(b, l)) {
        ++res.refused;
        continue;
      }
      runs.clear();
      machine m(b, l);
      if (!m.run(runs)) continue;
      // Sizes to try: the one drawn, and (where the size decides nothing) the tightest ones.
      std::vector<long long> sizes{l.size};
      if (!b.uses_size && !runs.empty()) {
        long long hi = runs.front().index;
        for (const execution& e : runs) hi = std::max(hi, e.index);
        if (hi >= 0) {
          sizes.push_back(hi + 1);
          sizes.push_back(hi);
        }
      }
      for (long long size : sizes) {
        launch at = l;
        at.size = size;
        if (refused(b, at)) {
          ++res.refused;
          continue;
        }
        ++res.judged;
        res.unsigned_judged += b.has_unsigned;
        res.float_judged += floating;
        const chk::launch_facts facts = facts_of(b, at);
        const std::string overrun = chk::first_overrun(b.ir, facts, names, {"buffer", "value", "value"});
        chk::interval_evaluator ev(b.ir, facts);
        const dsl::ir_access& a = b.ir.accesses[static_cast<std::size_t>(b.access)];
        const chk::interval iv = ev.index_interval(a.index, a.guard_begin, a.guard_end);
        const execution* outside = nullptr;
        const execution* beyond = nullptr;
        for (const execution& e : runs) {
          if (outside == nullptr && (e.index < 0 || e.index >= size)) outside = &e;
          if (beyond == nullptr && (e.raw < iv.lo || e.raw > iv.hi)) beyond = &e;
        }
        // Lemma 4: the footprints' tape (check/tape.hpp), given this launch's numbers as launch's
        // shared listing gives them: where it knows every index, each one an execution takes lies
        // between the lowest and highest it lists (the tiles' E101 and their meetings rest on it).
        // Programs with floating-point values too: the tape must leave those unknown.
        {
          const chk::launch_numbers numbers = chk::launch_impl::numbers_of(facts);
          chk::block_shape shape{b.bx, b.by, 1};
          shape.numbers = &numbers;
          const chk::footprint listed = chk::footprint_of(b.ir, shape, a);
          if (listed.all_known && listed.row_lo <= listed.row_hi) {  // (a global access: no pass is kept, the rows are)
            ++res.tape_judged;
            for (const execution& e : runs) {
              if (e.raw >= listed.row_lo && e.raw <= listed.row_hi) continue;
              ++res.tape_missed;
              if (reports++ < max_reports)
                FAIL_CHECK("lemma 4: the tape lists indices [" << listed.row_lo << ", " << listed.row_hi << "], but an execution takes "
                                                              << e.raw << "\n" << show(b) << "launch " << show(at, b) << "\n  " << show(e, b));
              break;
            }
          }
        }
        (overrun.empty() ? res.silent : res.reporting) += 1;
        res.overran += outside != nullptr;
        res.imprecise += !overrun.empty() && outside == nullptr;
        const std::string text = show(b) + "launch " + show(at, b) + "\n  " +
                                 (outside != nullptr ? show(*outside, b) : beyond != nullptr ? show(*beyond, b) : std::string()) +
                                 "\n  index_interval [" + std::to_string(iv.lo) + ", " + std::to_string(iv.hi) + "]";
        const bool miss = overrun.empty() && outside != nullptr;
        if (floating && !float_only) {
          res.float_missed += miss;
          res.float_interval_missed += beyond != nullptr;
          if ((miss || beyond != nullptr) && res.first_float_miss.empty()) res.first_float_miss = text;
          continue;
        }
        if (miss) {
          ++res.missed;
          if (reports++ < max_reports)
            FAIL_CHECK("lemma 3: first_overrun says nothing, but an execution leaves out[0, " << size << ")\n" << text);
        }
        if (beyond != nullptr) {
          ++res.interval_missed;
          if (reports++ < max_reports) FAIL_CHECK("lemma 3: index_interval misses an index the access takes\n" << text);
        }
      }
    }
  }
  return res;
}

// A single store under the given guards (all outside loops), as an instance.
built single_store(int bx, std::vector<expr> guards, expr index) {
  instance in;
  in.bx = bx;
  for (expr& g : guards) in.guards.push_back({std::move(g), false, 0});
  in.index = std::move(index);
  return build(in);
}

// Does first_overrun pass the launch although brute force leaves [0, size)? (The known issues.)
void expect_bounds_hold(const built& b, double p, long long size) {
  launch l;
  l.p = p;
  l.size = size;
  std::vector<execution> runs;
  machine m(b, l);
  REQUIRE(m.run(runs));
  const execution* outside = nullptr;
  for (const execution& e : runs)
    if (outside == nullptr && (e.index < 0 || e.index >= size)) outside = &e;
  REQUIRE(outside != nullptr);  // the kernel leaves out
  INFO(show(b) << "launch " << show(l, b) << "\n  " << show(*outside, b));
  CHECK_FALSE(chk::first_overrun(b.ir, facts_of(b, l), names, {"buffer", "value", "value"}).empty());  // E101 must refuse it
}
}  // namespace

TEST_CASE("lemma 1: injectivity (W010 on one store) against brute force", "[lemma][injectivity]") {
  const auto start = std::chrono::steady_clock::now();
  generator gen(20261124u);
  tally t{"injectivity"};
  int reports = 0;
  for (int i = 0; i < 10000; ++i) {
    const built b = build(gen.injective());
    judge_w010(b, gen.random(), t, reports);
  }
  t.print();
  std::printf("  (%.2f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  CHECK(t.unsound == 0);
  CHECK(t.accepted > 300);  // the generator reaches the proofs, not only rejections
  CHECK(t.racy > 300);
}

TEST_CASE("lemma 2: separation between blocks against brute force", "[lemma][separation]") {
  const auto start = std::chrono::steady_clock::now();
  generator gen(777u);
  tally t{"separation (W010)"};
  int reports = 0;
  // blocks_separated itself: windows b * S + f with f spanning fewer than S elements, guards aside.
  int claims = 0, direct_rejected = 0, direct_unsound = 0, direct_imprecise = 0;
  for (int i = 0; i < 10000; ++i) {
    const built b = build(gen.separated());
    judge_w010(b, gen.random(), t, reports);
    chk::block_shape shape{b.bx, b.by, 1};
    shape.grid_dims = b.grid_dims;
    const chk::linear_form form = chk::index_form(b.ir, shape, b.access);
    const bool apart = shape.grid_dims > 0 && chk::blocks_separated(b.ir, shape, form, form);
    (apart ? claims : direct_rejected) += 1;
    bool meet = false;
    std::vector<execution> runs;
    for (const launch& l : launches_of(b, gen.random(), 40)) {
      if (refused(b, l)) continue;
      runs.clear();
      machine m(b, l);
      if (!m.run(runs, true)) continue;  // guards ignored: a run-time loop may not end
      if (auto c = conflict(runs, true)) {
        meet = true;
        if (apart) {
          ++direct_unsound;
          if (reports++ < max_reports)
            FAIL_CHECK("lemma 2: blocks_separated claims disjoint windows, but two blocks meet\n"
                       << show(b) << "launch " << show(l, b) << " (guards ignored)\n  " << show(c->first, b) << "\n  "
                       << show(c->second, b));
        }
        break;
      }
    }
    direct_imprecise += !apart && !meet;
  }
  t.print();
  std::printf(
      "lemma separation (blocks_separated, guards ignored): %d instances, %d claimed apart, %d not; claimed apart but two "
      "blocks meet: %d; not claimed though no two blocks meet: %d (imprecision %.1f%%)\n",
      claims + direct_rejected, claims, direct_rejected, direct_unsound, direct_imprecise,
      direct_rejected > 0 ? 100.0 * direct_imprecise / direct_rejected : 0.0);
  std::printf("  (%.2f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  CHECK(t.unsound == 0);
  CHECK(direct_unsound == 0);
  CHECK(claims > 200);
}

TEST_CASE("lemma 8: the launch's sets read as constraints are the sets isl's reader builds", "[lemma][integer_set]") {
  // Every set the launches of 120 kernels of lemma 1's and 120 of lemma 2's generators ask, kept
  // by one memo scope, read both ways (check/launch/linear_set_text.hpp; the random formulas of
  // every operator are linear_set_text_test's).
  generator gen(8080u);
  tally t{"sets"};
  int reports = 0;
  const chk::launch_impl::integer_set_memo memo;
  for (int i = 0; i < 120; ++i) {
    judge_w010(build(gen.injective()), gen.random(), t, reports);
    judge_w010(build(gen.separated()), gen.random(), t, reports);
  }
  warden_test::comparison_tally sets;
  for (const auto& [text, answer] : memo.answers) {
    if (text.find(" minus ") != std::string::npos) continue;  // decide_set_difference's key, not a set
    warden_test::compare_readers(text, warden_test::tuple_size(text), sets);
  }
  std::printf("lemma 8: %d sets read as constraints, %d left to isl's reader, %d with a point\n", sets.read, sets.not_read,
              sets.nonempty);
  CHECK(sets.read > 2000);
  CHECK(sets.not_read * 100 <= sets.read);  // the reader covers what presburger.hpp writes
  CHECK(sets.nonempty > 400);
}

TEST_CASE("lemma 3: launch-time bounds (first_overrun, index_interval) and lemma 4: the footprints tape, against brute force", "[lemma][bounds]") {
  const auto start = std::chrono::steady_clock::now();
  const bounds_result r = run_bounds(4242u, 10000, false);
  std::printf(
      "lemma bounds: %d instances (%d skipped: shifts or masks of floats), %d launches judged (%d refused by E102/E104), "
      "first_overrun silent on %d, reporting on %d; brute force overran on %d; silent but overran: %d; index outside "
      "index_interval: %d; reported without overrun: %d (imprecision %.1f%% of reports); unsigned launches %d, "
      "floating-point launches %d, of which silent but overran: %d, index outside index_interval: %d (judged "
      "separately below)\n",
      r.instances, r.skipped, r.judged, r.refused, r.silent, r.reporting, r.overran, r.missed, r.interval_missed, r.imprecise,
      r.reporting > 0 ? 100.0 * r.imprecise / r.reporting : 0.0, r.unsigned_judged, r.float_judged, r.float_missed,
      r.float_interval_missed);
  if (!r.first_float_miss.empty()) std::printf("  first floating-point miss:\n%s\n", r.first_float_miss.c_str());
  std::printf("  (%.2f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::printf("lemma 4 (the footprints' tape): %d launches where it knows every index, %d with an index it does not list\n",
              r.tape_judged, r.tape_missed);
  CHECK(r.missed == 0);
  CHECK(r.interval_missed == 0);
  CHECK(r.float_missed == 0);
  CHECK(r.float_interval_missed == 0);
  CHECK(r.silent > 3000);
  CHECK(r.tape_missed == 0);
  CHECK(r.tape_judged > 1000);
}

// ---- floating-point values in the launch-time bounds (found by lemma 3, fixed) ---------------------
//
// The launch-time bounds (bounds.hpp) narrowed a guarded expression by integer steps: `x < 3` gave
// x <= 2. For a floating-point x that is wrong: p = 2.9 passes `p < 3`, and the index `2 * p` is 5.8,
// element 5 once converted to int. The same held for what the narrowed value bounds in turn (`t < p`
// after `p < 3` gave t <= 1, but p = 2.5 lets t = 2 run), and for `p > -1` (p = -0.5, `2 * p` is
// element -1). Second cause: narrowed expressions are recognised by their rendering, and a
// floating-point constant renders as its integer part: `t + 2.9f` is "thread_id.x + 2", so the guard
// `t + 2 < 5 && t + 2 >= 0` (integers) bounded it to [0, 4]. Now a comparison with a floating-point
// side narrows nothing, and a floating-point expression has no integer interval.

TEST_CASE("regression: a strict comparison does not narrow a floating-point parameter as an integer",
          "[lemma][bounds][float]") {
  // when(p >= 0 && p < 3) out[2 * p], out of 5 elements, p = 2.9: element 5.
  expect_bounds_hold(single_store(4, {bin(ir_op::greater_equal, P(), K(0)), bin(ir_op::less, P(), K(3))}, mul(K(2), P())), 2.9, 5);
  // when(p < 3) when(t < p) out[t], out of 2 elements, p = 2.5: t = 2 stores.
  expect_bounds_hold(single_store(4, {bin(ir_op::less, P(), K(3)), bin(ir_op::less, T(), P())}, T()), 2.5, 2);
  // when(p > -1 && p < 3) out[2 * p], p = -0.5: element -1.
  expect_bounds_hold(single_store(4, {bin(ir_op::greater, P(), K(-1)), bin(ir_op::less, P(), K(3))}, mul(K(2), P())), -0.5, 5);
}

TEST_CASE("regression: a floating-point expression is not narrowed by an integer one that renders alike",
          "[lemma][bounds][float]") {
  // when(t + 2 < 5 && t + 2 >= 0) out[(t + 2.9f) * 2], block<8>, out of 9: t = 2 reaches element 9.
  expect_bounds_hold(single_store(8, {bin(ir_op::less, add(T(), K(2)), K(5)), bin(ir_op::greater_equal, add(T(), K(2)), K(0))},
                                  mul(add(T(), F(2.9)), K(2))),
                     0, 9);
}

TEST_CASE("lemma 3 on instances with floating-point values", "[lemma][bounds][float]") {
  const bounds_result r = run_bounds(4242u, 10000, true);
  std::printf("lemma bounds, floating-point instances: %d instances, %d launches judged, silent but overran: %d, "
              "index outside index_interval: %d\n",
              r.instances, r.judged, r.missed, r.interval_missed);
  CHECK(r.missed == 0);
  CHECK(r.interval_missed == 0);
}

// ---- lemma 5: bounds through measured contents (launch/contents.hpp) -------------------------------
// An index or a loop bound that loads the read-only buffer d (in<int>, parameter 3): gathers
// `out[f(d[t])]`, CSR loops `for i from d[t] below d[t + 1]: out[g(i)]`, and loads through loads
// (`d[d[t]]`, `d[i]` for such an i, which may leave d). Launch bounds every load of d by the least
// and greatest element it measured. Brute force runs each launch with d's contents; the promise:
// when first_overrun is silent, no execution leaves out or d. Random contents, some sorted from 0
// (row pointers), some not; out's size drawn, and the tightest sizes for the executions.
namespace {
const std::vector<std::string> names_with_d{"out", "n", "p", "d"};

instance with_data(random_source& r) {
  instance in;
  in.bx = r.between(1, 6);
  const auto offset = [&] { return K(r.between(-2, 3)); };
  switch (r.pick(3)) {
    case 0: {  // a gather, its load kept inside d by a guard
      in.guards.push_back({bin(ir_op::less, T(), DSize()), false, 0});
      switch (r.pick(5)) {
        case 0: in.index = D(T()); break;
        case 1: in.index = add(D(T()), offset()); break;
        case 2: in.index = mul(D(T()), K(r.between(1, 3))); break;
        case 3: in.index = sub(Size(), D(T())); break;
        default: in.index = add(D(T()), T()); break;
      }
      if (r.chance(25)) in.guards.push_back({bin(ir_op::less, D(T()), Size()), false, 0});  // on data: narrows nothing
      break;
    }
    case 1: {  // CSR: a loop between two loaded row pointers
      in.guards.push_back({bin(ir_op::less, add(T(), K(1)), DSize()), false, 0});
      in.loops.push_back({D(T()), D(add(T(), K(1))), K(1)});
      switch (r.pick(4)) {
        case 0: in.index = L(0); break;
        case 1: in.index = add(L(0), offset()); break;
        case 2: in.index = D(L(0)); break;  // a column: its load may leave d
        default: in.index = sub(L(0), D(T())); break;
      }
      break;
    }
    default: {  // a load through a load
      in.guards.push_back({bin(ir_op::less, T(), DSize()), false, 0});
      in.index = r.chance(50) ? D(D(T())) : add(D(D(T())), offset());
      break;
    }
  }
  return in;
}

chk::launch_facts facts_with_data(const built& b, const launch& l) {
  chk::launch_facts f = facts_of(b, l);
  f.values.resize(4);
  f.sizes = {l.size, 0, 0, static_cast<long long>(l.data.size())};
  f.contents.resize(4);
  if (!l.data.empty()) {
    chk::contents_range c{l.data[0], l.data[0], 0, 0};
    for (std::size_t i = 1; i < l.data.size(); ++i) {
      if (l.data[i] < c.lo) c.lo = l.data[i], c.lo_at = static_cast<long long>(i);
      if (l.data[i] > c.hi) c.hi = l.data[i], c.hi_at = static_cast<long long>(i);
    }
    f.contents[3] = c;
  }
  return f;
}
}  // namespace

TEST_CASE("lemma 5: bounds through measured contents (first_overrun) against brute force", "[lemma][bounds][contents]") {
  random_source r(5151u);
  int judged = 0, silent = 0, overran = 0, missed = 0, imprecise = 0, reports = 0;
  for (int i = 0; i < 3000; ++i) {
    const built b = build(with_data(r));
    for (int k = 0; k < 4; ++k) {
      launch l;
      const int dn = r.between(0, 9);
      for (int j = 0; j < dn; ++j) l.data.push_back(r.between(-2, 12));
      if (r.chance(50)) {  // row pointers: sorted, from 0
        std::sort(l.data.begin(), l.data.end());
        if (!l.data.empty()) l.data.front() = 0;
        for (std::size_t j = 1; j < l.data.size(); ++j) l.data[j] = std::max(l.data[j], l.data[j - 1]);
      }
      // Sizes: one drawn, and the tightest for the executions at a size that decides nothing.
      std::vector<long long> sizes{r.between(0, 16)};
      {
        std::vector<execution> runs;
        machine m(b, l);
        if (!m.run(runs)) continue;
        if (!runs.empty()) {
          long long hi = runs.front().index;
          for (const execution& e : runs) hi = std::max(hi, e.index);
          sizes.push_back(hi + 1);
          sizes.push_back(hi);
        }
      }
      for (long long size : sizes) {
        launch at = l;
        at.size = size;
        std::vector<execution> runs;
        machine m(b, at);
        if (!m.run(runs)) continue;
        ++judged;
        const std::string overrun = chk::first_overrun(b.ir, facts_with_data(b, at), names_with_d, {"buffer", "value", "value", "in"});
        bool outside = m.load_outside_;
        for (const execution& e : runs) outside = outside || e.index < 0 || e.index >= size;
        overran += outside;
        if (overrun.empty()) ++silent;
        else if (!outside) ++imprecise;
        if (overrun.empty() && outside) {
          ++missed;
          if (reports++ < max_reports) {
            std::string contents;
            for (long long v : at.data) contents += std::to_string(v) + " ";
            FAIL_CHECK("lemma 5: first_overrun says nothing, but an execution leaves out or d\n"
                       << show(b) << "launch " << show(at, b) << ", d = [ " << contents << "]");
          }
        }
      }
    }
  }
  std::printf("lemma 5 (measured contents): %d launches judged, first_overrun silent on %d; brute force overran on %d; "
              "silent but overran: %d; reported without overrun: %d\n",
              judged, silent, overran, missed, imprecise);
  CHECK(missed == 0);
  CHECK(silent > 3000);  // the contents do bound: without them every launch here is refused
}

// ---- lemma 6: a scatter through a buffer stated distinct -------------------------------------------
// `given(distinct(d), when(e < d.size() [&& e >= 0], out[d[e]] = ...))` for index shapes e over
// thread and block ids, some injective (global id, reversed, doubled, shifted) and some not (halved,
// the thread id on a grid of several blocks, clamped). The checker judges the store at e
// (dsl::ir_access::permuted_by); launch refuses d with two equal elements (E107) and values outside
// out (E101). Brute force runs every launch that passes, on d's contents (permutations of
// [0, size) and contents with repeats), and looks for two threads storing to one element.
namespace {
chk::launch_facts facts_with_distinct(const built& b, const launch& l) {
  chk::launch_facts f = facts_with_data(b, l);
  if (f.contents[3]) {
    std::vector<std::pair<long long, long long>> order;
    for (std::size_t i = 0; i < l.data.size(); ++i) order.push_back({l.data[i], static_cast<long long>(i)});
    std::sort(order.begin(), order.end());
    f.contents[3]->distinct_known = true;
    f.contents[3]->distinct = true;
    for (std::size_t i = 1; i < order.size(); ++i)
      if (order[i].first == order[i - 1].first) f.contents[3]->distinct = false;
  }
  return f;
}
}  // namespace

TEST_CASE("lemma 6: a scatter through a buffer stated distinct against brute force", "[lemma][contents][distinct]") {
  random_source r(6161u);
  int accepted = 0, rejected = 0, launches = 0, refused_e107 = 0, ran = 0, unsound = 0, reports = 0;
  for (int i = 0; i < 2000; ++i) {
    instance in;
    in.bx = r.between(1, 6);
    in.distinct = true;
    expr e;
    switch (r.pick(8)) {
      case 0: e = Gid(); break;
      case 1: e = T(); break;  // not injective across blocks
      case 2: e = bin(ir_op::div, Gid(), K(2)); break;
      case 3: e = add(Gid(), K(r.between(-1, 2))); break;
      case 4: e = sub(K(r.between(4, 12)), Gid()); break;
      case 5: e = mul(Gid(), K(2)); break;
      case 6: e = Bid(); break;
      default: e = bin(ir_op::min, Gid(), K(r.between(2, 6))); break;
    }
    in.guards.push_back({bin(ir_op::less, e, DSize()), false, 0});
    in.guards.push_back({bin(ir_op::greater_equal, e, K(0)), false, 0});
    in.index = D(e);
    const built b = build(in);
    const chk::finding f = chk::analyse(b.ir, chk::block_shape{b.bx, b.by, 1});
    REQUIRE((f.code == warden::diagnostic::code::none || f.code == warden::diagnostic::code::W010));
    if (f.code != warden::diagnostic::code::none) {
      ++rejected;
      continue;
    }
    ++accepted;
    for (int k = 0; k < 8; ++k) {
      launch l;
      l.grid = b.grid_dims == 0 ? 1 : r.between(1, 3);
      const int n = r.between(1, 12);
      l.size = n;
      for (int j = 0; j < n; ++j) l.data.push_back(j);
      for (int j = n - 1; j > 0; --j) std::swap(l.data[static_cast<std::size_t>(j)], l.data[static_cast<std::size_t>(r.pick(j + 1))]);
      if (r.chance(40) && n > 1) l.data[static_cast<std::size_t>(r.pick(n))] = l.data[static_cast<std::size_t>(r.pick(n))];  // maybe a repeat
      ++launches;
      const chk::launch_facts facts = facts_with_distinct(b, l);
      if (!chk::first_false_fact(b.ir, facts, names_with_d).empty()) {
        ++refused_e107;
        continue;
      }
      if (!chk::first_unmet_obligation(b.ir, facts, names_with_d, f.obligations).empty() ||
          !chk::first_overrun(b.ir, facts, names_with_d, {"buffer", "value", "value", "in"}).empty())
        continue;
      std::vector<execution> runs;
      machine m(b, l);
      REQUIRE(m.run(runs));
      ++ran;
      bool outside = m.load_outside_;
      for (const execution& x : runs) outside = outside || x.index < 0 || x.index >= l.size;
      const auto c = conflict(runs, false);
      if (outside || c) {
        ++unsound;
        std::string contents;
        for (long long v : l.data) contents += std::to_string(v) + " ";
        if (reports++ < max_reports)
          FAIL_CHECK("lemma 6: accepted and launched, but " << (outside ? "an access leaves its buffer" : "two threads store to one element")
                                                            << "\n" << show(b) << "launch " << show(l, b) << ", d = [ " << contents << "]");
      }
    }
  }
  std::printf("lemma 6 (distinct): %d instances accepted, %d rejected (W010); %d launches, %d refused by E107 (a repeat), "
              "%d run; accepted, launched and racing or overrunning: %d\n",
              accepted, rejected, launches, refused_e107, ran, unsound);
  CHECK(unsound == 0);
  CHECK(accepted > 500);
  CHECK(rejected > 200);
  CHECK(refused_e107 > 500);
}

// Lemma 7: rules.hpp's gcd_excludes, the step that proves f(v) and f(v') + d apart because every
// coefficient is a multiple of g and d is not. Its coefficients may be polynomials of the launch's
// numbers (a grid-stride loop's counter has 2 * 256 * grid_dim.x in w::vectors<2>(a)[i]): random
// linear forms over a thread id, a block id and a loop counter, with coefficients made of
// constants, grid_dim.x and a value parameter, and random offsets d; brute force looks for
// differences of the variables in [-12, 12] and values grid_dim.x in 1..4, the parameter in -3..3
// for which the sum is d. A claim of "never" with such a solution is unsound.
TEST_CASE("lemma 7: the gcd test on coefficients that are polynomials, against brute force", "[lemma][gcd]") {
  std::mt19937 random(2027u);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  const int variables[] = {chk::symbol::thread(0), chk::symbol::block(0), chk::symbol::counter(0)};
  const int grid = chk::symbol::grid_dim(0), param = chk::symbol::param_value(0);
  int claims = 0, refusals = 0, unsound = 0, reports = 0;
  for (int instance = 0; instance < 4000; ++instance) {
    chk::linear_form f;
    const int count = pick(1, 3);
    for (int v = 0; v < count; ++v) {
      const long long c = pick(-8, 8), c2 = pick(-8, 8);
      chk::polynomial coefficient;
      switch (pick(0, 3)) {
        case 0: coefficient = chk::polynomial::constant(c); break;
        case 1: coefficient = chk::polynomial::of_symbol(grid, c); break;
        case 2: coefficient = chk::polynomial::of_symbol(param, c) + chk::polynomial::constant(c2); break;
        default: coefficient = chk::polynomial::of_symbol(grid, c) * chk::polynomial::of_symbol(param, 1) + chk::polynomial::constant(c2);
      }
      if (!coefficient.terms.empty()) f.add(variables[v], coefficient);
    }
    long long d = pick(-12, 12);
    if (d == 0) d = 5;
    const bool never = chk::gcd_excludes(f, d, chk::facts{}, chk::varying{});
    (never ? claims : refusals) += 1;
    if (!never) continue;
    // Brute force: the coefficients' values for each launch, then every difference in [-12, 12].
    bool found = false;
    for (int gx = 1; gx <= 4 && !found; ++gx)
      for (int p = -3; p <= 3 && !found; ++p) {
        std::vector<long long> values;
        for (const auto& t : f.terms) {
          long long value = 0;
          for (const auto& part : t.coefficient.terms) {
            long long product = part.coefficient;
            for (int s : part.m.s)
              if (s >= 0) product *= s == grid ? gx : p;
            value += product;
          }
          values.push_back(value);
        }
        std::vector<int> diff(values.size(), -12);
        while (!found) {
          long long sum = 0;
          for (std::size_t i = 0; i < values.size(); ++i) sum += values[i] * diff[i];
          found = sum == d;
          std::size_t k = 0;
          while (k < diff.size() && ++diff[k] > 12) diff[k++] = -12;
          if (k == diff.size()) break;
        }
      }
    if (found && reports++ < 5) FAIL_CHECK("lemma 7: gcd_excludes claims the forms never differ by " << d << ", but they do");
    unsound += found;
  }
  std::printf("lemma 7 (gcd test): %d instances claimed apart, %d not; claimed apart but meeting: %d\n", claims, refusals, unsound);
  CHECK(unsound == 0);
  CHECK(claims > 500);
  CHECK(refusals > 500);
}
