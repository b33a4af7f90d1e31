#include <warden/memory/size_class.hpp>

#include <catch2/catch.hpp>

namespace ps = warden::pool_sizes;

namespace {

// Every request up to 1 MiB maps to the smallest class that holds it, and classes waste at most
// a quarter of the (256-aligned) request. Checked for every multiple of 256 and its neighbours.
constexpr bool classes_are_tight() {
  for (std::size_t size = 256; size <= ps::small_max; size += 256) {
    for (std::size_t bytes : {size - 255, size}) {
      const int c = ps::class_index(bytes);
      if (c < 0 || c >= ps::class_count) return false;
      if (ps::class_size(c) < bytes) return false;
      if (c > 0 && ps::class_size(c - 1) >= ps::aligned_size(bytes)) return false;
      if (ps::class_size(c) - ps::aligned_size(bytes) > ps::aligned_size(bytes) / 4) return false;
    }
  }
  return true;
}

constexpr bool classes_grow_and_align() {
  for (int c = 0; c < ps::class_count; ++c) {
    if (ps::class_size(c) % ps::alignment != 0) return false;
    if (c > 0 && ps::class_size(c) <= ps::class_size(c - 1)) return false;
    if (ps::class_index(ps::class_size(c)) != c) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("size classes are tight and invertible", "[size_class]") {
  STATIC_REQUIRE(classes_are_tight());
  STATIC_REQUIRE(classes_grow_and_align());
}

TEST_CASE("size class boundaries", "[size_class]") {
  STATIC_REQUIRE(ps::class_index(1) == 0);
  STATIC_REQUIRE(ps::class_size(0) == 256);
  STATIC_REQUIRE(ps::class_size(3) == 1024);
  STATIC_REQUIRE(ps::class_size(4) == 1280);
  STATIC_REQUIRE(ps::class_index(1025) == 4);
  STATIC_REQUIRE(ps::class_size(ps::class_count - 1) == ps::small_max);
  STATIC_REQUIRE(ps::is_small(ps::small_max));
  STATIC_REQUIRE_FALSE(ps::is_small(ps::small_max + 1));
  STATIC_REQUIRE(ps::aligned_size(0) == 256);
  STATIC_REQUIRE(ps::aligned_size(257) == 512);
}
