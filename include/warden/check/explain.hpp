#pragma once
// A finding in the user's terms: the buffer, the accesses with their index expressions, and what
// meets where. Buffers, tiles, scope variables and thread indices carry the names the kernel's
// source gives them (check/source_names.hpp: a WARDEN_KERNEL); without a source, kind#position
// for a parameter (in#0), tile<id>, i<level>, local<level>. Built in constant
// evaluation, so the kernel's diagnostic can carry it.

#include <array>
#include <string_view>

#include "../detail/text_buffer.hpp"
#include "modes.hpp"
#include "rules.hpp"
#include "source_names.hpp"
#include "suggested_atomics.hpp"
#include "suggested_barriers.hpp"
#include "suggested_shuffles.hpp"

namespace warden::check {

template <std::size_t N>
struct explainer {
  const kernel_ir& ir;
  const std::array<std::string_view, N>& kinds;  // in, out, inout, atomic, value per parameter
  const source_names<N>& names;                   // the user's names, where the source gave them
  const std::array<std::string_view, N>* types = nullptr;  // each parameter's element type (the mode rules' fixes)
  // W020, W021: the barriers the checker accepted the kernel with (check/suggested_barriers.hpp);
  // null where none was looked for.
  const barrier_suggestion* barriers = nullptr;
  // W030: the barrier moved out of its thread-dependent construct, where the checker accepts that.
  const moved_barrier* moved = nullptr;
  // W012: whether the kernel with the atomic the message spells is accepted
  // (check/suggested_atomics.hpp); -1 where it was not looked at.
  int atomic_accepted = -1;
  // W010, W011, W020: the store of a compound assignment (`total[0] += in[i]`) whose atomic update
  // the checker accepts the kernel with; -1 where none is.
  int combining_store = -1;
  // W031: the shuffle opened outside the w::when that splits a warp, where the checker accepts that
  // (check/suggested_shuffles.hpp); null where it was not looked at.
  const hoisted_shuffle* hoisted = nullptr;
  // W031 in a block of partial warps: the block of whole warps (its x rounded up to 32) the
  // checker accepts the kernel with (> 0), or refuses it with (< 0); 0 where it was not looked at
  // (a block of two or three dimensions).
  int whole_warps = 0;

  constexpr void name(detail::text_buffer& out, int i) const {
    if (i >= 0 && static_cast<std::size_t>(i) < N && !names.params[static_cast<std::size_t>(i)].empty()) {
      out << names.params[static_cast<std::size_t>(i)];
      return;
    }
    if (i >= 0 && static_cast<std::size_t>(i) < N) out << kinds[static_cast<std::size_t>(i)];
    else out << 'p';
    out << '#' << i;
  }
  constexpr void buffer(detail::text_buffer& out, const dsl::ir_access& a) const {
    if (a.memory == dsl::memory_kind::global) name(out, a.target);
    else dsl::render_tile(out, a.target, &names.user);
  }
  // An expression, cut to `expression_budget` characters (its head kept, "..." marking the cut),
  // so that the reason after the indices always fits: two long indices used to fill the text.
  static constexpr int expression_budget = 64;
  constexpr void expr(detail::text_buffer& out, int id) const {
    detail::text_buffer whole;
    dsl::render_to(whole, ir, id, [&](detail::text_buffer& b, int i) { name(b, i); }, &names.user);
    const std::string_view text = whole.view();
    if (static_cast<int>(text.size()) <= expression_budget) {
      out << text;
      return;
    }
    out << text.substr(0, expression_budget - 3) << "...";
  }
  // The statement the access is written in, quoted from the source; empty without a source, or
  // where the source does not show the access once in the spelling the explanation uses.
  static constexpr int statement_budget = 56;
  constexpr std::string_view statement(int id) const {
    if (names.source.empty()) return {};
    detail::text_buffer written;
    access_only(written, id);
    const auto& a = ir.accesses[static_cast<std::size_t>(id)];
    const access_role roles[] = {access_role::load, access_role::store, access_role::atomic};
    return statement_of(names.source, written.view(), roles[static_cast<int>(a.kind)]);
  }
  // W020's two accesses in one statement `target = value`, the store being its target (the load's
  // statement is the one to look for: a tile's element is often stored twice, `tile[t] = in[i]`
  // first, so that the store's own statement is not unique).
  constexpr bool in_one_statement(const finding& f, std::string_view& target, std::string_view& value) const {
    if (f.first < 0 || f.second < 0) return false;
    const bool first_stores = ir.accesses[static_cast<std::size_t>(f.first)].kind == dsl::access_kind::store;
    const int store = first_stores ? f.first : f.second, other = first_stores ? f.second : f.first;
    if (ir.accesses[static_cast<std::size_t>(store)].kind != dsl::access_kind::store) return false;
    const std::string_view s = statement(other);
    if (s.empty() || !split_assignment(s, target, value)) return false;
    detail::text_buffer written;
    access_only(written, store);
    return same_spelling(target, written.view());
  }
  static constexpr bool same_spelling(std::string_view x, std::string_view y) {  // spaces aside
    std::size_t i = 0, j = 0;
    while (true) {
      while (i < x.size() && x[i] == ' ') ++i;
      while (j < y.size() && y[j] == ' ') ++j;
      if (i == x.size() || j == y.size()) return i == x.size() && j == y.size();
      if (x[i++] != y[j++]) return false;
    }
  }
  // `target = value` at its top-level `=`: '=' for a plain one, the operator of a compound one
  // (`+` for +=), 0 for anything else (==, <=, >=, !=, <<=, >>=, or no assignment).
  static constexpr char split_any_assignment(std::string_view s, std::string_view& target, std::string_view& value) {
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (c == '=' && depth == 0) {
        const char before = i > 0 ? s[i - 1] : ' ', after = i + 1 < s.size() ? s[i + 1] : ' ';
        if (after == '=' || before == '=' || before == '<' || before == '>' || before == '!') return 0;
        const bool compound = std::string_view("+-*/%&|^").find(before) != std::string_view::npos;
        target = s.substr(0, compound ? i - 1 : i);
        value = s.substr(i + 1);
        while (!target.empty() && target.back() == ' ') target.remove_suffix(1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return target.empty() || value.empty() ? 0 : compound ? before : '=';
      }
    }
    return 0;
  }
  static constexpr bool split_assignment(std::string_view s, std::string_view& target, std::string_view& value) {
    return split_any_assignment(s, target, value) == '=';
  }
  constexpr void quote(detail::text_buffer& out, std::string_view statement) const {
    out << " in `";
    if (static_cast<int>(statement.size()) <= statement_budget) out << statement;
    else out << statement.substr(0, statement_budget - 3) << "...";
    out << '`';
  }
  constexpr void access(detail::text_buffer& out, int id) const {
    const auto& a = ir.accesses[static_cast<std::size_t>(id)];
    const char* verbs[] = {"load ", "store ", "atomic "};
    out << verbs[static_cast<int>(a.kind)];
    access_only(out, id);
  }
  constexpr void access_only(detail::text_buffer& out, int id) const {
    const auto& a = ir.accesses[static_cast<std::size_t>(id)];
    // A vector access's first element (index N * i, dsl/vector.hpp), as the source writes it:
    // w::vectors<N>(x)[i].
    if (a.vector_bytes != 0 && a.element_bytes > 0 && a.index >= 0) {
      const auto& e = ir.exprs[static_cast<std::size_t>(a.index)];
      const long long width = a.vector_bytes / a.element_bytes;
      if (e.op == dsl::ir_op::mul && e.b >= 0 && ir.exprs[static_cast<std::size_t>(e.b)].op == dsl::ir_op::constant &&
          ir.exprs[static_cast<std::size_t>(e.b)].value == width) {
        out << "w::vectors<" << width << ">(";
        buffer(out, a);
        out << ")[";
        expr(out, e.a);
        out << ']';
        return;
      }
    }
    buffer(out, a);
    if (a.column >= 0) {
      out << '(';
      expr(out, a.index);
      out << ", ";
      expr(out, a.column);
      out << ')';
    } else {
      out << '[';
      expr(out, a.index);
      out << ']';
    }
  }
  constexpr void loop(detail::text_buffer& out, int l) const {
    out << "loop ";
    if (!names.user.loop(l).empty()) out << names.user.loop(l);
    else out << 'i' << ir.loops[static_cast<std::size_t>(l)].level;
  }

  // `kind<type>`, as the parameter would be declared: inout<float>.
  constexpr void declaration(detail::text_buffer& out, std::string_view kind, int param) const {
    out << kind << '<' << (types != nullptr ? (*types)[static_cast<std::size_t>(param)] : std::string_view("T")) << '>';
  }
  // W003, W004 and W040 on one access (check/modes.hpp): the parameter, the access and its
  // statement, what the mode allows, and the declaration or call that fits what the kernel does.
  constexpr void mode(detail::text_buffer& out, const finding& f) const {
    const auto& a = ir.accesses[static_cast<std::size_t>(f.first)];
    const auto param = static_cast<std::size_t>(a.target);
    buffer(out, a);
    out << ": ";
    access(out, f.first);
    if (const auto s = statement(f.first); !s.empty()) quote(out, s);
    out << ": ";
    name(out, a.target);
    out << " is ";
    declaration(out, kinds[param], a.target);
    if (f.code == diagnostic::code::W008) {
      // The value is floating-point and the element integral: say which conversion to write.
      const std::string_view type = types != nullptr ? (*types)[param] : std::string_view("T");
      out << ", and the value is floating-point, which C++ would truncate: ";
      if (a.kind == dsl::access_kind::atomic) {
        out << "pass w::convert<" << type << ">(value)";
      } else {
        out << "write ";
        access_only(out, f.first);
        out << " = w::convert<" << type << ">(value)";
      }
      out << ", or w::convert<" << type << ">(w::round(value)) to round";
      return;
    }
    if (a.kind == dsl::access_kind::atomic && f.code != diagnostic::code::W040) {
      // An update through in<T> or out<T>: atomic<T> is the mode for elements threads update
      // together, unless the kernel also loads or stores the parameter plainly (then inout<T>, and
      // the checker keeps the plain accesses out of the updates' phase: W040).
      const bool plain = also_accessed(ir, a.target, dsl::access_kind::load) || also_accessed(ir, a.target, dsl::access_kind::store);
      out << (f.code == diagnostic::code::W003 ? ", read-only" : ", write-only, and an update reads the element")
          << "; declare it ";
      declaration(out, plain ? "inout" : "atomic", a.target);
      out << (plain ? " (the kernel also accesses it plainly)" : " (threads update its elements together)");
    } else if (f.code == diagnostic::code::W003) {
      const bool loads = also_accessed(ir, a.target, dsl::access_kind::load);
      out << ", read-only; declare it ";
      declaration(out, loads ? "inout" : "out", a.target);
      if (loads) out << " (the kernel also loads it)";
    } else if (f.code == diagnostic::code::W004) {
      out << ", write-only; declare it ";
      declaration(out, "inout", a.target);
      out << " to load it";
    } else {
      out << ", which only atomics may touch: ";
      if (a.vector_bytes != 0) {  // an atomic takes one element: no vector form to suggest
        out << "declare it ";
        declaration(out, a.kind == dsl::access_kind::store && !also_accessed(ir, a.target, dsl::access_kind::load) ? "out" : "inout", a.target);
        out << " if no thread updates it atomically, or update one element at a time with w::atomic_*";
        return;
      }
      if (a.kind == dsl::access_kind::store) {
        out << "store with w::atomic_exchange(";
        access_only(out, f.first);
        out << ", value)";
      } else {  // no atomic reads a value back into the kernel
        out << "load it in a later kernel that takes it as ";
        declaration(out, "in", a.target);
        out << " (launches on one stream are ordered)";
      }
      out << ", or declare it ";
      declaration(out, "inout", a.target);
      out << " if no thread updates it atomically";
    }
  }

  // The position of the first access of the statement that holds `id`, as the source shows it:
  // the accesses just before it, in its context, that the source quotes in the same statement.
  // The statement of access `id`, and for a store the source spells in more than one statement
  // (`acc[0] = 0` and `acc[0] += v`) its own: the statement of the load just before it, where that
  // statement's target spells the store.
  constexpr std::string_view own_statement(int id) const {
    const auto& c = ir.accesses[static_cast<std::size_t>(id)];
    const context cc = context_of(c);
    std::string_view s = statement(id);
    if (s.empty() && c.kind == dsl::access_kind::store)
      for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
        const auto& z = ir.accesses[static_cast<std::size_t>(i)];
        if (z.position != c.position - 1 || !encloses(ir, context_of(z), cc) || !encloses(ir, cc, context_of(z))) continue;
        std::string_view target, value;
        detail::text_buffer written;
        access_only(written, id);
        if (split_any_assignment(statement(i), target, value) != 0 && same_spelling(target, written.view())) s = statement(i);
      }
    return s;
  }
  constexpr int statement_begin(int id) const {
    const auto& c = ir.accesses[static_cast<std::size_t>(id)];
    const context cc = context_of(c);
    const std::string_view s = own_statement(id);
    int begin = c.position;
    if (s.empty()) return begin;
    for (bool moved = true; moved;) {
      moved = false;
      for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i) {
        const auto& z = ir.accesses[static_cast<std::size_t>(i)];
        if (z.position != begin - 1) continue;
        const context cz = context_of(z);
        // Part of the statement: the source quotes it there, or it is the load a compound
        // assignment makes of its target (`bins[v] += 1`), which the source spells only as a target.
        // (A load inside an index is quoted as itself, `in[i]` of `hist[in[i]] += 1`.)
        bool part = statement(i) == s || (z.kind == dsl::access_kind::load && !statement(i).empty() &&
                                          s.find(statement(i)) != std::string_view::npos);
        if (!part && statement(i).empty() && z.kind == dsl::access_kind::load) {
          std::string_view target, value;
          detail::text_buffer written;
          access_only(written, i);
          const char op = split_any_assignment(s, target, value);
          part = op != 0 && op != '=' && same_spelling(target, written.view());
        }
        if (encloses(ir, cz, cc) && encloses(ir, cc, cz) && part) {
          --begin;
          moved = true;
        }
        break;
      }
    }
    return begin;
  }
  // Whether the statement of access `id` is a compound assignment (`+=`, `|=`, ...) as the source
  // writes it.
  constexpr bool compound_statement(int id) const {
    const char op = assignment_operator(id);
    return op != 0 && op != '=';
  }
  // The operator of the assignment that is access `id`'s own statement ('=', '+' for +=, ...; 0:
  // none the source shows).
  constexpr char assignment_operator(int id) const {
    std::string_view target, value;
    return split_any_assignment(own_statement(id), target, value);
  }
  // The atomic that does what an assignment with operator `op` does: += is atomic_add, = is
  // atomic_exchange; null for one no atomic does (*=).
  static constexpr const char* atomic_for(char op) {
    return op == '+' ? "atomic_add" : op == '-' ? "atomic_sub" : op == '&' ? "atomic_and" : op == '|' ? "atomic_or"
         : op == '^' ? "atomic_xor" : op == '=' ? "atomic_exchange" : nullptr;
  }
  // Whether access `id`'s statement is a compound assignment an atomic update does (`+=`, not `*=`).
  constexpr bool combining_statement(int id) const { return compound_statement(id) && atomic_for(assignment_operator(id)) != nullptr; }
  // The atomic update spelt with the statement's own parts, and the declaration a parameter then
  // needs: "write w::atomic_add(hist[in[i]], 1) with hist declared atomic<int>".
  constexpr void atomic_words(detail::text_buffer& out, int id) const {
    const auto& a = ir.accesses[static_cast<std::size_t>(id)];
    std::string_view target, value;
    const char* atomic = atomic_for(split_any_assignment(own_statement(id), target, value));
    if (atomic != nullptr) {
      out << "write w::" << atomic << "(" << target << ", " << value << ")";
    } else {
      out << "update it with an atomic: w::atomic_add(";
      access_only(out, id);
      out << ", value)";
    }
    if (a.memory == dsl::memory_kind::global) {
      out << " with ";
      name(out, a.target);
      out << " declared ";
      declaration(out, "atomic", a.target);
    }
  }
  // W010, W011, W020: the atomic a compound assignment's race takes, where the checker accepted it.
  constexpr void combining_fix(detail::text_buffer& out) const {
    if (combining_store < 0) return;
    detail::text_buffer fix;
    fix << "; checked fix: if the threads are to combine their values there, ";
    atomic_words(fix, combining_store);
    if (out.size + fix.size < detail::text_buffer::capacity) out << fix.view();  // a fix cut short is none
  }
  // A statement quoted whole, or the access where the source does not show it.
  constexpr void statement_or_access(detail::text_buffer& out, int id) const {
    if (const auto s = statement(id); !s.empty()) {
      out << '`';
      out << s;
      out << '`';
    } else {
      access(out, id);
    }
  }
  // W020, W021: the barriers the checker accepted the kernel with, in the source's terms, or a
  // question where it accepted none (check/suggested_barriers.hpp).
  constexpr void barrier_fix(detail::text_buffer& out) const {
    if (barriers == nullptr) return;
    // The fix in words, where every placement can be said as the source is written and the whole
    // fits: a placement the words would put elsewhere than where the checker placed it (a barrier
    // inside a statement that is no plain `target = value`, a w::when the source does not spell
    // as the guard reads) is no checked fix, and a fix cut short is none either.
    detail::text_buffer fix;
    bool wordable = barriers->count > 0;
    fix << "; checked fix: ";
    for (int i = 0; i < barriers->count && wordable; ++i) {
      const barrier_placement& p = barriers->at[i];
      if (i > 0) fix << ", and ";
      std::string_view target, value;
      using where = barrier_placement::where;
      if (p.at == where::before_statement && p.one_statement) {
        finding pair{};
        pair.first = p.other;
        pair.second = p.access;
        wordable = in_one_statement(pair, target, value);
        fix << "one statement, so load into a local, sync(), then store: w::local(k, " << value
            << ", [&](auto, auto v) { return w::seq(w::sync(), " << target << " = v); })";
        continue;
      }
      if (p.at == where::end_of_loop) {
        fix << "add sync() at the end of the body of ";
        loop(fix, p.loop);
        fix << ", after ";
        statement_or_access(fix, p.access);
        continue;
      }
      fix << "add sync() before ";
      if (p.at == where::before_when) {
        detail::text_buffer when;
        when << "w::when(";
        expr(when, ir.guard_pool[static_cast<std::size_t>(p.guard)].condition);
        wordable = names.source.empty() || names.source.find(when.view()) != std::string_view::npos;
        fix << "the " << when.view() << ", ...) around ";
      } else if (p.at == where::before_loop) {
        loop(fix, p.loop);
        fix << ", around ";
      }
      statement_or_access(fix, p.access);
    }
    if (wordable && out.size + fix.size < detail::text_buffer::capacity) {
      out << fix.view();
      return;
    }
    out << "; where could a sync() between them go that every thread of the block reaches? "
        << (barriers->count > 0 ? "(the place the checker accepts is not one the source spells as written)"
                                : "(none the checker tried, before the later access or a w::when or loop around it, is accepted)");
  }

  constexpr detail::text_buffer explain(const finding& f) const {
    detail::text_buffer out;
    switch (f.code) {
      case diagnostic::code::none: break;
      case diagnostic::code::W003:
      case diagnostic::code::W004:
      case diagnostic::code::W008: mode(out, f); break;
      case diagnostic::code::W030: {
        out << "sync() ";
        if (f.loop >= 0) {
          out << "in ";
          loop(out, f.loop);
          out << " whose bound ";
          expr(out, f.expr);
          out << " differs between threads";
        } else {
          out << "under when(";
          expr(out, f.expr);
          out << "), which differs between threads";
        }
        // The construct as the source writes it, cut short: the message names it, the fix moves the
        // barrier out of it. A w::when the source does not spell so (one conjunct of `a && b`) is
        // no place the words can point to.
        detail::text_buffer construct;
        if (moved != nullptr && moved->found) {
          if (moved->loop >= 0) {
            loop(construct, moved->loop);
          } else {
            construct << "w::when(";
            expr(construct, ir.guard_pool[static_cast<std::size_t>(moved->guard)].condition);
          }
        }
        const bool spelled = moved != nullptr && moved->found &&
                             (moved->loop >= 0 || names.source.empty() || names.source.find(construct.view()) != std::string_view::npos);
        if (spelled) {
          if (moved->loop < 0) construct << ", ...)";
          out << "; checked fix: move sync() out of " << construct.view() << " to just " << (moved->after ? "after" : "before")
              << " it";
          if (moved->loop < 0)
            out << ": " << (moved->after ? "w::seq(" : "w::seq(w::sync(), ") << construct.view() << (moved->after ? ", w::sync())" : ")");
        } else if (moved != nullptr) {
          out << "; which threads must wait here? "
              << (moved->found ? "(moving sync() out of one part of the condition is accepted, which the source does not spell apart)"
                               : "(moving sync() just before or after it is not accepted either)");
        }
        break;
      }
      case diagnostic::code::W031: {
        const auto& s = ir.shuffles[static_cast<std::size_t>(f.shuffle)];
        out << dsl::name_of(s.kind) << "(..., ";
        expr(out, s.lane);
        out << ") ";
        if (f.expr < 0) {
          out << "in a block of " << f.element << " threads: its last warp is partial";
          // Another block changes which threads make up each block, so what a kernel that reads
          // its block computes (a sum per block, a tile sized for it): asked, with the checker's
          // answer on the kernel itself.
          if (whole_warps > 0)
            out << "; would a block of whole warps do, w::block<" << whole_warps
                << ">? (the checker accepts the kernel with it; it changes which threads make up each block)";
          if (whole_warps < 0) out << "; which lanes should take part? (a block of whole warps, w::block<" << -whole_warps << ">, is not accepted either)";
          if (whole_warps == 0) out << "; which block of whole warps is meant?";
          break;
        }
        if (f.loop >= 0) {
          out << "in ";
          loop(out, f.loop);
          out << " whose bound ";
          expr(out, f.expr);
        } else {
          out << "under when(";
          expr(out, f.expr);
          out << ")";
        }
        if (f.thread1 >= 0)
          out << ": thread " << f.thread1 << " reaches it, thread " << f.thread2 << " of the same warp does not";
        else
          out << ", which may differ within a warp";
        // Which trips each lane should take is the kernel's meaning, not a rewrite the checker can
        // choose (a bound the same across the warp, the rest of the body guarded): asked.
        if (f.loop >= 0) out << "; which lanes should take part on each trip? (every lane of the warp must reach the shuffle)";
        if (hoisted != nullptr && f.loop < 0) {
          detail::text_buffer when;
          when << "w::when(";
          expr(when, f.expr);
          const bool spelled = names.source.empty() || names.source.find(when.view()) != std::string_view::npos;
          when << ", ...)";
          if (hoisted->found && spelled) {
            out << "; checked fix: open the shuffle outside the " << when.view() << ", with it in the shuffle's body: w::"
                << dsl::name_of(s.kind) << "(k, value, ";
            expr(out, s.lane);
            out << ", [&](auto, auto v) { return " << when.view() << "; })";
          } else {
            out << "; which lanes should take part? (opening the shuffle outside the " << when.view()
                << (hoisted->found ? " is accepted, but the source does not spell that condition apart)" : " is not accepted either)");
          }
        }
        break;
      }
      case diagnostic::code::W032:
        out << dsl::name_of(ir.reopened_inner) << " opened with the context of the enclosing "
            << dsl::name_of(ir.reopened_outer) << ": both bind nesting level " << f.element
            << ", so the inner one's variable hides the outer one's";
        break;
      case diagnostic::code::W012: {
        access(out, f.first);
        if (const auto s = statement(f.first); !s.empty()) quote(out, s);
        out << ": the index depends on loaded data";
        // The fix that applies where the store is, spelt with the statement's own parts: the atomic
        // that does what the assignment does (+= is atomic_add, = atomic_exchange). A tile's
        // elements take atomics as they are, a parameter's once it is declared atomic<T> (the
        // rule's other fix, distinct(p), is in its text).
        // Checked (atomic_accepted 1): the kernel with the atomic is accepted. Refused (0): the
        // message asks rather than offering a fix the checker would refuse in turn.
        out << (atomic_accepted == 1 ? "; checked fix: if threads may meet, " : atomic_accepted == 0 ? "; may threads meet here? (" : "; if threads may meet, ");
        atomic_words(out, f.first);
        if (atomic_accepted == 0) out << " is not accepted either)";
        break;
      }
      case diagnostic::code::W022:
        access(out, f.first);
        if (const auto s = statement(f.first); !s.empty()) quote(out, s);
        out << ": thread " << f.thread1 << " loads element " << f.element << ", which no earlier phase stores";
        // What it should hold is the user's to say (a halo's value, a pad, an earlier store moved
        // up): asked. A guard that skips the load is no fix: it changes what the kernel computes.
        out << "; which thread should store it before this phase? (skipping the load would change what the kernel computes)";
        break;
      default: {
        if (f.code == diagnostic::code::W040 && f.second < 0) {  // one plain access of an atomic<T>
          mode(out, f);
          break;
        }
        buffer(out, ir.accesses[static_cast<std::size_t>(f.first)]);
        out << ": ";
        access(out, f.first);
        // Each access's statement, once where both are in one (the common case: a[i] = a[i + 1]).
        const std::string_view first = statement(f.first), second = statement(f.second);
        if (!first.empty() && first != second) quote(out, first);
        out << " vs ";
        access(out, f.second);
        if (!second.empty()) quote(out, second);
        out << ": ";
        if (f.code == diagnostic::code::W020 || f.code == diagnostic::code::W021 || (f.code == diagnostic::code::W040 && f.element >= 0)) {
          // An element is named only when some access reaches it: two indices the checker cannot
          // compute (they read the block's id) meet somewhere, not at the sentinel -1.
          out << "threads " << f.thread1 << " and " << f.thread2;
          if (f.element >= 0) out << " meet at element " << f.element;
          else out << " may meet (at an element the compiler cannot compute)";
          if (f.loop >= 0) {
            out << " in consecutive iterations of ";
            loop(out, f.loop);
          } else {
            out << " in one phase";
          }
          // The barrier the checker accepted the kernel with. Both accesses in one statement
          // (`tile[t] = (tile[t - 1] + tile[t + 1]) / 2`): no sync() fits between them, so load
          // into a local, then the barrier, then the store.
          barrier_fix(out);
          combining_fix(out);
        } else if (f.across_blocks) {
          out << "threads of different blocks may meet";
          combining_fix(out);
          // No barrier orders two blocks, and making the plain access atomic would only hide the
          // race (a reset, atomic or not, may still land after another block's updates): the
          // fixes are another kernel, or the host.
          if (f.code == diagnostic::code::W040)
            out << "; sync() cannot order blocks: move the plain access into a kernel of its own (launches on one "
                   "stream run in order), or set the buffer from the host before the launch";
        } else if (f.loop >= 0) {
          out << "threads of one block may meet in consecutive iterations of ";
          loop(out, f.loop);
          barrier_fix(out);  // W040 within a block (null for the others)
          combining_fix(out);
        } else {
          out << "threads of one block may meet in one phase";
          barrier_fix(out);
          combining_fix(out);
        }
      }
    }
    return out;
  }
};

template <std::size_t N>
constexpr detail::text_buffer explain(const kernel_ir& ir, const std::array<std::string_view, N>& kinds, const finding& f,
                                      const source_names<N>& names = {}) {
  return explainer<N>{ir, kinds, names}.explain(f);
}

}  // namespace warden::check
