#pragma once
// The part of warden compiled once per program when WARDEN_SEPARATE_RUNTIME is 1: include this
// header in exactly one source file (the CMake target warden::runtime is that file, and sets the
// macro for everything that links it): the launch-time checks, the memory pool and the registry of
// captures in progress. The pool is
// that file's WARDEN_POOL_DEBUG mode (config.hpp); a program whose files use both modes compiles
// memory/pool_core.hpp once more, in another file, with the other one, as warden::runtime does.
// Without the macro it adds nothing: every file then compiles both inline, as a header-only
// library does.

#include "config.hpp"

#if WARDEN_SEPARATE_RUNTIME
#include "check/launch/check_launch.hpp"
#include "memory/capture_registry_state.hpp"
#include "memory/pool_core.hpp"
#endif
