#pragma once
// The persistent half of a tuned kernel's choices: one text file per kernel, candidate list and
// device, in the tuning cache's folder (tuning/settings.hpp).
//
//   warden-tuning 1
//   warden 0.1.0
//   device NVIDIA H200, sm_90, driver 13000
//   kernel reduce (source 1f3a...)
//   candidates block<128> | block<256> | block<512>
//   key 1048576 -> block<256>
//
// Nothing in it is trusted: a file whose first five lines differ from what this program expects
// (another warden, device, driver, kernel or candidate list: a stale file, or a corrupt one) is
// ignored and replaced at the next choice, and a line that does not parse, or names a candidate
// the list does not have, is dropped. A write goes to a file of its own, then is renamed over the
// old one, so that a reader (another process) sees the old file or the new one, never half of one;
// two writers racing each keep a whole file, and the later rename wins.

#include <atomic>
#include <charconv>
#include <mutex>
#include <string_view>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "../config.hpp"
#include "../cuda_check.hpp"
#include "../version.hpp"
#include "tune_key.hpp"

namespace warden::detail {

// The device a choice was measured on: its name, compute capability and driver (on a GPU), or the
// cpu reference backend.
inline std::string tuning_device(bool on_gpu) {
#if WARDEN_CUDA_RUNTIME
  if (on_gpu) {
    int device = 0, driver = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess &&
        cudaDriverGetVersion(&driver) == cudaSuccess)
      return std::string(prop.name) + ", sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", driver " +
             std::to_string(driver);
    cudaGetLastError();
    return "unknown GPU";
  }
#endif
  (void)on_gpu;
  return "cpu reference backend";
}

// "key 1048576,256": the key's text back into a key; false for anything else.
inline bool parse_tune_key(const std::string& text, tune_key& key) {
  key = tune_key{};
  if (text == "-") return true;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = text.find(',', at);
    const std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (part.empty() || key.size() == tune_key::capacity) return false;
    long long value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (error != std::errc{} || end != part.data() + part.size()) return false;
    key.add(value);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return true;
}

class tuning_cache_file {
 public:
  struct entry {
    tune_key key;
    int candidate = 0;  // its index in the candidate list
  };

  // `source`: the kernel's definition as written (WARDEN_TUNED's text), so that an edited body or
  // key, or another kernel of the same name, is another kernel.
  tuning_cache_file(const std::filesystem::path& directory, const std::string& kernel, std::string_view source,
                    const std::string& device, std::vector<std::string> candidates)
      : candidates_(std::move(candidates)) {
    header_ = "warden-tuning 1\nwarden " + std::to_string(version_major) + "." + std::to_string(version_minor) + "." +
              std::to_string(version_patch) + (WARDEN_SYNC_LAUNCHES ? " (synchronous launches)" : "") + "\ndevice " +
              device + "\nkernel " + kernel + " (source " + hex(fnv(std::string(source))) + ")\ncandidates ";
    for (std::size_t i = 0; i < candidates_.size(); ++i) header_ += (i ? " | " : "") + candidates_[i];
    header_ += "\n";
    if (!directory.empty()) path_ = directory / (file_stem(kernel) + "-" + hex(fnv(header_)) + ".wtune");
  }

  const std::filesystem::path& path() const noexcept { return path_; }
  bool persistent() const noexcept { return !path_.empty(); }

  // The entries a reader can trust; `whole` says whether the file was there and every line of it
  // was kept (else the next write replaces it).
  std::vector<entry> read(bool* whole = nullptr) const {
    std::vector<entry> out;
    if (whole) *whole = false;
    if (path_.empty()) return out;
    std::ifstream in(path_, std::ios::binary);
    if (!in) return out;
    std::stringstream text;
    text << in.rdbuf();
    const std::string all = text.str();
    if (all.compare(0, header_.size(), header_) != 0) return out;  // stale, from elsewhere, or corrupt
    bool kept_all = true;
    std::size_t at = header_.size();
    while (at < all.size()) {
      std::size_t end = all.find('\n', at);
      if (end == std::string::npos) {  // a last line without its newline: cut short
        kept_all = false;
        break;
      }
      const std::string line = all.substr(at, end - at);
      at = end + 1;
      entry e;
      if (parse_line(line, e)) {
        bool replaced = false;
        for (entry& old : out)
          if (old.key == e.key) old = e, replaced = true;
        if (!replaced) out.push_back(e);
      } else {
        kept_all = false;
      }
    }
    if (whole) *whole = kept_all;
    return out;
  }

  // Adds (or replaces) the choice for `key`, keeping the file's other trusted entries. Returns an
  // empty string, or why the file could not be written (the choice still holds in memory).
  std::string write(const tune_key& key, int candidate) const {
    if (path_.empty()) return "no cache folder";
    // Threads of this process take turns (each keeps the others' entries); other processes may
    // still race, and then the later rename wins whole.
    static std::mutex writers;
    std::lock_guard turn(writers);
    std::vector<entry> entries = read();
    bool replaced = false;
    for (entry& e : entries)
      if (e.key == key) e.candidate = candidate, replaced = true;
    if (!replaced) entries.push_back({key, candidate});
    std::string text = header_;
    for (const entry& e : entries)
      text += "key " + e.key.text() + " -> " + candidates_[static_cast<std::size_t>(e.candidate)] + "\n";
    std::error_code ec;
    std::filesystem::create_directories(path_.parent_path(), ec);
    if (ec) return "cannot create " + path_.parent_path().string() + ": " + ec.message();
    const std::filesystem::path temporary = path_.string() + ".tmp-" + unique_suffix();
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << text;
      out.flush();
      if (!out) {
        std::filesystem::remove(temporary, ec);
        return "cannot write " + temporary.string();
      }
    }
    std::filesystem::rename(temporary, path_, ec);
    if (ec) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return "cannot rename " + temporary.string() + ": " + ec.message();
    }
    return {};
  }

 private:
  bool parse_line(const std::string& line, entry& e) const {
    if (line.rfind("key ", 0) != 0) return false;
    const std::size_t arrow = line.find(" -> ", 4);
    if (arrow == std::string::npos) return false;
    if (!parse_tune_key(line.substr(4, arrow - 4), e.key)) return false;
    const std::string name = line.substr(arrow + 4);
    for (std::size_t i = 0; i < candidates_.size(); ++i)
      if (candidates_[i] == name) {
        e.candidate = static_cast<int>(i);
        return true;
      }
    return false;  // a candidate this list does not have
  }

  static std::uint64_t fnv(const std::string& text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
  }
  static std::string hex(std::uint64_t v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = digits[v & 15];
    return out;
  }
  // The kernel's name as a file name: letters, digits, '_' and '-' kept, anything else '_'.
  static std::string file_stem(const std::string& kernel) {
    std::string out;
    for (char c : kernel) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
    return out.empty() ? "kernel" : out;
  }
  // Unique across the processes and threads that may write one file at once.
  static std::string unique_suffix() {
    static std::atomic<std::uint64_t> counter{0};
    static const std::uint64_t process = [] {
      std::random_device device;
      return (static_cast<std::uint64_t>(device()) << 32) ^ device();
    }();
    return hex(process ^ (counter.fetch_add(1) * 0x9e3779b97f4a7c15ull));
  }

  std::vector<std::string> candidates_;
  std::string header_;
  std::filesystem::path path_;
};

}  // namespace warden::detail
