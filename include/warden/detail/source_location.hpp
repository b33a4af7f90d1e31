#pragma once
// warden::detail::source_location: std::source_location where the standard library provides it,
// else the same three facts from the compiler builtins (clang 14 with libstdc++ 12 has no
// std::source_location, but has __builtin_FILE/LINE/FUNCTION).

#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>
namespace warden::detail {
using source_location = std::source_location;
}
#else
namespace warden::detail {
class source_location {
 public:
  static constexpr source_location current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE(),
                                           const char* function = __builtin_FUNCTION()) noexcept {
    source_location here;
    here.file_ = file;
    here.line_ = line;
    here.function_ = function;
    return here;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  const char* file_ = "";
  unsigned line_ = 0;
  const char* function_ = "";
};
}  // namespace warden::detail
#endif
