#pragma once
// warden's version, kept equal to project(VERSION) in CMakeLists.txt (a unit test compares them).

#define WARDEN_VERSION_MAJOR 0
#define WARDEN_VERSION_MINOR 1
#define WARDEN_VERSION_PATCH 0

namespace warden {
inline constexpr int version_major = WARDEN_VERSION_MAJOR;
inline constexpr int version_minor = WARDEN_VERSION_MINOR;
inline constexpr int version_patch = WARDEN_VERSION_PATCH;
}  // namespace warden
