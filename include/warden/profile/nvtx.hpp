#pragma once
// NVTX ranges, so that Nsight Systems shows warden's work by name: each launch as
// `saxpy<<<4, 256>>>` (the WARDEN_KERNEL name, the grid and the block), graph replays, transfers,
// the pool's calls to its upstream, and a tuned kernel's measurements, in the "warden" domain.
//
// On by default wherever NVTX is found (CUDA's header-only <nvtx3/nvToolsExt.h>, with the CUDA
// runtime compiled in); -DWARDEN_NVTX=0 (CMake: -DWARDEN_NVTX=OFF) compiles every range out, text
// included. While no tool listens, a range costs its text (built on the stack: a launch still
// allocates nothing) and two calls that NVTX answers at once.
//
// WARDEN_NVTX_SHIM: the program provides warden_nvtx_shim_push/pop instead of NVTX (the CUDA
// runtime stand-in's recording shim: tests check the ranges' names and nesting without a tool).

#include <cstddef>
#include <string_view>

#include "../config.hpp"

#if !defined(WARDEN_NVTX)
#if WARDEN_CUDA_RUNTIME && (defined(WARDEN_NVTX_SHIM) || __has_include(<nvtx3/nvToolsExt.h>))
#define WARDEN_NVTX 1
#else
#define WARDEN_NVTX 0
#endif
#endif

#if WARDEN_NVTX
#if defined(WARDEN_NVTX_SHIM)
extern "C" void warden_nvtx_shim_push(const char* message);
extern "C" void warden_nvtx_shim_pop();
#else
#include <nvtx3/nvToolsExt.h>
#endif
#endif

namespace warden::detail {

inline constexpr bool nvtx_enabled = WARDEN_NVTX != 0;

// A range's text, built without allocating; cut at 159 characters.
class range_text {
 public:
  range_text& add(std::string_view s) noexcept {
    for (char c : s)
      if (size_ < capacity) text_[size_++] = c;
    text_[size_] = '\0';
    return *this;
  }
  range_text& add(long long v) noexcept {
    char digits[24];
    int n = 0;
    const bool negative = v < 0;
    unsigned long long u = negative ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (negative) add("-");
    while (n > 0) add(std::string_view(&digits[--n], 1));
    return *this;
  }
  // "4", or "(4, 2)", or "(4, 2, 3)": a grid or block as a launch writes it.
  range_text& add_dims(long long x, long long y, long long z) noexcept {
    if (y == 1 && z == 1) return add(x);
    add("(").add(x).add(", ").add(y);
    if (z != 1) add(", ").add(z);
    return add(")");
  }
  const char* c_str() const noexcept { return text_; }

 private:
  static constexpr std::size_t capacity = 159;
  char text_[capacity + 1] = {};
  std::size_t size_ = 0;
};

#if WARDEN_NVTX && !defined(WARDEN_NVTX_SHIM)
inline nvtxDomainHandle_t nvtx_domain() noexcept {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("warden");
  return domain;
}
#endif

// A range open for this object's life. `describe(range_text&)` writes its text, and is called
// only where ranges are compiled in.
class nvtx_range {
 public:
  template <class Describe>
  explicit nvtx_range(Describe&& describe) noexcept {
    if constexpr (nvtx_enabled) {
      range_text text;
      describe(text);
      push(text.c_str());
    }
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
  ~nvtx_range() {
    if constexpr (nvtx_enabled) pop();
  }

 private:
  static void push(const char* message) noexcept {
#if WARDEN_NVTX && defined(WARDEN_NVTX_SHIM)
    warden_nvtx_shim_push(message);
#elif WARDEN_NVTX
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = message;
    nvtxDomainRangePushEx(nvtx_domain(), &attributes);
#else
    (void)message;
#endif
  }
  static void pop() noexcept {
#if WARDEN_NVTX && defined(WARDEN_NVTX_SHIM)
    warden_nvtx_shim_pop();
#elif WARDEN_NVTX
    nvtxDomainRangePop(nvtx_domain());
#endif
  }
};

}  // namespace warden::detail
