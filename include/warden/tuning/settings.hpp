#pragma once
// Where tuned kernels keep their choices, and whether they tune at all.
//
//   WARDEN_TUNING=off (or 0)      no timing: every tuned kernel runs its first candidate
//   WARDEN_TUNING_CACHE=<dir>     the persistent cache's folder; "" or "off" keeps choices in
//                                 memory only. Default: $XDG_CACHE_HOME/warden/tuning, else
//                                 $HOME/.cache/warden/tuning, else memory only.
//
// The environment is read once, at the first tuned launch; tuning::set_enabled and
// tuning::set_cache_directory override it for the rest of the program.

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>

namespace warden {

namespace detail {

struct tuning_settings_state {
  std::mutex mutex;                 // for the directory
  std::atomic<bool> enabled{true};  // read at every tuned launch
  std::filesystem::path directory;  // empty: memory only
};

inline std::filesystem::path default_tuning_cache_directory() {
  if (const char* dir = std::getenv("WARDEN_TUNING_CACHE")) {
    const std::string text = dir;
    if (text.empty() || text == "off") return {};
    return text;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return std::filesystem::path(xdg) / "warden" / "tuning";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".cache" / "warden" / "tuning";
  return {};
}

inline tuning_settings_state& tuning_settings() {
  static tuning_settings_state* state = [] {
    auto* s = new tuning_settings_state;  // never destroyed: a tuned launch in a static destructor still finds it
    if (const char* env = std::getenv("WARDEN_TUNING")) {
      const std::string text = env;
      s->enabled = !(text == "off" || text == "0" || text == "false");
    }
    s->directory = default_tuning_cache_directory();
    return s;
  }();
  return *state;
}

}  // namespace detail

namespace tuning {

inline bool enabled() { return warden::detail::tuning_settings().enabled.load(std::memory_order_relaxed); }
// Off: a tuned kernel launches its first candidate, times nothing and records no choice.
inline void set_enabled(bool on) { warden::detail::tuning_settings().enabled.store(on, std::memory_order_relaxed); }

inline std::filesystem::path cache_directory() {
  auto& s = warden::detail::tuning_settings();
  std::lock_guard lock(s.mutex);
  return s.directory;
}
// An empty path keeps choices in memory only.
inline void set_cache_directory(std::filesystem::path dir) {
  auto& s = warden::detail::tuning_settings();
  std::lock_guard lock(s.mutex);
  s.directory = std::move(dir);
}

}  // namespace tuning

}  // namespace warden
