#pragma once
// The part of warden compiled once per program when WARDEN_SEPARATE_RUNTIME is 1: include this
// header in exactly one source file (the CMake target warden::runtime is that file, and sets the
// macro for everything that links it). Without the macro it adds nothing: every file that
// launches then compiles the launch-time checks inline, as a header-only library does.

#include "config.hpp"

#if WARDEN_SEPARATE_RUNTIME
#include "check/launch/check_launch.hpp"
#endif
