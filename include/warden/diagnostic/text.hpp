#pragma once
// The one formatter of run-time diagnostics (E100-E107): "E101 [out-of-bounds] saxpy: <detail>",
// the code and its short name from the table, then the entity (the kernel, the pool's call) and
// what happened there, with the user's names.

#include <string>
#include <string_view>

#include "codes.hpp"

namespace warden::diagnostic {

inline std::string text(code c, std::string_view entity, std::string_view detail) {
  const entry& e = row(c);
  std::string out;
  out.reserve(e.name.size() + e.short_name.size() + entity.size() + detail.size() + 8);
  out.append(e.name).append(" [").append(e.short_name).append("] ").append(entity).append(": ").append(detail);
  return out;
}

}  // namespace warden::diagnostic
