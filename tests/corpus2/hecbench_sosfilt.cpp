// HeCBench, sosfil: zjin-lcf/HeCBench, src/sosfil-cuda/main.cu, kernel sosfilt<float> (a cascade
// of second-order IIR sections run as a systolic pipeline: thread tx is section tx, block ty is
// signal ty; each trip thread 0 takes the next input sample, every other thread the previous
// section's output s_out[tx - 1], and each writes its own output s_out[tx]), ported by hand;
// sos_width (6) from src/sosfil-cuda/reference.h. A RACY original, reported upstream as
// ORNL/HeCBench issue #256: in each trip thread tx reads s_out[tx - 1] while thread tx - 1 writes
// s_out[tx - 1], both before the trip's __syncthreads(); across warps (the block is 64 threads) the
// write may land first, and tx then filters the wrong sample.
//
// n_signals, n_samples, n_sections and zi_width are the kernel's const int parameters. Shared
// memory is one `extern __shared__` array cut at run-time offsets: s_out = smem, s_zi =
// &s_out[n_sections], s_sos = &s_zi[n_sections * zi_width]; here one tile of SMEM floats indexed at
// those offsets (the pointer bumps folded into the indices; SMEM covers the host's request of
// (n_sections + n_sections * n_signals * zi_width + n_sections * sos_width) floats for the sizes
// tested). `T temp; T x_n;` are locals (started at 0: the original leaves them unset and assigns
// before use); `#pragma unroll` over sos_width is w::unroll. Launch as the original (its DEBUG
// sizes): blocksPerGrid(n_signals), threadsPerBlock(THREADS = 64), n_sections = THREADS,
// zi_width 2, x_in n_signals * n_samples floats filtered in place.
//
// Verdict: REFUSED AT COMPILE TIME, W020 [shared-race], first on a pair the host's sizes keep
// apart: s_out[tx] = 0 against the s_zi stores at smem[n_sections + tx * zi_width + i] (they do
// overlap, a real race, for n_sections < THREADS; the checker cannot use n_sections = THREADS even
// when stated with w::given). With the three arrays as tiles of their own and zi_width the host's 2
// (a variant, not the original) the finding is the race of issue #256: load s_out[tx - 1] vs
// store s_out[tx] in one phase. The original under trusted(...) records that race on the host's
// DEBUG launch; its result still equals the reference there, since the cpu backend happens to run
// all loads of a trip before its stores.
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int THREADS = 64, sos_width = 6, SMEM = 1024;

// template<typename T> __global__ void sosfilt(const int n_signals, const int n_samples, const int n_sections, const int zi_width,
//                                              const T *__restrict__ sos, const T *__restrict__ zi, T *__restrict__ x_in)
constexpr auto sosfilt = [](auto k, auto n_signals, auto n_samples, auto n_sections, auto zi_width, auto sos, auto zi, auto x_in) {
  return w::shared<float, SMEM>(k, [&](auto k, auto smem) {  // extern __shared__ char smem[]
    auto tx = k.thread_id();
    auto ty = k.block_id();
    auto zi0 = n_sections;                          // s_zi = &s_out[n_sections]
    auto sos0 = n_sections + n_sections * zi_width;  // s_sos = &s_zi[n_sections * zi_width]
    auto load_size = n_sections - 1;
    auto unload_size = n_samples - load_size;
    return w::locals(k, 0.f, 0.f, [&](auto k, auto temp, auto x_n) {  // float temp = 0.f, x_n = 0.f;
        // The direct II transposed section, the same text in the three phases.
        auto section = [&] {
          return w::seq(temp = smem[sos0 + tx * sos_width + 0] * x_n + smem[zi0 + tx * zi_width + 0],
                        smem[zi0 + tx * zi_width + 0] =
                            smem[sos0 + tx * sos_width + 1] * x_n - smem[sos0 + tx * sos_width + 4] * temp + smem[zi0 + tx * zi_width + 1],
                        smem[zi0 + tx * zi_width + 1] = smem[sos0 + tx * sos_width + 2] * x_n - smem[sos0 + tx * sos_width + 5] * temp);
        };
        return w::seq(
            smem[tx] = 0.f,  // s_out[tx] = 0
            w::for_range(k, 0, zi_width, [&](auto, auto i) { return smem[zi0 + tx * zi_width + i] = zi[ty * n_sections * zi_width + tx * zi_width + i]; }),
            w::unroll<sos_width>(k, [&](auto, auto i) { return smem[sos0 + tx * sos_width + i] = sos[tx * sos_width + i]; }),
            w::sync(),
            w::when(ty < n_signals,
                    // Loading phase
                    w::for_range(k, 0, load_size, [&](auto, auto n) {
                      return w::seq(w::when(tx == 0, x_n = x_in[ty * n_samples + n]).otherwise(x_n = smem[tx - 1]), section(), smem[tx] = temp,
                                    w::sync());
                    }),
                    // Processing phase
                    w::for_range(k, load_size, n_samples, [&](auto, auto n) {
                      return w::seq(w::when(tx == 0, x_n = x_in[ty * n_samples + n]).otherwise(x_n = smem[tx - 1]), section(),
                                    w::when(tx < load_size, smem[tx] = temp).otherwise(x_in[ty * n_samples + (n - load_size)] = temp), w::sync());
                    }),
                    // Unloading phase
                    w::for_range(k, 0, n_sections, [&](auto, auto n) {
                      return w::seq(w::when(tx > n, x_n = smem[tx - 1], section(),
                                            w::when(tx < load_size, smem[tx] = temp).otherwise(x_in[ty * n_samples + (n + unload_size)] = temp)),
                                    w::sync());
                    })));
    });
  });
};

// Not the original: the same body with s_out, s_zi and s_sos as three tiles of their own (sized for
// n_sections = THREADS) and zi_width the host's 2 as a constant (ZI), so that no shared index holds a
// run-time value. It isolates the race of issue #256.
constexpr int ZI = 2;
constexpr auto sosfilt_split = [](auto k, auto n_signals, auto n_samples, auto n_sections, auto /*zi_width*/, auto sos, auto zi, auto x_in) {
  return w::shared<float, THREADS>(k, [&](auto k, auto s_out) {
    return w::shared<float, THREADS * ZI>(k, [&](auto k, auto s_zi) {
    return w::shared<float, THREADS * sos_width>(k, [&](auto k, auto s_sos) {
    auto tx = k.thread_id();
    auto ty = k.block_id();
    auto load_size = n_sections - 1;
    auto unload_size = n_samples - load_size;
    return w::local(k, 0.f, [&](auto k, auto temp) {
      return w::local(k, 0.f, [&](auto k, auto x_n) {
        auto section = [&] {
          return w::seq(temp = s_sos[tx * sos_width + 0] * x_n + s_zi[tx * ZI + 0],
                        s_zi[tx * ZI + 0] =
                            s_sos[tx * sos_width + 1] * x_n - s_sos[tx * sos_width + 4] * temp + s_zi[tx * ZI + 1],
                        s_zi[tx * ZI + 1] = s_sos[tx * sos_width + 2] * x_n - s_sos[tx * sos_width + 5] * temp);
        };
        return w::seq(
            s_out[tx] = 0.f,  // s_out[tx] = 0
            w::for_range(k, 0, ZI, [&](auto, auto i) { return s_zi[tx * ZI + i] = zi[ty * n_sections * ZI + tx * ZI + i]; }),
            w::unroll<sos_width>(k, [&](auto, auto i) { return s_sos[tx * sos_width + i] = sos[tx * sos_width + i]; }),
            w::sync(),
            w::when(ty < n_signals,
                    // Loading phase
                    w::for_range(k, 0, load_size, [&](auto, auto n) {
                      return w::seq(w::when(tx == 0, x_n = x_in[ty * n_samples + n]).otherwise(x_n = s_out[tx - 1]), section(), s_out[tx] = temp,
                                    w::sync());
                    }),
                    // Processing phase
                    w::for_range(k, load_size, n_samples, [&](auto, auto n) {
                      return w::seq(w::when(tx == 0, x_n = x_in[ty * n_samples + n]).otherwise(x_n = s_out[tx - 1]), section(),
                                    w::when(tx < load_size, s_out[tx] = temp).otherwise(x_in[ty * n_samples + (n - load_size)] = temp), w::sync());
                    }),
                    // Unloading phase
                    w::for_range(k, 0, n_sections, [&](auto, auto n) {
                      return w::seq(w::when(tx > n, x_n = s_out[tx - 1], section(),
                                            w::when(tx < load_size, s_out[tx] = temp).otherwise(x_in[ty * n_samples + (n + unload_size)] = temp)),
                                    w::sync());
                    })));
      });
    });
    });
    });
  });
};


using Blk = w::block<THREADS>;
using V = w::value<int>;

}  // namespace

// The original under trusted(...), to record.
WARDEN_KERNEL(sosfilt_trusting_k, w::kernel<Blk, V, V, V, V, w::in<float>, w::in<float>, w::inout<float>>(w::testing::trusting(sosfilt))
                                      .named("sosfilt", "n_signals", "n_samples", "n_sections", "zi_width", "sos", "zi", "x_in"));

namespace {

// The host's reference (reference.h) as I read it: each trip, every section takes its input
// (thread 0 the next sample, the others the previous section's output of the previous trip), then
// every section updates its state and output.
std::vector<float> reference(int n_signals, int n_samples, int n_sections, int zi_width, const std::vector<float>& sos,
                             const std::vector<float>& zi, std::vector<float> x) {
  const int load_size = n_sections - 1, unload_size = n_samples - load_size;
  for (int ty = 0; ty < n_signals; ++ty) {
    std::vector<float> out(at(n_sections), 0.f), z(at(n_sections * zi_width)), xn(at(n_sections));
    for (int tx = 0; tx < n_sections; ++tx)
      for (int i = 0; i < zi_width; ++i) z[at(tx * zi_width + i)] = zi[at(ty * n_sections * zi_width + tx * zi_width + i)];
    auto trip = [&](int first, auto input, auto result) {
      for (int tx = first; tx < n_sections; ++tx) xn[at(tx)] = tx == 0 ? input() : out[at(tx - 1)];
      for (int tx = first; tx < n_sections; ++tx) {
        const float* c = &sos[at(tx * sos_width)];
        float* s = &z[at(tx * zi_width)];
        const float t = c[0] * xn[at(tx)] + s[0];
        s[0] = c[1] * xn[at(tx)] - c[4] * t + s[1];
        s[1] = c[2] * xn[at(tx)] - c[5] * t;
        result(tx, t);
      }
    };
    for (int n = 0; n < load_size; ++n) trip(0, [&] { return x[at(ty * n_samples + n)]; }, [&](int tx, float t) { out[at(tx)] = t; });
    for (int n = load_size; n < n_samples; ++n)
      trip(0, [&] { return x[at(ty * n_samples + n)]; }, [&](int tx, float t) {
        if (tx < load_size) out[at(tx)] = t; else x[at(ty * n_samples + (n - load_size))] = t;
      });
    for (int n = 0; n < n_sections; ++n)
      trip(n + 1, [&] { return 0.f; }, [&](int tx, float t) {
        if (tx < load_size) out[at(tx)] = t; else x[at(ty * n_samples + (n + unload_size))] = t;
      });
  }
  return x;
}

}  // namespace

TEST_CASE("hecbench sosfilt (racy, issue #256): refused at compile time (W020) - with its tiles split, W020 on the issue's race - "
          "the trusted original records the race",
          "[corpus2][hecbench][racy]") {
  // The original: W020 on s_out[tx] = 0 vs s_zi[tx * zi_width + i] = ... (smem[n_sections + tx * zi_width + i]):
  // the regions overlap when n_sections < THREADS (thread n_sections's s_out element is s_zi[0]),
  // a real race for such a launch; the host's n_sections = THREADS keeps them apart, which the
  // checker cannot use (stating it with w::given(n_sections == THREADS, ...) gives the same W020:
  // a shared index that holds a run-time value is not proved apart, see hecbench_conv1d_tiled.cpp).
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, w::in<float>, w::in<float>, w::inout<float>>(sosfilt) == code::W020);
  // Three tiles of their own, zi_width constant: W020 on load s_out[tx - 1] vs store s_out[tx]
  // ("threads 1 and 0 meet at element 0 in one phase"): the race of issue #256.
  STATIC_REQUIRE(code_of<Blk, V, V, V, V, w::in<float>, w::in<float>, w::inout<float>>(sosfilt_split) == code::W020);

  // The host's DEBUG sizes: 2 signals of THREADS + 1 samples, THREADS sections, zi_width 2; and 3 x 100.
  for (auto [n_signals, n_samples] : {std::pair{2, THREADS + 1}, std::pair{3, 100}}) {
    CAPTURE(n_signals, n_samples);
    const int n_sections = THREADS, zi_width = 2;
    std::vector<float> sos(at(n_sections * sos_width)), zi(at(n_sections * n_signals * zi_width)), x(at(n_signals * n_samples));
    for (int i = 0; i < n_sections * sos_width; ++i) sos[at(i)] = 0.5f / static_cast<float>(1 + i % sos_width);  // the host uses all ones
    for (std::size_t i = 0; i < zi.size(); ++i) zi[i] = 0.01f * static_cast<float>(i % 5);
    for (int i = 0; i < n_signals; ++i)
      for (int j = 0; j < n_samples; ++j) x[at(i * n_samples + j)] = static_cast<float>(std::sin(2 * 3.14 * (i + 1 + j) / 7.0));
    auto d_sos = w::to_device(sos), d_zi = w::to_device(zi), d_x = w::to_device(x);
    auto r = w::record(sosfilt_trusting_k, w::grid(n_signals), n_signals, n_samples, n_sections, zi_width, d_sos, d_zi, d_x);
    // The race is real: thread tx loads s_out[tx - 1] in the phase thread tx - 1 stores it.
    CHECK_FALSE(r.clean());
    bool race_on_s_out = false;
    for (const auto& c : r.conflicts())
      race_on_s_out = race_on_s_out || (c.kind == w::conflict_kind::read_write && c.first.memory == w::dsl::memory_kind::shared && c.first.index < n_sections);
    CHECK(race_on_s_out);
    // The pair W020 names is this race.
    CHECK(w::testing::named_pair_meets<Blk, V, V, V, V, w::in<float>, w::in<float>, w::inout<float>>(sosfilt, r));
    // The cpu backend runs each statement for every thread before the next, so every load of the
    // trip comes before every store: the order the reference assumes, which a GPU does not promise.
    corpus::check_close(w::to_host(d_x), reference(n_signals, n_samples, n_sections, zi_width, sos, zi, x), 1e-4);
  }
}
