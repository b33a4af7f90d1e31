#pragma once
// Compiler and runtime detection shared by every header.

#if defined(__CUDACC__)
#define WARDEN_HOST_DEVICE __host__ __device__
// Before a __host__ __device__ template that is instantiated with host-only arguments too (the cpu
// backend's contexts): no warning for the side that is never called (CCCL does the same).
#define WARDEN_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define WARDEN_HOST_DEVICE
#define WARDEN_EXEC_CHECK_DISABLE
#endif

// WARDEN_DEVICE_PASS: 1 in nvcc's device pass (cicc, __CUDA_ARCH__ defined), which compiles only
// device code. There a launch instantiates the kernel's __global__ entry, with the same arguments
// as the host pass (as CUDA requires of a launched template), and none of the host launch path:
// binding, the launch-time checks and the cpu backend's run are host code. The kernel is still
// checked in both passes: a body could differ under __CUDA_ARCH__, and the device pass compiles
// what the GPU runs (docs/benchmarks.md).
#if defined(__CUDA_ARCH__)
#define WARDEN_DEVICE_PASS 1
#else
#define WARDEN_DEVICE_PASS 0
#endif

// WARDEN_CUDA_RUNTIME: 1 when the CUDA runtime API is available to this translation unit (nvcc
// always; a host compiler when the target links CUDA::cudart and defines it to 1). It must have
// the same value in every translation unit of a program. Without it, warden's "device" memory
// lives on the host and every kernel runs on the cpu reference backend.
#if !defined(WARDEN_CUDA_RUNTIME)
#if defined(__CUDACC__)
#define WARDEN_CUDA_RUNTIME 1
#else
#define WARDEN_CUDA_RUNTIME 0
#endif
#endif

// WARDEN_SEPARATE_RUNTIME: 1 to compile the launch-time checks (check/launch/launch_checks.hpp) and
// the memory pool (memory/pool_core.hpp) once per program instead of in every file that launches
// or allocates: each file then declares them, and one file compiles their definitions by including
// warden/separate_runtime.hpp (CMake: link warden::runtime, which does that for both
// WARDEN_POOL_DEBUG modes and sets the macro). It must have the same value in every translation unit.
#if !defined(WARDEN_SEPARATE_RUNTIME)
#define WARDEN_SEPARATE_RUNTIME 0
#endif
// How the launch-time checks are declared and defined: inline in every file (header-only), or
// once, in the program's warden/separate_runtime.hpp file.
#if WARDEN_SEPARATE_RUNTIME
#define WARDEN_RUNTIME_API
#define WARDEN_RUNTIME_ABI separate_runtime
#else
#define WARDEN_RUNTIME_API inline
#define WARDEN_RUNTIME_ABI header_only
#endif

// WARDEN_POOL_DEBUG: the pool records where each block was allocated and reports blocks still
// live when it is destroyed. On by default in debug builds (no NDEBUG).
#if !defined(WARDEN_POOL_DEBUG)
#if defined(NDEBUG)
#define WARDEN_POOL_DEBUG 0
#else
#define WARDEN_POOL_DEBUG 1
#endif
#endif
// The pool's types, the default pools and the buffers that hold blocks live in an inline namespace
// named after the mode (memory/memory_pool.hpp), so that translation units built with either mode
// link into one program without two definitions of one entity.
#if WARDEN_POOL_DEBUG
#define WARDEN_POOL_ABI pool_debug_1
#else
#define WARDEN_POOL_ABI pool_debug_0
#endif

// WARDEN_SHARED_POISON: the cpu backend fills each shared tile with a poison pattern (all bits
// set: NaN for floating point, -1 or the maximum for integers) and a load of an element no thread
// of the block has stored throws uninitialised_read_error (E108). Off, tiles start zeroed, as
// before. On by default in debug builds (no NDEBUG).
#if !defined(WARDEN_SHARED_POISON)
#if defined(NDEBUG)
#define WARDEN_SHARED_POISON 0
#else
#define WARDEN_SHARED_POISON 1
#endif
#endif

// WARDEN_SYNC_LAUNCHES: wait for every kernel launch to finish, so that an error the kernel hits
// while running is reported as a cuda_error naming that kernel, not by a later call. On by default
// in debug builds; release builds see such errors at the next synchronising call.
#if !defined(WARDEN_SYNC_LAUNCHES)
#if defined(NDEBUG)
#define WARDEN_SYNC_LAUNCHES 0
#else
#define WARDEN_SYNC_LAUNCHES 1
#endif
#endif
