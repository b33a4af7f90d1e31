// The fuzzer's bridge to real kernels: writes generated programs as warden C++ sources (one body
// per program), so that tests/fuzz/bridge_test.cpp can compile them with the kernel language and
// compare what the compiler and the cpu backend say with the value-level path (lowering +
// analyse, and the interpreter) on the same programs.
//
//   warden_fuzz_emit --accepted A --rejected R --seed S --out FILE
//
// takes the generator's programs in order until it has A that the checker accepts and R that it
// rejects (acceptance is the rarer outcome, and accepted programs are the ones that must run).
//
// Programs with atomic updates are left out: the fuzzer updates its inout buffer both atomically
// and plainly, which the kernel language's types reject before any checking (W040 on the handle).
// So are programs with the generator's extensions (program::extended).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <warden/check/rules.hpp>

#include "random_program.hpp"

namespace w = warden;
using w::fuzz::expr;
using w::fuzz::node;
using w::fuzz::stmt;
using w::fuzz::stmt_kind;

namespace {

bool has_atomic(const std::vector<stmt>& body) {
  for (const stmt& s : body)
    if (s.kind == stmt_kind::atomic_add || has_atomic(s.body) || has_atomic(s.otherwise)) return true;
  return false;
}

class emitter {
 public:
  std::string body(const w::fuzz::program& p) {
    out_.clear();
    line("return w::shared<long long, " + std::to_string(p.tile) + ">(k, [&](auto k, auto tile) {");
    line("  auto t = k.thread_id();");
    line("  return w::seq(" + statements(p.body, 2) + ");");
    line("});");
    return out_;
  }

 private:
  void line(const std::string& s) { out_ += "    " + s + "\n"; }

  std::string e(const expr& x) {
    switch (x.kind) {
      case node::constant: return std::to_string(x.value) + "LL";
      case node::thread: return "t";
      case node::block: return "k.block_id()";
      case node::global: return "k.global_id()";
      case node::loop_var: return "j" + std::to_string(x.value);
      case node::param_n: return "n";
      case node::load_in: return "in[" + e(*x.a) + "]";
      case node::load_inout: return "inout[" + e(*x.a) + "]";
      case node::load_tile: return "tile[" + e(*x.a) + "]";
      case node::uconstant: return std::to_string(x.value) + "u";
      case node::param_p: case node::call: case node::local_var:
        std::fprintf(stderr, "warden_fuzz_emit: a float parameter, a call or a local cannot be emitted\n");
        std::exit(2);
      case node::binary: {
        const char* op = "+";
        switch (x.op) {
          case w::dsl::ir_op::add: op = "+"; break;
          case w::dsl::ir_op::sub: op = "-"; break;
          case w::dsl::ir_op::mul: op = "*"; break;
          case w::dsl::ir_op::div: op = "/"; break;
          case w::dsl::ir_op::mod: op = "%"; break;
          case w::dsl::ir_op::bit_xor: op = "^"; break;
          case w::dsl::ir_op::bit_and: op = "&"; break;
          case w::dsl::ir_op::shr: op = ">>"; break;
          case w::dsl::ir_op::less: op = "<"; break;
          case w::dsl::ir_op::greater: op = ">"; break;
          case w::dsl::ir_op::equal: op = "=="; break;
          default: std::fprintf(stderr, "warden_fuzz_emit: operator %d has no spelling\n", static_cast<int>(x.op)); std::exit(2);
        }
        return "(" + e(*x.a) + " " + op + " " + e(*x.b) + ")";
      }
    }
    return "";
  }
  std::string statements(const std::vector<stmt>& body, int depth) {
    std::string s;
    for (std::size_t i = 0; i < body.size(); ++i) s += (i ? ",\n" + indent(depth) : std::string()) + statement(body[i], depth);
    return s;
  }
  static std::string indent(int depth) { return std::string(static_cast<std::size_t>(4 + 2 * depth), ' '); }
  std::string statement(const stmt& s, int depth) {
    switch (s.kind) {
      case stmt_kind::store_inout: return "inout[" + e(*s.index) + "] = " + e(*s.value);
      case stmt_kind::store_tile: return "tile[" + e(*s.index) + "] = " + e(*s.value);
      case stmt_kind::sink:  // evaluated for its loads, into a variable nothing reads
        return "w::local(k, " + e(*s.value) + ", [&](auto, auto) { return w::seq(); })";
      case stmt_kind::sync: return "w::sync()";
      case stmt_kind::when: {
        std::string r = "w::when(" + e(*s.condition) + ", w::seq(" + statements(s.body, depth + 1) + "))";
        if (!s.otherwise.empty()) r += ".otherwise(w::seq(" + statements(s.otherwise, depth + 1) + "))";
        return r;
      }
      case stmt_kind::loop:
        return "w::for_range(k, 0, " + std::to_string(s.trips) + ", [&](auto k, auto j" + std::to_string(s.level) +
               ") {\n" + indent(depth + 1) + "return w::seq(" + statements(s.body, depth + 1) + ");\n" + indent(depth) + "})";
      case stmt_kind::atomic_add: case stmt_kind::scope: case stmt_kind::stride_loop: case stmt_kind::local:
      case stmt_kind::assign_local: break;
    }
    std::fprintf(stderr, "warden_fuzz_emit: an atomic update, a nested tile or a local cannot be emitted\n");
    std::exit(2);
  }

  std::string out_;
};

}  // namespace

int main(int argc, char** argv) {
  long want_accepted = 16, want_rejected = 24;
  unsigned seed = 7;
  std::string path;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--accepted") == 0) want_accepted = std::atol(argv[i + 1]);
    else if (std::strcmp(argv[i], "--rejected") == 0) want_rejected = std::atol(argv[i + 1]);
    else if (std::strcmp(argv[i], "--seed") == 0) seed = static_cast<unsigned>(std::atol(argv[i + 1]));
    else if (std::strcmp(argv[i], "--out") == 0) path = argv[i + 1];
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: warden_fuzz_emit --accepted A --rejected R --seed S --out FILE\n");
    return 2;
  }
  std::string text = "// Generated by warden_fuzz_emit --accepted " + std::to_string(want_accepted) + " --rejected " +
                     std::to_string(want_rejected) + " --seed " + std::to_string(seed) +
                     ": do not edit.\n#pragma once\n\nnamespace bridge {\nnamespace w = warden;\n\ninline constexpr unsigned seed = " +
                     std::to_string(seed) + ";\n\n";
  const std::string table = "// Program number in the generator's sequence, block size, body.\n#define WARDEN_BRIDGE_PROGRAMS(X)";
  w::fuzz::generator gen(seed);
  emitter em;
  std::string rows;
  for (long accepted = 0, rejected = 0, k = 0; accepted < want_accepted || rejected < want_rejected; ++k) {
    const w::fuzz::program p = gen.make();
    // Unsigned n, float p, calls and nested tiles are left out: the bridge's kernels take one
    // parameter list (value<int> n) and one tile. The fuzzer's own run covers them.
    if (has_atomic(p.body) || p.extended) continue;
    const bool accept = !w::check::analyse(w::fuzz::lowering(p).run(), {p.block, 1, 1});
    if (accept ? accepted >= want_accepted : rejected >= want_rejected) continue;
    (accept ? accepted : rejected) += 1;
    const std::string name = "body_" + std::to_string(k);
    text += "struct " + name + " {\n  constexpr auto operator()(auto k, auto inout, auto in, auto n) const {\n" + em.body(p) +
            "  }\n};\n";
    rows += " \\\n  X(" + std::to_string(k) + ", " + std::to_string(p.block) + ", " + name + ")";
  }
  text += "\n}  // namespace bridge\n\n" + table + rows + "\n";
  std::ofstream(path) << text;
  return 0;
}
