#include <warden/access.hpp>

#include <catch2/catch.hpp>

namespace a = warden::access;

TEST_CASE("every mode is an access_mode", "[access]") {
  STATIC_REQUIRE(warden::access_mode<a::read>);
  STATIC_REQUIRE(warden::access_mode<a::write>);
  STATIC_REQUIRE(warden::access_mode<a::read_write>);
  STATIC_REQUIRE(warden::access_mode<a::atomic>);
  STATIC_REQUIRE_FALSE(warden::access_mode<float>);
}

TEST_CASE("readable and writable follow the mode", "[access]") {
  STATIC_REQUIRE(warden::readable<a::read>);
  STATIC_REQUIRE_FALSE(warden::writable<a::read>);
  STATIC_REQUIRE(warden::writable<a::write>);
  STATIC_REQUIRE_FALSE(warden::readable<a::write>);
  STATIC_REQUIRE(warden::readable<a::read_write>);
  STATIC_REQUIRE(warden::writable<a::read_write>);
}

TEST_CASE("atomic allows atomic updates and no plain access", "[access]") {
  STATIC_REQUIRE(a::atomic::can_update_atomically);
  STATIC_REQUIRE_FALSE(warden::readable<a::atomic>);
  STATIC_REQUIRE_FALSE(warden::writable<a::atomic>);
  STATIC_REQUIRE_FALSE(a::read_write::can_update_atomically);
}
