#include <warden/space.hpp>

#include <catch2/catch.hpp>

namespace s = warden::space;

TEST_CASE("every space is a memory_space", "[space]") {
  STATIC_REQUIRE(warden::memory_space<s::host>);
  STATIC_REQUIRE(warden::memory_space<s::device>);
  STATIC_REQUIRE(warden::memory_space<s::shared>);
  STATIC_REQUIRE(warden::memory_space<s::pinned>);
  STATIC_REQUIRE(warden::memory_space<s::managed>);
  STATIC_REQUIRE_FALSE(warden::memory_space<int>);
}

TEST_CASE("host_accessible: host, pinned and managed, not device or shared", "[space]") {
  STATIC_REQUIRE(warden::host_accessible<s::host>);
  STATIC_REQUIRE(warden::host_accessible<s::pinned>);
  STATIC_REQUIRE(warden::host_accessible<s::managed>);
  STATIC_REQUIRE_FALSE(warden::host_accessible<s::device>);
  STATIC_REQUIRE_FALSE(warden::host_accessible<s::shared>);
  STATIC_REQUIRE_FALSE(warden::host_accessible<int>);
}

TEST_CASE("device_accessible: everything but plain host memory", "[space]") {
  STATIC_REQUIRE(warden::device_accessible<s::device>);
  STATIC_REQUIRE(warden::device_accessible<s::shared>);
  STATIC_REQUIRE(warden::device_accessible<s::pinned>);
  STATIC_REQUIRE(warden::device_accessible<s::managed>);
  STATIC_REQUIRE_FALSE(warden::device_accessible<s::host>);
}

TEST_CASE("spaces name themselves for diagnostics", "[space]") {
  CHECK(s::host::name == "host");
  CHECK(s::device::name == "device");
  CHECK(s::shared::name == "shared");
  CHECK(s::pinned::name == "pinned");
  CHECK(s::managed::name == "managed");
}
