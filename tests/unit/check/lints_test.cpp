// check/lints.hpp: the performance lints W050 [bank-conflict] and W051 [uncoalesced] (issue 17,
// item 3). The lints' counts on small kernels are compared with a brute force written apart from
// them: the same index computed in C++ for every lane, words grouped by bank in std::set, sectors
// in a std::set.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include "../../support/kernel_ir_of.hpp"

#include <map>
#include <vector>
#include <set>
#include <string>

namespace w = warden;
namespace c = warden::check;

namespace {

using w::testing::ir_of;
template <class Block>
constexpr c::block_shape shape_of() {
  return {Block::x, Block::y, Block::z};
}
template <class Block, class... Params, class F>
c::lint_report lints(F body) {
  return c::lint_findings(ir_of<Block, Params...>(body), shape_of<Block>());
}

// The brute force: lane l of a warp touches element element(l) of `bytes`; lanes are served in
// phases of 32 (4 bytes or less), 16 (8 bytes) or 8 (16 bytes); the ways of a phase are the most
// distinct 4-byte words in one bank.
template <class Element>
int brute_ways(Element element, int bytes, int lanes = 32) {
  const int phase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
  int worst = 0;
  for (int first = 0; first < lanes; first += phase) {
    std::map<long long, std::set<long long>> bank;
    for (int l = first; l < first + phase && l < lanes; ++l)
      for (long long byte = element(l) * bytes; byte < element(l) * bytes + bytes; byte += 4) bank[byte / 4 % 32].insert(byte / 4);
    for (const auto& [b, words] : bank) worst = std::max(worst, static_cast<int>(words.size()));
  }
  return worst;
}

// The sectors of 32 bytes lanes 0..31 touch at elements element(l) of `bytes`.
template <class Element>
long long brute_sectors(Element element, int bytes, int lanes = 32) {
  std::set<long long> sectors;
  for (int l = 0; l < lanes; ++l)
    for (long long byte = element(l) * bytes; byte < element(l) * bytes + bytes; ++byte) sectors.insert(byte / 32);
  return static_cast<long long>(sectors.size());
}

// The ways of the one shared access of a 1-D tile[t * S] (a block of 32 threads).
template <class T, int S>
int ways_of_strided_tile() {
  const auto ir = ir_of<w::block<32>, w::out<T>>([](auto k, auto out) {
    return w::shared<T, 32 * S>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(tile[t * S] = T(1), w::sync(), out[t] = tile[t * S]);
    });
  });
  for (const auto& a : ir.accesses)
    if (a.memory == w::dsl::memory_kind::shared)
      return c::worst_ways(c::footprint_of(ir, shape_of<w::block<32>>(), a), static_cast<int>(sizeof(T))).ways;
  return -1;
}

template <class T, int S>
void check_strided_tile() {
  const int lint = ways_of_strided_tile<T, S>();
  const int brute = brute_ways([](int l) { return static_cast<long long>(l) * S; }, sizeof(T));
  INFO("sizeof(T) = " << sizeof(T) << ", stride " << S);
  CHECK(lint == brute);
}

}  // namespace

TEST_CASE("W050: a 1-D tile indexed t * stride: ways as the brute force counts them", "[check][lints]") {
  check_strided_tile<float, 1>();
  check_strided_tile<float, 2>();
  check_strided_tile<float, 3>();
  check_strided_tile<float, 4>();
  check_strided_tile<float, 8>();
  check_strided_tile<float, 16>();
  check_strided_tile<float, 32>();
  check_strided_tile<float, 33>();
  check_strided_tile<double, 1>();
  check_strided_tile<double, 2>();
  check_strided_tile<double, 16>();
  check_strided_tile<char, 1>();
  check_strided_tile<char, 4>();
  check_strided_tile<char, 128>();
  // The values the brute force gives, written out: the brute force itself may not drift.
  CHECK(ways_of_strided_tile<float, 1>() == 1);
  CHECK(ways_of_strided_tile<float, 2>() == 2);
  CHECK(ways_of_strided_tile<float, 32>() == 32);
  CHECK(ways_of_strided_tile<float, 33>() == 1);
  CHECK(ways_of_strided_tile<double, 1>() == 1);  // two phases of 16 lanes
  CHECK(ways_of_strided_tile<double, 2>() == 2);
}

TEST_CASE("W050: a broadcast is no conflict, a 1-D tile[t * 2] fires", "[check][lints]") {
  const auto broadcast = lints<w::block<64>, w::out<float>>([](auto k, auto out) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(w::when(t == 0, tile[0] = 1.0f), w::sync(), out[t] = tile[0]);
    });
  });
  CHECK_FALSE(broadcast.bank_conflict);
  CHECK_FALSE(broadcast.uncoalesced);

  const auto strided = lints<w::block<64>, w::out<float>>([](auto k, auto out) {
    return w::shared<float, 128>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(tile[t * 2] = 1.0f, w::sync(), out[t] = tile[t * 2]);
    });
  });
  REQUIRE(strided.bank_conflict);
  CHECK(strided.bank_conflict.conflict.ways == 2);
  CHECK(strided.bank_conflict.access == 0);  // the store, first in program order
  CHECK(strided.bank_conflict.advice.pad == -1);  // a 1-D tile: no padding to advise
}

namespace {
// A 32 x 32 block transposing through a Rows x 32 tile of pad P: stores tile(ty, tx), reads tile(tx, ty).
template <int P>
c::lint_report transpose_lints() {
  return lints<w::block<32, 32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    return w::shared<float, 32, 32, P>(k, [&](auto k, auto tile) {
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      return w::seq(tile(ty, tx) = in[ty * 32 + tx], w::sync(), out[ty * 32 + tx] = tile(tx, ty));
    });
  });
}
}  // namespace

TEST_CASE("W050: the column read of a 32 x 32 tile is 32 ways unpadded, none padded", "[check][lints]") {
  const auto unpadded = transpose_lints<0>();
  REQUIRE(unpadded.bank_conflict);
  // Warp w is the row ty = w: lane l reads tile(l, w), element l * 32 + w.
  const int brute = brute_ways([](int l) { return l * 32LL + 0; }, 4);
  CHECK(brute == 32);
  CHECK(unpadded.bank_conflict.conflict.ways == brute);
  CHECK(unpadded.bank_conflict.access == 2);  // in[...] load, tile store, then the tile load
  CHECK(unpadded.bank_conflict.advice.pad == 1);
  CHECK(unpadded.bank_conflict.advice.ways == 1);
  CHECK(unpadded.bank_conflict.advice.now == 32);
  CHECK_FALSE(unpadded.uncoalesced);  // in[ty * 32 + tx]: one row per warp

  const auto padded = transpose_lints<1>();
  CHECK(brute_ways([](int l) { return l * 33LL; }, 4) == 1);
  CHECK_FALSE(padded.bank_conflict);
}

TEST_CASE("W050: a 16 x 16 block (two rows a warp) keeps 2 ways whatever the padding", "[check][lints]") {
  // examples/transpose's shape: the store tile(ty, tx) and the load tile(tx, ty) of a 16 x 16 tile.
  const auto ir = ir_of<w::block<16, 16>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    return w::shared<float, 16, 16, 1>(k, [&](auto k, auto tile) {
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      return w::seq(tile(ty, tx) = in[ty * 16 + tx], w::sync(), out[ty * 16 + tx] = tile(tx, ty));
    });
  });
  const auto shape = shape_of<w::block<16, 16>>();
  // Accesses: in[...] (0), the tile store (1), the tile load (2; a store describes its value first), out[...] (3).
  // Lane l of warp 0 is (tx, ty) = (l % 16, l / 16).
  for (int pitch : {16, 17, 18}) {
    const int store = brute_ways([&](int l) { return (l / 16) * pitch + l % 16LL; }, 4);
    const int load = brute_ways([&](int l) { return (l % 16LL) * pitch + l / 16; }, 4);
    INFO("pitch " << pitch << ": store " << store << ", load " << load);
    CHECK(c::worst_ways(c::footprint_of(ir, shape, ir.accesses[1]), 4, 17, pitch).ways == store);
    CHECK(c::worst_ways(c::footprint_of(ir, shape, ir.accesses[2]), 4, 17, pitch).ways == load);
  }
  const auto advice = c::best_padding(ir, 0, [&](int i) { return c::footprint_of(ir, shape, ir.accesses[static_cast<std::size_t>(i)]); });
  CHECK(advice.now == 2);
  CHECK(advice.ways == 2);
  const auto found = c::lint_findings(ir, shape);
  REQUIRE(found.bank_conflict);
  CHECK(found.bank_conflict.conflict.ways == 2);
}

namespace {
template <class T, int S>
c::coalescing strided_load() {
  const auto ir = ir_of<w::block<256>, w::in<T>, w::out<T>>([](auto k, auto in, auto out) {
    auto i = k.global_id();
    return w::when(i * S < in.size() && i < out.size(), out[i] = in[i * S]);
  });
  return c::coalescing_of(ir, shape_of<w::block<256>>(), ir.accesses[0]);
}

template <class T, int S>
void check_strided_load() {
  const c::coalescing lint = strided_load<T, S>();
  const long long brute = brute_sectors([](int l) { return static_cast<long long>(l) * S; }, sizeof(T));
  const long long minimum = (32 * static_cast<long long>(sizeof(T)) + 31) / 32;
  INFO("sizeof(T) = " << sizeof(T) << ", stride " << S);
  REQUIRE(lint.judged);
  CHECK(lint.sectors == brute);
  CHECK(lint.minimum == minimum);
  const auto ir = ir_of<w::block<256>, w::in<T>, w::out<T>>([](auto k, auto in, auto out) {
    auto i = k.global_id();
    return w::when(i * S < in.size() && i < out.size(), out[i] = in[i * S]);
  });
  const auto found = c::lint_findings(ir, shape_of<w::block<256>>());
  CHECK(static_cast<bool>(found.uncoalesced) == (brute > 2 * minimum));
  if (found.uncoalesced) CHECK(found.uncoalesced.access == 0);
}
}  // namespace

TEST_CASE("W051: sectors of in[i * stride] as the brute force counts them, float and double", "[check][lints]") {
  check_strided_load<float, 1>();
  check_strided_load<float, 2>();
  check_strided_load<float, 4>();
  check_strided_load<float, 32>();
  check_strided_load<double, 1>();
  check_strided_load<double, 2>();
  check_strided_load<double, 4>();
  check_strided_load<double, 32>();
  check_strided_load<char, 1>();
  check_strided_load<char, 64>();
  // Written out: float stride 1 is 4 sectors, 2 is 8 (2x: quiet), 4 is 16 (fires), 32 is 32.
  CHECK(strided_load<float, 1>().sectors == 4);
  CHECK(strided_load<float, 2>().sectors == 8);
  CHECK(strided_load<float, 4>().sectors == 16);
  CHECK(strided_load<float, 32>().sectors == 32);
  CHECK(strided_load<double, 4>().sectors == 32);
}

TEST_CASE("W051: only what it can count: a value<int> pitch is not judged, 2-D blocks", "[check][lints]") {
  // in[i * n]: the coefficient of the thread id is a parameter's value.
  const auto pitched = lints<w::block<256>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto in, auto out, auto n) {
    auto i = k.global_id();
    return w::when(i * n < in.size() && i < out.size(), out[i] = in[i * n]);
  });
  CHECK_FALSE(pitched.uncoalesced);

  // A 16 x 16 block: a warp is two rows. in[ty * 16 + tx] is contiguous; in[tx * 16 + ty] is not.
  const auto ir = ir_of<w::block<16, 16>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    return w::seq(out[ty * 16 + tx] = in[tx * 16 + ty]);
  });
  const auto shape = shape_of<w::block<16, 16>>();
  const auto load = c::coalescing_of(ir, shape, ir.accesses[0]);
  const auto store = c::coalescing_of(ir, shape, ir.accesses[1]);
  REQUIRE(load.judged);
  REQUIRE(store.judged);
  CHECK(load.sectors == brute_sectors([](int l) { return (l % 16) * 16LL + l / 16; }, 4));
  CHECK(load.sectors == 16);
  CHECK(store.sectors == brute_sectors([](int l) { return (l / 16) * 16LL + l % 16; }, 4));
  CHECK(store.sectors == 4);
  const auto found = c::lint_findings(ir, shape);
  REQUIRE(found.uncoalesced);
  CHECK(found.uncoalesced.access == 0);

  // A row pitch of a value<int> along y, in a warp of two rows: not counted.
  const auto rows = lints<w::block<16, 16>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto in, auto out, auto n) {
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    return w::seq(out[ty * 16 + tx] = in[ty * n + tx]);
  });
  CHECK_FALSE(rows.uncoalesced);

  // The same pitch in a block 32 wide: a warp is one row, ty's coefficient does not matter.
  const auto wide = ir_of<w::block<32, 8>, w::in<float>, w::out<float>, w::value<int>>([](auto k, auto in, auto out, auto n) {
    auto tx = k.thread_id();
    auto ty = k.thread_id_y();
    return w::seq(out[ty * 32 + tx] = in[ty * n + tx * 2]);
  });
  const auto by_row = c::coalescing_of(wide, shape_of<w::block<32, 8>>(), wide.accesses[0]);
  REQUIRE(by_row.judged);
  CHECK(by_row.sectors == brute_sectors([](int l) { return l * 2LL; }, 4));
  CHECK(by_row.sectors == 8);
}

TEST_CASE("lints: the explanation names the access, the ways and the padding", "[check][lints]") {
  constexpr auto body = [](auto k, auto in, auto out) {
    return w::shared<float, 32, 32>(k, [&](auto k, auto tile) {
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      return w::seq(tile(ty, tx) = in[ty * 32 + tx], w::sync(), out[ty * 32 + tx] = tile(tx, ty));
    });
  };
  const auto v = c::verdict_of(w::dsl::build_kernel<w::block<32, 32>, w::in<float>, w::out<float>>(body));
  CHECK(v.finding.code == warden::diagnostic::code::none);  // accepted: lints are for accepted kernels
  REQUIRE(v.lints[0].found);
  CHECK_FALSE(v.lints[1].found);
  const std::string text(v.lints[0].text.view());
  INFO(text);
  CHECK(text.find("load tile0(thread_id.x, thread_id.y)") == 0);
  CHECK(text.find("32 ways") != std::string::npos);
  CHECK(text.find("w::shared<T, 32, 32, 1> (1 way at most over its accesses, 32 now)") != std::string::npos);
}

TEST_CASE("lints: trusted accesses are not judged", "[check][lints]") {
  const auto found = lints<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    auto t = k.thread_id();
    return w::trusted(out[t] = in[t * 32]);
  });
  CHECK_FALSE(found.uncoalesced);
  const auto plain = lints<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    auto t = k.thread_id();
    return out[t] = in[t * 32];
  });
  CHECK(plain.uncoalesced);
}

// ---- lint_off ------------------------------------------------------------------------------------

TEST_CASE("lint_off<W050> and lint_off<W051> skip the accesses inside, and only the lint named", "[check][lints]") {
  const auto body = [](auto k, auto in, auto out) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::seq(w::lint_off<w::W050>(tile[t * 2] = in[t * 32]), w::sync(), out[t] = tile[t * 2]);
    });
  };
  const auto found = lints<w::block<32>, w::in<float>, w::out<float>>(body);
  // The store is off for W050 (the load is not: it still conflicts); in[t * 32] is still W051.
  REQUIRE(found.bank_conflict);
  CHECK(found.bank_conflict.access == 2);
  CHECK(found.uncoalesced);

  const auto all_off = lints<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
    return w::shared<float, 64>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      return w::lint_off<w::W050, w::W051>(tile[t * 2] = in[t * 32], w::sync(), out[t] = tile[t * 2]);
    });
  });
  CHECK_FALSE(all_off.bank_conflict);
  CHECK_FALSE(all_off.uncoalesced);
}

WARDEN_KERNEL(lint_off_gather_k, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto t = k.thread_id();
  return w::shared<float, 64>(k, [&](auto, auto tile) {
    return w::lint_off<w::W050, w::W051>(tile[t * 2] = in[t * 2], w::sync(), out[t] = tile[62 - t * 2]);
  });
}));

TEST_CASE("lint_off runs its statements as written (cpu backend), and the kernel is checked as usual", "[check][lints]") {
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i) in[i] = static_cast<float>(i);
  auto din = w::to_device(in);
  w::device_buffer<float> dout(32);
  w::launch(lint_off_gather_k, w::grid(1), din, dout);
  const auto out = w::to_host(dout);
  for (int t = 0; t < 32; ++t) CHECK(out[t] == static_cast<float>(62 - 2 * t));
  CHECK(w::check::verdict_of(lint_off_gather_k).finding.code == warden::diagnostic::code::none);
  CHECK_FALSE(w::check::verdict_of(lint_off_gather_k).lints[0].found);
}
