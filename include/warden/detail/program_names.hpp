#pragma once
// The program's own name for a buffer: the variable its declaration gives it, read from the source
// line where the buffer was made (buffer::made_at, a std::source_location the constructor and the
// factories take from their caller). Messages about a buffer name it so (`scratch`, `samples`)
// where they would otherwise name only a kernel's parameter or warden's function (issue 57, item 3).
//
// Read only when a message is written, and only for a line of the program: a line inside warden's
// own headers, a file the running program cannot open (built elsewhere), or a line that declares
// nothing gives "", and the message keeps the names it had. Lines are read once per file and kept.
//
// What a line may declare (the column picks the declaration where a line has several):
//   w::device_buffer<float> scratch(n);     auto samples = w::to_device(v);
//   w::device_buffer<float> out{n};         const auto dx = w::to_device(x, stream);
//   scratch = w::device_buffer<float>(n);   (an assignment names its target too)
//   w::device_buffer<int> a(n), b(n);       (a, or b where the column is in its part)
// and what it may not (a buffer made inside a call's arguments, a member initialiser, a return):
//   use(w::to_device(v));  member_(n)  return w::to_device(v);

#include <cstddef>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "source_location.hpp"

namespace warden::detail {

namespace program_names_impl {

constexpr bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
constexpr bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Words that end a type or begin a statement that declares nothing; and names reserved to the
// implementation (`__tmp` in std::swap, `_Tp`), which no program declares.
constexpr bool not_a_variable(std::string_view w) {
  for (std::string_view k : {"auto", "const", "constexpr", "static", "return", "co_return", "throw", "new", "delete",
                             "if", "while", "for", "switch", "else", "do", "case", "sizeof", "decltype", "typename",
                             "template", "using", "struct", "class", "operator", "volatile", "inline", "thread_local",
                             "explicit", "virtual", "friend", "noexcept", "requires"})
    if (w == k) return true;
  return (w.size() > 1 && w[0] == '_' && (w[1] == '_' || (w[1] >= 'A' && w[1] <= 'Z')));
}

// The position just past the bracket that closes the one opened at `open`, or npos.
inline std::size_t close_of(std::string_view text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '{' || text[i] == '[') ++depth;
    else if (text[i] == ')' || text[i] == '}' || text[i] == ']')
      if (--depth == 0) return i;
  }
  return std::string_view::npos;
}

// The parts of `line` between its top-level commas and semicolons (outside (), {}, [] and <> of a
// template's arguments), as [begin, end) offsets; `after_comma`: the part follows a comma (it may
// continue a declaration, `T a(n), b(n)`), not a semicolon (a statement of its own).
struct part {
  std::size_t begin = 0, end = 0;
  bool after_comma = false;
};
inline std::vector<part> top_level_parts(std::string_view line) {
  std::vector<part> parts;
  int depth = 0, angle = 0;
  std::size_t begin = 0;
  bool after_comma = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {  // a comment ends the line
      parts.push_back({begin, i, after_comma});
      return parts;
    }
    if (c == '"' || c == '\'') {  // a literal: skipped whole
      for (++i; i < line.size() && line[i] != c; ++i)
        if (line[i] == '\\') ++i;
      continue;
    }
    if (c == '(' || c == '{' || c == '[') ++depth;
    else if (c == ')' || c == '}' || c == ']') --depth;
    else if (c == '<' && depth == 0 && i > 0 && ident_char(line[i - 1])) ++angle;  // `buffer<`, not `a < b`
    else if (c == '>' && depth == 0 && angle > 0) --angle;
    else if ((c == ',' || c == ';') && depth == 0 && angle == 0) {
      parts.push_back({begin, i, after_comma});
      begin = i + 1;
      after_comma = c == ',';
    }
    if (depth < 0) return {};  // the line closes what an earlier one opened: not a declaration's start
  }
  parts.push_back({begin, line.size(), after_comma});
  return parts;
}

// The variable one part declares or assigns, or "": the identifier before its first top-level `(`,
// `{` or `=` (not `==`), when that identifier is not qualified or a member (`w::view(`, `a.f(`),
// and, before a `(` or `{`, follows a type (a declaration, not a call), unless `continues` (the
// part follows a declaration's comma). With `column` (0-based in `text`; npos: unknown), the
// buffer must be what the declaration makes: the column points at the declared name or at the
// bracket that closes its own `(...)` / `{...}`, or at the start of the whole initializer after
// `=` or at its first bracket (a call's `(`) or at the bracket closing it where that ends it. A
// buffer made inside the initializer (`auto r = run(w::to_device(v))`) is not the variable.
inline std::string_view declared_in(std::string_view text, bool continues, std::size_t column) {
  constexpr std::size_t unknown = std::string_view::npos;
  int angle = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' && i > 0 && ident_char(text[i - 1])) ++angle;
    else if (c == '>' && angle > 0) --angle;
    if (angle > 0) continue;
    const bool assign = c == '=' && (i + 1 >= text.size() || text[i + 1] != '=') &&
                        (i == 0 || std::string_view("=!<>+-*/%&|^").find(text[i - 1]) == std::string_view::npos);
    if (c != '(' && c != '{' && !assign) continue;
    std::size_t end = i;
    while (end > 0 && space(text[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && ident_char(text[begin - 1])) --begin;
    const std::string_view name = text.substr(begin, end - begin);
    if (name.empty() || (name[0] >= '0' && name[0] <= '9') || not_a_variable(name)) return {};
    std::size_t before = begin;
    while (before > 0 && space(text[before - 1])) --before;
    if (before > 0 && (text[before - 1] == ':' || text[before - 1] == '.' || (text[before - 1] == '>' && before > 1 && text[before - 2] == '-')))
      return {};  // qualified or a member: a call
    if (!assign && !continues) {
      // A declaration: a type before the name (an identifier, `>` closing its arguments, `&` or `*`).
      if (before == 0) return {};
      const char t = text[before - 1];
      if (!(ident_char(t) || t == '>' || t == '&' || t == '*')) return {};
    }
    if (assign) {
      std::size_t init = i + 1;
      while (init < text.size() && space(text[init])) ++init;
      std::size_t last = text.size();
      while (last > init && space(text[last - 1])) --last;
      if (column == unknown) return name;
      std::size_t first_open = init;
      while (first_open < last && text[first_open] != '(' && text[first_open] != '{') ++first_open;
      const std::size_t first_close = first_open < last ? close_of(text, first_open) : unknown;
      const bool at_start = column >= init && column <= first_open;
      const bool at_close = first_close != unknown && column == first_close && first_close + 1 == last;
      return at_start || at_close ? name : std::string_view{};
    }
    // Direct initialisation: `name(...)` or `name{...}`; a function's definition or a constructor's
    // member initialisers (`name(args) {` / `name(args) :`) declare no variable.
    const std::size_t close = close_of(text, i);
    if (close == unknown) return column == unknown ? name : std::string_view{};
    std::size_t next = close + 1;
    while (next < text.size() && space(text[next])) ++next;
    if (c == '(' && next < text.size() && (text[next] == '{' || text[next] == ':' || ident_char(text[next]))) return {};
    if (column == unknown) return name;
    return (column >= begin && column < end) || column == close ? name : std::string_view{};
  }
  return {};
}

// The innermost braces of `line` around `column` (0-based): a lambda's body on one line
// (`check([&] { buffer<float> b(n); })`), where the declaration the column points into is; the
// whole line where no brace opened before the column is open there. `column` comes back
// relative to what is returned.
inline std::string_view innermost_block(std::string_view line, std::size_t& column) {
  std::vector<std::size_t> open;
  std::size_t from = 0, to = line.size();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '{') open.push_back(i);
    else if (line[i] == '}' && !open.empty()) {
      const std::size_t start = open.back();
      open.pop_back();
      if (start < column && column <= i && start + 1 >= from) from = start + 1, to = i;
    }
  }
  for (std::size_t start : open)  // opened and not closed on this line
    if (start < column && start + 1 >= from) from = start + 1, to = line.size();
  column -= from;
  return line.substr(from, to - from);
}

// The name the part at `pick` of `parts` (over `line`) declares, `column` relative to the line.
inline std::string_view declared_by_part(std::string_view line, const std::vector<part>& parts, std::size_t pick, std::size_t column) {
  const part& chosen = parts[pick];
  const std::string_view text = line.substr(chosen.begin, chosen.end - chosen.begin);
  const std::size_t at = column == std::string_view::npos ? column : column - chosen.begin;
  if (!chosen.after_comma) return declared_in(text, false, at);
  // After a comma: continues a declaration only if its statement's first part is one.
  std::size_t first = pick;
  while (first > 0 && parts[first].after_comma) --first;
  const std::string_view head = line.substr(parts[first].begin, parts[first].end - parts[first].begin);
  return declared_in(head, false, std::string_view::npos).empty() ? std::string_view{} : declared_in(text, true, at);
}

}  // namespace program_names_impl

// The variable that `line` declares (or assigns) where a buffer was made at `column` (1-based, as
// std::source_location counts; 0 where the compiler gives none), or "". Without a column the line
// must declare exactly one variable, in its statements or in a lambda's body on it.
inline std::string_view declared_name(std::string_view whole_line, unsigned column) {
  using namespace program_names_impl;
  if (column == 0) {
    std::string_view found;
    int count = 0;
    const auto consider = [&](std::string_view text) {
      const std::vector<part> parts = top_level_parts(text);
      for (std::size_t p = 0; p < parts.size(); ++p)
        if (const std::string_view name = declared_by_part(text, parts, p, std::string_view::npos); !name.empty()) {
          if (name != found) ++count;
          found = name;
        }
    };
    consider(whole_line);
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < whole_line.size(); ++i) {
      if (whole_line[i] == '{') open.push_back(i);
      else if (whole_line[i] == '}' && !open.empty()) {
        consider(whole_line.substr(open.back() + 1, i - open.back() - 1));
        open.pop_back();
      }
    }
    return count == 1 ? found : std::string_view{};
  }
  std::size_t at = column - 1;
  const std::string_view line = innermost_block(whole_line, at);
  const std::vector<part> parts = top_level_parts(line);
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (at >= parts[p].begin && at <= parts[p].end) return declared_by_part(line, parts, p, at);
  return {};
}

// Whether `file` is one of warden's own headers (a buffer made there has no name of the program's).
inline bool inside_warden(std::string_view file) {
  static const std::string_view here = __FILE__;  // .../include/warden/detail/program_names.hpp
  const std::size_t cut = here.rfind("detail/program_names.hpp");
  if (cut == std::string_view::npos) return false;
  const std::string_view root = here.substr(0, cut);  // .../include/warden/
  return file.substr(0, root.size()) == root || file.find("include/warden/") != std::string_view::npos;
}

// The lines of `file`, read once and kept (none where it cannot be opened). <cstdio>, not
// <fstream>: this header reaches every file that makes a buffer, and <fstream> alone costs each of
// them a third of a second of parsing.
struct source_file {
  std::string name;
  std::vector<std::string> lines;
};
inline const std::vector<std::string>& source_lines(const std::string& file) {
  static std::mutex lock;
  static std::deque<source_file> files;  // a deque: what it hands out stays where it is
  const std::lock_guard<std::mutex> hold(lock);
  for (const source_file& f : files)
    if (f.name == file) return f.lines;
  source_file& read = files.emplace_back(source_file{file, {}});
  if (std::FILE* in = std::fopen(file.c_str(), "r")) {
    std::string line;
    for (int c = std::fgetc(in); c != EOF; c = std::fgetc(in)) {
      if (c != '\n') {
        line += static_cast<char>(c);
        continue;
      }
      read.lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) read.lines.push_back(std::move(line));
    std::fclose(in);
  }
  return read.lines;
}

// The column of `where`, where the compiler's source_location has one (0 otherwise). A template,
// so that the requires-expression is asked of a dependent type: in a plain function, clang rejects
// the member's absence outright.
template <class Location>
unsigned column_of(const Location& where) {
  if constexpr (requires { where.column(); }) return static_cast<unsigned>(where.column());
  else return 0;
}

// The program's name for what was made at `where`, or "".
inline std::string program_name(const source_location& where) {
  const char* file = where.file_name();
  if (file == nullptr || *file == '\0' || where.line() == 0 || inside_warden(file)) return {};
  const std::vector<std::string>& lines = source_lines(file);
  if (where.line() > lines.size()) return {};
  return std::string(declared_name(lines[where.line() - 1], column_of(where)));
}

}  // namespace warden::detail
