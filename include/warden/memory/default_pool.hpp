#pragma once
// One default pool per memory space and device, created on first use and replaceable by the user.
//
//   default_pool<space::device>()      device memory: cuda_resource on a GPU, host_resource on the cpu backend
//   default_pool<space::pinned>()      pinned_resource, or host_resource
//   default_pool<space::managed>()     managed_resource, or host_resource
//   set_default_pool<S>(pool)          use the caller's pool from now on (it must outlive its use)
//   memory_stats(), empty_cache(), set_memory_limit(bytes), set_memory_fraction(f)
//                                      the current device's default device pool
//
// Default pools live until the program ends and are never destroyed, so that no pool outlives the
// CUDA runtime at exit (the same choice as RMM's and PyTorch's default allocators).

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "../runtime.hpp"
#include "../space.hpp"
#include "cuda_resources.hpp"
#include "host_resource.hpp"
#include "memory_pool.hpp"
#include "pool_stats.hpp"

namespace warden {

namespace detail {

// Each mode of WARDEN_POOL_DEBUG has its own default pools (memory_pool.hpp, WARDEN_POOL_ABI): a
// debug and a release translation unit of one program allocate from two pools, each of its own
// layout; a buffer frees into the pool it came from, whichever unit frees it.
inline namespace WARDEN_POOL_ABI {

inline int current_device() {
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) {
    int device = 0;
    WARDEN_CUDA_CHECK(cudaGetDevice(&device));
    return device;
  }
#endif
  return 0;
}

template <memory_space S>
memory_pool* make_default_pool() {
#if WARDEN_CUDA_RUNTIME
  if (cuda_device_available()) {
    if constexpr (std::is_same_v<S, space::pinned>) return new memory_pool(pinned_resource{});
    else if constexpr (std::is_same_v<S, space::managed>) return new memory_pool(managed_resource{});
    else return new memory_pool(cuda_resource{});
  }
#endif
  auto* pool = new memory_pool(host_resource{});
  if constexpr (std::is_same_v<S, space::device>) pool->stand_for_device_memory();  // E105 as on a GPU
  return pool;
}

template <memory_space S>
struct default_pool_registry {
  std::mutex mutex;
  std::map<int, memory_pool*> pools;  // never deleted: see the header comment

  static default_pool_registry& instance() {
    static default_pool_registry* registry = new default_pool_registry;
    return *registry;
  }
};

}  // inline namespace WARDEN_POOL_ABI
}  // namespace detail

inline namespace WARDEN_POOL_ABI {

template <memory_space S = space::device>
memory_pool& default_pool(int device = detail::current_device()) {
  static_assert(!std::is_same_v<S, space::shared>, "warden::default_pool: shared memory is declared inside kernels");
  auto& registry = detail::default_pool_registry<S>::instance();
  std::lock_guard lock(registry.mutex);
  memory_pool*& pool = registry.pools[device];
  if (pool == nullptr) pool = detail::make_default_pool<S>();
  return *pool;
}

// From now on buffers of space S on `device` allocate from `pool`, which the caller keeps alive
// for as long as they use it. Buffers already allocated go back to the pool they came from.
template <memory_space S = space::device>
void set_default_pool(memory_pool& pool, int device = detail::current_device()) {
  detail::check_pool_space<S>(pool, "warden::set_default_pool");
  auto& registry = detail::default_pool_registry<S>::instance();
  std::lock_guard lock(registry.mutex);
  registry.pools[device] = &pool;
}

inline pool_stats memory_stats(int device = detail::current_device()) { return default_pool(device).stats(); }
inline void empty_cache(int device = detail::current_device()) { default_pool(device).empty_cache(); }
inline void set_memory_limit(std::size_t bytes, int device = detail::current_device()) {
  default_pool(device).set_limit(bytes);
}
inline void set_memory_fraction(double fraction, int device = detail::current_device()) {
  default_pool(device).set_limit_fraction(fraction);
}

}  // inline namespace WARDEN_POOL_ABI

}  // namespace warden
