#pragma once
// The value-level description of a kernel program (DESIGN §5, "one analysis, two uses").
//
// describe(program) flattens the program type into plain arrays: expression nodes, and one record
// per memory access with its buffer, kind, index expression, enclosing guards, loop nest and
// barrier phase. The launch-time bounds check reads it at run time; the static checker reads the
// very same records in constant evaluation (std::vector is constexpr in C++20, and every vector
// here lives and dies inside one evaluation).

#include <string>
#include <type_traits>
#include <vector>

namespace warden::dsl {

enum class ir_op : unsigned char {
  constant,
  thread_id, block_id, block_dim, grid_dim, global_id,  // value = dimension
  param_value, param_size,                              // value = parameter position
  loop_var, local_var,                                  // value = scope level
  load, tile_load,                                      // a loaded value (data); value = access record
  call,                                                 // a user function of its arguments (data)
  add, sub, mul, div, mod, shl, shr, bit_and, bit_or, bit_xor,
  less, less_equal, greater, greater_equal, equal, not_equal, logical_and, logical_or,
  min, max, negate, logical_not, bit_not,
};

struct ir_expr {
  ir_op op = ir_op::constant;
  int a = -1, b = -1;    // operands (expression ids)
  long long value = 0;   // constant, dimension, parameter or level
  bool is_float = false;
  bool is_unsigned = false;  // a value of unsigned type: never negative
};

enum class access_kind : unsigned char { load, store, atomic };
enum class memory_kind : unsigned char { global, shared };

struct ir_access {
  access_kind kind = access_kind::load;
  memory_kind memory = memory_kind::global;
  int target = 0;        // parameter position (global) or tile level (shared)
  int index = -1;        // flat index expression; for 2-D tiles the row
  int column = -1;       // 2-D tiles: the column expression
  int guard_begin = 0, guard_end = 0;  // range in guard_pool
  int loop_begin = 0, loop_end = 0;    // range in loop_pool (outermost first)
  int phase = 0;         // barriers passed in program order before this access
};

struct ir_guard {
  int condition = -1;
  bool negated = false;  // inside the otherwise branch
};

struct ir_loop {
  int level = 0;
  int lo = -1, hi = -1, step = -1;  // expression ids; a grid-stride loop has lo = global id, step = grid size
  bool grid_stride = false;
  bool has_barrier = false;
};

struct ir_tile {
  int level = 0;
  int rows = 0, cols = 0, pad = 0;  // cols == 0: a 1-D tile of `rows` elements
};

struct ir_sync {
  int guard_begin = 0, guard_end = 0;
  int loop_begin = 0, loop_end = 0;
  int phase = 0;  // the phase it ends
};

struct ir_builder {
  std::vector<ir_expr> exprs;
  std::vector<ir_access> accesses;
  std::vector<ir_guard> guard_pool;
  std::vector<int> loop_pool;
  std::vector<ir_loop> loops;
  std::vector<ir_tile> tiles;
  std::vector<ir_sync> syncs;

  // The context of the statement being described.
  std::vector<ir_guard> guard_stack;
  std::vector<int> loop_stack;  // indices into loops
  int phase = 0;

  constexpr int constant(long long v, bool is_float) {
    exprs.push_back({ir_op::constant, -1, -1, v, is_float});
    return static_cast<int>(exprs.size()) - 1;
  }
  constexpr int leaf(ir_op op, long long v, bool is_unsigned = false) {
    exprs.push_back({op, -1, -1, v, false, is_unsigned});
    return static_cast<int>(exprs.size()) - 1;
  }
  constexpr int node(ir_op op, int a, int b = -1) {
    exprs.push_back({op, a, b, 0, false});
    return static_cast<int>(exprs.size()) - 1;
  }

  // Records an access in the current context; returns its position.
  constexpr int access(access_kind kind, memory_kind memory, int target, int index, int column = -1) {
    ir_access a;
    a.kind = kind;
    a.memory = memory;
    a.target = target;
    a.index = index;
    a.column = column;
    snapshot(a.guard_begin, a.guard_end, a.loop_begin, a.loop_end);
    a.phase = phase;
    accesses.push_back(a);
    return static_cast<int>(accesses.size()) - 1;
  }

  constexpr void barrier() {
    ir_sync s;
    snapshot(s.guard_begin, s.guard_end, s.loop_begin, s.loop_end);
    s.phase = phase;
    syncs.push_back(s);
    for (int l : loop_stack) loops[static_cast<std::size_t>(l)].has_barrier = true;
    ++phase;
  }

 private:
  constexpr void snapshot(int& guard_begin, int& guard_end, int& loop_begin, int& loop_end) {
    guard_begin = static_cast<int>(guard_pool.size());
    for (const ir_guard& g : guard_stack) guard_pool.push_back(g);
    guard_end = static_cast<int>(guard_pool.size());
    loop_begin = static_cast<int>(loop_pool.size());
    for (int l : loop_stack) loop_pool.push_back(l);
    loop_end = static_cast<int>(loop_pool.size());
  }
};

// ---- rendering, for messages ----------------------------------------------------------------

inline const char* symbol(ir_op op) {
  switch (op) {
    case ir_op::add: return " + ";
    case ir_op::sub: return " - ";
    case ir_op::mul: return " * ";
    case ir_op::div: return " / ";
    case ir_op::mod: return " % ";
    case ir_op::shl: return " << ";
    case ir_op::shr: return " >> ";
    case ir_op::bit_and: return " & ";
    case ir_op::bit_or: return " | ";
    case ir_op::bit_xor: return " ^ ";
    case ir_op::less: return " < ";
    case ir_op::less_equal: return " <= ";
    case ir_op::greater: return " > ";
    case ir_op::greater_equal: return " >= ";
    case ir_op::equal: return " == ";
    case ir_op::not_equal: return " != ";
    case ir_op::logical_and: return " && ";
    case ir_op::logical_or: return " || ";
    default: return " ? ";
  }
}

// `names[i]` names parameter i (the kernel's own names, or p0, p1, ...).
inline std::string render(const ir_builder& ir, int id, const std::vector<std::string>& names) {
  if (id < 0) return "?";
  const ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  const char* dims = "xyz";
  auto dim = [&](const char* what) { return std::string(what) + "." + dims[e.value % 3]; };
  auto name = [&](long long i) {
    return i >= 0 && static_cast<std::size_t>(i) < names.size() ? names[static_cast<std::size_t>(i)]
                                                                 : "p" + std::to_string(i);
  };
  switch (e.op) {
    case ir_op::constant: return std::to_string(e.value);
    case ir_op::thread_id: return dim("thread_id");
    case ir_op::block_id: return dim("block_id");
    case ir_op::block_dim: return dim("block_dim");
    case ir_op::grid_dim: return dim("grid_dim");
    case ir_op::global_id: return dim("global_id");
    case ir_op::param_value: return name(e.value);
    case ir_op::param_size: return name(e.value) + ".size()";
    case ir_op::loop_var: return "i" + std::to_string(e.value);
    case ir_op::local_var: return "local" + std::to_string(e.value);
    case ir_op::load:
    case ir_op::tile_load: {
      const ir_access& a = ir.accesses[static_cast<std::size_t>(e.value)];
      std::string text = a.memory == memory_kind::global ? name(a.target) : "tile" + std::to_string(a.target);
      if (a.column >= 0) return text + "(" + render(ir, a.index, names) + ", " + render(ir, a.column, names) + ")";
      return text + "[" + render(ir, a.index, names) + "]";
    }
    case ir_op::call: return "f(" + render(ir, e.a, names) + ", ...)";
    case ir_op::min: return "min(" + render(ir, e.a, names) + ", " + render(ir, e.b, names) + ")";
    case ir_op::max: return "max(" + render(ir, e.a, names) + ", " + render(ir, e.b, names) + ")";
    case ir_op::negate: return "-(" + render(ir, e.a, names) + ")";
    case ir_op::logical_not: return "!(" + render(ir, e.a, names) + ")";
    case ir_op::bit_not: return "~(" + render(ir, e.a, names) + ")";
    default: {
      // Parenthesise operands that are themselves binary, so that the text reads unambiguously.
      auto operand = [&](int child) {
        const ir_op op = ir.exprs[static_cast<std::size_t>(child)].op;
        const bool compound = op >= ir_op::add && op <= ir_op::logical_or;
        return compound ? "(" + render(ir, child, names) + ")" : render(ir, child, names);
      };
      return operand(e.a) + symbol(e.op) + operand(e.b);
    }
  }
}

}  // namespace warden::dsl
