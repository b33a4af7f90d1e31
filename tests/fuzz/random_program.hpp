#pragma once
// Random kernel programs for the differential fuzzer: a small statement tree over one inout
// buffer (parameter 0), one in buffer (parameter 1), a value n (parameter 2, int or unsigned), a
// value p (parameter 3, float) and shared tiles (one around the body, more in nested scopes of
// other sizes, siblings included), with affine and non-affine indices, negated terms, unsigned and
// floating-point arithmetic, guards, static loops, barriers, atomics, calls of a function that keeps
// state between calls, and data-dependent indices. The same tree is (1) lowered to the value-level description the checker reads, exactly
// as the kernel language describes itself, and (2) run the way the cpu backend runs kernels (a
// block at a time, a statement at a time for all threads), with every access recorded.

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <warden/backend/recording.hpp>
#include <warden/dsl/ir.hpp>
#include <warden/dsl/local_values.hpp>

namespace warden::fuzz {

inline constexpr int buffer_size = 64;
inline constexpr long long max_trips = 4096;  // the interpreter's patience with one loop

enum class node : unsigned char {
  constant, uconstant, thread, block, global, loop_var, local_var, param_n, param_p, load_in, load_inout, load_tile, call,
  binary
};

// The C++ type of an expression, as the kernel language computes it: thread, block and global ids
// and loop variables are int, constants long long (uconstant: unsigned), n int or unsigned, p float.
enum class type : unsigned char { i32, u32, i64, f32 };

// The usual arithmetic conversions on these four types.
constexpr type common(type a, type b) {
  if (a == type::f32 || b == type::f32) return type::f32;
  if (a == type::i64 || b == type::i64) return type::i64;  // long long holds every unsigned int
  if (a == type::u32 || b == type::u32) return type::u32;
  return type::i32;
}

constexpr bool is_comparison(dsl::ir_op op) { return op >= dsl::ir_op::less && op <= dsl::ir_op::not_equal; }

struct expr {
  node kind = node::constant;
  long long value = 0;  // constant; loop level for loop_var, local_var; the tile (program::tiles) of load_tile
  dsl::ir_op op = dsl::ir_op::add;
  std::shared_ptr<expr> a, b;  // binary operands; the index of a load; the argument of a call
  type computed = type::i64;   // the type the operation is carried out in (a leaf: its type)
  type result() const { return is_comparison(op) && kind == node::binary ? type::i32 : computed; }
};
using expr_ptr = std::shared_ptr<expr>;

enum class stmt_kind : unsigned char {
  store_inout, store_tile, sink, atomic_add, sync, when, loop, scope, stride_loop, local, assign_local
};

struct stmt {
  stmt_kind kind = stmt_kind::sync;
  expr_ptr index, value;  // stores and atomics; sink: value
  expr_ptr condition;     // when
  expr_ptr lo;            // loop: its start, n (null: 0); the loop counts in int, as for_range does
  int trips = 0, level = 0;  // loop (index: a run-time trip count instead of trips); scope, local: its nesting level
  // local: a long long at `level` initialised from `value`, visible in body; assign_local: local = value
  // stride_loop: for j = t; j < condition; j += trips, body[0] once per j (per thread: no barrier inside)
  int tile = 0;           // store_tile: the tile stored to; scope: the tile it declares
  bool trusted = false;   // under trusted(...): the checker gives up pairs of trusted accesses only
  std::vector<stmt> body, otherwise;
};

// The declared type of n: value<int>, value<unsigned>, and the conversions a careless host call
// makes (adversarial: every scalar conversion): short and unsigned short (promoted to int in
// arithmetic), bool, long long. Launch converts the argument to it, and so does the interpreter.
enum class n_decl : unsigned char { i32, u32, i16, u16, boolean, i64 };

// The value a kernel receives for argument `v` given to a value<n's type> parameter.
constexpr long long received(n_decl d, long long v) {
  switch (d) {
    case n_decl::i32: return static_cast<int>(v);
    case n_decl::u32: return static_cast<unsigned>(v);
    case n_decl::i16: return static_cast<short>(v);
    case n_decl::u16: return static_cast<unsigned short>(v);
    case n_decl::boolean: return static_cast<bool>(v);
    case n_decl::i64: return v;
  }
  return v;
}
constexpr bool never_negative(n_decl d) { return d == n_decl::u32 || d == n_decl::u16 || d == n_decl::boolean; }

struct program {
  int block = 8;
  int tile = 18;               // the size of tile 0, around the whole body
  std::vector<int> tiles;      // every tile's size, by declaration (tiles[0] == tile)
  n_decl n_type = n_decl::i32;
  bool extended = false;       // uses unsigned, float, calls, nested tiles or trusted (the bridge leaves these out)
  // A loop or local opened at the level of an enclosing one, as `for_range(k, ...)` with an outer
  // scope's context writes it (W032: the checker must refuse it; the run shadows the outer one).
  bool reopened = false;
  // A walk through inout (generator::walk): inout starts with values 0 .. 7, so that what the
  // kernel stores into it, not what it held, decides whether its loads stay inside.
  bool small_inout = false;
  std::vector<stmt> body;
};

// ---- generation ----------------------------------------------------------------------------

class generator {
 public:
  explicit generator(unsigned seed) : rng_(seed) {}

  program make() { return make(false); }

  // A program around a box filter's halo tile (halo_tile): the shape whose forgotten halo the
  // launch must refuse with W022 (issue 54), with random statements before or after it.
  program make_halo() { return make(true); }

 private:
  program make(bool halo) {
    program p;
    const int blocks[] = {4, 8, 16};
    p.block = blocks[pick(3)];
    p.tile = 2 * p.block + 2;
    p.tiles = {p.tile};
    const n_decl decls[] = {n_decl::i32, n_decl::i32, n_decl::i32, n_decl::u32, n_decl::u32, n_decl::i16, n_decl::u16,
                            n_decl::boolean, n_decl::i64};
    p.n_type = decls[pick(9)];
    block_ = p.block;
    // Arithmetic promotes short, unsigned short and bool to int.
    n_type_ = p.n_type == n_decl::u32 ? type::u32 : p.n_type == n_decl::i64 ? type::i64 : type::i32;
    levels_.clear();
    locals_.clear();
    tile_scope_ = {0};
    tiles_ = &p.tiles;
    extended_ = p.n_type != n_decl::i32;
    reopened_ = false;
    const int n = halo ? pick(2) : 1 + pick(5);
    for (int i = 0; i < n; ++i) p.body.push_back(statement(0));
    if (halo) p.body.insert(p.body.begin() + pick(static_cast<int>(p.body.size()) + 1), halo_tile(0));
    else if (pick(8) == 0) p.body.insert(p.body.begin() + pick(static_cast<int>(p.body.size()) + 1), sweep(0));
    else if (pick(6) == 0) {
      p.body.insert(p.body.begin() + pick(static_cast<int>(p.body.size()) + 1), walk(0));
      p.small_inout = true;
    }
    p.extended = extended_;
    p.reopened = reopened_;
    return p;
  }

  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  // The level a nested loop or local binds: its own (depth + 1), or now and then the level of an
  // enclosing loop or local, as a scope opened with an outer context binds it.
  int level_of_new_scope(int depth) {
    std::vector<int> open = levels_;
    open.insert(open.end(), locals_.begin(), locals_.end());
    if (open.empty() || pick(12) != 0) return depth + 1;
    reopened_ = extended_ = true;
    return open[static_cast<std::size_t>(pick(static_cast<int>(open.size())))];
  }
  expr_ptr leaf(node k, long long v = 0) {
    auto e = std::make_shared<expr>();
    e->kind = k;
    e->value = v;
    switch (k) {
      case node::thread: case node::block: case node::global: case node::loop_var: e->computed = type::i32; break;
      case node::local_var: e->computed = type::i64; extended_ = true; break;
      case node::uconstant: e->computed = type::u32; extended_ = true; break;
      case node::param_n: e->computed = n_type_; break;
      case node::param_p: e->computed = type::f32; extended_ = true; break;
      case node::call: extended_ = true; break;
      default: e->computed = type::i64;  // constants, loads (of long long), calls
    }
    return e;
  }
  expr_ptr bin(dsl::ir_op op, expr_ptr a, expr_ptr b) {
    auto e = std::make_shared<expr>(expr{node::binary, 0, op, a, b});
    e->computed = common(a->result(), b->result());
    return e;
  }
  expr_ptr c(long long v) { return leaf(node::constant, v); }
  expr_ptr u(long long v) { return leaf(node::uconstant, v); }
  expr_ptr call_of(expr_ptr argument) {
    auto e = leaf(node::call);
    e->a = argument;
    return e;
  }
  expr_ptr tile_load(expr_ptr at) {
    auto e = leaf(node::load_tile, tile_scope_.back());
    e->a = at;
    return e;
  }
  int tile_size() const { return (*tiles_)[static_cast<std::size_t>(tile_scope_.back())]; }

  // (2 - i) * block + t: the loop's chunks in reverse order (a negated term).
  expr_ptr reversed_chunk() {
    return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, bin(dsl::ir_op::sub, c(2), leaf(node::loop_var, levels_.back())), c(block_)),
               leaf(node::thread));
  }
  // i * block + t: the loop's chunks in order.
  expr_ptr forward_chunk() {
    return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::loop_var, levels_.back()), c(block_)), leaf(node::thread));
  }

  // A block count a loop or a guard around barriers may use (adversarial: uniformity through loads
  // and locals). Uniform: n, a tile element at a constant index read after the phase that stored
  // it, in[b], inout[b] when nothing stores inout, a local never assigned after a uniform start.
  // Not: a tile element per thread, one read in the phase that stores it, an assigned local.
  expr_ptr block_count() {
    switch (pick(6)) {
      case 1: extended_ = true; return tile_load(c(pick(3)));
      case 2: extended_ = true; return tile_load(bin(dsl::ir_op::mod, leaf(node::thread), c(2)));
      case 3: extended_ = true; return load_in_at(leaf(node::block));
      case 4: { extended_ = true; auto e = leaf(node::load_inout); e->a = leaf(node::block); return e; }
      case 5: if (!locals_.empty()) return leaf(node::local_var, locals_[static_cast<std::size_t>(pick(static_cast<int>(locals_.size())))]);
        [[fallthrough]];
      default: return leaf(node::param_n);
    }
  }

  expr_ptr some_local() { return leaf(node::local_var, locals_[static_cast<std::size_t>(pick(static_cast<int>(locals_.size())))]); }

  // An index through a local (adversarial: the launch reads a local as the value it holds there,
  // dsl/local_values.hpp; an assignment in a branch, a loop or a later trip must not be missed).
  expr_ptr local_index() {
    auto t = leaf(node::thread);
    switch (pick(4)) {
      case 0: return some_local();
      case 1: return bin(dsl::ir_op::add, some_local(), t);
      case 2: return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, some_local(), c(block_)), t);
      default: return bin(dsl::ir_op::sub, some_local(), t);
    }
  }

  // `x = value` for a local in scope: constants, the thread, the local itself stepped (an
  // induction variable when in a loop), a loop's counter, data.
  stmt assignment() {
    stmt s;
    s.kind = stmt_kind::assign_local;
    s.level = locals_[static_cast<std::size_t>(pick(static_cast<int>(locals_.size())))];
    auto self = leaf(node::local_var, s.level);
    switch (pick(14)) {
      case 11: s.value = bin(dsl::ir_op::shl, self, c(1)); break;       // a doubling offset
      case 12: s.value = bin(dsl::ir_op::shr, self, c(1)); break;       // a halving one
      case 13: s.value = bin(dsl::ir_op::mul, self, c(2)); break;
      case 8: s.value = leaf(node::param_n); break;                     // 40 in bounds, 70000 not
      case 9: s.value = c(buffer_size - 1 - pick(block_ + 1)); break;   // near the end: x + t may pass it
      case 10: s.value = bin(dsl::ir_op::mul, self, leaf(node::thread)); break;  // not a step: unknown after a trip
      case 0: s.value = c(pick(block_ + 2) - 1); break;
      case 1: s.value = leaf(node::thread); break;
      case 2: s.value = bin(dsl::ir_op::add, self, c(1 + pick(2))); break;
      case 3: s.value = bin(dsl::ir_op::add, self, leaf(node::thread)); break;
      case 4: s.value = bin(dsl::ir_op::sub, self, c(1)); break;
      case 5: s.value = levels_.empty() ? bin(dsl::ir_op::sub, c(block_ - 1), leaf(node::thread))
                                        : bin(dsl::ir_op::add, leaf(node::loop_var, levels_.back()), leaf(node::thread));
        break;
      case 6: s.value = bin(dsl::ir_op::mod, load_in_at(leaf(node::thread)), c(block_)); break;
      default: s.value = bin(dsl::ir_op::add, self, leaf(node::param_n)); break;
    }
    extended_ = true;
    return s;
  }

  expr_ptr index() {
    auto t = leaf(node::thread);
    if (!locals_.empty() && pick(8) == 0) return local_index();
    switch (pick(24)) {
      case 18:  // t - 1u: thread 0 wraps (adversarial: unsigned arithmetic)
        return bin(dsl::ir_op::sub, t, u(1));
      case 19:  // a window of n per block, n int or unsigned
        return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_n)), t);
      case 20:  // a window of p per block, p a float (adversarial: floating-point parameters)
        return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_p)), t);
      case 21:  // n - 1u - t: wraps for n == 0
        return bin(dsl::ir_op::sub, bin(dsl::ir_op::sub, leaf(node::param_n), u(1)), t);
      case 22:  // what a stateful function returns: data (adversarial: stateful calls)
        return bin(dsl::ir_op::mod, call_of(t), c(block_));
      case 23:  // the innermost tile's size as a stride (tiles of different sizes)
        return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), c(tile_size())), t);
      case 16:  // a window of n per block, chunks reversed inside it (adversarial: negated terms)
        if (!levels_.empty()) return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_n)), reversed_chunk());
        return t;
      case 17:  // the same in forward order
        if (!levels_.empty()) return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_n)), forward_chunk());
        return bin(dsl::ir_op::sub, c(0), t);
      case 0: return c(pick(4));
      case 1: return t;
      case 2: return bin(dsl::ir_op::add, t, c(1 + pick(2)));
      case 3: return bin(dsl::ir_op::sub, c(block_ - 1), t);
      case 4: return leaf(node::global);
      case 5: return bin(dsl::ir_op::add, leaf(node::global), c(1));
      case 6: return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), c(block_)), bin(dsl::ir_op::sub, c(block_ - 1), t));
      case 7: return bin(dsl::ir_op::div, t, c(2));
      case 8: return bin(dsl::ir_op::mod, t, c(2 + pick(3)));
      case 9: return bin(dsl::ir_op::bit_xor, t, c(1 << pick(3)));
      case 10: return bin(dsl::ir_op::mul, t, c(2));
      case 11: return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, t, c(2)), c(1));
      case 12:
        if (!levels_.empty()) return bin(dsl::ir_op::add, t, bin(dsl::ir_op::mul, leaf(node::loop_var, levels_.back()), c(block_)));
        return t;
      case 13:
        if (!levels_.empty()) return leaf(node::loop_var, levels_.back());
        return leaf(node::block);
      case 14: return bin(dsl::ir_op::mod, leaf(node::load_in, 0), c(block_));  // data
      default: return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::global), c(2)), c(pick(2)));
    }
  }
  expr_ptr load_in_at(expr_ptr i) { auto e = leaf(node::load_in); e->a = i; return e; }
  expr_ptr fix_loads(expr_ptr e) {  // a data index loads in[t]
    if (e->kind == node::load_in && !e->a) e->a = leaf(node::thread);
    if (e->a) fix_loads(e->a);
    if (e->b) fix_loads(e->b);
    return e;
  }
  expr_ptr value() {
    switch (pick(4)) {
      case 0: return c(pick(10));
      case 1: return load_in_at(leaf(node::global));
      case 2: { auto e = leaf(node::load_inout); e->a = fix_loads(index()); return e; }
      default: return tile_load(fix_loads(index()));
    }
  }
  expr_ptr condition() {
    auto t = leaf(node::thread);
    switch (pick(14)) {
      case 9:  // the wrapped lane guard t - 1u < c: thread 0 wraps and fails it
        return bin(dsl::ir_op::less, bin(dsl::ir_op::sub, t, u(1)), u(1 + pick(block_)));
      case 10:  // all but the last: t < n - 1u (n == 0 wraps)
        return bin(dsl::ir_op::less, leaf(node::global), bin(dsl::ir_op::sub, leaf(node::param_n), u(1)));
      case 11:  // a float bound: t < p (p = 2.5 lets t = 2 run)
        return bin(dsl::ir_op::less, t, leaf(node::param_p));
      case 12:  // a float window: b * p + t < n
        return bin(dsl::ir_op::less, bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_p)), t),
                   leaf(node::param_n));
      case 13:  // a stateful function decides: data
        return bin(dsl::ir_op::greater, call_of(t), c(3));
      case 6:  // a count loaded or held in a local, uniform or not; else data
        if (pick(2) == 0) return bin(dsl::ir_op::greater, block_count(), c(pick(20)));
        return bin(dsl::ir_op::greater, load_in_at(t), c(3));
      case 7:  // guards of a chunk, forward or reversed, whichever the index has (or not)
        if (!levels_.empty()) return bin(dsl::ir_op::less, forward_chunk(), leaf(node::param_n));
        return bin(dsl::ir_op::less, bin(dsl::ir_op::sub, c(block_ - 1), t), leaf(node::param_n));
      case 8:
        if (!levels_.empty()) return bin(dsl::ir_op::less, reversed_chunk(), leaf(node::param_n));
        return bin(dsl::ir_op::greater, bin(dsl::ir_op::sub, c(0), t), c(-3));
      case 0: return bin(dsl::ir_op::less, t, c(1 + pick(block_)));
      case 1: return bin(dsl::ir_op::equal, t, c(pick(block_)));
      case 2: return bin(dsl::ir_op::less, leaf(node::global), leaf(node::param_n));
      case 3: return bin(dsl::ir_op::equal, leaf(node::block), c(0));
      case 4: return bin(dsl::ir_op::greater, leaf(node::param_n), c(pick(3)));
      case 5: return bin(dsl::ir_op::equal, bin(dsl::ir_op::bit_and, t, c(1)), c(0));
      default: return bin(dsl::ir_op::greater, load_in_at(t), c(3));  // data
    }
  }
  stmt statement(int depth) {
    stmt s = plain_statement(depth);
    // A store, sink or atomic under trusted(...), next to plain ones (never a barrier: W030 gives
    // trusted barriers up, and the interpreter would report their divergence).
    if ((s.kind == stmt_kind::store_inout || s.kind == stmt_kind::store_tile || s.kind == stmt_kind::sink ||
         s.kind == stmt_kind::atomic_add) &&
        pick(8) == 0) {
      s.trusted = true;
      extended_ = true;
    }
    return s;
  }
  stmt plain_statement(int depth) {
    if (!locals_.empty() && pick(6) == 0) return assignment();
    stmt s;
    const int k = depth >= 2 ? pick(5) : pick(8);
    switch (k) {
      case 0: s.kind = stmt_kind::store_inout; s.index = fix_loads(index()); s.value = value(); break;
      case 1: s.kind = stmt_kind::store_tile; s.tile = tile_scope_.back(); s.index = fix_loads(index()); s.value = value(); break;
      case 2: s.kind = stmt_kind::sink; s.value = value(); break;
      case 3: s.kind = stmt_kind::atomic_add; s.index = fix_loads(index()); s.value = c(1); break;
      case 4: s.kind = stmt_kind::sync; break;
      case 5: case 6: {
        s.kind = stmt_kind::when;
        if (pick(4) == 0) {  // a window of width w per block under its guard t < w: w is n, p or a constant
          expr_ptr width = pick(3) == 0 ? c(block_) : leaf(pick(2) == 0 ? node::param_n : node::param_p);
          s.condition = bin(dsl::ir_op::less, leaf(node::thread), width);
          stmt store;
          store.kind = stmt_kind::store_inout;
          store.index = bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), width), leaf(node::thread));
          store.value = value();
          s.body.push_back(store);
          break;
        }
        s.condition = fix_loads(condition());
        const int n = 1 + pick(3);
        for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
        if (pick(3) == 0) s.otherwise.push_back(statement(depth + 1));
        break;
      }
      case 7:
        if (pick(4) == 0) return carried_local(depth);
        if (pick(2) == 0) {  // a local: a count from somewhere, perhaps reassigned by some threads
          s.kind = stmt_kind::local;
          s.level = level_of_new_scope(depth);
          s.value = pick(3) == 0 ? leaf(node::thread) : block_count();
          extended_ = true;
          locals_.push_back(s.level);
          if (pick(3) == 0) {
            stmt assign;
            assign.kind = stmt_kind::assign_local;
            assign.level = s.level;
            assign.value = c(pick(4));
            if (pick(2) == 0) {
              stmt guarded;
              guarded.kind = stmt_kind::when;
              guarded.condition = fix_loads(condition());
              guarded.body.push_back(assign);
              s.body.push_back(guarded);
            } else {
              s.body.push_back(assign);
            }
          }
          const int n = 1 + pick(3);
          for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
          locals_.pop_back();
          break;
        }
        if (pick(3) == 0) {  // a nested tile of another size (siblings when two scopes follow)
          s.kind = stmt_kind::scope;
          s.level = depth + 1;
          const int sizes[] = {3, block_, block_ + 3, 3 * block_};
          s.tile = static_cast<int>(tiles_->size());
          tiles_->push_back(sizes[pick(4)]);
          extended_ = true;
          tile_scope_.push_back(s.tile);
          const int n = 1 + pick(3);
          for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
          tile_scope_.pop_back();
          break;
        }
        [[fallthrough]];
      default: {
        s.kind = stmt_kind::loop;
        if (pick(5) == 0) {
          const int shape = pick(4);
          return shape == 0 ? tree_level_loop(depth) : shape == 1 ? shared_tree(depth) : shape == 2 ? halo_tile(depth) : sweep(depth);
        }
        if (pick(6) == 0) return stride_loop(depth);
        if (pick(6) == 0) return sweep(depth);
        s.trips = 1 + pick(3);
        if (pick(4) == 0) {  // a run-time trip count, count % 3: none for n == 3 (a barrier inside may not run)
          s.index = bin(dsl::ir_op::mod, block_count(), c(3));
          extended_ = true;
        }
        if (pick(10) == 0) {  // from n: value<unsigned> given -1 starts at -1, and launch must see that
          s.lo = leaf(node::param_n);
          extended_ = true;
        }
        s.level = level_of_new_scope(depth);
        levels_.push_back(s.level);
        const int n = 1 + pick(3);
        for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
        levels_.pop_back();
      }
    }
    return s;
  }

  // A local that a loop carries (adversarial for dsl/local_values.hpp): x = start; for i < trips
  // { accesses through x, an assignment to x (perhaps under a guard, perhaps a step), more
  // accesses }; accesses through x after the loop. A value from an earlier trip, one assigned in a
  // branch, or the last trip's taken for another must show as an overrun the launch missed.
  stmt carried_local(int depth) {
    stmt s;
    s.kind = stmt_kind::local;
    s.level = depth + 1;
    s.value = pick(2) == 0 ? c(pick(4)) : leaf(node::thread);
    extended_ = true;
    locals_.push_back(s.level);
    auto access = [&] {
      stmt a;
      if (pick(2) == 0) {
        a.kind = stmt_kind::store_inout;
        a.index = local_index();
        a.value = c(pick(10));
      } else {
        a.kind = stmt_kind::sink;
        a.value = load_in_at(local_index());
      }
      return a;
    };
    stmt loop;
    loop.kind = stmt_kind::loop;
    loop.level = depth + 2;
    loop.trips = 1 + pick(4);
    if (pick(3) == 0) loop.index = bin(dsl::ir_op::mod, leaf(node::param_n), c(3));  // no trip where n % 3 == 0
    levels_.push_back(loop.level);
    const int before = pick(3), after = pick(2);
    for (int i = 0; i < before; ++i) loop.body.push_back(access());
    stmt assign = assignment();
    if (pick(2) == 0) {
      stmt guarded;
      guarded.kind = stmt_kind::when;
      guarded.condition = fix_loads(condition());
      guarded.body.push_back(assign);
      if (pick(3) == 0) guarded.otherwise.push_back(assignment());
      loop.body.push_back(guarded);
    } else {
      loop.body.push_back(assign);
    }
    for (int i = 0; i < after; ++i) loop.body.push_back(access());
    levels_.pop_back();
    s.body.push_back(loop);
    if (pick(2) == 0) s.body.push_back(access());
    locals_.pop_back();
    return s;
  }

  // A tree reduction in global memory, one level per iteration: thread t < h adds element
  // b * block + t + h into b * block + t, h = (block / 2) >> i, then a barrier. Variants that race:
  // no barrier, or the guard t <= h (the last thread reads into the next block's window at i = 0).
  stmt tree_level_loop(int depth) {
    stmt s;
    s.kind = stmt_kind::loop;
    s.level = depth + 1;
    s.trips = block_ == 4 ? 2 : block_ == 8 ? 3 : 4;
    levels_.push_back(s.level);
    auto t = leaf(node::thread);
    auto i = leaf(node::loop_var, s.level);
    auto h = bin(dsl::ir_op::shr, c(block_ / 2), i);
    auto base = bin(dsl::ir_op::mul, leaf(node::block), c(block_));
    stmt level;
    level.kind = stmt_kind::when;
    level.condition = pick(4) == 0 ? bin(dsl::ir_op::less, t, bin(dsl::ir_op::add, h, c(1))) : bin(dsl::ir_op::less, t, h);
    stmt add;
    add.kind = stmt_kind::store_inout;
    add.index = bin(dsl::ir_op::add, base, t);
    add.value = leaf(node::load_inout);
    add.value->a = bin(dsl::ir_op::add, bin(dsl::ir_op::add, base, t), h);
    level.body.push_back(add);
    s.body.push_back(level);
    if (pick(4) != 0) s.body.push_back(stmt{});  // sync
    levels_.pop_back();
    return s;
  }

  // A sweep whose barrier opens each trip (a Blelloch scan's up-sweep): for i < trips { sync;
  // when(t < (block >> i), tile[...] = ...) } and then, with no barrier between, an access to the
  // tile. Only the last trip can meet what follows the loop (tile_listing.hpp): an access there
  // races with the last trip's threads, not with an earlier trip's. Sometimes the barrier closes
  // the trip instead, or there is none.
  // A walk through a buffer the kernel writes, as a B+tree descends (check/launch/written_ranges.hpp):
  // for a few trips { when(t == 0, inout[b] = V); [sync]; [in[inout[b] * s + t]]; [sync] }, then
  // perhaps in[inout[b] * s + t] after the loop. V: a constant (some past in's end), in[b] % m,
  // in[inout[b]] (a chain through the written buffer), inout[b] + 1 (a range that keeps growing),
  // in[b]. The barriers are left out now and then: the store then races with the loads (refused).
  stmt walk(int depth) {
    stmt loop;
    loop.kind = stmt_kind::loop;
    loop.level = depth + 1;
    loop.trips = 1 + pick(3);
    auto t = leaf(node::thread);
    auto slot = [&] {
      auto e = leaf(node::load_inout);
      e->a = leaf(node::block);
      return e;
    };
    auto read = [&] {
      stmt r;
      r.kind = stmt_kind::sink;
      r.value = load_in_at(bin(dsl::ir_op::add, bin(dsl::ir_op::mul, slot(), c(1 + pick(2))), t));
      return r;
    };
    stmt pick_slot;
    pick_slot.kind = stmt_kind::when;
    pick_slot.condition = bin(dsl::ir_op::equal, t, c(0));
    stmt st;
    st.kind = stmt_kind::store_inout;
    st.index = leaf(node::block);
    switch (pick(5)) {
      case 0: st.value = c(pick(70)); break;
      case 1: st.value = bin(dsl::ir_op::mod, load_in_at(leaf(node::block)), c(1 + pick(8))); break;
      case 2: st.value = load_in_at(slot()); break;
      case 3: st.value = bin(dsl::ir_op::add, slot(), c(1)); break;
      default: st.value = load_in_at(leaf(node::block)); break;
    }
    pick_slot.body.push_back(st);
    loop.body.push_back(pick_slot);
    if (pick(4) != 0) loop.body.push_back(stmt{});  // sync
    if (pick(2) == 0) loop.body.push_back(read());
    if (pick(4) != 0) loop.body.push_back(stmt{});  // sync
    if (pick(2) == 0) return loop;
    stmt around;  // the loop, then a read after it
    around.kind = stmt_kind::when;
    around.condition = bin(dsl::ir_op::less, c(0), c(1));
    around.body.push_back(loop);
    around.body.push_back(read());
    return around;
  }

  stmt sweep(int depth) {
    stmt s;
    s.kind = stmt_kind::scope;
    s.level = depth + 1;
    s.tile = static_cast<int>(tiles_->size());
    tiles_->push_back(5 * block_);
    extended_ = true;
    tile_scope_.push_back(s.tile);
    stmt loop;
    loop.kind = stmt_kind::loop;
    loop.level = depth + 2;
    loop.trips = 2 + pick(3);
    levels_.push_back(loop.level);
    auto t = leaf(node::thread);
    auto i = leaf(node::loop_var, loop.level);
    stmt level;
    level.kind = stmt_kind::when;
    level.condition = bin(dsl::ir_op::less, t, bin(dsl::ir_op::shr, c(block_), i));
    stmt st;
    st.kind = stmt_kind::store_tile;
    st.tile = s.tile;
    const int form = pick(3);
    // (each trip its own block of elements, or one element per trip, or the same elements)
    st.index = form == 0 ? bin(dsl::ir_op::add, t, bin(dsl::ir_op::mul, i, c(block_))) : form == 1 ? bin(dsl::ir_op::add, t, i)
                         : bin(dsl::ir_op::mul, t, c(2));
    st.value = pick(2) == 0 ? c(pick(10)) : tile_load(bin(dsl::ir_op::add, t, c(1)));
    level.body.push_back(st);
    const int where = pick(5);  // 0..2: the barrier opens the trip; 3: it closes it; 4: none
    if (where < 3) loop.body.push_back(stmt{});
    loop.body.push_back(level);
    if (where == 3) loop.body.push_back(stmt{});
    levels_.pop_back();
    s.body.push_back(loop);
    stmt after;
    after.kind = pick(2) == 0 ? stmt_kind::store_tile : stmt_kind::sink;
    after.tile = s.tile;
    expr_ptr at = pick(2) == 0 ? c(pick(5 * block_)) : pick(2) == 0 ? bin(dsl::ir_op::add, t, c(block_ * pick(5))) : index();
    if (after.kind == stmt_kind::store_tile) {
      after.index = fix_loads(at);
      after.value = c(pick(10));
    } else {
      after.value = tile_load(fix_loads(at));
    }
    stmt guarded;
    guarded.kind = stmt_kind::when;
    guarded.condition = bin(dsl::ir_op::equal, t, c(pick(block_)));
    guarded.body.push_back(after);
    s.body.push_back(pick(2) == 0 ? guarded : after);
    tile_scope_.pop_back();
    return s;
  }

  // A 1-D box filter's tile with a halo of radius n on each side, as the launch-value radius of
  // issue 54 writes it: the centre tile[t + n], the left halo tile[t] under t < n, the right halo
  // tile[t + block + n] under t < n (left out now and then: the forgotten halo), a barrier, and a
  // window load tile[t + n + o], o one of -n, 0, n. Every store's index reads n, so the checker
  // hands the tiles to the launch, which must judge W022 there (a forgotten halo read from) as
  // well as W020. The tile holds a radius up to 17; a larger n runs outside it (E101 at launch).
  stmt halo_tile(int depth) {
    stmt s;
    s.kind = stmt_kind::scope;
    s.level = depth + 1;
    s.tile = static_cast<int>(tiles_->size());
    tiles_->push_back(block_ + 2 * 17);
    extended_ = true;
    tile_scope_.push_back(s.tile);
    auto t = [&] { return leaf(node::thread); };
    auto n = [&] { return leaf(node::param_n); };
    auto store = [&](expr_ptr at) {
      stmt st;
      st.kind = stmt_kind::store_tile;
      st.tile = s.tile;
      st.index = at;
      st.value = pick(2) == 0 ? c(pick(10)) : load_in_at(leaf(node::global));
      return st;
    };
    auto halo = [&](expr_ptr at) {
      stmt guarded;
      guarded.kind = stmt_kind::when;
      guarded.condition = bin(dsl::ir_op::less, t(), n());
      guarded.body.push_back(store(at));
      return guarded;
    };
    s.body.push_back(store(bin(dsl::ir_op::add, t(), n())));
    s.body.push_back(halo(t()));
    if (pick(3) != 0) s.body.push_back(halo(bin(dsl::ir_op::add, bin(dsl::ir_op::add, t(), c(block_)), n())));
    s.body.push_back(stmt{});  // sync
    const int offset = pick(3);
    expr_ptr window = offset == 0 ? t() : offset == 1 ? bin(dsl::ir_op::add, t(), n()) : bin(dsl::ir_op::add, bin(dsl::ir_op::add, t(), n()), n());
    stmt out;
    out.kind = stmt_kind::store_inout;
    out.index = leaf(node::global);
    out.value = tile_load(window);
    s.body.push_back(out);
    if (pick(2) == 0) s.body.push_back(stmt{});  // sync: the tile may be stored again in a loop around it
    tile_scope_.pop_back();
    return s;
  }

  // A tree reduction in a tile of its own: tile[t] = value, a barrier, then per level i thread
  // t < h adds tile[t + h] into tile[t], h = (block / 2) >> i, and a barrier. The number of levels
  // is constant or n % 37, which the checker lists up to its limit of 32 and launch checks (E106).
  // Variants that race: no barrier per level, or the guard t <= h.
  stmt shared_tree(int depth) {
    stmt s;
    s.kind = stmt_kind::scope;
    s.level = depth + 1;
    s.tile = static_cast<int>(tiles_->size());
    tiles_->push_back(block_ + 1);
    extended_ = true;
    tile_scope_.push_back(s.tile);
    auto t = leaf(node::thread);
    stmt init;
    init.kind = stmt_kind::store_tile;
    init.tile = s.tile;
    init.index = t;
    init.value = pick(2) == 0 ? c(pick(10)) : load_in_at(leaf(node::global));
    s.body.push_back(init);
    s.body.push_back(stmt{});  // sync
    stmt loop;
    loop.kind = stmt_kind::loop;
    loop.level = depth + 2;
    loop.trips = block_ == 4 ? 2 : block_ == 8 ? 3 : 4;
    if (pick(2) == 0) loop.index = bin(dsl::ir_op::mod, leaf(node::param_n), c(37));
    levels_.push_back(loop.level);
    auto h = bin(dsl::ir_op::shr, c(block_ / 2), leaf(node::loop_var, loop.level));
    stmt level;
    level.kind = stmt_kind::when;
    level.condition = pick(4) == 0 ? bin(dsl::ir_op::less, t, bin(dsl::ir_op::add, h, c(1))) : bin(dsl::ir_op::less, t, h);
    stmt add;
    add.kind = stmt_kind::store_tile;
    add.tile = s.tile;
    add.index = t;
    add.value = bin(dsl::ir_op::add, tile_load(t), tile_load(bin(dsl::ir_op::add, t, h)));
    level.body.push_back(add);
    loop.body.push_back(level);
    if (pick(4) != 0) loop.body.push_back(stmt{});  // sync
    levels_.pop_back();
    s.body.push_back(loop);
    tile_scope_.pop_back();
    return s;
  }

  // A block-stride loop over one row of n per block: for j = t; j < n; j += block, storing
  // inout[b * n + j]. Variants that race: j < n + 1 (the next block's row), a step of block - 1
  // (two threads on one element).
  stmt stride_loop(int depth) {
    stmt s;
    s.kind = stmt_kind::stride_loop;
    s.level = depth + 1;
    s.trips = pick(4) == 0 ? block_ - 1 : block_;
    s.condition = pick(4) == 0 ? bin(dsl::ir_op::add, leaf(node::param_n), c(1)) : leaf(node::param_n);
    levels_.push_back(s.level);
    stmt store;
    store.kind = stmt_kind::store_inout;
    store.index = bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::block), leaf(node::param_n)), leaf(node::loop_var, s.level));
    store.value = c(pick(10));
    s.body.push_back(store);
    levels_.pop_back();
    extended_ = true;
    return s;
  }

  std::mt19937 rng_;
  int block_ = 8;
  type n_type_ = type::i32;
  std::vector<int> levels_;
  std::vector<int> locals_;      // the levels of the locals in scope, innermost last
  bool reopened_ = false;
  std::vector<int> tile_scope_;  // the tiles in scope, innermost last
  std::vector<int>* tiles_ = nullptr;
  bool extended_ = false;
};

// ---- the value-level description, built as the kernel language builds it ----------------------

class lowering {
 public:
  explicit lowering(const program& p) : p_(p) {}
  dsl::kernel_ir run() {
    tile_ids_.assign(p_.tiles.size(), -1);
    declare_tile(0, 0);
    b_.open_scope(0, dsl::scope_kind::tile);
    for (const stmt& s : p_.body) describe(s);
    return b_;
  }

 private:
  int describe(const expr& e) {
    using dsl::ir_op;
    switch (e.kind) {
      case node::constant: case node::uconstant: return b_.constant(e.value, false);
      case node::thread: return b_.leaf(ir_op::thread_id, 0);
      case node::block: return b_.leaf(ir_op::block_id, 0);
      case node::global: return b_.leaf(ir_op::global_id, 0);
      case node::loop_var: return b_.leaf(ir_op::loop_var, b_.loop_at(static_cast<int>(e.value)));
      case node::local_var: return dsl::read_local(b_, static_cast<int>(e.value), false);
      case node::param_n: return b_.leaf(ir_op::param_value, 2, never_negative(p_.n_type));
      case node::param_p: return b_.leaf(ir_op::param_value, 3, false, true);
      case node::call: return b_.node(ir_op::call, describe(*e.a));
      case node::load_in: case node::load_inout: {
        const int at = describe(*e.a);
        const int id = b_.access(dsl::access_kind::load, dsl::memory_kind::global, e.kind == node::load_in ? 1 : 0, at);
        b_.made_by(id, 1, &e);  // the interpreter attributes the load to the node (recording::meets)
        return b_.leaf(ir_op::load, id);
      }
      case node::load_tile: {
        const int at = describe(*e.a);
        const int id = b_.access(dsl::access_kind::load, dsl::memory_kind::shared, tile_id(e.value), at);
        b_.made_by(id, 1, &e);
        return b_.leaf(ir_op::tile_load, id);
      }
      case node::binary: {
        const int l = describe(*e.a);
        const int r = describe(*e.b);
        return b_.node(e.op, l, r, e.computed == type::f32, e.computed == type::u32 ? 32 : 0);
      }
    }
    return -1;
  }
  void describe(const stmt& s) {
    if (s.trusted) ++b_.trusted_depth;
    describe_statement(s);
    if (s.trusted) --b_.trusted_depth;
  }
  void describe_statement(const stmt& s) {
    using dsl::access_kind;
    using dsl::memory_kind;
    switch (s.kind) {
      case stmt_kind::store_inout: case stmt_kind::store_tile: {
        const int value = describe(*s.value);
        const int at = describe(*s.index);
        if (s.kind == stmt_kind::store_tile) {
          b_.made_by(b_.access(access_kind::store, memory_kind::shared, tile_id(s.tile), at), 1, &s);
        } else {
          const int store = b_.access(access_kind::store, memory_kind::global, 0, at);
          b_.accesses[static_cast<std::size_t>(store)].value = value;  // as store_s records it (dsl/stmt.hpp)
          b_.made_by(store, 1, &s);
        }
        return;
      }
      case stmt_kind::stride_loop: {
        dsl::ir_loop loop;
        loop.level = s.level;
        loop.lo = b_.leaf(dsl::ir_op::thread_id, 0);
        loop.hi = describe(*s.condition);
        loop.step = b_.constant(s.trips, false);
        b_.loops.push_back(loop);
        b_.loop_stack.push_back(static_cast<int>(b_.loops.size()) - 1);
        const dsl::loop_values values = dsl::enter_loop_values(b_);  // as describe_loop does
        b_.open_scope(s.level, dsl::scope_kind::loop);
        for (const stmt& x : s.body) describe(x);
        b_.close_scope();
        dsl::exit_loop_values(b_, values);
        b_.loop_stack.pop_back();
        return;
      }
      case stmt_kind::scope:
        declare_tile(s.tile, s.level);
        b_.open_scope(s.level, dsl::scope_kind::tile);
        for (const stmt& x : s.body) describe(x);
        b_.close_scope();
        b_.tile_stack.pop_back();
        return;
      case stmt_kind::sink: describe(*s.value); return;
      case stmt_kind::local: {  // as local_s describes itself
        dsl::ir_local local;
        local.level = s.level;
        local.init = describe(*s.value);
        local.bits = 64;  // a long long: it holds every integer value of the init
        local.value = s.value->result() == type::f32 ? -1 : local.init;
        local.loop_begin = static_cast<int>(b_.loop_pool.size());
        for (int l : b_.loop_stack) b_.loop_pool.push_back(l);
        local.loop_end = static_cast<int>(b_.loop_pool.size());
        b_.locals.push_back(local);
        b_.local_stack.push_back(static_cast<int>(b_.locals.size()) - 1);
        b_.open_scope(s.level, dsl::scope_kind::local);
        for (const stmt& x : s.body) describe(x);
        b_.close_scope();
        b_.local_stack.pop_back();
        return;
      }
      case stmt_kind::assign_local: {  // as assign_s describes itself: the local in scope at its level
        const int v = describe(*s.value);
        dsl::assign_local(b_, s.level, s.value->result() == type::f32 ? -1 : v);
        return;
      }
      case stmt_kind::atomic_add: {
        describe(*s.value);
        const int at = describe(*s.index);
        b_.made_by(b_.access(access_kind::atomic, memory_kind::global, 0, at), 1, &s);
        return;
      }
      case stmt_kind::sync: b_.barrier(); return;
      case stmt_kind::when: {
        const int cond = describe(*s.condition);
        b_.guard_stack.push_back({cond, false});
        dsl::branch_values values = dsl::begin_branch(b_);  // as when_s does
        for (const stmt& x : s.body) describe(x);
        b_.guard_stack.back().negated = true;
        dsl::begin_otherwise(b_, values);
        for (const stmt& x : s.otherwise) describe(x);
        b_.guard_stack.pop_back();
        dsl::end_branch(b_, values, cond);
        return;
      }
      case stmt_kind::loop: {
        dsl::ir_loop loop;
        loop.level = s.level;
        loop.lo = s.lo ? describe(*s.lo) : b_.constant(0, false);
        loop.hi = s.index ? describe(*s.index) : b_.constant(s.trips, false);
        loop.step = b_.constant(1, false);
        b_.loops.push_back(loop);
        b_.loop_stack.push_back(static_cast<int>(b_.loops.size()) - 1);
        const dsl::loop_values values = dsl::enter_loop_values(b_);  // as describe_loop does
        b_.open_scope(s.level, dsl::scope_kind::loop);
        for (const stmt& x : s.body) describe(x);
        b_.close_scope();
        dsl::exit_loop_values(b_, values);
        b_.loop_stack.pop_back();
        return;
      }
    }
  }

  // A tile declaration, as shared<...> describes one; accesses name it by its index in b_.tiles.
  void declare_tile(int tile, int level) {
    b_.tiles.push_back({level, p_.tiles[static_cast<std::size_t>(tile)], 0, 0});
    tile_ids_[static_cast<std::size_t>(tile)] = static_cast<int>(b_.tiles.size()) - 1;
    b_.tile_stack.push_back(tile_ids_[static_cast<std::size_t>(tile)]);
  }
  int tile_id(long long tile) const { return tile_ids_[static_cast<std::size_t>(tile)]; }

  const program& p_;
  dsl::kernel_ir b_;
  std::vector<int> tile_ids_;  // program tile -> index in b_.tiles
};

// ---- execution with recording, as the cpu backend executes ------------------------------------

struct run_result {
  recording record;
  bool out_of_bounds = false;
  bool too_long = false;  // a loop from n ran past max_trips: cut there; judged only if it overran
  // Every access again, with whether it was made under trusted(...): the fuzzer's own oracle
  // leaves out the pairs the checker gives up (both trusted).
  struct event {
    access_event access;
    bool trusted = false;
  };
  std::vector<event> events;
  bool any_trusted = false;
};

class interpreter {
 public:
  // n is the argument given for n, converted as the kernel receives it (value<unsigned> given -1
  // is 4294967295); p the float argument.
  interpreter(const program& p, int grid, long long n, unsigned seed, float pv = 2.5f)
      : p_(p), grid_(grid), n_(received(p.n_type, n)), p_value_(pv) {
    std::mt19937 rng(seed);
    for (auto* buf : {&inout_, &in_}) {
      buf->resize(buffer_size);
      for (auto& v : *buf) v = static_cast<long long>(rng() % buffer_size);
    }
    if (p.small_inout)
      for (auto& v : inout_) v %= 8;
  }

  // The buffers: their initial contents before run(), their final ones after.
  const std::vector<long long>& inout() const { return inout_; }
  const std::vector<long long>& in() const { return in_; }

  run_result run() {
    for (block_ = 0; block_ < grid_ && !result_.out_of_bounds && !result_.too_long; ++block_) {
      tiles_.assign(p_.tiles.size(), {});
      for (std::size_t k = 0; k < p_.tiles.size(); ++k) {
        const auto size = static_cast<std::size_t>(p_.tiles[k]);
        tiles_[k].data.assign(size, 0);
        tiles_[k].written.assign(size, -2);  // -2: never; else the phase of the store
        tiles_[k].writer.assign(size, -1);
      }
      phase_ = 0;
      loop_values_.assign(8, 0);
      local_values_.assign(8, std::vector<long long>(static_cast<std::size_t>(p_.block), 0));
      calls_.assign(static_cast<std::size_t>(p_.block), 0);
      std::vector<int> all(static_cast<std::size_t>(p_.block));
      for (int t = 0; t < p_.block; ++t) all[static_cast<std::size_t>(t)] = t;
      for (const stmt& s : p_.body) exec(s, all);
    }
    return std::move(result_);
  }

 private:
  struct tile_state {
    std::vector<long long> data;
    std::vector<int> written, writer;
  };
  // A value of one of the four types: f for f32, i otherwise (u32 kept in [0, 2^32)).
  struct num {
    long long i = 0;
    double f = 0;
    bool is_float = false;
    double real() const { return is_float ? f : static_cast<double>(i); }
  };
  static num integer(long long v) { return {v, 0, false}; }
  static num floating(double v) { return {0, v, true}; }
  static long long as_u32(long long v) { return static_cast<long long>(static_cast<unsigned>(v)); }

  void note(int t, dsl::memory_kind m, int target, long long i, dsl::access_kind k, const void* site) {
    const access_event e{block_, t, phase_, m, target, i, k, site};
    result_.record.record(e);
    result_.events.push_back({e, trusted_depth_ > 0});
    result_.any_trusted = result_.any_trusted || trusted_depth_ > 0;
  }
  // The element an index selects (a float index converted as C++ converts it: toward zero), or
  // 0 with out_of_bounds set.
  long long checked(num v, long long size) {
    long long i = v.i;
    if (v.is_float) {
      if (!(v.f > -1e15 && v.f < 1e15)) {
        result_.out_of_bounds = true;
        return 0;
      }
      i = static_cast<long long>(v.f);
    }
    if (i < 0 || i >= size) result_.out_of_bounds = true;
    return i < 0 || i >= size ? 0 : i;
  }
  long long value(const expr& e, int t) {
    const num v = eval(e, t);
    return v.is_float ? static_cast<long long>(v.f) : v.i;
  }
  num eval(const expr& e, int t) {
    switch (e.kind) {
      case node::constant: case node::uconstant: return integer(e.value);
      case node::thread: return integer(t);
      case node::block: return integer(block_);
      case node::global: return integer(block_ * p_.block + t);
      case node::loop_var: return integer(loop_values_[static_cast<std::size_t>(e.value)]);
      case node::local_var: return integer(local_values_[static_cast<std::size_t>(e.value)][static_cast<std::size_t>(t)]);
      case node::param_n: return integer(n_);
      case node::param_p: return floating(p_value_);
      case node::call: {  // keeps state: each call in a thread returns a new value
        const long long x = value(*e.a, t);
        return integer((x * 7 + 3 * calls_[static_cast<std::size_t>(t)]++) % buffer_size);
      }
      case node::load_in: case node::load_inout: {
        const int target = e.kind == node::load_in ? 1 : 0;
        const long long i = checked(eval(*e.a, t), buffer_size);
        note(t, dsl::memory_kind::global, target, i, dsl::access_kind::load, &e);
        return integer((target == 1 ? in_ : inout_)[static_cast<std::size_t>(i)]);
      }
      case node::load_tile: {
        tile_state& tile = tiles_[static_cast<std::size_t>(e.value)];
        const long long i = checked(eval(*e.a, t), static_cast<long long>(tile.data.size()));
        note(t, dsl::memory_kind::shared, static_cast<int>(e.value), i, dsl::access_kind::load, &e);
        const auto at = static_cast<std::size_t>(i);
        if (tile.written[at] == -2 || (tile.written[at] == phase_ && tile.writer[at] != t))
          result_.record.uninitialised_load({block_, t, phase_, dsl::memory_kind::shared, static_cast<int>(e.value), i,
                                             dsl::access_kind::load});
        return integer(tile.data[at]);
      }
      case node::binary: return binary(e, eval(*e.a, t), eval(*e.b, t));
    }
    return {};
  }
  // One operation in the type it is carried out in: reals for f32, wraparound for u32.
  static num binary(const expr& e, num a, num b) {
    using dsl::ir_op;
    if (e.computed == type::f32) {
      const double x = a.real(), y = b.real();
      switch (e.op) {
        case ir_op::add: return floating(x + y);
        case ir_op::sub: return floating(x - y);
        case ir_op::mul: return floating(x * y);
        case ir_op::div: return floating(y == 0 ? 0 : x / y);
        case ir_op::less: return integer(x < y);
        case ir_op::greater: return integer(x > y);
        case ir_op::equal: return integer(x == y);
        default: return integer(0);  // not generated: %, ^ and & take no floats
      }
    }
    const bool u = e.computed == type::u32;
    const long long x = u ? as_u32(a.i) : a.i, y = u ? as_u32(b.i) : b.i;
    long long r = 0;
    switch (e.op) {
      case ir_op::add: r = x + y; break;
      case ir_op::sub: r = x - y; break;
      case ir_op::mul: r = x * y; break;
      case ir_op::div: r = y == 0 ? 0 : x / y; break;
      case ir_op::mod: r = y == 0 ? 0 : x % y; break;
      case ir_op::bit_xor: r = x ^ y; break;
      case ir_op::bit_and: r = x & y; break;
      case ir_op::shr: r = y >= 0 && y < 63 ? x >> y : 0; break;
      case ir_op::shl: r = y >= 0 && y < 63 ? static_cast<long long>(static_cast<unsigned long long>(x) << y) : 0; break;
      case ir_op::less: return integer(x < y);
      case ir_op::greater: return integer(x > y);
      case ir_op::equal: return integer(x == y);
      default: return integer(0);
    }
    return integer(u ? as_u32(r) : r);
  }
  void exec(const stmt& s, const std::vector<int>& active) {
    if (s.trusted) ++trusted_depth_;
    exec_statement(s, active);
    if (s.trusted) --trusted_depth_;
  }
  void exec_statement(const stmt& s, const std::vector<int>& active) {
    switch (s.kind) {
      case stmt_kind::store_inout: case stmt_kind::store_tile: case stmt_kind::atomic_add:
        for (int t : active) {
          const long long v = value(*s.value, t);
          if (s.kind == stmt_kind::store_tile) {
            tile_state& tile = tiles_[static_cast<std::size_t>(s.tile)];
            const long long i = checked(eval(*s.index, t), static_cast<long long>(tile.data.size()));
            note(t, dsl::memory_kind::shared, s.tile, i, dsl::access_kind::store, &s);
            tile.data[static_cast<std::size_t>(i)] = v;
            tile.written[static_cast<std::size_t>(i)] = phase_;
            tile.writer[static_cast<std::size_t>(i)] = t;
          } else {
            const long long i = checked(eval(*s.index, t), buffer_size);
            note(t, dsl::memory_kind::global, 0, i, s.kind == stmt_kind::atomic_add ? dsl::access_kind::atomic : dsl::access_kind::store, &s);
            inout_[static_cast<std::size_t>(i)] = s.kind == stmt_kind::atomic_add ? inout_[static_cast<std::size_t>(i)] + v : v;
          }
        }
        return;
      case stmt_kind::sink:
        for (int t : active) eval(*s.value, t);
        return;
      case stmt_kind::local: {  // a new variable: an enclosing one at the same level is hidden, then back
        auto& slot = local_values_[static_cast<std::size_t>(s.level)];
        const std::vector<long long> outer = slot;
        for (int t : active) slot[static_cast<std::size_t>(t)] = value(*s.value, t);
        for (const stmt& x : s.body) exec(x, active);
        local_values_[static_cast<std::size_t>(s.level)] = outer;
        return;
      }
      case stmt_kind::assign_local:
        for (int t : active) local_values_[static_cast<std::size_t>(s.level)][static_cast<std::size_t>(t)] = value(*s.value, t);
        return;
      case stmt_kind::sync:
        if (static_cast<int>(active.size()) != p_.block) result_.record.divergent_barrier(block_, phase_, static_cast<int>(active.size()));
        ++phase_;
        return;
      case stmt_kind::when: {
        std::vector<int> yes, no;
        for (int t : active) (value(*s.condition, t) != 0 ? yes : no).push_back(t);
        if (!yes.empty())
          for (const stmt& x : s.body) exec(x, yes);
        if (!no.empty())
          for (const stmt& x : s.otherwise) exec(x, no);
        return;
      }
      case stmt_kind::loop: {
        // Each thread evaluates the trip count once, before the loop; iteration k runs the threads
        // whose count exceeds k (a barrier inside then sees the others missing).
        // The bounds as the loop's int counter receives them (the start is n: the same in every thread).
        const long long lo = s.lo && !active.empty() ? static_cast<int>(value(*s.lo, active[0])) : 0;
        std::vector<long long> trips(active.size(), std::max(0LL, s.trips - lo));
        long long most = s.index ? 0 : trips.empty() ? 0 : trips[0];
        if (s.index)
          for (std::size_t i = 0; i < active.size(); ++i) {
            trips[i] = std::max(0LL, static_cast<int>(value(*s.index, active[i])) - lo);
            most = std::max(most, trips[i]);
          }
        if (most > max_trips) {  // n = -1294967296 (3000000000 as an int): billions of trips; the first
          if (result_.too_long) return;  // ones still run, and an overrun among them is judged (one such
          result_.too_long = true;       // loop at a time: two nested would run max_trips squared)
          most = max_trips;
        }
        const long long outer = loop_values_[static_cast<std::size_t>(s.level)];  // hidden inside, then back
        for (long long k = 0; k < most && !result_.out_of_bounds; ++k) {
          std::vector<int> running;
          for (std::size_t i = 0; i < active.size(); ++i)
            if (trips[i] > k) running.push_back(active[i]);
          loop_values_[static_cast<std::size_t>(s.level)] = lo + k;
          for (const stmt& x : s.body) exec(x, running);
        }
        loop_values_[static_cast<std::size_t>(s.level)] = outer;
        return;
      }
      case stmt_kind::stride_loop:  // each thread its own iterations (nothing inside waits for the others)
        for (int t : active) {
          const long long hi = value(*s.condition, t);
          for (long long j = t; j < hi && !result_.out_of_bounds; j += s.trips) {  // an overrun ends the run
            loop_values_[static_cast<std::size_t>(s.level)] = j;
            for (const stmt& x : s.body) exec(x, std::vector<int>{t});
          }
        }
        return;
      case stmt_kind::scope:  // the tile lives as long as the block: its memory is not reset here
        for (const stmt& x : s.body) exec(x, active);
        return;
    }
  }

  const program& p_;
  int grid_;
  long long n_;
  float p_value_;
  int block_ = 0, phase_ = 0, trusted_depth_ = 0;
  std::vector<long long> inout_, in_, loop_values_;
  std::vector<std::vector<long long>> local_values_;  // by level, by thread
  std::vector<tile_state> tiles_;
  std::vector<long long> calls_;  // per thread: the calls made so far (the function's state)
  run_result result_;
};

}  // namespace warden::fuzz
