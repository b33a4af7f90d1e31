// Random sequences of host operations on several streams (issue 20: "random sequences of host
// operations on several streams, checked against the stand-in"): uploads, downloads, copies
// between device, pinned and managed buffers, host writes into pinned and managed buffers, cpu
// launches on device buffers, moves and destructions, on three streams that the stand-in holds
// and releases at random (a GPU busy for a while: queued work runs only when the host waits or the
// stream is released). A model keeps what every buffer must hold; every read-back must match it,
// and the stand-in must see no misuse (a copy outside an allocation, a use of a freed block, a
// wait that could never return). What it found would be memory reused too early (a staging block
// handed out while its copy is queued), a copy ordered before its source's writer, or a host write
// racing a queued copy.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include <cuda_standin.hpp>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace w = warden;
namespace standin = cuda_standin;

namespace {

WARDEN_KERNEL(add_one_k, w::kernel<w::block<32>, w::inout<int>>([](auto k, auto a) {
  auto i = k.global_id();
  return w::when(i < a.size(), a[i] = a[i] + 1);
}));

// One buffer of any space, and what it must hold.
struct slot {
  std::optional<w::device_buffer<int>> device;
  std::optional<w::pinned_buffer<int>> pinned;
  std::optional<w::managed_buffer<int>> managed;
  std::vector<int> expect;

  bool empty() const { return !device && !pinned && !managed; }
  void clear() {
    device.reset();
    pinned.reset();
    managed.reset();
    expect.clear();
  }
  std::size_t size() const { return expect.size(); }
};

// Calls f with the slot's buffer, whichever space it is in.
template <class F>
void visit(slot& s, F f) {
  if (s.device) f(*s.device);
  else if (s.pinned) f(*s.pinned);
  else if (s.managed) f(*s.managed);
}

class sequence {
 public:
  explicit sequence(unsigned seed) : rng_(seed) {}

  // Runs `ops` random operations; returns a description of the first mismatch, or "".
  std::string run(int ops) {
    for (int op = 0; op < ops && failure_.empty(); ++op) step(op);
    standin::release_all();
    for (std::size_t i = 0; i < slots_.size() && failure_.empty(); ++i) check(i, "at the end");
    return failure_;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  w::stream_ref any_stream() { return streams_[static_cast<std::size_t>(pick(3))].ref(); }
  slot& any_slot() { return slots_[static_cast<std::size_t>(pick(static_cast<int>(slots_.size())))]; }
  std::vector<int> data(std::size_t n) {
    std::vector<int> v(n);
    for (auto& x : v) x = static_cast<int>(rng_() % 1000);
    return v;
  }
  std::size_t any_size() {
    const std::size_t sizes[] = {1, 64, 1000, 4096, 70'000};
    return sizes[pick(5)];
  }

  void check(std::size_t i, const char* when) {
    slot& s = slots_[i];
    if (s.empty()) return;
    std::vector<int> got;
    visit(s, [&](auto& b) { got = w::to_host(b); });
    if (got != s.expect) failure_ = "slot " + std::to_string(i) + " " + when + ": " + log_;
  }

  void step(int op) {
    slot& s = any_slot();
    const w::stream_ref on = any_stream();
    switch (pick(11)) {
      case 0: {  // upload, staged through a pinned block of the pool
        s.clear();
        s.expect = data(any_size());
        s.device.emplace(w::to_device_async(s.expect, on));
        log_ += " upload";
        break;
      }
      case 1: {  // a pinned or managed buffer filled by the host (waits for the buffer's users)
        s.clear();
        const std::size_t n = any_size();
        s.expect = data(n);
        if (pick(2) == 0) {
          s.pinned.emplace(n, on);
          for (std::size_t i = 0; i < n; ++i) (*s.pinned)[i] = s.expect[i];
        } else {
          s.managed.emplace(n, on);
          for (std::size_t i = 0; i < n; ++i) (*s.managed)[i] = s.expect[i];
        }
        log_ += " fill";
        break;
      }
      case 2: {  // a host write into a buffer a queued copy may still read
        if (!s.pinned && !s.managed) break;
        const std::size_t i = static_cast<std::size_t>(pick(static_cast<int>(s.size())));
        const int v = pick(1000);
        if (s.pinned) (*s.pinned)[i] = v;
        else (*s.managed)[i] = v;
        s.expect[i] = v;
        log_ += " poke";
        break;
      }
      case 3: case 4: {  // copy between two buffers of one size, in any spaces
        slot& from = any_slot();
        if (s.empty() || from.empty() || &from == &s) break;
        if (from.size() != s.size()) {
          bool threw = false;
          visit(s, [&](auto& d) { visit(from, [&](auto& f) {
            try { w::copy_async(d, f, on); } catch (const w::size_mismatch&) { threw = true; }
          }); });
          if (!threw) failure_ = "copy between sizes " + std::to_string(from.size()) + " and " + std::to_string(s.size()) + " ran";
          log_ += " copy-mismatch";
          break;
        }
        visit(s, [&](auto& d) { visit(from, [&](auto& f) { w::copy_async(d, f, on); }); });
        s.expect = from.expect;
        log_ += " copy";
        break;
      }
      case 5: {  // download into a new pinned buffer, read later
        if (s.empty()) break;
        slot& to = any_slot();
        if (&to == &s) break;
        std::optional<w::pinned_buffer<int>> back;
        visit(s, [&](auto& b) { back.emplace(w::to_host_async(b, on)); });
        const std::vector<int> expect = s.expect;
        to.clear();
        to.pinned = std::move(back);
        to.expect = expect;
        log_ += " download";
        break;
      }
      case 6: {  // a cpu launch on a device buffer, on a stream of its own choosing
        if (!s.device) break;
        w::launch(w::on_cpu, add_one_k, w::grid_for(s.size()).on(on), *s.device);
        for (int& v : s.expect) ++v;
        log_ += " launch";
        break;
      }
      case 7: {  // move a buffer to another slot
        slot& to = any_slot();
        if (&to == &s || s.empty()) break;
        to.clear();
        to.device = std::move(s.device);
        to.pinned = std::move(s.pinned);
        to.managed = std::move(s.managed);
        to.expect = std::move(s.expect);
        s.clear();
        log_ += " move";
        break;
      }
      case 8:  // free it (its block goes back to the pool, perhaps with work queued)
        s.clear();
        log_ += " free";
        break;
      case 9:  // the GPU gets busy, or catches up
        if (pick(2) == 0) {
          standin::hold(on.native());
          log_ += " hold";
        } else {
          standin::release(on.native());
          log_ += " release";
        }
        break;
      default:  // read one back now
        check(static_cast<std::size_t>(&s - slots_.data()), ("after op " + std::to_string(op)).c_str());
        log_ += " check";
    }
  }

  std::mt19937 rng_;
  w::stream streams_[3];
  std::vector<slot> slots_ = std::vector<slot>(6);
  std::string failure_, log_;
};

}  // namespace

TEST_CASE("random host operations on three streams keep every buffer's contents", "[standin][transfer][fuzz]") {
  standin::reset();
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const std::string failure = sequence(seed).run(80);
    INFO("seed " << seed);
    CHECK(failure.empty());
    const auto misuse = standin::misuses();
    for (const auto& m : misuse) UNSCOPED_INFO("stand-in misuse: " << m);
    CHECK(misuse.empty());
    standin::reset();
  }
}
