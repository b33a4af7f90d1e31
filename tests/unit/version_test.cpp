#include <warden/version.hpp>

#include <catch2/catch.hpp>

TEST_CASE("version.hpp agrees with project(VERSION) in CMakeLists.txt", "[version]") {
  CHECK(warden::version_major == WARDEN_PROJECT_VERSION_MAJOR);
  CHECK(warden::version_minor == WARDEN_PROJECT_VERSION_MINOR);
  CHECK(warden::version_patch == WARDEN_PROJECT_VERSION_PATCH);
}
