// The host's part of measuring a stated fact on the device (launch/contents_on_device.hpp,
// contents_slots_on_device) against the CUDA runtime stand-in: the scratch from the device pool, the
// answer set to its identities and the bitmap zeroed before the passes, the passes issued on the
// buffer's stream after its last writer, the eight numbers read back; and the cases where it leaves
// the measuring to the host (an empty buffer, a capture under way, no room for the bitmap). The
// passes are emulated through the runtime, as a kernel would touch the memory: the buffer and the
// answer copied out, the per-element steps run over the grid the host chose (the same steps the
// kernels run, contents_slots_by_steps), the answer copied back. What only a GPU runs is the kernels
// themselves (tests/gpu/contents_gpu_test.cu).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include <climits>
#include <numeric>
#include <random>
#include <vector>

namespace w = warden;
namespace d = warden::detail;
namespace standin = cuda_standin;

static_assert(WARDEN_CUDA_RUNTIME == 1, "built against the stand-in with the CUDA runtime on");

namespace {

struct emulated_passes {
  int* calls;
  template <class T>
  void operator()(const T* v, std::size_t n, const d::contents_order& order, long long* answer, unsigned* words, unsigned blocks, cudaStream_t s) const {
    ++*calls;
    REQUIRE(blocks >= 1);
    REQUIRE(standin::is_device_pointer(v));
    REQUIRE(standin::is_device_pointer(answer));
    // The stream reaches the passes after what was issued before them: the answer's identities and
    // the bitmap's zeros.
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    long long start[d::contents_slots];
    REQUIRE(cudaMemcpy(start, answer, sizeof start, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < d::contents_slots; ++i) REQUIRE(start[i] == d::contents_slot_start(i));
    if (words != nullptr) {
      std::vector<unsigned> bits(d::contents_bitmap_words(n));
      REQUIRE(cudaMemcpy(bits.data(), words, bits.size() * sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess);
      for (unsigned b : bits) REQUIRE(b == 0u);
    }
    std::vector<T> host(n);
    REQUIRE(cudaMemcpy(host.data(), v, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    long long slot[d::contents_slots];
    d::contents_slots_by_steps(host.data(), n, words != nullptr, order, slot, std::size_t{blocks} * d::contents_block);
    REQUIRE(cudaMemcpy(answer, slot, sizeof slot, cudaMemcpyHostToDevice) == cudaSuccess);
  }
};

// The memo the device's answer gives, or nullopt where it hands over to the host's scan.
template <class T>
std::optional<d::contents_memo> measured_on_device(const w::device_buffer<T>& b, bool distinct, bool order, int& calls) {
  long long slot[d::contents_slots];
  if (!d::contents_slots_on_device(b, distinct, d::contents_order{order}, slot, emulated_passes{&calls})) return std::nullopt;
  d::contents_memo memo;
  if (!d::contents_from_slots(slot, distinct, d::contents_order{order}, memo)) return std::nullopt;
  return memo;
}

}  // namespace

TEST_CASE("the device's contents answer, through the stand-in, is the host scan's, at every size the grid splits", "[contents][standin]") {
  standin::reset();
  std::mt19937 rng(11);
  int calls = 0;
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{4097}, std::size_t{100'000}}) {
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 5);
    std::shuffle(perm.begin(), perm.end(), rng);
    const auto b = w::to_device(perm);
    for (const bool order : {false, true}) {
      const auto memo = measured_on_device(b, true, order, calls);
      REQUIRE(memo.has_value());
      d::contents_memo scanned;
      REQUIRE(d::scan_contents(perm.data(), n, true, d::contents_order{order}, scanned));
      CHECK(memo->lo == scanned.lo);
      CHECK(memo->hi == scanned.hi);
      CHECK(memo->lo_at == scanned.lo_at);
      CHECK(memo->hi_at == scanned.hi_at);
      CHECK(memo->distinct);
      if (order) {
        CHECK(memo->not_rising_at == scanned.not_rising_at);
        CHECK(memo->falling_at == scanned.falling_at);
      }
    }
    // A repeat: the answer says so, and the launch names it by the host's scan.
    perm[n / 2] = perm[0];
    if (n > 1) CHECK_FALSE(measured_on_device(w::to_device(perm), true, false, calls).has_value());
  }
  CHECK(calls == 14);
  CHECK(standin::misuses().empty());
}

TEST_CASE("the host measures instead where the device's passes cannot run: empty, captured, no room", "[contents][standin]") {
  standin::reset();
  int calls = 0;
  long long slot[d::contents_slots];
  w::device_buffer<int> empty;
  CHECK_FALSE(d::contents_slots_on_device(empty, true, {}, slot, emulated_passes{&calls}));

  // Under a capture (here of another stream): nothing is issued, nothing allocated.
  w::stream s;
  const auto b = w::to_device(std::vector<int>{3, 1, 2});
  bool measured = true;
  (void)w::capture(s, [&] { measured = d::contents_slots_on_device(b, true, {}, slot, emulated_passes{&calls}); });
  CHECK_FALSE(measured);

  // No room for the bitmap (n bytes) in the device pool: the host's way, which needs none.
  w::memory_pool& pool = w::default_pool<w::space::device>();
  const std::size_t limit = pool.limit();
  const auto big = w::to_device(std::vector<int>(1 << 21, 7));  // its bitmap, 2 MiB, a segment of its own
  // The pool held to what it has reserved, and that room taken down to its 256-byte grain: the
  // passes' scratch would need a new segment, past the limit.
  pool.empty_cache();
  pool.set_limit(pool.stats().reserved_bytes);
  std::vector<w::device_buffer<char>> fillers;
  for (std::size_t chunk = std::size_t{1} << 24; chunk >= 256; chunk /= 2)
    for (bool room = true; room;) try {
        fillers.emplace_back(chunk);
      } catch (const w::out_of_memory&) {
        room = false;
      }
  const bool with_room = d::contents_slots_on_device(big, true, {}, slot, emulated_passes{&calls});
  fillers.clear();
  pool.set_limit(limit);
  CHECK_FALSE(with_room);
  CHECK(calls == 0);
  CHECK(standin::misuses().empty());
}

TEST_CASE("an order per row and below a bound reaches the device's passes as stated, and answers as the host's scan", "[contents][standin][rows]") {
  standin::reset();
  int calls = 0;
  // Rows of 7: each rising from 0, padded with INT_MAX from its sixth element; row 2 repeats a key.
  std::vector<int> keys(7 * 50);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i % 7 < 5 ? static_cast<int>(i % 7) : INT_MAX;
  keys[7 * 2 + 3] = keys[7 * 2 + 2];
  const auto b = w::to_device(keys);
  for (const d::contents_order order : {d::contents_order{true, 7, true, INT_MAX}, d::contents_order{true, 7, false, 0},
                                        d::contents_order{true, 0, false, 0}}) {
    long long slot[d::contents_slots];
    REQUIRE(d::contents_slots_on_device(b, false, order, slot, emulated_passes{&calls}));
    d::contents_memo memo, scanned;
    REQUIRE(d::contents_from_slots(slot, false, order, memo));
    REQUIRE(d::scan_contents(keys.data(), keys.size(), false, order, scanned));
    CHECK(memo.not_rising_at == scanned.not_rising_at);
    CHECK(memo.falling_at == scanned.falling_at);
  }
  long long slot[d::contents_slots];
  REQUIRE(d::contents_slots_on_device(b, false, d::contents_order{true, 7, true, INT_MAX}, slot, emulated_passes{&calls}));
  CHECK(slot[d::slot_not_rising_at] == 7 * 2 + 3);  // the repeat below the padding, and nothing before it
  CHECK(slot[d::slot_falling_at] == LLONG_MAX);
  REQUIRE(d::contents_slots_on_device(b, false, d::contents_order{true, 0, false, 0}, slot, emulated_passes{&calls}));
  CHECK(slot[d::slot_not_rising_at] == 6);  // the whole buffer: the padding repeats first
  CHECK(slot[d::slot_falling_at] == 7);     // and row 1's start falls
  CHECK(calls == 5);
  CHECK(standin::misuses().empty());
}
