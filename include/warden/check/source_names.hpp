#pragma once
// The user's own names in a kernel's diagnostics: WARDEN_KERNEL keeps its definition's source
// text (kernel_source_of<F> finds it from the body's type), and this file reads, in constant
// evaluation, the names written there: the body's parameters (the buffers and values), each
// scope's variable (`[](auto k, auto j)` of a for_range, `tile` of a shared, `sum` of a local)
// and the aliases of the thread indices (`auto i = k.global_id();`).
//
// It reads C++ text without a C++ parser, so every name it gives is checked against the program
// the checker built: the scopes it found must be the program's, in the same order and at the
// same nesting levels, or their names are not used (the defaults i1, tile0, in#0 stay). A wrong
// name would be worse than a number.

#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../dsl/ir.hpp"
#include "../dsl/source_text.hpp"

namespace warden::check {

// WARDEN_KERNEL declares, in the class that holds the kernel's definition, a hidden friend
// `warden_kernel_source(auto)` whose return type carries the source text. A lambda written there
// is a class of that scope, so argument-dependent lookup on the body's type finds the friend;
// a body defined elsewhere finds none and has no source.
template <class F>
struct kernel_source_of {
  static constexpr std::string_view text{};
  static constexpr std::string_view kernel{};
};
template <class F>
  requires requires { decltype(warden_kernel_source(std::declval<F>()))::text; }
struct kernel_source_of<F> {
  using source = decltype(warden_kernel_source(std::declval<F>()));
  static constexpr std::string_view text = source::text;
  static constexpr std::string_view kernel = source::kernel;
};

// What the reader found in the source: every lambda with the call it is an argument of, its
// parameter names and the scope level its variable gets; the index aliases.
struct source_scan {
  static constexpr int max_lambdas = 96, max_params = dsl::source_text::max_params;
  enum class scope { none, loop, loop_derived, until, tile, local };
  struct lambda {
    scope kind = scope::none;
    int level = 0;  // the level of the scope's variable (its loop, tile or local)
    int call = -1;  // the call it is an argument of (two lambdas of one for_until share it)
    std::string_view callee{};  // that call's function
    int count = 0;
    std::string_view params[max_params]{};
  };
  lambda lambdas[max_lambdas]{};
  int lambda_count = 0;
  bool overflow = false;
  // The text builds scopes in ways whose order or nesting the reader cannot follow: a scope call
  // without its lambda written in it (a lambda kept in a variable), a scope kept in a variable (and
  // combined later, in any order), a scope inside a helper lambda. Its scopes then get no names.
  bool scopes_unreliable = false;
  std::string_view indices[6][3]{};
  bool index_ambiguous[6][3]{};
};

namespace source_detail {

using dsl::source_text::ident_before;
using dsl::source_text::ident_char;
using dsl::source_text::space;

// Before `at`: spaces and a template's argument list (`<w::block<64>, w::in<int>>`), skipped.
constexpr std::size_t before_template_args(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end > 0 && space(text[end - 1])) --end;
  if (end > 0 && text[end - 1] == '>') {
    int depth = 0;
    while (end > 0) {
      const char c = text[--end];
      if (c == '>') ++depth;
      else if (c == '<' && --depth == 0) break;
    }
  }
  return end;
}

// The name of the function a '(' at `at` calls: `for_range` in `w::for_range(`, `kernel` in
// `w::kernel<w::block<64>, w::in<int>>(`.
constexpr std::string_view callee_before(std::string_view text, std::size_t at) {
  std::size_t end = before_template_args(text, at);
  return ident_before(text, end);
}

// Where the callee of the '(' at `at` starts: `w::shared<float, 64>(` from its `w`.
constexpr std::size_t callee_start(std::string_view text, std::size_t at) {
  std::size_t end = before_template_args(text, at);
  for (;;) {
    ident_before(text, end);
    if (end >= 2 && text[end - 1] == ':' && text[end - 2] == ':') end -= 2;
    else return end;
  }
}

using dsl::source_text::param_name;
constexpr bool blank(std::string_view text) {
  for (char c : text)
    if (!space(c)) return false;
  return true;
}

constexpr source_scan::scope scope_of(std::string_view callee) {
  using s = source_scan::scope;
  if (callee == "for_range" || callee == "grid_stride" || callee == "unroll") return s::loop;
  if (callee == "for_down" || callee == "for_halving" || callee == "for_shift_down" || callee == "for_shift_up" ||
      callee == "for_doubling")
    return s::loop_derived;  // the loop counts j; the user sees f(j)
  if (callee == "for_until") return s::until;
  if (callee == "shared") return s::tile;
  if (callee == "local" || callee == "registers" || callee == "shuffle_down" || callee == "shuffle_up" ||
      callee == "shuffle_xor" || callee == "shuffle_from")
    return s::local;
  return s::none;
}

constexpr std::string_view index_functions[6][3] = {
    {"thread_id", "thread_id_y", "thread_id_z"}, {"block_id", "block_id_y", "block_id_z"},
    {"block_dim", "block_dim_y", "block_dim_z"}, {"grid_dim", "grid_dim_y", "grid_dim_z"},
    {"global_id", "global_id_y", "global_id_z"}, {"", "", ""}};

// `auto NAME = CTX.FUNC();` ending at `dot` (the '.'): NAME, or empty.
constexpr std::string_view alias_at(std::string_view text, std::size_t dot) {
  std::size_t at = dot;
  if (ident_before(text, at).empty()) return {};
  while (at > 0 && space(text[at - 1])) --at;
  if (at == 0 || text[at - 1] != '=') return {};
  --at;
  const std::string_view name = ident_before(text, at);
  std::size_t before = at;
  const std::string_view type = ident_before(text, before);
  return type == "auto" ? name : std::string_view{};
}

}  // namespace source_detail

// Reads `text`, a WARDEN_KERNEL's `w::kernel<...>(body)...` as the preprocessor spelled it.
constexpr source_scan scan_source(std::string_view text) {
  using namespace source_detail;
  source_scan out;
  struct open {
    char c = 0;
    int call = -1;                      // '(': the id of the call it opens
    std::string_view callee{};          // '(': the function it calls
    bool lambda_body = false;           // '{': a lambda's body
    int level = 0;                      // '{' of a lambda body: the level of the `k` it receives
    bool helper = false;                // '{' of a lambda body: neither the kernel's body nor a scope's
    bool has_lambda = false;            // '(': a lambda is written among its arguments
  };
  constexpr int max_depth = 256;
  open stack[max_depth]{};
  int depth = 0;
  int calls = 0;
  int pending_level = -1;  // a lambda's parameters were read: its body's '{' comes next
  bool pending_helper = false;
  auto level_here = [&] {
    for (int d = depth - 1; d >= 0; --d)
      if (stack[d].lambda_body) return stack[d].level;
    return 0;
  };
  auto innermost_call = [&]() -> open* {
    for (int d = depth - 1; d >= 0; --d) {
      if (stack[d].c == '(') return &stack[d];
      if (stack[d].c == '{') return nullptr;
    }
    return nullptr;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || (c == '\'' && (i == 0 || !ident_char(text[i - 1])))) {  // a literal (not 1'000)
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    if (depth >= max_depth) {
      out.overflow = true;
      return out;
    }
    if (c == '(') {
      const std::string_view callee = callee_before(text, i);
      if (scope_of(callee) != source_scan::scope::none) {
        // `auto first = w::for_range(...)`: a scope kept in a variable, combined in any order later.
        std::size_t at = callee_start(text, i);
        while (at > 0 && space(text[at - 1])) --at;
        if (at > 0 && text[at - 1] == '=' && (at < 2 || (text[at - 2] != '=' && text[at - 2] != '!' &&
                                                          text[at - 2] != '<' && text[at - 2] != '>')))
          out.scopes_unreliable = true;
      }
      stack[depth++] = {'(', calls++, callee, false, 0, false, false};
    } else if (c == '{') {
      stack[depth++] = {'{', -1, {}, pending_level >= 0, pending_level, pending_helper, false};
      pending_level = -1;
      pending_helper = false;
    } else if (c == ')' || c == '}' || c == ']') {
      if (depth > 0) {
        const open& closed = stack[depth - 1];
        if (c == ')' && scope_of(closed.callee) != source_scan::scope::none && !closed.has_lambda)
          out.scopes_unreliable = true;  // `w::local(k, 0, body)`: the scope's lambda is elsewhere
        --depth;
      }
    } else if (c == '.') {
      // An index alias: `auto i = k.global_id();`.
      for (int op = 0; op < 5; ++op)
        for (int d = 0; d < 3; ++d) {
          const std::string_view f = index_functions[op][d];
          if (text.substr(i + 1, f.size()) != f) continue;
          std::size_t after = i + 1 + f.size();
          if (after < text.size() && ident_char(text[after])) continue;
          while (after < text.size() && space(text[after])) ++after;
          if (text.substr(after, 2) != "()") continue;
          after += 2;
          while (after < text.size() && space(text[after])) ++after;
          if (after >= text.size() || text[after] != ';') continue;
          const std::string_view name = alias_at(text, i);
          if (name.empty()) continue;
          if (!out.indices[op][d].empty() && out.indices[op][d] != name) out.index_ambiguous[op][d] = true;
          out.indices[op][d] = name;
        }
    } else if (c == '[') {
      // A lambda's introducer, where an expression starts; an index follows an expression.
      std::size_t p = i;
      while (p > 0 && space(text[p - 1])) --p;
      const char before = p == 0 ? '(' : text[p - 1];
      std::size_t word_end = p;
      const bool after_return = ident_before(text, word_end) == "return";
      const bool introducer = after_return || before == '(' || before == ',' || before == '=' || before == '{' ||
                              before == ';' || before == '?' || before == ':';
      if (!introducer) {
        stack[depth++] = {'[', -1, {}, false, 0};
        continue;
      }
      std::size_t j = i + 1;
      for (int nest = 1; j < text.size() && nest > 0; ++j) nest += text[j] == '[' ? 1 : text[j] == ']' ? -1 : 0;
      while (j < text.size() && space(text[j])) ++j;
      if (j < text.size() && text[j] == '<') {  // a template head: `[]<class K>(K k, auto a)`
        for (int nest = 0; j < text.size(); ++j) {
          if (text[j] == '<') ++nest;
          else if (text[j] == '>' && --nest == 0) break;
        }
        for (++j; j < text.size() && space(text[j]); ++j) {
        }
      }
      if (j >= text.size() || text[j] != '(') {  // `[]{ ... }`: no parameters
        i = j - 1;
        pending_level = level_here();
        pending_helper = true;
        continue;
      }
      const std::size_t params_begin = j + 1;
      int nest = 1;
      for (++j; j < text.size(); ++j) {
        if (text[j] == '(' || text[j] == '<' || text[j] == '[') ++nest;
        else if ((text[j] == ')' || text[j] == '>' || text[j] == ']') && --nest == 0) break;
      }
      if (out.lambda_count == source_scan::max_lambdas) {
        out.overflow = true;
        return out;
      }
      source_scan::lambda& l = out.lambdas[out.lambda_count++];
      const std::string_view params = text.substr(params_begin, j - params_begin);
      std::size_t from = 0;
      int pnest = 0;
      for (std::size_t q = 0; q <= params.size(); ++q) {
        const char pc = q < params.size() ? params[q] : ',';
        if (pc == '(' || pc == '<' || pc == '[') ++pnest;
        else if (pc == ')' || pc == '>' || pc == ']') --pnest;
        else if (pc == ',' && pnest == 0) {
          const std::string_view decl = params.substr(from, q - from);
          if (!blank(decl)) {  // `()` declares none
            if (l.count == source_scan::max_params) {
              out.overflow = true;
              return out;
            }
            l.params[l.count++] = param_name(decl);
          }
          from = q + 1;
        }
      }
      const int here = level_here();
      open* call = innermost_call();
      l.kind = call != nullptr ? scope_of(call->callee) : source_scan::scope::none;
      l.call = call != nullptr ? call->call : -1;
      l.callee = call != nullptr ? call->callee : std::string_view{};
      if (call != nullptr) call->has_lambda = true;
      // A scope inside a helper lambda sits at a level the reader cannot know.
      if (l.kind != source_scan::scope::none)
        for (int d = 0; d < depth; ++d)
          if (stack[d].lambda_body && stack[d].helper) out.scopes_unreliable = true;
      pending_helper = l.kind == source_scan::scope::none && out.lambda_count > 1;
      // The scope's variable sits at the level of the `k` the call was given; for_until keeps a
      // flag there and puts its loop one level in, and its bodies see one more.
      l.level = here + (l.kind == source_scan::scope::until ? 1 : 0);
      pending_level = l.kind == source_scan::scope::none ? here : l.level + 1;
      i = j;
    }
  }
  return out;
}

// ---- the statement an access is written in ------------------------------------------------------

// What the access to quote does: the statement found must do the same with it.
enum class access_role { any, load, store, atomic };

namespace source_detail {
// Whether `access` is written at `at`, spaces aside (the explanation writes its expressions with
// the parentheses C++ needs, and those the user wrote must be the same); where it ends.
constexpr bool written_at(std::string_view text, std::size_t at, std::string_view access, std::size_t& end) {
  std::size_t t = at;
  for (char a : access) {
    if (space(a)) continue;
    while (t < text.size() && space(text[t])) ++t;
    if (t >= text.size() || text[t] != a) return false;
    ++t;
  }
  end = t;
  return true;
}

// Whether `w::as<U>` (or `as<U>`) ends just before the parenthesis at `paren`; where it begins.
constexpr bool as_call_before(std::string_view text, std::size_t paren, std::size_t& begin) {
  std::size_t at = paren;
  while (at > 0 && space(text[at - 1])) --at;
  if (at == 0 || text[at - 1] != '>') return false;
  int depth = 0;
  while (at > 0) {
    const char c = text[--at];
    if (c == '>') ++depth;
    else if (c == '<' && --depth == 0) break;
  }
  if (depth != 0) return false;
  std::size_t name_end = at;
  while (name_end > 0 && space(text[name_end - 1])) --name_end;
  std::size_t name = name_end;
  while (name > 0 && ident_char(text[name - 1])) --name;
  if (text.substr(name, name_end - name) != "as") return false;
  while (name >= 2 && text[name - 1] == ':' && text[name - 2] == ':') {  // w::as, warden::as
    name -= 2;
    while (name > 0 && ident_char(text[name - 1])) --name;
  }
  begin = name;
  return true;
}

// Whether the text at [begin, end) is used as `role`: stored (`x = `, `x += `), loaded (anything
// but `x = `), or updated by an atomic_* call as its first argument.
constexpr bool plays(std::string_view text, std::size_t begin, std::size_t end, access_role role) {
  std::size_t after = end;
  while (after < text.size() && space(text[after])) ++after;
  const auto at = [&](std::size_t i) { return i < text.size() ? text[i] : '\0'; };
  const bool plain_store = at(after) == '=' && at(after + 1) != '=';
  const bool compound = (at(after + 1) == '=' && std::string_view("+-*/%&|^").find(at(after)) != std::string_view::npos) ||
                        ((at(after) == '<' || at(after) == '>') && at(after + 1) == at(after) && at(after + 2) == '=');
  switch (role) {
    case access_role::any: return true;
    case access_role::store: return plain_store || compound;
    case access_role::load: return !plain_store && !plays(text, begin, end, access_role::atomic);
    case access_role::atomic: {
      std::size_t open = begin;
      while (open > 0 && space(text[open - 1])) --open;
      if (open == 0 || text[open - 1] != '(') return false;
      std::size_t name_end = open - 1;
      // w::atomic_inc(w::as<unsigned>(x[i]), ...): the element taken as another type (dsl/atomics.hpp)
      // is still the update's first argument.
      std::size_t as_begin = 0;
      if (as_call_before(text, name_end, as_begin)) return plays(text, as_begin, end, access_role::atomic);
      return ident_before(text, name_end).substr(0, 7) == "atomic_";
    }
  }
  return false;
}
}  // namespace source_detail

// The statement (or argument) of `text` that holds `access`, as the user wrote it, if `access`
// is written exactly once there (outside string literals) in `role` (`y[i] = y[i] * a` holds the
// store of y[i] once and its load once); empty otherwise (a quote that might be the wrong one is
// worse than none).
constexpr std::string_view statement_of(std::string_view text, std::string_view access,
                                        access_role role = access_role::any) {
  using namespace source_detail;
  std::size_t begin = 0, end = 0, found = 0;
  if (access.empty() || text.empty()) return {};
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] == '"' || (text[at] == '\'' && (at == 0 || !ident_char(text[at - 1])))) {  // a literal
      const char quote = text[at];
      for (++at; at < text.size() && text[at] != quote; ++at)
        if (text[at] == '\\') ++at;
      continue;
    }
    if (space(text[at]) || (at > 0 && ident_char(text[at - 1]) && ident_char(text[at]))) continue;
    std::size_t stop = 0;
    if (written_at(text, at, access, stop) && plays(text, at, stop, role)) {
      if (++found > 1) return {};
      begin = at;
      end = stop;
    }
  }
  if (found != 1) return {};
  // `w::as<U>(x[i])` (an element taken as another type for one atomic) is the access as written.
  {
    std::size_t open = begin, close = end, as_begin = 0;
    while (open > 0 && space(text[open - 1])) --open;
    while (close < text.size() && space(text[close])) ++close;
    if (open > 0 && text[open - 1] == '(' && close < text.size() && text[close] == ')' &&
        as_call_before(text, open - 1, as_begin)) {
      begin = as_begin;
      end = close + 1;
    }
  }
  const std::size_t access_begin = begin, access_end = end;
  // Out to the enclosing argument: the nearest unmatched bracket, comma or semicolon each way.
  // A parenthesis that only groups (`tile[t] = (tile[t] + tile[63 - t]) * 0.5f`: no name, `>` or
  // `]` before it) is part of the statement: passed, with its closing one.
  int depth = 0, groups = 0;
  while (begin > 0) {
    const char c = text[begin - 1];
    if (c == ')' || c == ']' || c == '}') ++depth;
    else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0) {
        std::size_t before = begin - 1;
        while (before > 0 && space(text[before - 1])) --before;
        const char p = before > 0 ? text[before - 1] : '\0';
        const bool grouping = c == '(' && before > 0 && !ident_char(p) && p != '>' && p != ']' && p != ')';
        if (!grouping) break;
        ++groups;
      } else {
        --depth;
      }
    } else if ((c == ',' || c == ';') && depth == 0) break;
    --begin;
  }
  depth = 0;
  while (end < text.size()) {
    const char c = text[end];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) {
        if (c != ')' || groups == 0) break;
        --groups;
      } else {
        --depth;
      }
    } else if ((c == ',' || c == ';') && depth == 0) break;
    ++end;
  }
  // An access that is a whole argument (`w::atomic_add(bins[v], 1)`): the call is its statement.
  std::size_t first = begin;
  while (first < end && space(text[first])) ++first;
  if (begin > 0 && text[begin - 1] == '(' && first == access_begin) {
    std::size_t rest = access_end;
    while (rest < end && space(text[rest])) ++rest;
    if (rest == end) {
      std::size_t call = begin - 1;
      while (call > 0 && (ident_char(text[call - 1]) || text[call - 1] == ':')) --call;
      depth = 0;
      std::size_t close = begin;
      for (; close < text.size(); ++close) {
        if (text[close] == '(') ++depth;
        else if (text[close] == ')' && depth-- == 0) break;
      }
      if (call < begin - 1 && close < text.size()) {
        begin = call;
        end = close + 1;
      }
    }
  }
  std::string_view statement = text.substr(begin, end - begin);
  while (!statement.empty() && space(statement.front())) statement.remove_prefix(1);
  while (!statement.empty() && space(statement.back())) statement.remove_suffix(1);
  if (statement.substr(0, 7) == "return ") statement.remove_prefix(7);
  return statement;
}

// The names the scan gives a kernel whose parameters are `arity` and whose program is `ir`, each
// kept only where the scan and the program agree. `params` receives the body's parameter names
// (empty where unknown).
template <std::size_t Arity>
struct source_names {
  std::string_view params[Arity == 0 ? 1 : Arity]{};
  dsl::user_names user{};
  std::string_view source{};  // the text itself, for statement_of
};

// The names of `text` for `ir`, the arity given at run time: `params` (one per parameter) and
// `user` receive what the scan and the program agree on. False where the text holds more than one
// kernel body, or not this one: then nothing of it may be quoted either.
constexpr bool read_source_names(std::string_view text, const dsl::kernel_ir& ir, std::span<std::string_view> params,
                                 dsl::user_names& user_out) {
  using namespace source_detail;
  const source_scan scan = scan_source(text);
  if (scan.overflow || scan.lambda_count == 0) return true;
  using scope = source_scan::scope;
  struct {
    std::span<std::string_view> params;
    dsl::user_names& user;
  } out{params, user_out};
  const std::size_t Arity = params.size();

  // The body: the one lambda given to w::kernel or w::tuned (or, for a text that is only a lambda,
  // the first).
  const auto is_body_call = [](std::string_view callee) { return callee == "kernel" || callee == "tuned"; };
  int kernels = 0;
  for (int l = 0; l < scan.lambda_count; ++l) kernels += is_body_call(scan.lambdas[l].callee);
  const source_scan::lambda& body = scan.lambdas[0];
  if (kernels > 1 || (kernels == 1 && !is_body_call(body.callee)) || (kernels == 0 && !body.callee.empty())) return false;
  if (body.count == static_cast<int>(Arity) + 1)
    for (std::size_t i = 0; i < Arity; ++i) out.params[i] = body.params[i + 1];

  // A name that means two things (a scope variable shadowing another at another level, or a
  // parameter) is no name.
  const auto variable = [&](const source_scan::lambda& s) { return s.count >= 2 ? s.params[1] : std::string_view{}; };
  const auto ambiguous = [&](std::string_view name, int level) {
    if (name.empty()) return true;
    for (int p = 1; p < body.count; ++p)
      if (body.params[p] == name) return true;
    for (int l = 1; l < scan.lambda_count; ++l) {
      const source_scan::lambda& s = scan.lambdas[l];
      if (s.kind != scope::none && variable(s) == name && s.level != level) return true;
    }
    return false;
  };

  if (!scan.scopes_unreliable) {
    // Loops, tiles and locals, each in the order of the program's (pre-order, as the source's) and
    // at the same levels, or none of that kind is named; for_until's two lambdas are one loop and
    // its flag one local.
    dsl::user_names user;
    int loops = 0, tiles = 0, locals = 0, last_until = -1;
    bool loops_agree = true, tiles_agree = true, locals_agree = true;
    const auto local_at = [&](int level) {
      const bool fits = locals < static_cast<int>(ir.locals.size()) && ir.locals[static_cast<std::size_t>(locals)].level == level;
      ++locals;
      return fits;
    };
    for (int l = 1; l < scan.lambda_count; ++l) {
      const source_scan::lambda& s = scan.lambdas[l];
      if (s.kind == scope::loop || s.kind == scope::loop_derived || s.kind == scope::until) {
        if (s.kind == scope::until) {
          if (s.call == last_until) continue;
          last_until = s.call;
          locals_agree = local_at(s.level - 1) && locals_agree;  // the flag, before its loop
        }
        const bool fits = loops < static_cast<int>(ir.loops.size()) && loops < dsl::user_names::max_loops &&
                          ir.loops[static_cast<std::size_t>(loops)].level == s.level && s.count >= 2;
        if (!fits) loops_agree = false;
        else if (s.kind != scope::loop_derived && !ambiguous(variable(s), s.level)) user.loops[loops] = variable(s);
        ++loops;
      } else if (s.kind == scope::tile) {
        const bool fits = tiles < static_cast<int>(ir.tiles.size()) && tiles < dsl::user_names::max_tiles &&
                          ir.tiles[static_cast<std::size_t>(tiles)].level == s.level && s.count >= 2;
        if (!fits) tiles_agree = false;
        else if (!ambiguous(variable(s), s.level)) user.tiles[tiles] = variable(s);
        ++tiles;
      } else if (s.kind == scope::local) {
        locals_agree = local_at(s.level) && s.count >= 2 && locals_agree;
      }
    }
    if (loops_agree && loops == static_cast<int>(ir.loops.size()))
      for (int l = 0; l < loops; ++l) out.user.loops[l] = user.loops[l];
    if (tiles_agree && tiles == static_cast<int>(ir.tiles.size()))
      for (int t = 0; t < tiles; ++t) out.user.tiles[t] = user.tiles[t];

    // Expressions name a local by its level alone: a level gets the name all its locals carry, and
    // none where for_until's unnamed flag, or two names, share it.
    if (locals_agree && locals == static_cast<int>(ir.locals.size())) {
      bool conflict[dsl::user_names::max_levels]{};
      for (int l = 1; l < scan.lambda_count; ++l) {
        const source_scan::lambda& s = scan.lambdas[l];
        const int level = s.kind == scope::until ? s.level - 1 : s.level;
        if (level < 0 || level >= dsl::user_names::max_levels) continue;
        if (s.kind == scope::until) conflict[level] = true;
        if (s.kind != scope::local) continue;
        const std::string_view name = variable(s);
        if (ambiguous(name, s.level)) conflict[level] = true;
        else if (!out.user.locals[level].empty() && out.user.locals[level] != name) conflict[level] = true;
        else out.user.locals[level] = name;
      }
      for (int level = 0; level < dsl::user_names::max_levels; ++level)
        if (conflict[level]) out.user.locals[level] = {};
    }
  }

  // An index alias names its index only where the name means nothing else: no parameter or scope
  // variable carries it, and wherever it is declared it is declared as that index (`auto t =
  // k.thread_id();` in two scopes is one meaning; `auto g = k.thread_id() * 2;` elsewhere is not).
  for (int op = 0; op < 5; ++op)
    for (int d = 0; d < 3; ++d) {
      const std::string_view alias = scan.indices[op][d];
      if (alias.empty() || scan.index_ambiguous[op][d]) continue;
      bool taken = false;
      for (int l = 0; l < scan.lambda_count; ++l)
        for (int p = 0; p < scan.lambdas[l].count; ++p) taken = taken || scan.lambdas[l].params[p] == alias;
      bool other_meaning = false;
      for (std::size_t at = text.find(alias); at != std::string_view::npos; at = text.find(alias, at + 1)) {
        if ((at > 0 && ident_char(text[at - 1])) || (at + alias.size() < text.size() && ident_char(text[at + alias.size()])))
          continue;
        std::size_t after = at + alias.size();
        while (after < text.size() && space(text[after])) ++after;
        if (after + 1 >= text.size() || text[after] != '=' || text[after + 1] == '=') continue;
        // `alias = CTX.FUNC();` and nothing else
        std::size_t rhs = after + 1;
        while (rhs < text.size() && space(text[rhs])) ++rhs;
        while (rhs < text.size() && ident_char(text[rhs])) ++rhs;
        const std::string_view f = index_functions[op][d];
        std::size_t tail = rhs + 1 + f.size();
        bool same = rhs < text.size() && text[rhs] == '.' && text.substr(rhs + 1, f.size()) == f;
        while (same && tail < text.size() && space(text[tail])) ++tail;
        same = same && text.substr(tail, 2) == "()";
        tail += 2;
        while (same && tail < text.size() && space(text[tail])) ++tail;
        same = same && tail < text.size() && text[tail] == ';';
        other_meaning = other_meaning || !same;
      }
      if (!taken && !other_meaning) out.user.indices[op][d] = alias;
    }
  return true;
}

template <std::size_t Arity>
constexpr source_names<Arity> names_from_source(std::string_view text, const dsl::kernel_ir& ir) {
  source_names<Arity> out;
  if (text.empty()) return out;
  if (!read_source_names(text, ir, std::span<std::string_view>(out.params, Arity), out.user)) return {};
  out.source = text;
  return out;
}

}  // namespace warden::check
