// NVIDIA cuda-samples, BlackScholes: NVIDIA/cuda-samples (commit c94ff366),
// Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh, kernel BlackScholesGPU (with its
// __device__ helpers BlackScholesBodyGPU and cndGPU), ported by hand. One thread prices two options:
// opt = blockDim.x * blockIdx.x + threadIdx.x, guarded by opt < optN / 2, reads the .x and .y
// halves of d_StockPrice[opt], d_OptionStrike[opt], d_OptionYears[opt] (float2 pointers over
// arrays of optN floats) and stores make_float2(call1, call2) and make_float2(put1, put2). Launch
// as BlackScholes.cu: BlackScholesGPU<<<DIV_UP(OPT_N / 2, 128), 128>>>(..., RISKFREE, VOLATILITY,
// OPT_N) (OPT_N 4,000,000 there; 4000, 1000 and an odd 999 here; the last block overhangs optN / 2).
//
// Translation: each float2 buffer is a buffer of floats read and written through
// w::vectors<2>(x)[opt]; `.x` / `.y` are w::get<0> / w::get<1> of the vector load, and
// make_float2 is w::make_vec. The __device__ functions are C++ helpers that build the same
// statements: their by-value parameters and local floats are w::local scopes (sqrtT, d1, d2,
// CNDD1, CNDD2, expRT, and cndGPU's K and cnd), the reference out-parameters CallResult and
// PutResult are the kernel's locals callResult1/2 and putResult1/2, assigned as written, and
// `if (d > 0) cnd = 1.0f - cnd;` is a guarded assignment. __fdividef, rsqrtf, __logf, __expf are
// w::fast::divide, w::fast::rsqrt, w::fast::log, w::fast::exp; fabsf is w::fabs.
//
// Verdict: ACCEPTED with no launch obligation, and RUNS AS WRITTEN: clean and equal to the
// reference on the original's launch shape, with a last block past optN / 2 and an odd optN (whose
// last option the kernel leaves alone, as the original does).
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __device__ inline float cndGPU(float d): `then(k, cnd)` continues with the returned value.
constexpr auto cndGPU = [](auto k, const auto& d, auto then) {
  constexpr float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  constexpr float RSQRT2PI = 0.39894228040143267793994605993438f;
  return w::local(k, w::fast::divide(1.0f, (1.0f + 0.2316419f * w::fabs(d))), [&](auto k, auto K) {
    return w::local(k, RSQRT2PI * w::fast::exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))),
                    [&](auto k, auto cnd) { return w::seq(w::when(d > 0, cnd = 1.0f - cnd), then(k, cnd)); });
  });
};

// __device__ inline void BlackScholesBodyGPU(float &CallResult, float &PutResult, float S, float X,
//                                            float T, float R, float V)
constexpr auto BlackScholesBodyGPU = [](auto k, const auto& CallResult, const auto& PutResult, auto S_, auto X_, auto T_, auto R, auto V) {
  return w::locals(k, S_, X_, T_, [&](auto k, auto S, auto X, auto T) {
    return w::local(k, w::fast::divide(1.0F, w::fast::rsqrt(T)), [&](auto k, auto sqrtT) {
      return w::local(k, w::fast::divide(w::fast::log(S / X) + (R + 0.5f * V * V) * T, V * sqrtT), [&](auto k, auto d1) {
        return w::local(k, d1 - V * sqrtT, [&](auto k, auto d2) {
          return cndGPU(k, d1, [&](auto k, const auto& CNDD1) {
            return cndGPU(k, d2, [&](auto k, const auto& CNDD2) {
              // Calculate Call and Put simultaneously
              return w::local(k, w::fast::exp(-R * T), [&](auto, auto expRT) {
                return w::seq(CallResult = S * CNDD1 - X * expRT * CNDD2, PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1));
              });
            });
          });
        });
      });
    });
  });
};

// __launch_bounds__(128) __global__ void BlackScholesGPU(float2 *__restrict d_CallResult,
//     float2 *__restrict d_PutResult, float2 *__restrict d_StockPrice, float2 *__restrict d_OptionStrike,
//     float2 *__restrict d_OptionYears, float Riskfree, float Volatility, int optN)
constexpr auto BlackScholesGPU = [](auto k, auto d_CallResult, auto d_PutResult, auto d_StockPrice, auto d_OptionStrike,
                                    auto d_OptionYears, auto Riskfree, auto Volatility, auto optN) {
  auto opt = k.block_dim() * k.block_id() + k.thread_id();
  return w::when(opt < (optN / 2),
                 w::locals(k, 0.f, 0.f, 0.f, 0.f, [&](auto k, auto callResult1, auto callResult2, auto putResult1, auto putResult2) {
                   return w::seq(BlackScholesBodyGPU(k, callResult1, putResult1, w::get<0>(w::vectors<2>(d_StockPrice)[opt]),
                                                     w::get<0>(w::vectors<2>(d_OptionStrike)[opt]),
                                                     w::get<0>(w::vectors<2>(d_OptionYears)[opt]), Riskfree, Volatility),
                                 BlackScholesBodyGPU(k, callResult2, putResult2, w::get<1>(w::vectors<2>(d_StockPrice)[opt]),
                                                     w::get<1>(w::vectors<2>(d_OptionStrike)[opt]),
                                                     w::get<1>(w::vectors<2>(d_OptionYears)[opt]), Riskfree, Volatility),
                                 w::vectors<2>(d_CallResult)[opt] = w::make_vec(callResult1, callResult2),
                                 w::vectors<2>(d_PutResult)[opt] = w::make_vec(putResult1, putResult2));
                 }));
};

using Blk = w::block<128>;
using F = w::value<float>;

}  // namespace

#define BS_PARAMS Blk, w::out<float>, w::out<float>, w::in<float>, w::in<float>, w::in<float>, F, F, w::value<int>

WARDEN_KERNEL(blackscholes_k, w::kernel<BS_PARAMS>(BlackScholesGPU)
                                  .named("BlackScholesGPU", "d_CallResult", "d_PutResult", "d_StockPrice", "d_OptionStrike",
                                         "d_OptionYears", "Riskfree", "Volatility", "optN"));

namespace {

// BlackScholes_gold.cpp's BlackScholesBodyCPU, in double.
double cnd(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
  const double RSQRT2PI = 0.39894228040143267793994605993438;
  const double K = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  const double c = RSQRT2PI * std::exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

}  // namespace

TEST_CASE("cuda-samples BlackScholesGPU: accepted with no obligation, clean on the original's launch, equal to the reference",
          "[corpus3][cuda-samples]") {
  STATIC_REQUIRE(code_of<BS_PARAMS>(BlackScholesGPU) == code::none);
  CHECK(w::obligations_of(blackscholes_k).empty());

  const float RISKFREE = 0.02f, VOLATILITY = 0.30f;
  for (int optN : {4000, 1000, 999}) {
    CAPTURE(optN);
    std::vector<float> S(at(optN)), X(at(optN)), T(at(optN)), call0(at(optN), -1.f), put0(at(optN), -1.f);
    for (int i = 0; i < optN; ++i) {  // RandFloat(5.0f, 30.0f), (1.0f, 100.0f), (0.25f, 10.0f), deterministically
      S[at(i)] = 5.0f + 25.0f * static_cast<float>((i * 37) % 101) / 101.f;
      X[at(i)] = 1.0f + 99.0f * static_cast<float>((i * 53) % 97) / 97.f;
      T[at(i)] = 0.25f + 9.75f * static_cast<float>((i * 29) % 89) / 89.f;
    }
    std::vector<float> refCall = call0, refPut = put0;
    for (int i = 0; i < 2 * (optN / 2); ++i) {
      const double s = S[at(i)], x = X[at(i)], t = T[at(i)], r = RISKFREE, v = VOLATILITY;
      const double sqrtT = std::sqrt(t), d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT), d2 = d1 - v * sqrtT;
      const double expRT = std::exp(-r * t);
      refCall[at(i)] = static_cast<float>(s * cnd(d1) - x * expRT * cnd(d2));
      refPut[at(i)] = static_cast<float>(x * expRT * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1)));
    }
    auto dS = w::to_device(S), dX = w::to_device(X), dT = w::to_device(T);
    auto dCall = w::to_device(call0), dPut = w::to_device(put0);
    const auto grid = w::grid(((optN / 2) + 128 - 1) / 128);  // DIV_UP((OPT_N / 2), 128)
    CHECK(w::record(blackscholes_k, grid, dCall, dPut, dS, dX, dT, RISKFREE, VOLATILITY, optN).clean());
    corpus::check_close(w::to_host(dCall), refCall, 1e-4);
    corpus::check_close(w::to_host(dPut), refPut, 1e-4);
  }
}
