// Rodinia, cfd (euler3d, single precision): yuhc/gpu-rodinia (commit 9c10d3ea), cuda/cfd/euler3d.cu,
// kernels cuda_compute_step_factor (with its __device__ helpers compute_velocity, compute_speed_sqd,
// compute_pressure, compute_speed_of_sound) and cuda_time_step, ported by hand. The flow variables
// are NVAR = 5 arrays of nelr floats, one after another (variable v of element i at i + v * nelr:
// density 0, momentum 1..3, density energy 4). One thread per element, i = blockDim.x * blockIdx.x +
// threadIdx.x, with no guard: the host pads nelr to a multiple of the block (nelr = 192 * (nel / 192
// + min(1, nel % 192))) and launches nelr / 192 blocks of 192 (BLOCK_SIZE_2, BLOCK_SIZE_4), so the
// grid never overhangs. step_factor: the element's velocity, speed, pressure and speed of sound,
// step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound)). time_step:
// variables[i + v * nelr] = old_variables[...] + factor * fluxes[...] for the five variables, with
// factor = step_factors[i] / float(RK + 1 - j), RK = 3.
// Translation: the float and float3 locals (density, momentum.x/y/z, density_energy, velocity.x/y/z,
// speed_sqd, pressure, speed_of_sound, factor) are w::locals; the helpers, which take references and
// return a float or write velocity, are inlined as the expressions they return (compute_velocity's
// three stores are the three velocity locals' initial values); sqrtf is w::sqrt, GAMMA is 1.4f,
// float(RK + 1 - j) is w::convert<float>(RK + 1 - j). Launched on nelr = 192 * 4 and 192 * 11
// (nel 700 and 2000, padded).
//
// Verdict: both ACCEPTED and both RUN AS WRITTEN. step_factor: no launch obligation. time_step: ten
// pairs left to the launch (the stores variables[i + a * nelr] and variables[i + b * nelr] of two
// different variables a != b, which meet unless the grid stays within nelr), which lists them with
// its own nelr: the host's grid of exactly nelr threads passes. Clean and equal to the reference
// (nelr 768 and 2112; time_step for j = 0, 1, 2).
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCK_SIZE_2 = 192, BLOCK_SIZE_4 = 192;
constexpr int NDIM = 3, VAR_DENSITY = 0, VAR_MOMENTUM = 1, VAR_DENSITY_ENERGY = VAR_MOMENTUM + NDIM, NVAR = VAR_DENSITY_ENERGY + 1;
constexpr float GAMMA = 1.4f;
constexpr int RK = 3;

// __global__ void cuda_compute_step_factor(int nelr, float* variables, float* areas, float* step_factors)
constexpr auto cuda_compute_step_factor = [](auto k, auto nelr, auto variables, auto areas, auto step_factors) {
  auto i = k.block_dim() * k.block_id() + k.thread_id();
  return w::locals(k, variables[i + VAR_DENSITY * nelr], variables[i + (VAR_MOMENTUM + 0) * nelr], variables[i + (VAR_MOMENTUM + 1) * nelr],
                   variables[i + (VAR_MOMENTUM + 2) * nelr], variables[i + VAR_DENSITY_ENERGY * nelr],
                   [&](auto k, auto density, auto momentum_x, auto momentum_y, auto momentum_z, auto density_energy) {
                     // compute_velocity(density, momentum, velocity)
                     return w::locals(k, momentum_x / density, momentum_y / density, momentum_z / density, [&](auto k, auto vx, auto vy, auto vz) {
                       return w::local(k, vx * vx + vy * vy + vz * vz, [&](auto k, auto speed_sqd) {  // compute_speed_sqd
                         return w::local(k, (float(GAMMA) - float(1.0f)) * (density_energy - float(0.5f) * density * speed_sqd), [&](auto k, auto pressure) {
                           return w::local(k, w::sqrt(float(GAMMA) * pressure / density), [&](auto, auto speed_of_sound) {
                             return step_factors[i] = float(0.5f) / (w::sqrt(areas[i]) * (w::sqrt(speed_sqd) + speed_of_sound));
                           });
                         });
                       });
                     });
                   });
};

// __global__ void cuda_time_step(int j, int nelr, float* old_variables, float* variables, float* step_factors, float* fluxes)
constexpr auto cuda_time_step = [](auto k, auto j, auto nelr, auto old_variables, auto variables, auto step_factors, auto fluxes) {
  auto i = k.block_dim() * k.block_id() + k.thread_id();
  return w::local(k, step_factors[i] / w::convert<float>(RK + 1 - j), [&](auto, auto factor) {
    return w::seq(
        variables[i + VAR_DENSITY * nelr] = old_variables[i + VAR_DENSITY * nelr] + factor * fluxes[i + VAR_DENSITY * nelr],
        variables[i + VAR_DENSITY_ENERGY * nelr] = old_variables[i + VAR_DENSITY_ENERGY * nelr] + factor * fluxes[i + VAR_DENSITY_ENERGY * nelr],
        variables[i + (VAR_MOMENTUM + 0) * nelr] = old_variables[i + (VAR_MOMENTUM + 0) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 0) * nelr],
        variables[i + (VAR_MOMENTUM + 1) * nelr] = old_variables[i + (VAR_MOMENTUM + 1) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 1) * nelr],
        variables[i + (VAR_MOMENTUM + 2) * nelr] = old_variables[i + (VAR_MOMENTUM + 2) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 2) * nelr]);
  });
};

using Blk = w::block<BLOCK_SIZE_2>;
using I = w::value<int>;

}  // namespace

#define SF_PARAMS Blk, I, w::in<float>, w::in<float>, w::out<float>
#define TS_PARAMS w::block<BLOCK_SIZE_4>, I, I, w::in<float>, w::out<float>, w::in<float>, w::in<float>

WARDEN_KERNEL(step_factor_k, w::kernel<SF_PARAMS>(cuda_compute_step_factor).named("cuda_compute_step_factor", "nelr", "variables", "areas", "step_factors"));
WARDEN_KERNEL(time_step_k, w::kernel<TS_PARAMS>(cuda_time_step).named("cuda_time_step", "j", "nelr", "old_variables", "variables", "step_factors", "fluxes"));

TEST_CASE("rodinia cfd cuda_compute_step_factor and cuda_time_step: accepted, run as written, equal to the reference", "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<SF_PARAMS>(cuda_compute_step_factor) == code::none);
  STATIC_REQUIRE(code_of<TS_PARAMS>(cuda_time_step) == code::none);
  const std::string ob1 = w::obligations_of(step_factor_k), ob2 = w::obligations_of(time_step_k);
  CAPTURE(ob1, ob2);
  // time_step: the stores of two different variables, variables[i + a * nelr] and
  // variables[i + b * nelr] (10 pairs), are left to the launch, which lists them with its nelr.
  CHECK(ob1.empty());
  CHECK(ob2.find("W010 holds for variables[((block_dim.x * block_id.x) + thread_id.x) + (0 * nelr)] and variables[((block_dim.x * block_id.x) + thread_id.x) + (4 * nelr)] if launch lists both with its own values and no two threads reach one element\n") == 0);
  CHECK(std::count(ob2.begin(), ob2.end(), '\n') == 10);
  CHECK(std::count(ob2.begin(), ob2.end(), '\n') == [&] {
    std::size_t n = 0;
    for (std::size_t p = ob2.find(" if launch lists both with its own values and no two threads reach one element\n"); p != std::string::npos;
         p = ob2.find(" if launch lists both with its own values and no two threads reach one element\n", p + 1))
      ++n;
    return static_cast<std::ptrdiff_t>(n);
  }());

  for (int nel : {700, 2000}) {
    CAPTURE(nel);
    const int nelr = BLOCK_SIZE_2 * ((nel / BLOCK_SIZE_2) + std::min(1, nel % BLOCK_SIZE_2));
    std::vector<float> vars(at(nelr * NVAR)), areas(at(nelr)), fluxes(vars.size());
    for (int i = 0; i < nelr; ++i) {
      vars[at(i + VAR_DENSITY * nelr)] = 1.f + 0.01f * static_cast<float>(i % 13);
      for (int d = 0; d < NDIM; ++d) vars[at(i + (VAR_MOMENTUM + d) * nelr)] = 0.1f * static_cast<float>((i + d) % 7) - 0.3f;
      vars[at(i + VAR_DENSITY_ENERGY * nelr)] = 2.5f + 0.02f * static_cast<float>(i % 11);
      areas[at(i)] = 0.5f + 0.001f * static_cast<float>(i % 97);
    }
    for (std::size_t e = 0; e < fluxes.size(); ++e) fluxes[e] = 0.001f * static_cast<float>(e % 31) - 0.015f;
    std::vector<float> ref_sf(at(nelr));
    for (int i = 0; i < nelr; ++i) {
      const float density = vars[at(i)], mx = vars[at(i + nelr)], my = vars[at(i + 2 * nelr)], mz = vars[at(i + 3 * nelr)], de = vars[at(i + 4 * nelr)];
      const float vx = mx / density, vy = my / density, vz = mz / density, speed_sqd = vx * vx + vy * vy + vz * vz;
      const float pressure = (GAMMA - 1.0f) * (de - 0.5f * density * speed_sqd), c = std::sqrt(GAMMA * pressure / density);
      ref_sf[at(i)] = 0.5f / (std::sqrt(areas[at(i)]) * (std::sqrt(speed_sqd) + c));
    }
    auto d_vars = w::to_device(vars), d_areas = w::to_device(areas), d_fluxes = w::to_device(fluxes);
    w::device_buffer<float> d_sf(at(nelr)), d_new(vars.size());
    CHECK(w::record(step_factor_k, w::grid(nelr / BLOCK_SIZE_2), nelr, d_vars, d_areas, d_sf).clean());
    corpus::check_close(w::to_host(d_sf), ref_sf);
    for (int j = 0; j < RK; ++j) {
      CAPTURE(j);
      std::vector<float> ref_new(vars.size());
      for (int i = 0; i < nelr; ++i) {
        const float factor = ref_sf[at(i)] / static_cast<float>(RK + 1 - j);
        for (int v = 0; v < NVAR; ++v) ref_new[at(i + v * nelr)] = vars[at(i + v * nelr)] + factor * fluxes[at(i + v * nelr)];
      }
      CHECK(w::record(time_step_k, w::grid(nelr / BLOCK_SIZE_4), j, nelr, d_vars, d_new, d_sf, d_fluxes).clean());
      corpus::check_close(w::to_host(d_new), ref_new);
    }
  }
}
