#include <warden/memory/host_view.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <type_traits>
#include <vector>

namespace a = warden::access;

TEST_CASE("a read view loads and holds const elements", "[host_view]") {
  std::vector<float> data{1.f, 2.f, 3.f};
  auto v = warden::view_of<a::read>(data);
  STATIC_REQUIRE(std::is_same_v<decltype(v), warden::host_view<const float, a::read>>);
  CHECK(v.size() == 3);
  CHECK(v.bytes() == 3 * sizeof(float));
  const float second = v[1];
  CHECK(second == 2.f);
  CHECK(v[2].load() == 3.f);
}

TEST_CASE("a write view stores into the range", "[host_view]") {
  std::vector<int> data(4, 0);
  auto w = warden::view_of<a::write>(data);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int>(10 * i);
  CHECK(data == std::vector<int>{0, 10, 20, 30});
}

TEST_CASE("a read_write view supports compound assignment", "[host_view]") {
  std::array<double, 3> data{1.0, 2.0, 3.0};
  auto rw = warden::view_of<a::read_write>(data);
  rw[0] += 1.5;
  rw[1] -= 0.5;
  rw[2] *= 2.0;
  rw[2] /= 4.0;
  CHECK(data == std::array<double, 3>{2.5, 1.5, 1.5});
}

TEST_CASE("assigning one element to another copies the value, not the reference", "[host_view]") {
  std::vector<int> src{7, 8};
  std::vector<int> dst{0, 0};
  auto r = warden::view_of<a::read>(src);
  auto w = warden::view_of<a::write>(dst);
  w[0] = r[1];
  w[1] = r[0];
  CHECK(dst == std::vector<int>{8, 7});

  auto rw = warden::view_of<a::read_write>(dst);
  rw[0] = rw[1];  // same-type assignment is a store of a load
  CHECK(dst == std::vector<int>{7, 7});
  CHECK(src == std::vector<int>{7, 8});
}

TEST_CASE("zero-size views are allowed", "[host_view]") {
  std::vector<float> empty;
  auto v = warden::view_of<a::read>(empty);
  CHECK(v.empty());
  CHECK(v.size() == 0);
  CHECK(v.bytes() == 0);
  warden::host_view<float, a::write> defaulted;
  CHECK(defaulted.empty());
}

TEST_CASE("views work in constant expressions", "[host_view]") {
  constexpr int sum = [] {
    std::array<int, 4> data{1, 2, 3, 4};
    auto rw = warden::view_of<a::read_write>(data);
    int total = 0;
    for (std::size_t i = 0; i < rw.size(); ++i) {
      rw[i] *= 2;
      total += rw[i];
    }
    return total;
  }();
  STATIC_REQUIRE(sum == 20);
}
