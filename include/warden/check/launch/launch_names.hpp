#pragma once
// The names a launch-time message gives a kernel's parts: its parameters (the names WARDEN_KERNEL
// read from the body's parameter list, or .named's, or p0, p1, ...) and, for a kernel declared with
// WARDEN_KERNEL, the names its source gives loops, tiles, locals and thread indices
// (check/source_names.hpp), so that E101-E107 say `x[i + 1]` where the program says p0[global_id.x + 1].

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../detail/text_buffer.hpp"
#include "../../dsl/ir.hpp"
#include "../source_names.hpp"
#include "launch_request.hpp"

namespace warden::check {

struct launch_names {
  std::vector<std::string> params;  // by position
  dsl::user_names user{};           // empty where the kernel has no source
  // Whether the source named anything in the body (a loop, tile, local or index alias): then
  // expressions read as written (`b * 64 + t`), else as the program holds them (`(b * 64) + t`).
  bool has_user = false;

  launch_names() = default;
  // Parameter names alone (no source): what the checks took before they read sources.
  launch_names(std::vector<std::string> parameters) : params(std::move(parameters)) {}  // NOLINT: implicit by design
  launch_names(std::initializer_list<std::string> parameters) : params(parameters) {}

  const std::string& operator[](std::size_t i) const { return params[i]; }
  std::size_t size() const { return params.size(); }

  // A tile as the source names it, or tile<id>.
  std::string tile(int id) const {
    detail::text_buffer out;
    dsl::render_tile(out, id, &user);
    return std::string(out.view());
  }
  // A loop's variable as the source names it, or i<level>.
  // `loop` is an element of ir.loops (its id is its position there).
  std::string loop(const dsl::kernel_ir& ir, const dsl::ir_loop& loop) const {
    const auto id = &loop - ir.loops.data();
    const bool in_ir = id >= 0 && static_cast<std::size_t>(id) < ir.loops.size();
    if (in_ir && !user.loop(static_cast<int>(id)).empty()) return std::string(user.loop(static_cast<int>(id)));
    return "i" + std::to_string(loop.level);
  }
};

// The names of parameters `given` (by position; "" where none was given): those, or p0, p1, ...
inline launch_names plain_launch_names(std::span<const std::string_view> given) {
  launch_names names;
  names.params = parameter_names(given);
  return names;
}

// Those names, with what `source` (a WARDEN_KERNEL's text; may be empty) names in `ir`. Read only
// when a message is written: a launch that passes its checks never scans the source.
inline launch_names launch_names_from_source(std::span<const std::string_view> given, std::string_view source,
                                             const dsl::kernel_ir& ir) {
  launch_names names = plain_launch_names(given);
  if (source.empty()) return names;
  std::vector<std::string_view> params(given.size());
  dsl::user_names user;
  if (!read_source_names(source, ir, std::span<std::string_view>(params), user)) return names;
  names.user = user;
  const auto any = [](const auto& list) {
    for (const std::string_view& n : list)
      if (!n.empty()) return true;
    return false;
  };
  names.has_user = any(user.loops) || any(user.tiles) || any(user.locals);
  for (const auto& op : user.indices) names.has_user = names.has_user || any(op);
  for (std::size_t i = 0; i < given.size(); ++i)
    if (given[i].empty() && !params[i].empty()) names.params[i] = std::string(params[i]);
  return names;
}

// Whether `text`, an expression rendered in these names, is C++ a kernel body could hold as it
// stands: no index, loop variable, local or tile the source did not name (`global_id.x`, `i1`,
// `local0`, `tile0`, `p0`), and no call rendered in short (`f(...)`, `select(...)`). A fix is
// written as code only then; otherwise in words.
inline bool spelled_as_written(std::string_view text) {
  const auto ident = [](char c) { return dsl::source_text::ident_char(c); };
  for (std::size_t i = 0; i < text.size();) {
    if (!ident(text[i]) || (i > 0 && ident(text[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && ident(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    for (std::string_view fixed : {"global_id", "thread_id", "block_id", "block_dim", "grid_dim", "select", "f"})
      if (word == fixed) return false;
    for (std::string_view prefix : {"local", "tile", "i", "p"})
      if (word.size() > prefix.size() && word.substr(0, prefix.size()) == prefix &&
          word.find_first_not_of("0123456789", prefix.size()) == std::string_view::npos)
        return false;
    i = end;
  }
  return true;
}

// Expression `id` of `ir` in these names.
inline std::string render(const dsl::kernel_ir& ir, int id, const launch_names& names) {
  detail::text_buffer out;
  dsl::render_to(
      out, ir, id,
      [&](detail::text_buffer& b, int i) {
        if (i >= 0 && static_cast<std::size_t>(i) < names.size()) b << std::string_view(names[static_cast<std::size_t>(i)]);
        else b << 'p' << i;
      },
      names.has_user ? &names.user : nullptr);
  return std::string(out.view());
}

}  // namespace warden::check
