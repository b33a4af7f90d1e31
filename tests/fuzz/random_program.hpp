#pragma once
// Random kernel programs for the differential fuzzer: a small statement tree over one inout
// buffer (parameter 0), one in buffer (parameter 1), a value n (parameter 2) and one shared tile,
// with affine and non-affine indices, guards, static loops, barriers, atomics and data-dependent
// indices. The same tree is (1) lowered to the value-level description the checker reads, exactly
// as the kernel language describes itself, and (2) run the way the cpu backend runs kernels (a
// block at a time, a statement at a time for all threads), with every access recorded.

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <warden/backend/recording.hpp>
#include <warden/dsl/ir.hpp>

namespace warden::fuzz {

inline constexpr int buffer_size = 64;

enum class node : unsigned char { constant, thread, block, global, loop_var, param_n, load_in, load_inout, load_tile, binary };

struct expr {
  node kind = node::constant;
  long long value = 0;  // constant; loop level for loop_var
  dsl::ir_op op = dsl::ir_op::add;
  std::shared_ptr<expr> a, b;  // binary operands; the index of a load
};
using expr_ptr = std::shared_ptr<expr>;

enum class stmt_kind : unsigned char { store_inout, store_tile, sink, atomic_add, sync, when, loop };

struct stmt {
  stmt_kind kind = stmt_kind::sync;
  expr_ptr index, value;  // stores and atomics; sink: value
  expr_ptr condition;     // when
  int trips = 0, level = 0;  // loop
  std::vector<stmt> body, otherwise;
};

struct program {
  int block = 8;
  int tile = 18;
  std::vector<stmt> body;
};

// ---- generation ----------------------------------------------------------------------------

class generator {
 public:
  explicit generator(unsigned seed) : rng_(seed) {}

  program make() {
    program p;
    const int blocks[] = {4, 8, 16};
    p.block = blocks[pick(3)];
    p.tile = 2 * p.block + 2;
    block_ = p.block;
    levels_.clear();
    const int n = 1 + pick(5);
    for (int i = 0; i < n; ++i) p.body.push_back(statement(0));
    return p;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  expr_ptr leaf(node k, long long v = 0) { return std::make_shared<expr>(expr{k, v}); }
  expr_ptr bin(dsl::ir_op op, expr_ptr a, expr_ptr b) { return std::make_shared<expr>(expr{node::binary, 0, op, a, b}); }
  expr_ptr c(long long v) { return leaf(node::constant, v); }

  // (2 - i) * block + t: the loop's chunks in reverse order (a negated term).
  expr_ptr reversed_chunk() {
    return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, bin(dsl::ir_op::sub, c(2), leaf(node::loop_var, levels_.back())), c(block_)),
               leaf(node::thread));
  }
  // i * block + t: the loop's chunks in order.
  expr_ptr forward_chunk() {
    return bin(dsl::ir_op::add, bin(dsl::ir_op::mul, leaf(node::loop_var, levels_.back()), c(block_)), leaf(node::thread));
  }

  expr_ptr index() {
    auto t = leaf(node::thread);
    switch (pick(18)) {
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
      default: { auto e = leaf(node::load_tile); e->a = fix_loads(index()); return e; }
    }
  }
  expr_ptr condition() {
    auto t = leaf(node::thread);
    switch (pick(9)) {
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
    stmt s;
    const int k = depth >= 2 ? pick(5) : pick(8);
    switch (k) {
      case 0: s.kind = stmt_kind::store_inout; s.index = fix_loads(index()); s.value = value(); break;
      case 1: s.kind = stmt_kind::store_tile; s.index = fix_loads(index()); s.value = value(); break;
      case 2: s.kind = stmt_kind::sink; s.value = value(); break;
      case 3: s.kind = stmt_kind::atomic_add; s.index = fix_loads(index()); s.value = c(1); break;
      case 4: s.kind = stmt_kind::sync; break;
      case 5: case 6: {
        s.kind = stmt_kind::when;
        s.condition = fix_loads(condition());
        const int n = 1 + pick(3);
        for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
        if (pick(3) == 0) s.otherwise.push_back(statement(depth + 1));
        break;
      }
      default: {
        s.kind = stmt_kind::loop;
        s.trips = 1 + pick(3);
        s.level = depth + 1;
        levels_.push_back(s.level);
        const int n = 1 + pick(3);
        for (int i = 0; i < n; ++i) s.body.push_back(statement(depth + 1));
        levels_.pop_back();
      }
    }
    return s;
  }

  std::mt19937 rng_;
  int block_ = 8;
  std::vector<int> levels_;
};

// ---- the value-level description, built as the kernel language builds it ----------------------

class lowering {
 public:
  explicit lowering(const program& p) : p_(p) {}
  dsl::ir_builder run() {
    b_.tiles.push_back({0, p_.tile, 0, 0});  // tile 0: accesses name it by this index
    b_.tile_stack.push_back(0);
    for (const stmt& s : p_.body) describe(s);
    return b_;
  }

 private:
  int describe(const expr& e) {
    using dsl::ir_op;
    switch (e.kind) {
      case node::constant: return b_.constant(e.value, false);
      case node::thread: return b_.leaf(ir_op::thread_id, 0);
      case node::block: return b_.leaf(ir_op::block_id, 0);
      case node::global: return b_.leaf(ir_op::global_id, 0);
      case node::loop_var: return b_.leaf(ir_op::loop_var, b_.loop_at(static_cast<int>(e.value)));
      case node::param_n: return b_.leaf(ir_op::param_value, 2);
      case node::load_in: case node::load_inout: {
        const int at = describe(*e.a);
        return b_.leaf(ir_op::load, b_.access(dsl::access_kind::load, dsl::memory_kind::global, e.kind == node::load_in ? 1 : 0, at));
      }
      case node::load_tile: {
        const int at = describe(*e.a);
        return b_.leaf(ir_op::tile_load, b_.access(dsl::access_kind::load, dsl::memory_kind::shared, 0, at));
      }
      case node::binary: {
        const int l = describe(*e.a);
        const int r = describe(*e.b);
        return b_.node(e.op, l, r);
      }
    }
    return -1;
  }
  void describe(const stmt& s) {
    using dsl::access_kind;
    using dsl::memory_kind;
    switch (s.kind) {
      case stmt_kind::store_inout: case stmt_kind::store_tile: {
        describe(*s.value);
        const int at = describe(*s.index);
        b_.access(access_kind::store, s.kind == stmt_kind::store_tile ? memory_kind::shared : memory_kind::global, 0, at);
        return;
      }
      case stmt_kind::sink: describe(*s.value); return;
      case stmt_kind::atomic_add: {
        describe(*s.value);
        const int at = describe(*s.index);
        b_.access(access_kind::atomic, memory_kind::global, 0, at);
        return;
      }
      case stmt_kind::sync: b_.barrier(); return;
      case stmt_kind::when: {
        const int cond = describe(*s.condition);
        b_.guard_stack.push_back({cond, false});
        for (const stmt& x : s.body) describe(x);
        b_.guard_stack.back().negated = true;
        for (const stmt& x : s.otherwise) describe(x);
        b_.guard_stack.pop_back();
        return;
      }
      case stmt_kind::loop: {
        dsl::ir_loop loop;
        loop.level = s.level;
        loop.lo = b_.constant(0, false);
        loop.hi = b_.constant(s.trips, false);
        loop.step = b_.constant(1, false);
        b_.loops.push_back(loop);
        b_.loop_stack.push_back(static_cast<int>(b_.loops.size()) - 1);
        for (const stmt& x : s.body) describe(x);
        b_.loop_stack.pop_back();
        return;
      }
    }
  }

  const program& p_;
  dsl::ir_builder b_;
};

// ---- execution with recording, as the cpu backend executes ------------------------------------

struct run_result {
  recording record;
  bool out_of_bounds = false;
};

class interpreter {
 public:
  interpreter(const program& p, int grid, int n, unsigned seed) : p_(p), grid_(grid), n_(n) {
    std::mt19937 rng(seed);
    for (auto* buf : {&inout_, &in_}) {
      buf->resize(buffer_size);
      for (auto& v : *buf) v = static_cast<long long>(rng() % buffer_size);
    }
  }

  // The buffers: their initial contents before run(), their final ones after.
  const std::vector<long long>& inout() const { return inout_; }
  const std::vector<long long>& in() const { return in_; }

  run_result run() {
    for (block_ = 0; block_ < grid_ && !result_.out_of_bounds; ++block_) {
      tile_.assign(static_cast<std::size_t>(p_.tile), 0);
      written_.assign(static_cast<std::size_t>(p_.tile), -2);  // -2: never; else the phase of the store
      writer_.assign(static_cast<std::size_t>(p_.tile), -1);
      phase_ = 0;
      loop_values_.assign(8, 0);
      std::vector<int> all(static_cast<std::size_t>(p_.block));
      for (int t = 0; t < p_.block; ++t) all[static_cast<std::size_t>(t)] = t;
      for (const stmt& s : p_.body) exec(s, all);
    }
    return std::move(result_);
  }

 private:
  void note(int t, dsl::memory_kind m, int target, long long i, dsl::access_kind k) {
    result_.record.record({block_, t, phase_, m, target, i, k});
  }
  long long checked(long long i, long long size) {
    if (i < 0 || i >= size) result_.out_of_bounds = true;
    return i < 0 || i >= size ? 0 : i;
  }
  long long eval(const expr& e, int t) {
    switch (e.kind) {
      case node::constant: return e.value;
      case node::thread: return t;
      case node::block: return block_;
      case node::global: return block_ * p_.block + t;
      case node::loop_var: return loop_values_[static_cast<std::size_t>(e.value)];
      case node::param_n: return n_;
      case node::load_in: case node::load_inout: {
        const int target = e.kind == node::load_in ? 1 : 0;
        const long long i = checked(eval(*e.a, t), buffer_size);
        note(t, dsl::memory_kind::global, target, i, dsl::access_kind::load);
        return (target == 1 ? in_ : inout_)[static_cast<std::size_t>(i)];
      }
      case node::load_tile: {
        const long long i = checked(eval(*e.a, t), p_.tile);
        note(t, dsl::memory_kind::shared, 0, i, dsl::access_kind::load);
        const auto at = static_cast<std::size_t>(i);
        if (written_[at] == -2 || (written_[at] == phase_ && writer_[at] != t))
          result_.record.uninitialised_load({block_, t, phase_, dsl::memory_kind::shared, 0, i, dsl::access_kind::load});
        return tile_[at];
      }
      case node::binary: {
        const long long a = eval(*e.a, t), b = eval(*e.b, t);
        switch (e.op) {
          case dsl::ir_op::add: return a + b;
          case dsl::ir_op::sub: return a - b;
          case dsl::ir_op::mul: return a * b;
          case dsl::ir_op::div: return b == 0 ? 0 : a / b;
          case dsl::ir_op::mod: return b == 0 ? 0 : a % b;
          case dsl::ir_op::bit_xor: return a ^ b;
          case dsl::ir_op::bit_and: return a & b;
          case dsl::ir_op::less: return a < b;
          case dsl::ir_op::greater: return a > b;
          case dsl::ir_op::equal: return a == b;
          default: return 0;
        }
      }
    }
    return 0;
  }
  void exec(const stmt& s, const std::vector<int>& active) {
    switch (s.kind) {
      case stmt_kind::store_inout: case stmt_kind::store_tile: case stmt_kind::atomic_add:
        for (int t : active) {
          const long long v = eval(*s.value, t);
          if (s.kind == stmt_kind::store_tile) {
            const long long i = checked(eval(*s.index, t), p_.tile);
            note(t, dsl::memory_kind::shared, 0, i, dsl::access_kind::store);
            tile_[static_cast<std::size_t>(i)] = v;
            written_[static_cast<std::size_t>(i)] = phase_;
            writer_[static_cast<std::size_t>(i)] = t;
          } else {
            const long long i = checked(eval(*s.index, t), buffer_size);
            note(t, dsl::memory_kind::global, 0, i, s.kind == stmt_kind::atomic_add ? dsl::access_kind::atomic : dsl::access_kind::store);
            inout_[static_cast<std::size_t>(i)] = s.kind == stmt_kind::atomic_add ? inout_[static_cast<std::size_t>(i)] + v : v;
          }
        }
        return;
      case stmt_kind::sink:
        for (int t : active) eval(*s.value, t);
        return;
      case stmt_kind::sync:
        if (static_cast<int>(active.size()) != p_.block) result_.record.divergent_barrier(block_, phase_, static_cast<int>(active.size()));
        ++phase_;
        return;
      case stmt_kind::when: {
        std::vector<int> yes, no;
        for (int t : active) (eval(*s.condition, t) != 0 ? yes : no).push_back(t);
        if (!yes.empty())
          for (const stmt& x : s.body) exec(x, yes);
        if (!no.empty())
          for (const stmt& x : s.otherwise) exec(x, no);
        return;
      }
      case stmt_kind::loop:
        for (int k = 0; k < s.trips; ++k) {
          loop_values_[static_cast<std::size_t>(s.level)] = k;
          for (const stmt& x : s.body) exec(x, active);
        }
        return;
    }
  }

  const program& p_;
  int grid_, n_;
  int block_ = 0, phase_ = 0;
  std::vector<long long> inout_, in_, tile_, loop_values_;
  std::vector<int> written_, writer_;
  run_result result_;
};

}  // namespace warden::fuzz
