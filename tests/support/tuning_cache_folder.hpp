#pragma once
// A fresh tuning cache folder for one test (warden/tuned.hpp): made empty, set as the cache, with
// tuning on and no choice in memory; removed, and the cache set to memory only, at the end. Named
// by the test and the process, so that tests running at once never share one.
#include <warden/tuned.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace warden::testing {

struct tuning_cache_folder {
  std::filesystem::path path;
  explicit tuning_cache_folder(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("warden_tuning_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    tuning::set_cache_directory(path);
    tuning::set_enabled(true);
    tuning::clear_cache();
  }
  tuning_cache_folder(const tuning_cache_folder&) = delete;
  tuning_cache_folder& operator=(const tuning_cache_folder&) = delete;
  ~tuning_cache_folder() {
    tuning::set_cache_directory({});
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::vector<std::filesystem::path> files() const {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(path, ec)) out.push_back(e.path());
    return out;
  }
};

}  // namespace warden::testing
