// GPUVerifyBenchmarks: mc-imperial/GPUVerifyBenchmarks, C++AMP/BinomialOptions/kernel.cu, kernel
// binomial_options_kernel (Microsoft's C++ AMP BinomialOptions sample, translated to CUDA by the
// GPUVerify authors; marked `//pass`, run with --blockDim=256 --gridDim=512, or with
// --blockDim=16 --gridDim=8 -DSMALL). Ported by hand in the SMALL configuration (the source's own
// #ifdef SMALL constants, small enough to record): MAX_OPTIONS 32, NUM_STEPS 64, TIME_STEPS 2,
// CACHE_DELTA 4, CACHE_SIZE 16, CACHE_STEP 12. One block prices one option: it fills its frame of
// call_buffer with the expiry values, then walks the binomial tree down CACHE_DELTA steps at a time
// through two shared buffers call_a and call_b (CACHE_SIZE + 1 each), double-buffered with
// barriers, flushing each cache window back to call_buffer; thread 0 stores the price.
// Launch as the sample's host code: one block of CACHE_SIZE threads per option, MAX_OPTIONS blocks
// (32; GPUVerify's run used 8, tested too).
// Spelling: `for (i = NUM_STEPS; i > 0; i -= CACHE_DELTA)` counts in trips (i = NUM_STEPS -
// CACHE_DELTA * trip); `for (k = c_start - 1; k >= c_end;) { ...; k--; ...; k--; }` does
// CACHE_DELTA / 2 = TIME_STEPS trips (c_end = c_start - CACHE_DELTA) and never reads k, so it is a
// loop of TIME_STEPS trips; fast_min is w::min; expiry_call_value is inlined (d in a w::local,
// `(d > 0) ? d : 0` a w::select); exp is w::exp.
//
// RACE-FREE (the suite's //pass): each shared buffer is written in one phase (each thread its own
// element) and read in the next; call_buffer is one frame per block, its stores and loads within
// the frame separated by barriers.
// NOTE: thread CACHE_SIZE - 1 reads call_a[CACHE_SIZE] (and call_b[CACHE_SIZE]), which no thread
// ever stores: uninitialised shared memory, whose garbage lands only in elements that are never
// flushed (tid > c_end). The recording reports those loads.
// VERDICT: refused at compile time, W022 [uninitialised-shared-load]: "load call_a[thread_id.x + 1]:
// thread 15 loads element 16, which no earlier phase stores". The finding is true (the load is
// real; only its value is unused), and it is not a race. With the apron zeroed first (a probe, not
// the original), the next finding is W011 on call_buffer between blocks, a false positive (the
// checker does not bound c_base + tid by the outer loop's i, so it cannot keep a block in its own
// frame of NUM_STEPS + 16). The trusting() copy, recorded on the
// sample's launch, has no race (its only reports are those loads) and equals the reference.
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int MAX_OPTIONS = 32, NUM_STEPS = 64, TIME_STEPS = 2, CACHE_DELTA = 2 * TIME_STEPS, CACHE_SIZE = 16,
              CACHE_STEP = CACHE_SIZE - CACHE_DELTA;

// __global__ void binomial_options_kernel(const float* s, const float* x, const float* vdt, const float* pu_by_df,
//                                         const float* pd_by_df, float* call_value, float* call_buffer)
constexpr auto binomial_options_kernel = [](auto k, auto s, auto x, auto vdt, auto pu_by_df, auto pd_by_df, auto call_value,
                                            auto call_buffer) {
  return w::shared<float, CACHE_SIZE + 1>(k, [&](auto k, auto call_a) {
    return w::shared<float, CACHE_SIZE + 1>(k, [&](auto k, auto call_b) {
      auto tile_idx = k.block_id();
      auto tid = k.thread_id();
      return w::seq(
          w::for_range(k, tid, NUM_STEPS + 1, CACHE_SIZE, [&](auto k, auto index) {  // for (index = tid; index <= NUM_STEPS; ...)
            auto idxA = tile_idx * (NUM_STEPS + 16) + index;
            return w::local(k, s[tile_idx] * w::exp(vdt[tile_idx] * (2.0f * index - NUM_STEPS)) - x[tile_idx],
                            [&](auto, auto d) { return call_buffer[idxA] = w::select(d > 0.f, d, 0.f); });
          }),
          w::for_range(k, 0, NUM_STEPS / CACHE_DELTA, [&](auto k, auto trip) {
            auto i = NUM_STEPS - CACHE_DELTA * trip;
            return w::for_range(k, 0, i, CACHE_STEP, [&](auto k, auto c_base) {
              auto c_start = w::min(CACHE_SIZE - 1, i - c_base);
              auto c_end = c_start - CACHE_DELTA;
              return w::seq(w::sync(),
                            w::when(tid <= c_start, call_a[tid] = call_buffer[tile_idx * (NUM_STEPS + 16) + (c_base + tid)]),
                            w::for_range(k, 0, TIME_STEPS, [&](auto, auto) {
                              return w::seq(w::sync(), call_b[tid] = pu_by_df[tile_idx] * call_a[tid + 1] + pd_by_df[tile_idx] * call_a[tid],
                                            w::sync(), call_a[tid] = pu_by_df[tile_idx] * call_b[tid + 1] + pd_by_df[tile_idx] * call_b[tid]);
                            }),
                            w::sync(),
                            w::when(tid <= c_end, call_buffer[tile_idx * (NUM_STEPS + 16) + (c_base + tid)] = call_a[tid]));
            });
          }),
          w::when(tid == 0, call_value[tile_idx] = call_a[0]));
    });
  });
};

// Not the original: the same with the never-stored apron elements call_a[16] and call_b[16] zeroed
// by thread 0 first, to ask what the race rules say of the rest once W022 is out of the way.
constexpr auto binomial_apron_zeroed = [](auto k, auto s, auto x, auto vdt, auto pu_by_df, auto pd_by_df, auto call_value,
                                            auto call_buffer) {
  return w::shared<float, CACHE_SIZE + 1>(k, [&](auto k, auto call_a) {
    return w::shared<float, CACHE_SIZE + 1>(k, [&](auto k, auto call_b) {
      auto tile_idx = k.block_id();
      auto tid = k.thread_id();
      return w::seq(
          w::when(tid == 0, call_a[CACHE_SIZE] = 0.f, call_b[CACHE_SIZE] = 0.f),
          w::for_range(k, tid, NUM_STEPS + 1, CACHE_SIZE, [&](auto k, auto index) {  // for (index = tid; index <= NUM_STEPS; ...)
            auto idxA = tile_idx * (NUM_STEPS + 16) + index;
            return w::local(k, s[tile_idx] * w::exp(vdt[tile_idx] * (2.0f * index - NUM_STEPS)) - x[tile_idx],
                            [&](auto, auto d) { return call_buffer[idxA] = w::select(d > 0.f, d, 0.f); });
          }),
          w::for_range(k, 0, NUM_STEPS / CACHE_DELTA, [&](auto k, auto trip) {
            auto i = NUM_STEPS - CACHE_DELTA * trip;
            return w::for_range(k, 0, i, CACHE_STEP, [&](auto k, auto c_base) {
              auto c_start = w::min(CACHE_SIZE - 1, i - c_base);
              auto c_end = c_start - CACHE_DELTA;
              return w::seq(w::sync(),
                            w::when(tid <= c_start, call_a[tid] = call_buffer[tile_idx * (NUM_STEPS + 16) + (c_base + tid)]),
                            w::for_range(k, 0, TIME_STEPS, [&](auto, auto) {
                              return w::seq(w::sync(), call_b[tid] = pu_by_df[tile_idx] * call_a[tid + 1] + pd_by_df[tile_idx] * call_a[tid],
                                            w::sync(), call_a[tid] = pu_by_df[tile_idx] * call_b[tid + 1] + pd_by_df[tile_idx] * call_b[tid]);
                            }),
                            w::sync(),
                            w::when(tid <= c_end, call_buffer[tile_idx * (NUM_STEPS + 16) + (c_base + tid)] = call_a[tid]));
            });
          }),
          w::when(tid == 0, call_value[tile_idx] = call_a[0]));
    });
  });
};

using Blk = w::block<CACHE_SIZE>;
using F = w::in<float>;

// The tree walk on the host: expiry values, then NUM_STEPS steps of backward induction.
float reference(float s, float x, float vdt, float pu, float pd) {
  std::vector<float> v(NUM_STEPS + 1);
  for (int j = 0; j <= NUM_STEPS; ++j) {
    const float d = s * std::exp(vdt * (2.0f * static_cast<float>(j) - NUM_STEPS)) - x;
    v[at(j)] = d > 0.f ? d : 0.f;
  }
  for (int t = NUM_STEPS - 1; t >= 0; --t)
    for (int j = 0; j <= t; ++j) v[at(j)] = pu * v[at(j + 1)] + pd * v[at(j)];
  return v[0];
}

}  // namespace

WARDEN_KERNEL(binomial_trusting_k, w::kernel<Blk, F, F, F, F, F, w::out<float>, w::inout<float>>(w::testing::trusting(binomial_options_kernel))
                                      .named("binomial_options_kernel", "s", "x", "vdt", "pu_by_df", "pd_by_df", "call_value", "call_buffer"));

TEST_CASE("corpus2 gpuverify C++AMP binomial_options_kernel (SMALL): race-free, refused W022 (a real uninitialised load), trusting() runs race-free",
          "[corpus2][gpuverify]") {
  // Thread 15 loads call_a[16] (and call_b[16]), which no thread ever stores.
  STATIC_REQUIRE(code_of<Blk, F, F, F, F, F, w::out<float>, w::inout<float>>(binomial_options_kernel) == code::W022);
  // With the apron stored, the next finding is W011: "store call_buffer[block_id.x * 80 + index] vs
  // load call_buffer[block_id.x * 80 + (c_base + thread_id.x)]: threads of different blocks may
  // meet"; the frames are 80 apart and c_base + tid <= i <= 64, but the checker does not bound
  // c_base by the outer loop's i = 64 - 4 * trip.
  STATIC_REQUIRE(code_of<Blk, F, F, F, F, F, w::out<float>, w::inout<float>>(binomial_apron_zeroed) == code::W011);
  for (int options : {MAX_OPTIONS, 8}) {
    CAPTURE(options);
    std::vector<float> hs(at(options)), hx(hs.size()), hvdt(hs.size()), hpu(hs.size()), hpd(hs.size()), want(hs.size());
    for (int o = 0; o < options; ++o) {
      const float T = 0.25f + 0.05f * static_cast<float>(o % 7), R = 0.02f, V = 0.1f + 0.01f * static_cast<float>(o % 5);
      const float dt = T / NUM_STEPS, vdt = V * std::sqrt(dt), rdt = R * dt;
      const float u = std::exp(vdt), d = std::exp(-vdt), pu = (std::exp(rdt) - d) / (u - d);
      hs[at(o)] = 20.f + static_cast<float>(o);
      hx[at(o)] = 18.f + 0.5f * static_cast<float>(o % 9);
      hvdt[at(o)] = vdt;
      hpu[at(o)] = pu * std::exp(-rdt);
      hpd[at(o)] = (1.f - pu) * std::exp(-rdt);
      want[at(o)] = reference(hs[at(o)], hx[at(o)], hvdt[at(o)], hpu[at(o)], hpd[at(o)]);
    }
    auto ds = w::to_device(hs), dx = w::to_device(hx), dvdt = w::to_device(hvdt), dpu = w::to_device(hpu), dpd = w::to_device(hpd);
    w::device_buffer<float> dvalue(at(options)), dbuffer(at(options * (NUM_STEPS + 16)));
    const auto r = w::record(binomial_trusting_k, w::grid(options), ds, dx, dvdt, dpu, dpd, dvalue, dbuffer);
    std::size_t uninitialised = 0, other = 0;
    for (const auto& c : r.conflicts()) (c.kind == w::conflict_kind::uninitialised_shared_load ? uninitialised : other) += 1;
    CAPTURE(r.report(3));
    CHECK(other == 0);
    CHECK(uninitialised > 0);
    corpus::check_close(w::to_host(dvalue), want, 1e-4);
  }
}
