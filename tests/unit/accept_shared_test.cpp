// Must-accept kernels (proposals/0003-race-freedom.md) that work through shared tiles: tree reduction, padded-tile
// transpose, tiled matrix multiply, 1-D and 2-D stencils with halos, Blelloch scan, bitonic sort.
// Each compiles (the checker accepted it), records clean on the cpu backend, and is checked
// against plain C++.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

// Four of the must-accept kernels are examples: tested here as they ship.
#include "../../examples/bitonic_sort/bitonic_sort.hpp"
#include "../../examples/matmul/matmul.hpp"
#include "../../examples/stencil_2d/stencil_2d.hpp"
#include "../../examples/transpose/transpose.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace w = warden;

namespace {
std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 37) % 11) - 5.f;
  return v;
}
}  // namespace

// Tree reduction: one partial sum per block, `if (t < s)` and a barrier per level.
WARDEN_KERNEL(tree_sum_k, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 256>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0.f), w::sync(),
                  w::for_range(k, 0, 8, [&](auto, auto level) {
                    auto s = 128 >> level;
                    return w::seq(w::when(t < s, tile[t] = tile[t] + tile[t + s]), w::sync());
                  }),
                  w::when(t == 0, out[k.block_id()] = tile[0]));
  });
}));

TEST_CASE("accepted: a shared-memory tree reduction", "[checker][accept]") {
  const auto host = ramp(1000);
  auto in = w::to_device(host);
  w::device_buffer<float> out(4);
  const auto r = w::record(tree_sum_k, w::grid(4), in, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t b = 0; b < 4; ++b) {
    float expect = 0.f;
    for (std::size_t i = b * 256; i < std::min<std::size_t>(host.size(), (b + 1) * 256); ++i) expect += host[i];
    REQUIRE(got[b] == expect);
  }
}

// Every compound assignment on a shared element, each thread on its own element between barriers.
WARDEN_KERNEL(tile_compound_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(tile[t] = in[i], w::sync(), tile[t] -= 3, tile[t] *= 5, tile[t] %= 97, tile[t] |= 8, tile[t] ^= 5,
                  tile[t] &= 61, tile[t] += 100, tile[t] /= 2, w::sync(), out[i] = tile[63 - t]);
  });
}));

TEST_CASE("accepted: compound assignments on shared elements (+= -= *= /= %= &= |= ^=)", "[checker][accept]") {
  std::vector<int> host(128);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 37) % 211);
  auto in = w::to_device(host);
  w::device_buffer<int> out(host.size());
  const auto r = w::record(tile_compound_k, w::grid(2), in, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const std::size_t block = i / 64, mirror = block * 64 + (63 - i % 64);
    int v = host[mirror];
    v -= 3, v *= 5, v %= 97, v |= 8, v ^= 5, v &= 61, v += 100, v /= 2;
    REQUIRE(got[i] == v);
  }
}

// Transpose through a padded tile: the kernel of examples/transpose.
TEST_CASE("accepted: a transpose through a padded tile", "[checker][accept]") {
  const int rows = 40, cols = 23;
  const auto host = ramp(rows * cols);
  auto in = w::to_device(host);
  w::device_buffer<float> out(host.size());
  const auto r = w::record(examples::transpose, w::grid((cols + 15) / 16, (rows + 15) / 16), in, out, rows, cols);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) REQUIRE(got[static_cast<std::size_t>(j * rows + i)] == host[static_cast<std::size_t>(i * cols + j)]);
}

// Tiled matrix multiply, two barriers per k-tile: examples/matmul.
TEST_CASE("accepted: a tiled matrix multiply with two barriers per tile", "[checker][accept]") {
  const int n = 19;
  const auto ha = ramp(n * n);
  auto hb = ramp(n * n);
  std::reverse(hb.begin(), hb.end());
  auto a = w::to_device(ha);
  auto b = w::to_device(hb);
  w::device_buffer<float> c(ha.size());
  const int tiles = (n + examples::matmul_tile - 1) / examples::matmul_tile;
  const auto r = w::record(examples::matmul, w::grid(tiles, tiles), a, b, c, n);
  CHECK(r.clean());
  const auto got = w::to_host(c);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float expect = 0.f;
      for (int q = 0; q < n; ++q) expect += ha[static_cast<std::size_t>(i * n + q)] * hb[static_cast<std::size_t>(q * n + j)];
      REQUIRE(got[static_cast<std::size_t>(i * n + j)] == Approx(expect));
    }
}

// 1-D three-point stencil with one halo element on each side.
WARDEN_KERNEL(stencil_1d_k, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 66>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto i = k.global_id();
    return w::seq(w::when(i < in.size(), tile[t + 1] = in[i]).otherwise(tile[t + 1] = 0.f),
                  w::when(t == 0, w::when(i >= 1 && i - 1 < in.size(), tile[0] = in[i - 1]).otherwise(tile[0] = 0.f)),
                  w::when(t == 63, w::when(i + 1 < in.size(), tile[65] = in[i + 1]).otherwise(tile[65] = 0.f)),
                  w::sync(),
                  w::when(i < in.size(), out[i] = tile[t] + tile[t + 1] + tile[t + 2]));
  });
}));

TEST_CASE("accepted: a 1-D stencil with halos", "[checker][accept]") {
  const auto host = ramp(300);
  auto in = w::to_device(host);
  w::device_buffer<float> out(host.size());
  const auto r = w::record(stencil_1d_k, w::grid_for(300), in, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const float left = i > 0 ? host[i - 1] : 0.f, right = i + 1 < host.size() ? host[i + 1] : 0.f;
    REQUIRE(got[i] == left + host[i] + right);
  }
}

// 2-D five-point stencil with halos: the kernel of examples/stencil_2d.
TEST_CASE("accepted: a 2-D stencil with halos", "[checker][accept]") {
  const int rows = 21, cols = 35;
  const auto host = ramp(rows * cols);
  auto in = w::to_device(host);
  w::device_buffer<float> out(host.size());
  const auto r = w::record(examples::stencil_2d, w::grid((cols + 15) / 16, (rows + 15) / 16), in, out, rows, cols);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  auto at = [&](int i, int j) { return i < 0 || j < 0 || i >= rows || j >= cols ? 0.f : host[static_cast<std::size_t>(i * cols + j)]; };
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      REQUIRE(got[static_cast<std::size_t>(i * cols + j)] == at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.f * at(i, j));
}

// Blelloch exclusive scan of 128 elements per block of 64 threads: up-sweep, then down-sweep.
WARDEN_KERNEL(blelloch_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    auto base = k.block_id() * 128;
    return w::seq(
        w::when(base + 2 * t < in.size(), tile[2 * t] = in[base + 2 * t]).otherwise(tile[2 * t] = 0),
        w::when(base + 2 * t + 1 < in.size(), tile[2 * t + 1] = in[base + 2 * t + 1]).otherwise(tile[2 * t + 1] = 0),
        w::sync(),
        w::for_range(k, 0, 7, [&](auto, auto d) {  // up-sweep: offset 1, 2, ..., 64
          auto offset = 1 << d;
          return w::seq(w::when(t < (64 >> d), tile[offset * (2 * t + 2) - 1] = tile[offset * (2 * t + 2) - 1] +
                                                                                 tile[offset * (2 * t + 1) - 1]),
                        w::sync());
        }),
        w::when(t == 0, tile[127] = 0), w::sync(),
        w::for_range(k, 0, 7, [&](auto k, auto e) {  // down-sweep: offset 64, 32, ..., 1
          auto offset = 64 >> e;
          return w::seq(w::when(t < (1 << e), w::local(k, tile[offset * (2 * t + 1) - 1], [&](auto, auto left) {
                                  return w::seq(tile[offset * (2 * t + 1) - 1] = tile[offset * (2 * t + 2) - 1],
                                                tile[offset * (2 * t + 2) - 1] = tile[offset * (2 * t + 2) - 1] + left);
                                })),
                        w::sync());
        }),
        w::when(base + 2 * t < in.size(), out[base + 2 * t] = tile[2 * t]),
        w::when(base + 2 * t + 1 < in.size(), out[base + 2 * t + 1] = tile[2 * t + 1]));
  });
}));

TEST_CASE("accepted: a Blelloch scan", "[checker][accept]") {
  std::vector<int> host(300);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 13) % 7);
  auto in = w::to_device(host);
  w::device_buffer<int> out(host.size());
  const auto r = w::record(blelloch_k, w::grid(3), in, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t b = 0; b * 128 < host.size(); ++b) {
    int sum = 0;
    for (std::size_t i = b * 128; i < std::min<std::size_t>(host.size(), (b + 1) * 128); ++i) {
      REQUIRE(got[i] == sum);
      sum += host[i];
    }
  }
}

// Bitonic sort of each block's 256 elements, partners t ^ j exchanging through the tile:
// examples/bitonic_sort.
TEST_CASE("accepted: a bitonic sort with t ^ j partners", "[checker][accept]") {
  constexpr std::size_t block = examples::bitonic_block;
  std::vector<int> host(2 * block);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 7919) % 1000);
  auto in = w::to_device(host);
  w::device_buffer<int> out(host.size());
  const auto r = w::record(examples::bitonic_sort, w::grid(2), in, out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (std::size_t b = 0; b < 2; ++b) {
    std::vector<int> expect(host.begin() + static_cast<long>(b * block), host.begin() + static_cast<long>((b + 1) * block));
    std::sort(expect.begin(), expect.end());
    REQUIRE(std::vector<int>(got.begin() + static_cast<long>(b * block), got.begin() + static_cast<long>((b + 1) * block)) == expect);
  }
}

// Launch's bounds check (E101) takes a tile index the intervals cannot follow from the checker's
// exact per-thread footprint: t ^ 32 stays inside 64 elements, t ^ 64 does not.
WARDEN_KERNEL(xor_inside_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  return w::shared<int, 64>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t ^ 32] = t, w::sync(), out[t] = tile[t]);
  });
}));
WARDEN_KERNEL(xor_outside_k, w::kernel<w::block<64>, w::out<int>>([](auto k, auto out) {
  return w::shared<int, 128>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile[t] = t, w::sync(), out[t] = tile[(t ^ 64) + 64]);
  });
}));

TEST_CASE("launch bounds a tile index exactly where intervals cannot", "[checker][bounds]") {
  w::device_buffer<int> out(64);
  const auto r = w::record(xor_inside_k, w::grid(1), out);
  CHECK(r.clean());
  const auto got = w::to_host(out);
  for (int t = 0; t < 64; ++t) REQUIRE(got[static_cast<std::size_t>(t)] == (t ^ 32));
  try {
    w::record(xor_outside_k, w::grid(1), out);
    FAIL("E101 expected");
  } catch (const w::bounds_error& e) {
    CHECK(std::string(e.what()).find("load tile[(t ^ 64) + 64] reaches index 191, but tile has 128 rows") != std::string::npos);
  }
}
