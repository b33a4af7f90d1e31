#pragma once
// Every thread's values of an access's expressions (loop bounds, guards, index), for the
// footprints. The block shape is static, so a thread's ids are numbers; loop counters are
// numbers where trip counts are static; everything else (block ids, parameters, loaded data) is
// unknown.
//
// The expressions are compiled once into a flat list of operations over slots; a slot holds one
// value when it is the same in every thread (constants, counters, `128 >> level`) and one per
// thread otherwise, and each operation runs over all the block's threads at once. This runs in
// constant evaluation, where a function call costs g++ and clang many times an operation, so the
// per-thread loop makes no calls: the operators' semantics are written out in it, once.

#include <climits>
#include <vector>

#include "../detail/scratch.hpp"
#include "affine.hpp"

namespace warden::check {

// A value the checker cannot know (a block id, a parameter, loaded data, or derived from one).
inline constexpr long long unknown_value = LLONG_MIN;
// A loop iteration the checker does not enumerate (its trip count is not static).
inline constexpr long long unknown_counter = LLONG_MIN;

class tape {
 public:
  constexpr tape(const kernel_ir& ir, block_shape shape, scope s)
      : ir_(ir), shape_(shape), scope_(s), threads_(shape.threads()), slot_of_(ir.exprs.size(), -1) {
    add_slot(slot::constant, false, unknown_value);  // slot 0: unknown
  }

  // Compiles an expression into the current section; returns the slot that will hold its value.
  constexpr int compile(int id) {
    if (id < 0) return 0;
    if (slot_of_[static_cast<std::size_t>(id)] >= 0) return slot_of_[static_cast<std::size_t>(id)];
    const auto& e = ir_.exprs[static_cast<std::size_t>(id)];
    // A read of a local is the value it holds there (dsl/local_values.hpp).
    if (const int held = ir_.held_value(e); held >= 0) {
      const int value = compile(held);
      slot_of_[static_cast<std::size_t>(id)] = value;
      return value;
    }
    const int d = static_cast<int>(e.value % 3);
    int out = 0;
    // A floating-point value is unknown, whatever its operands: the tape computes in integers, and
    // `select(t < 64, t, 0.5f) + 2^24` rounds in float where it would not in integers.
    if (e.is_float) {
      slot_of_[static_cast<std::size_t>(id)] = 0;
      return 0;
    }
    switch (e.op) {
      case ir_op::constant: out = add_slot(slot::constant, false, e.value); break;
      // A stated fact about contents holds in every launch that runs (E107 refuses the others), as
      // the checker takes every stated fact.
      case ir_op::contents_distinct: case ir_op::contents_sorted: case ir_op::contents_non_decreasing: case ir_op::contents_within: out = add_slot(slot::constant, false, 1); break;
      case ir_op::block_dim: out = add_slot(slot::constant, false, shape_.extent(d)); break;
      case ir_op::param_value:
      case ir_op::param_size:
      case ir_op::grid_dim:
        // Unknown to the compiler; a number when launch decides (block_shape::numbers).
        if (shape_.numbers != nullptr) {
          const launch_numbers& n = *shape_.numbers;
          const auto p = static_cast<std::size_t>(e.value);
          const long long v = e.op == ir_op::grid_dim     ? n.grid[d]
                              : e.op == ir_op::param_size ? (p < n.sizes.size() ? n.sizes[p] : absent_number)
                                                          : (p < n.values.size() ? n.values[p] : absent_number);
          if (v != absent_number) out = add_slot(slot::constant, false, v);
        }
        break;
      case ir_op::thread_id: out = shape_.extent(d) == 1 ? add_slot(slot::constant, false, 0) : add_slot(slot::thread, true, d); break;
      // A grid dimension the launch has not (block_shape::grid_dims: E102 holds it to 1, or a
      // listing of block 0 alone, tile_listing.hpp) has block id 0, and its global id is the thread's.
      case ir_op::block_id:
        if (!shape_.grid_has(d)) out = add_slot(slot::constant, false, 0);
        break;
      case ir_op::global_id:
        if (!shape_.grid_has(d)) out = shape_.extent(d) == 1 ? add_slot(slot::constant, false, 0) : add_slot(slot::thread, true, d);
        break;
      case ir_op::loop_var: {
        int position = 0;
        const int l = loop_of(ir_, scope_, static_cast<int>(e.value), &position);
        if (l < 0) break;
        const auto& loop = ir_.loops[static_cast<std::size_t>(l)];
        const int lo = compile(loop.lo), step = compile(loop.step);
        // An operation with an unknown operand is unknown in every thread (run() below): it stays
        // slot 0 and costs nothing per thread. Only `and` / `or` can be decided without one.
        if (lo != 0 && step != 0) out = emit(ir_op::loop_var, lo, step, position - scope_.loop_begin);
        break;
      }
      case ir_op::select: {
        // The arm its condition chooses, in each thread: a halo's `t < 2 ? row : column` is listed
        // as the kernel computes it. Unknown where the condition is, or the arm chosen.
        const int c = compile(e.a);
        if (c == 0) break;
        const auto& arms = ir_.exprs[static_cast<std::size_t>(e.b)];
        const int x = compile(arms.a), y = compile(arms.b);
        if (x == 0 && y == 0) break;
        out = emit(ir_op::select, x, y, 0, false, false, c, e.unsigned_bits != 0);
        break;
      }
      default:
        // Block ids, parameters, data: unknown; so is a choice outside its select.
        if (e.op < ir_op::add || e.op == ir_op::choice) break;
        {
          const bool unary = e.op >= ir_op::negate;
          const int a = compile(e.a);
          const int b = unary ? 0 : compile(e.b);
          const bool decided_by_one = e.op == ir_op::logical_and || e.op == ir_op::logical_or;
          if (decided_by_one || (a != 0 && (unary || b != 0)))
            out = emit(e.op, a, b, 0, e.signed_bits == 32, e.op == ir_op::bit_not && e.unsigned_bits == 32);
        }
    }
    slot_of_[static_cast<std::size_t>(id)] = out;
    return out;
  }

  // Ends a section: the code compiled since the previous one. Sections run separately (one per
  // loop level, then the guards and index), each once its inputs are set.
  constexpr void end_section() { sections_.push_back(static_cast<int>(ops_.size())); }

  // The register file: every slot's storage, constants and thread ids filled in.
  constexpr detail::scratch<long long> make_registers() const {
    detail::scratch<long long> registers(size_, unknown_value);
    long long* r = registers.data();
    for (int k = 0; k < static_cast<int>(slots_.size()); ++k) {
      const slot& s = slots_[static_cast<std::size_t>(k)];
      if (s.kind == slot::constant) r[s.offset] = s.value;
      if (s.kind != slot::thread) continue;
      long long* ids = r + s.offset;
      for (int z = 0, i = 0; z < shape_.z; ++z)
        for (int y = 0; y < shape_.y; ++y)
          for (int x = 0; x < shape_.x; ++x, ++i) ids[i] = s.value == 0 ? x : s.value == 1 ? y : z;
    }
    return registers;
  }

  // The loop levels (bits by depth in the scope) whose counters a slot's value reads.
  constexpr unsigned long long reads_counters(int slot) const { return reads_[static_cast<std::size_t>(slot)]; }

  // Where thread i's value of a slot lies in the register file.
  constexpr int offset(int s) const { return slots_[static_cast<std::size_t>(s)].offset; }
  constexpr int stride(int s) const { return slots_[static_cast<std::size_t>(s)].varying ? 1 : 0; }

  // Runs one section for every thread; counters by depth in the access's loops.
  constexpr void run(int section, const long long* counters, long long* r) const {
    constexpr long long u = unknown_value;
    const int end = sections_[static_cast<std::size_t>(section)];
    for (int k = section == 0 ? 0 : sections_[static_cast<std::size_t>(section - 1)]; k < end; ++k) {
      const op& o = ops_[static_cast<std::size_t>(k)];
      const long long* a = r + o.a;
      const long long* b = r + o.b;
      const long long* c = r + o.c;
      long long* out = r + o.out;
      const int n = o.varying ? threads_ : 1;
      const long long counter = o.code == ir_op::loop_var ? counters[o.depth] : 0;
      // Read once: a member read through `o` costs constant evaluation more than a local's.
      const ir_op code = o.code;
      const int a_stride = o.a_stride, b_stride = o.b_stride, c_stride = o.c_stride;
      const bool in_int = o.in_int, complement_u32 = o.complement_u32, to_unsigned = o.to_unsigned;
      if (arithmetic(code, a, a_stride, b, b_stride, out, n, in_int)) continue;
      for (int i = 0; i < n; ++i) {
        const long long x = a[i * a_stride], y = b[i * b_stride];
        const bool unknown = x == u || y == u;
        long long v = u;
        switch (code) {
          case ir_op::loop_var: v = unknown || counter == unknown_counter ? u : x + y * counter; break;
          // `and` / `or` are decided by one known operand, as C++ evaluates them.
          case ir_op::logical_and: v = x == 0 || y == 0 ? 0 : unknown ? u : 1; break;
          case ir_op::logical_or: v = (x != u && x != 0) || (y != u && y != 0) ? 1 : unknown ? u : 0; break;
          // An arm converted to an unsigned select's type: a negative value would wrap, unknown.
          case ir_op::select: {
            const long long cv = c[i * c_stride];
            v = cv == u ? u : cv != 0 ? x : y;
            if (to_unsigned && v != u && v < 0) v = u;
            break;
          }
          case ir_op::negate: v = x == u ? u : -x; break;
          case ir_op::logical_not: v = x == u ? u : x == 0; break;
          // In unsigned int, ~x is 2^32 - 1 - x (the operand converted first), not -x - 1: the
          // launch's intervals take it so too (launch/interval_evaluator.hpp), and accept it.
          case ir_op::bit_not:
            v = x == u ? u : complement_u32 ? static_cast<long long>(~static_cast<unsigned int>(x)) : ~x;
            break;
          default: break;  // the arithmetic operators: arithmetic(), above
        }
        // Signed overflow: the device wraps, the checker cannot follow (`((t - 32) << 27) >> 27`
        // is t - 32 in integers, not in int): unknown.
        if (in_int && v != u && (v < INT_MIN || v > INT_MAX)) v = u;
        out[i] = v;
      }
    }
  }

 private:
  // The binary operators unknown when an operand is: one loop per operator, so that the choice
  // of operator is made once per operation, not once per thread (a `switch` costs constant
  // evaluation by the cases it passes). Returns false for the others (run() handles them).
  static constexpr bool arithmetic(ir_op code, const long long* a, int a_stride, const long long* b, int b_stride,
                                   long long* out, int n, bool in_int) {
    constexpr long long u = unknown_value;
    // Signed overflow: the device wraps, the checker cannot follow (see run()): unknown.
#define WARDEN_DETAIL_TAPE_LOOP(value)                                                 \
  for (int i = 0; i < n; ++i) {                                                        \
    const long long x = a[i * a_stride], y = b[i * b_stride];                          \
    long long v = x == u || y == u ? u : (value);                                      \
    if (in_int && v != u && (v < INT_MIN || v > INT_MAX)) v = u;                       \
    out[i] = v;                                                                        \
  }                                                                                    \
  return true;
    switch (code) {
      case ir_op::add: WARDEN_DETAIL_TAPE_LOOP(x + y)
      case ir_op::sub: WARDEN_DETAIL_TAPE_LOOP(x - y)
      case ir_op::mul: WARDEN_DETAIL_TAPE_LOOP(x * y)
      case ir_op::div: WARDEN_DETAIL_TAPE_LOOP(y == 0 ? u : x / y)
      case ir_op::mod: WARDEN_DETAIL_TAPE_LOOP(y == 0 ? u : x % y)
      // A shift by the operand's width or more is undefined in C++ (x86 shifts int by y % 32, PTX
      // by min(y, 32)): unknown from 32 on, whatever the type.
      case ir_op::shl: WARDEN_DETAIL_TAPE_LOOP(y < 0 || y > 30 ? u : x << y)
      case ir_op::shr: WARDEN_DETAIL_TAPE_LOOP(y < 0 || y > 31 ? u : x >> y)
      case ir_op::bit_and: WARDEN_DETAIL_TAPE_LOOP(x & y)
      case ir_op::bit_or: WARDEN_DETAIL_TAPE_LOOP(x | y)
      case ir_op::bit_xor: WARDEN_DETAIL_TAPE_LOOP(x ^ y)
      case ir_op::less: WARDEN_DETAIL_TAPE_LOOP(x < y)
      case ir_op::less_equal: WARDEN_DETAIL_TAPE_LOOP(x <= y)
      case ir_op::greater: WARDEN_DETAIL_TAPE_LOOP(x > y)
      case ir_op::greater_equal: WARDEN_DETAIL_TAPE_LOOP(x >= y)
      case ir_op::equal: WARDEN_DETAIL_TAPE_LOOP(x == y)
      case ir_op::not_equal: WARDEN_DETAIL_TAPE_LOOP(x != y)
      case ir_op::min: WARDEN_DETAIL_TAPE_LOOP(x < y ? x : y)
      case ir_op::max: WARDEN_DETAIL_TAPE_LOOP(x < y ? y : x)
      default: return false;
    }
#undef WARDEN_DETAIL_TAPE_LOOP
  }

  struct slot {
    enum kind_t : unsigned char { constant, thread, computed } kind = constant;
    bool varying = false;  // one value per thread
    long long value = 0;   // constant: the value; thread: the dimension
    int offset = 0;        // in the register file
  };
  struct op {
    ir_op code = ir_op::constant;
    int a = 0, b = 0, out = 0;     // offsets in the register file
    int a_stride = 0, b_stride = 0;
    bool varying = false;
    int depth = 0;                 // loop_var: the loop's depth in the scope (a = lo, b = step)
    bool in_int = false;           // computed in int: a result outside int wraps on the device
    bool complement_u32 = false;   // ~ in unsigned int
    int c = 0, c_stride = 0;       // select: the condition (a, b: the arms)
    bool to_unsigned = false;      // select: its type is unsigned
  };

  constexpr int add_slot(slot::kind_t kind, bool varying, long long value) {
    slots_.push_back(slot{kind, varying, value, size_});
    reads_.push_back(0);
    size_ += varying ? threads_ : 1;
    return static_cast<int>(slots_.size()) - 1;
  }
  constexpr int emit(ir_op code, int a, int b, int depth, bool in_int = false, bool complement_u32 = false, int c = 0,
                     bool to_unsigned = false) {
    const bool varying = slots_[static_cast<std::size_t>(a)].varying || slots_[static_cast<std::size_t>(b)].varying ||
                         slots_[static_cast<std::size_t>(c)].varying;
    const int out = add_slot(slot::computed, varying, 0);
    reads_[static_cast<std::size_t>(out)] = reads_[static_cast<std::size_t>(a)] | reads_[static_cast<std::size_t>(b)] |
                                            reads_[static_cast<std::size_t>(c)] |
                                            (code == ir_op::loop_var && depth < 64 ? 1ULL << depth : 0);
    ops_.push_back(op{code, offset(a), offset(b), offset(out), stride(a), stride(b), varying, depth, in_int, complement_u32, offset(c),
                      stride(c), to_unsigned});
    return out;
  }

  const kernel_ir& ir_;
  block_shape shape_;
  scope scope_;
  int threads_;
  std::vector<int> slot_of_;  // by expression id; -1: not compiled yet
  std::vector<slot> slots_;
  std::vector<unsigned long long> reads_;  // by slot: reads_counters
  int size_ = 0;              // of the register file
  std::vector<op> ops_;
  std::vector<int> sections_;  // where each section ends in ops_
};

}  // namespace warden::check
