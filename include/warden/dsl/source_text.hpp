#pragma once
// Reading a WARDEN_KERNEL's text (its `w::kernel<...>(body)` as the preprocessor spelled it): the
// characters of identifiers, the name a parameter declaration gives, and the names the body gives
// its parameters, which WARDEN_KERNEL writes into the definition (with_source) so that every message
// about a parameter uses them. check/source_names.hpp reads the rest of the text (scopes, aliases).

#include <cstddef>
#include <span>
#include <string_view>

namespace warden::dsl {

namespace source_text {

inline constexpr int max_params = 24;  // parameters read of one lambda

constexpr bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
constexpr bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The identifier that ends just before `end` (spaces skipped), and where it starts.
constexpr std::string_view ident_before(std::string_view text, std::size_t& end) {
  while (end > 0 && space(text[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && ident_char(text[begin - 1])) --begin;
  const std::string_view id = text.substr(begin, end - begin);
  end = begin;
  return id;
}

// The name a parameter declaration gives (`auto k`, `const auto& tile`); empty for an unnamed one
// (`auto`, `[[maybe_unused]] auto`).
constexpr std::string_view param_name(std::string_view decl) {
  std::size_t end = decl.size();
  const std::string_view last = ident_before(decl, end);
  return last == "auto" || last == "const" || last == "int" || last == "float" ? std::string_view{} : last;
}

// Whether a declaration's type is `auto` (`auto x`, `const auto& x`, `auto&& x`): what a kernel
// body's handles are declared as. Anything else (`unsigned`, `bool`: an unnamed typed parameter)
// gives no name, rather than a type's for one.
constexpr bool declares_auto(std::string_view decl) {
  for (std::size_t at = decl.find("auto"); at != std::string_view::npos; at = decl.find("auto", at + 1)) {
    const bool starts = at == 0 || !ident_char(decl[at - 1]);
    const bool ends = at + 4 == decl.size() || !ident_char(decl[at + 4]);
    if (starts && ends) return true;
  }
  return false;
}

// The names of the parameters of the body a WARDEN_KERNEL's text passes to w::kernel, written in
// place (`w::kernel<...>([](auto k, auto x, auto out) {...})`): one per kernel parameter, after
// `k`, into `out`. False, and nothing written, where the text does not read so (a body kept in a
// variable, a call that makes it, a template argument with `>` in parentheses) or the count
// differs: no name is better than a wrong one.
constexpr bool body_parameter_names(std::string_view text, std::span<std::string_view> out) {
  const std::size_t call = text.find("kernel<");
  if (call == std::string_view::npos) return false;
  std::size_t i = call + 6;
  for (int depth = 0; i < text.size(); ++i) {  // the template's arguments
    if (text[i] == '(') return false;          // `block<(2 * 32)>`: not read
    if (text[i] == '<') ++depth;
    else if (text[i] == '>' && --depth == 0) break;
  }
  const auto skip = [&](std::size_t at) {
    while (at < text.size() && space(text[at])) ++at;
    return at;
  };
  i = skip(i + 1);
  if (i >= text.size() || text[i] != '(') return false;
  i = skip(i + 1);
  if (i >= text.size() || text[i] != '[') return false;
  i = text.find(']', i);
  if (i == std::string_view::npos) return false;
  i = skip(i + 1);
  if (i >= text.size() || text[i] != '(') return false;
  std::string_view found[max_params]{};
  std::size_t count = 0, begin = i + 1;
  for (int depth = 0; ++i < text.size();) {
    const char c = text[i];
    if (c == '(' || c == '<' || c == '[') ++depth;
    else if ((c == ')' || c == '>' || c == ']') && depth > 0) --depth;
    else if ((c == ',' || c == ')') && depth == 0) {
      if (count == max_params) return false;
      const std::string_view decl = text.substr(begin, i - begin);
      found[count++] = declares_auto(decl) ? param_name(decl) : std::string_view{};
      begin = i + 1;
      if (c == ')') break;
    }
  }
  if (count != out.size() + 1) return false;
  for (std::size_t p = 0; p < out.size(); ++p) out[p] = found[p + 1];
  return true;
}

}  // namespace source_text

// `definition` (a kernel_definition) with WARDEN_KERNEL's text: kept for launch-time messages
// (check/launch/launch_names.hpp), and its parameters named from the body's where .named gave
// them no name.
template <class D>
constexpr D with_source(D definition, std::string_view text) {
  definition.source = text;
  std::string_view params[D::arity == 0 ? 1 : D::arity]{};
  if (source_text::body_parameter_names(text, std::span<std::string_view>(params, D::arity)))
    for (std::size_t p = 0; p < D::arity; ++p)
      if (definition.param_names[p].empty()) definition.param_names[p] = params[p];
  return definition;
}

}  // namespace warden::dsl
