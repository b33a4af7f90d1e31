#pragma once
// Byte counts for messages: "4.00 MiB (4194304 B)".

#include <cstddef>
#include <cstdio>
#include <string>

namespace warden::detail {

inline std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char text[64];
  if (unit == 0) std::snprintf(text, sizeof text, "%zu B", bytes);
  else std::snprintf(text, sizeof text, "%.2f %s (%zu B)", value, units[unit], bytes);
  return text;
}

}  // namespace warden::detail
