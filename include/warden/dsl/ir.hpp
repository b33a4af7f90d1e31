#pragma once
// The value-level description of a kernel program (proposals/0002-kernel-language.md: one analysis, two uses).
//
// describe(program) flattens the program type into plain arrays: expression nodes, and one record
// per memory access with its buffer, kind, index expression, enclosing guards, loop nest and
// barrier phase. The launch-time bounds check reads it at run time; the static checker reads the
// very same records in constant evaluation (std::vector is constexpr in C++20, and every vector
// here lives and dies inside one evaluation).

#include <string>
#include <type_traits>
#include <vector>

#include "../detail/text_buffer.hpp"

namespace warden::dsl {

enum class ir_op : unsigned char {
  constant,
  thread_id, block_id, block_dim, grid_dim, global_id,  // value = dimension
  param_value, param_size,                              // value = parameter position
  loop_var,                                             // value = the loop (index into loops)
  local_var,                                            // value = the local (index into locals)
  load, tile_load,                                      // a loaded value (data); value = access record
  call,                                                 // a user function of its arguments (data)
  contents_distinct,                                    // distinct(x): a stated fact, true when launch
                                                        // found no two equal elements; value = parameter
  contents_sorted,                                      // sorted(x): each element above the one before
  contents_non_decreasing,                              // non_decreasing(x): none below the one before
                                                        // (both: a = rows(n), b = below(hi), -1 where not given)
  contents_within,                                      // within(x, lo, hi): every element in [lo, hi);
                                                        // a = lo, b = hi (launch-uniform), value = parameter
  add, sub, mul, div, mod, shl, shr, bit_and, bit_or, bit_xor,
  less, less_equal, greater, greater_equal, equal, not_equal, logical_and, logical_or,
  min, max, negate, logical_not, bit_not,
  // select(c, x, y): a = c, b = a `choice` node whose a = x, b = y. Two nodes, so that every walk
  // over operands (data dependence, uniformity, parameters read) reaches all three.
  select, choice,
};

struct ir_expr {
  ir_op op = ir_op::constant;
  int a = -1, b = -1;    // operands (expression ids)
  long long value = 0;   // constant, dimension, parameter or level
  bool is_float = false;
  bool is_unsigned = false;  // a value of unsigned type: never negative
  // Operators only: the operation is carried out in an unsigned type of this many bits (32 or
  // 64; 0: not unsigned). Comparisons too: `t - 1 < 31u` compares in unsigned int. Launch checks
  // that such an operation neither gets a negative operand nor leaves the type's range (E104), so
  // the checker may reason about it as about integers.
  unsigned char unsigned_bits = 0;
  // Loads only: a value of an integral type narrower than int, so in a known range (uint8_t:
  // 0..255, short: -32768..32767) whatever memory holds; 0: not narrow. A bool counts as its byte
  // (0..255): an uninitialised buffer may hold any, and the device indexes with the byte.
  unsigned char narrow_bits = 0;
  // Operators only: the operation is carried out in a signed type of this many bits (32 or 64;
  // 0: not signed integral). Overflow there is undefined, and wraps on the device: launch checks
  // that no such arithmetic leaves the type (E104), so the checker may reason about it as about
  // integers (`i * 65536 == 0` holds for i = 65536 too once it wraps).
  unsigned char signed_bits = 0;
  // Reads of a thread-private variable (local_var) only: the value it holds there, as an
  // expression of the launch's values (dsl/local_values.hpp); -1 where the describing could not
  // follow it (a conversion that may change the value, a value carried from an earlier trip).
  // Not an operand: the static rules read a local as data, the launch-time checks read through.
  int held = -1;
};

// The narrow_bits of a loaded value of type T.
template <class T>
inline constexpr unsigned char narrow_bits_of =
    std::is_integral_v<T> && sizeof(T) < sizeof(int) ? static_cast<unsigned char>(sizeof(T) * 8) : 0;

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
  int position = 0;      // program order among accesses and barriers
  bool trusted = false;  // inside trusted(...): the race rules skip it
  // One element of a vector access (w::vectors<N>(x)[i]) of this many bytes, whose address launch
  // checks is a multiple of it; 0: a scalar access.
  unsigned char vector_bytes = 0;
  int element_bytes = 0;  // global accesses: sizeof the element (the W051 lint); 0: not known
  unsigned char lint_off = 0;  // inside lint_off<...>(...): the lints it names skip it (1: W050, 2: W051)
  // A global access through a buffer stated distinct (given(distinct(p), ...)): its index was
  // p[e], a load, and is recorded as e, the parameter as permuted_by. No two elements of p are
  // equal (launch checks it, E107), so p[e1] and p[e2] name one element exactly when e1 == e2: the
  // race rules decide on e what they would on p[e], provided every access to the buffer goes
  // through p (W012 otherwise). The bounds (E101) use what p holds. -1: none.
  int permuted_by = -1;
  // A global scalar store: the expression of the value it stores (before its conversion to the
  // element type), from which launch bounds what a buffer the kernel writes can hold
  // (check/launch/written_ranges.hpp); -1 for every other access.
  int value = -1;
  // A store of a floating-point value into an integral element, which C++ would truncate (W008):
  // described so that the checker reports it with the parameter's name (check/modes.hpp).
  bool narrowing = false;
  // The node of the kernel's program that makes this access, where the program was described at
  // run time (never in a constant expression, which keeps nullptr): the cpu backend's recording
  // attributes each access it sees to its node, and so to this record (recording::meets).
  const void* origin = nullptr;
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
  int guard_begin = 0, guard_end = 0;  // the guards around the loop (range in guard_pool)
};

// Accesses to a tile name it by its index in kernel_ir::tiles: its declaration, not its nesting
// level (two sibling tiles at one level are two tiles).
struct ir_tile {
  int level = 0;
  int rows = 0, cols = 0, pad = 0;  // cols == 0: a 1-D tile of `rows` elements
  int element_bytes = 0;            // sizeof the element (the W050 lint); 0: not known
};

struct ir_sync {
  int guard_begin = 0, guard_end = 0;
  int loop_begin = 0, loop_end = 0;
  int phase = 0;     // the phase it ends
  int position = 0;  // program order among accesses and barriers
  bool trusted = false;
};

// A warp shuffle: every lane of the warp must reach it (W031). Not an access and not a barrier:
// it exchanges registers, so it takes no part in the phase or program order of memory accesses.
enum class shuffle_kind : unsigned char { down, up, xor_lanes, index };
inline constexpr int warp_lanes = 32;  // lanes are consecutive linear thread ids, x fastest

// The kernel language's name of each kind, for messages.
constexpr const char* name_of(shuffle_kind kind) {
  constexpr const char* names[] = {"shuffle_down", "shuffle_up", "shuffle_xor", "shuffle_from"};
  return names[static_cast<int>(kind)];
}

struct ir_shuffle {
  shuffle_kind kind = shuffle_kind::down;
  int lane = -1;  // the delta, lane mask or source lane expression
  int guard_begin = 0, guard_end = 0;
  int loop_begin = 0, loop_end = 0;
  bool trusted = false;
};

// A thread-private variable's declaration: its initial value, where that is evaluated, and
// whether any assignment may change it (W030 counts a never-assigned local as uniform when its
// initial value is).
struct ir_local {
  int level = 0;
  int init = -1;
  int loop_begin = 0, loop_end = 0;
  bool assigned = false;
  // While describing: the value the variable holds at this point of the program (an expression
  // id), or -1 where it is not known (dsl/local_values.hpp). Of an integral type of `bits` bits.
  int value = -1;
  bool is_unsigned = false;
  unsigned char bits = 0;
};

// The launch-time checks read a local as the value it holds where it is read (ir_expr::held,
// dsl/local_values.hpp), through at most this many reads in a row (a chain that reads the previous
// local twice per step would cost 2^n): check/launch/interval_evaluator.hpp (bounds and E104) and
// contents_read.hpp (which loads to measure) share both.
inline constexpr int max_local_read_depth = 6;

// What opened a scope, for W032's message.
enum class scope_kind : unsigned char { loop, grid_stride, unroll, local, shuffle, tile };
constexpr const char* name_of(scope_kind kind) {
  constexpr const char* names[] = {"for_range", "grid_stride", "unroll", "local or registers", "a shuffle", "shared"};
  return names[static_cast<int>(kind)];
}

struct kernel_ir {
  std::vector<ir_expr> exprs;
  std::vector<ir_access> accesses;
  std::vector<ir_guard> guard_pool;
  std::vector<int> loop_pool;
  std::vector<ir_loop> loops;
  std::vector<ir_tile> tiles;
  std::vector<ir_sync> syncs;
  std::vector<ir_shuffle> shuffles;
  std::vector<ir_local> locals;
  // The value a read of a local holds where the launch-time checks may read through it (ir_expr::
  // held); -1 for any other node.
  constexpr int held_value(const ir_expr& e) const { return e.op == ir_op::local_var ? e.held : -1; }
  // Conditions the user stated with given(...): facts over the launch's values that the checker
  // uses as guards and launch checks before running (E107).
  std::vector<int> stated;

  // The context of the statement being described.
  std::vector<ir_guard> guard_stack;
  std::vector<int> loop_stack;  // indices into loops
  std::vector<int> tile_stack;  // indices into tiles: the tiles in scope
  std::vector<int> local_stack;  // indices into locals: the locals in scope
  // The levels the scopes around the statement bind, outermost first. A scope opened with the
  // context of an enclosing scope binds a level already open: its variable and the enclosing
  // one's share a type, so the inner hides the outer wherever both are meant (W032).
  std::vector<int> open_levels;
  std::vector<scope_kind> open_kinds;
  int reopened_level = -1;  // W032: the first level bound again inside itself, and by what
  scope_kind reopened_inner = scope_kind::loop, reopened_outer = scope_kind::loop;
  int phase = 0;
  int position = 0;
  int trusted_depth = 0;  // > 0 inside trusted(...)
  unsigned char lint_off = 0;  // the lints turned off here (dsl/lint_off.hpp)

  // The declarations in scope of the loop variable and of the tile bound at nesting level `level`
  // (the innermost, as in C++ scoping); -1 if none.
  constexpr int loop_at(int level) const {
    for (auto it = loop_stack.rbegin(); it != loop_stack.rend(); ++it)
      if (loops[static_cast<std::size_t>(*it)].level == level) return *it;
    return -1;
  }
  constexpr int tile_at(int level) const {
    for (auto it = tile_stack.rbegin(); it != tile_stack.rend(); ++it)
      if (tiles[static_cast<std::size_t>(*it)].level == level) return *it;
    return -1;
  }

  constexpr int local_at(int level) const {
    for (auto it = local_stack.rbegin(); it != local_stack.rend(); ++it)
      if (locals[static_cast<std::size_t>(*it)].level == level) return *it;
    return -1;
  }

  // Enters a scope that binds `level`; the first scope that binds a level already open is W032's.
  constexpr void open_scope(int level, scope_kind kind) {
    for (std::size_t i = 0; i < open_levels.size() && reopened_level < 0; ++i)
      if (open_levels[i] == level) {
        reopened_level = level;
        reopened_inner = kind;
        reopened_outer = open_kinds[i];
      }
    open_levels.push_back(level);
    open_kinds.push_back(kind);
  }
  constexpr void close_scope() {
    open_levels.pop_back();
    open_kinds.pop_back();
  }

  // Pushes a guard for each conjunct of `condition` (a && b && c: three); returns how many.
  constexpr int push_conjuncts(int condition) {
    const ir_expr& e = exprs[static_cast<std::size_t>(condition)];
    if (e.op == ir_op::logical_and) return push_conjuncts(e.a) + push_conjuncts(e.b);
    guard_stack.push_back({condition, false});
    return 1;
  }

  constexpr int constant(long long v, bool is_float) {
    exprs.push_back({ir_op::constant, -1, -1, v, is_float});
    return static_cast<int>(exprs.size()) - 1;
  }
  constexpr int leaf(ir_op op, long long v, bool is_unsigned = false, bool is_float = false, unsigned char narrow_bits = 0) {
    exprs.push_back({op, -1, -1, v, is_float, is_unsigned, 0, narrow_bits});
    return static_cast<int>(exprs.size()) - 1;
  }
  constexpr int node(ir_op op, int a, int b = -1, bool is_float = false, int unsigned_bits = 0, int signed_bits = 0) {
    exprs.push_back({op, a, b, 0, is_float, unsigned_bits > 0, static_cast<unsigned char>(unsigned_bits), 0,
                     static_cast<unsigned char>(signed_bits)});
    return static_cast<int>(exprs.size()) - 1;
  }

  // Records an access in the current context; returns its position.
  // Whether fact `id` (a stated fact, alone or as a conjunct) is the contents fact `op`
  // (contents_distinct, contents_sorted, ...) about parameter p, or about any parameter where p < 0.
  constexpr bool states(int id, ir_op op, int p = -1) const {
    if (id < 0) return false;
    const ir_expr& e = exprs[static_cast<std::size_t>(id)];
    if (e.op == op) return p < 0 || e.value == p;
    if (e.op == ir_op::logical_and) return states(e.a, op, p) || states(e.b, op, p);
    return false;
  }
  // Whether a fact stated so far is `op` about parameter p (any parameter where p < 0).
  constexpr bool has_stated(ir_op op, int p = -1) const {
    for (int fact : stated)
      if (states(fact, op, p)) return true;
    return false;
  }
  // Whether a fact stated so far orders parameter p (sorted(p) or non_decreasing(p), over the whole
  // buffer or per row, with or without a bound: one op each, rows and bound its children).
  constexpr bool stated_order(int p = -1) const {
    return has_stated(ir_op::contents_sorted, p) || has_stated(ir_op::contents_non_decreasing, p);
  }

  // Accesses first .. first + count - 1 are made by the program node at `site` (ir_access::origin).
  constexpr void made_by(int first, int count, const void* site) {
    if (std::is_constant_evaluated()) return;
    for (int k = 0; k < count; ++k) accesses[static_cast<std::size_t>(first + k)].origin = site;
  }

  constexpr int access(access_kind kind, memory_kind memory, int target, int index, int column = -1,
                       int element_bytes = 0) {
    ir_access a;
    a.element_bytes = element_bytes;
    a.kind = kind;
    a.memory = memory;
    a.target = target;
    a.index = index;
    a.column = column;
    if (memory == memory_kind::global && column < 0 && index >= 0 &&
        exprs[static_cast<std::size_t>(index)].op == ir_op::load) {
      const ir_access& through = accesses[static_cast<std::size_t>(exprs[static_cast<std::size_t>(index)].value)];
      if (through.memory == memory_kind::global && through.permuted_by < 0 && through.vector_bytes == 0 &&
          has_stated(ir_op::contents_distinct, through.target)) {
        a.index = through.index;
        a.permuted_by = through.target;
      }
    }
    snapshot(a.guard_begin, a.guard_end, a.loop_begin, a.loop_end);
    a.phase = phase;
    a.position = position++;
    a.trusted = trusted_depth > 0;
    a.lint_off = lint_off;
    accesses.push_back(a);
    return static_cast<int>(accesses.size()) - 1;
  }

  // Records a loop in the current context and enters it.
  constexpr void enter_loop(ir_loop loop) {
    loop.guard_begin = static_cast<int>(guard_pool.size());
    for (const ir_guard& g : guard_stack) guard_pool.push_back(g);
    loop.guard_end = static_cast<int>(guard_pool.size());
    loops.push_back(loop);
    loop_stack.push_back(static_cast<int>(loops.size()) - 1);
  }

  constexpr void barrier() {
    ir_sync s;
    snapshot(s.guard_begin, s.guard_end, s.loop_begin, s.loop_end);
    s.phase = phase;
    s.position = position++;
    s.trusted = trusted_depth > 0;
    syncs.push_back(s);
    for (int l : loop_stack) loops[static_cast<std::size_t>(l)].has_barrier = true;
    ++phase;
  }

  constexpr void shuffle(shuffle_kind kind, int lane) {
    ir_shuffle s;
    s.kind = kind;
    s.lane = lane;
    snapshot(s.guard_begin, s.guard_end, s.loop_begin, s.loop_end);
    s.trusted = trusted_depth > 0;
    shuffles.push_back(s);
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

constexpr const char* symbol(ir_op op) {
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

// The names the user gave a kernel's scopes, by the kernel_ir's ids (check/source_names.hpp reads
// them from a WARDEN_KERNEL's source). An empty name keeps the default: i<level> for a loop
// variable, tile<id> for a tile, local<level> for a local, thread_id.x and kin for the indices.
struct user_names {
  static constexpr int max_loops = 64, max_tiles = 32, max_levels = 32;
  std::string_view loops[max_loops]{};    // by loop id
  std::string_view tiles[max_tiles]{};    // by tile id
  std::string_view locals[max_levels]{};  // by level
  std::string_view indices[6][3]{};       // an alias (`auto i = k.global_id();`) by ir_op - thread_id, and dimension

  static constexpr std::string_view pick(const std::string_view* names, int count, int i) {
    return i >= 0 && i < count ? names[i] : std::string_view{};
  }
  constexpr std::string_view loop(int id) const { return pick(loops, max_loops, id); }
  constexpr std::string_view tile(int id) const { return pick(tiles, max_tiles, id); }
  constexpr std::string_view local(int level) const { return pick(locals, max_levels, level); }
};

// A tile as the user named it, or tile<id>.
constexpr void render_tile(detail::text_buffer& out, int id, const user_names* user) {
  if (user != nullptr && !user->tile(id).empty()) out << user->tile(id);
  else out << "tile" << id;
}

// Writes expression `id` as C++-like text. `name(out, i)` writes the name of parameter i; `user`,
// where given, names scope variables, tiles and thread indices.
template <class Namer>
constexpr void render_to(detail::text_buffer& out, const kernel_ir& ir, int id, const Namer& name,
                         const user_names* user = nullptr) {
  if (id < 0) {
    out << '?';
    return;
  }
  const ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  const char dims[] = "xyz";
  auto dim = [&](const char* what) {
    const int op = static_cast<int>(e.op) - static_cast<int>(ir_op::thread_id);
    if (user != nullptr && op >= 0 && op < 6 && !user->indices[op][e.value % 3].empty()) {
      out << user->indices[op][e.value % 3];
      return;
    }
    out << what << '.' << dims[e.value % 3];
  };
  switch (e.op) {
    case ir_op::constant: out << e.value; return;
    case ir_op::thread_id: dim("thread_id"); return;
    case ir_op::block_id: dim("block_id"); return;
    case ir_op::block_dim: dim("block_dim"); return;
    case ir_op::grid_dim: dim("grid_dim"); return;
    case ir_op::global_id: dim("global_id"); return;
    case ir_op::param_value: name(out, static_cast<int>(e.value)); return;
    case ir_op::param_size: name(out, static_cast<int>(e.value)); out << ".size()"; return;
    case ir_op::contents_distinct: out << "distinct("; name(out, static_cast<int>(e.value)); out << ')'; return;
    case ir_op::contents_sorted:
    case ir_op::contents_non_decreasing:
      out << (e.op == ir_op::contents_sorted ? "sorted(" : "non_decreasing(");
      name(out, static_cast<int>(e.value));
      out << ')';
      if (e.a >= 0) {
        out << ".rows(";
        render_to(out, ir, e.a, name, user);
        out << ')';
      }
      if (e.b >= 0) {
        out << ".below(";
        render_to(out, ir, e.b, name, user);
        out << ')';
      }
      return;
    case ir_op::contents_within:
      out << "within(";
      name(out, static_cast<int>(e.value));
      out << ", ";
      render_to(out, ir, e.a, name, user);
      out << ", ";
      render_to(out, ir, e.b, name, user);
      out << ')';
      return;
    case ir_op::loop_var:
      if (user != nullptr && !user->loop(static_cast<int>(e.value)).empty()) out << user->loop(static_cast<int>(e.value));
      else out << 'i' << (e.value >= 0 ? ir.loops[static_cast<std::size_t>(e.value)].level : -1);
      return;
    case ir_op::local_var: {
      // Named by its level (a level's locals share a name: check/source_names.hpp).
      const int level = e.value >= 0 && e.value < static_cast<long long>(ir.locals.size())
                            ? ir.locals[static_cast<std::size_t>(e.value)].level : -1;
      if (user != nullptr && !user->local(level).empty()) out << user->local(level);
      else out << "local" << level;
      return;
    }
    case ir_op::load:
    case ir_op::tile_load: {
      const ir_access& a = ir.accesses[static_cast<std::size_t>(e.value)];
      if (a.memory == memory_kind::global) name(out, a.target);
      else render_tile(out, a.target, user);
      if (a.column >= 0) {
        out << '(';
        render_to(out, ir, a.index, name, user);
        out << ", ";
        render_to(out, ir, a.column, name, user);
        out << ')';
      } else if (a.permuted_by >= 0) {  // x[p[e]], recorded as e (ir_access::permuted_by)
        out << '[';
        name(out, a.permuted_by);
        out << '[';
        render_to(out, ir, a.index, name, user);
        out << "]]";
      } else {
        out << '[';
        render_to(out, ir, a.index, name, user);
        out << ']';
      }
      return;
    }
    case ir_op::call: out << "f("; render_to(out, ir, e.a, name, user); out << ", ...)"; return;
    case ir_op::select:
      out << "select(";
      render_to(out, ir, e.a, name, user);
      out << ", ";
      render_to(out, ir, e.b, name, user);
      out << ')';
      return;
    case ir_op::choice:
      render_to(out, ir, e.a, name, user);
      out << ", ";
      render_to(out, ir, e.b, name, user);
      return;
    case ir_op::min: case ir_op::max:
      out << (e.op == ir_op::min ? "min(" : "max(");
      render_to(out, ir, e.a, name, user);
      out << ", ";
      render_to(out, ir, e.b, name, user);
      out << ')';
      return;
    case ir_op::negate: case ir_op::logical_not: case ir_op::bit_not:
      out << (e.op == ir_op::negate ? "-(" : e.op == ir_op::logical_not ? "!(" : "~(");
      render_to(out, ir, e.a, name, user);
      out << ')';
      return;
    default: {
      // Parenthesise operands that are themselves binary, so that the text reads unambiguously. For
      // the user (an explanation, `user` given) arithmetic reads as written: `b * 64 + t + 1`, not
      // `((b * 64) + t) + 1` (shifts, bitwise and comparisons keep theirs); check/source_names.hpp
      // finds the statement by that spelling.
      const auto rank = [](ir_op op) {
        return op == ir_op::mul || op == ir_op::div || op == ir_op::mod ? 2 : op == ir_op::add || op == ir_op::sub ? 1 : 0;
      };
      auto operand = [&](int child, bool left) {
        const ir_op op = ir.exprs[static_cast<std::size_t>(child)].op;
        const bool compound = op >= ir_op::add && op <= ir_op::logical_or;
        const bool plain = user != nullptr && rank(op) > 0 && rank(e.op) > 0 &&
                           (rank(op) > rank(e.op) || (rank(op) == rank(e.op) && left));
        if (compound && !plain) out << '(';
        render_to(out, ir, child, name, user);
        if (compound && !plain) out << ')';
      };
      operand(e.a, true);
      out << symbol(e.op);
      operand(e.b, false);
    }
  }
}

// `names[i]` names parameter i (the kernel's own names, or p0, p1, ...).
inline std::string render(const kernel_ir& ir, int id, const std::vector<std::string>& names) {
  detail::text_buffer out;
  render_to(out, ir, id, [&](detail::text_buffer& b, int i) {
    if (i >= 0 && static_cast<std::size_t>(i) < names.size()) b << std::string_view(names[static_cast<std::size_t>(i)]);
    else b << 'p' << i;
  });
  return std::string(out.view());
}

}  // namespace warden::dsl
