#pragma once
// Address spaces. A space is a tag type that says who may touch memory that lives in it:
// the host, the device, or both. Buffers, views and kernel parameters carry their space in their
// type, so "host code indexes device memory" is a type error rather than a segfault.

#include <concepts>
#include <string_view>

namespace warden::space {

// Ordinary host memory (malloc, std::vector). The device cannot reach it.
struct host {
  static constexpr std::string_view name = "host";
  static constexpr bool is_host_accessible = true;
  static constexpr bool is_device_accessible = false;
};

// Device global memory (cudaMalloc). The host reaches it only through copies.
struct device {
  static constexpr std::string_view name = "device";
  static constexpr bool is_host_accessible = false;
  static constexpr bool is_device_accessible = true;
};

// Block-local shared memory: exists only inside a kernel, one instance per block.
struct shared {
  static constexpr std::string_view name = "shared";
  static constexpr bool is_host_accessible = false;
  static constexpr bool is_device_accessible = true;
};

// Page-locked host memory (cudaMallocHost): the host indexes it, the device reads it over the bus
// (zero-copy), and asynchronous copies from it overlap compute.
struct pinned {
  static constexpr std::string_view name = "pinned";
  static constexpr bool is_host_accessible = true;
  static constexpr bool is_device_accessible = true;
};

// Unified memory (cudaMallocManaged): one pointer valid on both sides, migrated on demand.
struct managed {
  static constexpr std::string_view name = "managed";
  static constexpr bool is_host_accessible = true;
  static constexpr bool is_device_accessible = true;
};

}  // namespace warden::space

namespace warden {

template <class S>
concept memory_space = requires {
  { S::name } -> std::convertible_to<std::string_view>;
  { S::is_host_accessible } -> std::convertible_to<bool>;
  { S::is_device_accessible } -> std::convertible_to<bool>;
};

template <class S>
concept host_accessible = memory_space<S> && S::is_host_accessible;

template <class S>
concept device_accessible = memory_space<S> && S::is_device_accessible;

}  // namespace warden
