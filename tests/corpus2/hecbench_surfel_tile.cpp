// HeCBench, surfel: zjin-lcf/HeCBench, src/surfel-cuda/main.cu (the version of commit 129d8c14),
// kernel surfel_render_tile<float, 256>, ported by hand. A RACY original, reported upstream as
// ORNL/HeCBench issue #253 ("Missing __syncthreads() in surfel_render_tile causes shared-memory race
// between tile iterations", found with compute-sanitizer racecheck). Each thread of a 16 x 16 block
// renders one pixel: it walks the N surfels (7 floats each: COL_P_X.. COL_RSq, COL_DIM 7, the
// #defines of reference.h) TILE = 256 at a time; per tile the first TILE threads (tid = threadIdx.y *
// blockDim.x + threadIdx.x) copy one surfel each into __shared__ T sh[TILE * COL_DIM], then
// __syncthreads(), then every thread reads all tileCount = min(TILE, N - base) surfels of the tile
// and keeps the nearest hit in dMin. There is no barrier at the end of the loop body: a fast
// thread's copy of the next tile overwrites sh while slower threads still read the current one.
// The kernel also returns early for pixels outside w x h, before the loop and its barrier.
// N, w and h are int parameters, f a float (the parameter `w` is `w_` here: `w` names warden's
// namespace). px .. rSqMax are written as the shared loads they hold; alpha and t as locals.
// `T(x)` is w::convert<float>(x); `min` is w::min. Launch as the original: threads(16, 16),
// blocks((w + 15) / 16, (h + 15) / 16).
//
// Verdict: REFUSED AT COMPILE TIME. The faithful port is W030 [barrier-divergence]: the
// __syncthreads() sits under the early return's condition x < w && y < h, which differs between
// threads (a second real defect: on a grid that overhangs w x h, the returning threads skip the
// barrier, and their tid slots of the tile are never copied). Written without the early return
// (the final store guarded instead), the body is W021 [loop-carried-shared-race]: the race of
// issue #253. With both fixed it is accepted. On the cpu backend the original (under trusted)
// records a read-write race on sh when N > TILE (two trips), and barrier divergence on an
// overhanging grid; the fixed body records clean and equals the reference.
#include "../corpus/corpus.hpp"

#include <cmath>
#include <random>
#include <tuple>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int COL_P_X = 0, COL_P_Y = 1, COL_P_Z = 2, COL_N_X = 3, COL_N_Y = 4, COL_N_Z = 5, COL_RSq = 6, COL_DIM = 7;
constexpr int TILE = 256;

// One body, three forms: Faithful (the original: the early return, no barrier at the loop's end),
// and two written here to separate its two defects: EarlyReturn = false puts the guard on the final
// store only (every thread of the block takes part in the loop and its barrier), EndSync = true
// adds the missing __syncthreads() at the end of the loop body.
template <bool EarlyReturn, bool EndSync>
constexpr auto surfel_body = [](auto k, auto s, auto N, auto f, auto w_, auto h, auto d) {
  auto x = k.block_id() * k.block_dim() + k.thread_id();
  auto y = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  auto rayx = w::convert<float>(x) - (w_ - 1) * 0.5f;
  auto rayy = w::convert<float>(y) - (h - 1) * 0.5f;
  auto rayz = f;
  auto tiles = [&](auto k) {  // __shared__ T sh[TILE * COL_DIM]; T dMin = 1e20; the loop over tiles; the store
    return w::shared<float, TILE * COL_DIM>(k, [&](auto k, auto sh) {
      return w::local(k, 1e20f, [&](auto k, auto dMin) {
        auto body = [&](auto k, auto base) {
          auto tid = k.thread_id_y() * k.block_dim() + k.thread_id();
          auto load = w::when(tid < TILE && base + tid < N,
                              w::for_range(k, 0, COL_DIM, [&](auto, auto c) { return sh[tid * COL_DIM + c] = s[(base + tid) * COL_DIM + c]; }));
          auto scan = w::for_range(k, 0, w::min(TILE, N - base), [&](auto k, auto i) {
            auto px = sh[i * COL_DIM + COL_P_X];
            auto py = sh[i * COL_DIM + COL_P_Y];
            auto pz = sh[i * COL_DIM + COL_P_Z];
            auto nx = sh[i * COL_DIM + COL_N_X];
            auto ny = sh[i * COL_DIM + COL_N_Y];
            auto nz = sh[i * COL_DIM + COL_N_Z];
            auto rSqMax = sh[i * COL_DIM + COL_RSq];
            return w::local(k, (px * nx + py * ny + pz * nz) / (rayx * nx + rayy * ny + rayz * nz), [&](auto k, auto alpha) {
              return w::local(k, rayz * alpha, [&](auto, auto t) {
                auto dx = rayx * alpha - px;
                auto dy = rayy * alpha - py;
                auto dz = rayz * alpha - pz;
                return w::when(dx * dx + dy * dy + dz * dz < rSqMax && t < dMin, dMin = t);
              });
            });
          });
          if constexpr (EndSync)
            return w::seq(load, w::sync(), scan, w::sync());
          else
            return w::seq(load, w::sync(), scan);  // the original: no __syncthreads() here
        };
        auto store = d[y * w_ + x] = w::select(dMin > 100.f, 0.f, dMin);
        if constexpr (EarlyReturn)
          return w::seq(w::for_range(k, 0, N, TILE, body), store);
        else
          return w::seq(w::for_range(k, 0, N, TILE, body), w::when(x < w_ && y < h, store));
      });
    });
  };
  if constexpr (EarlyReturn)
    return w::when(!(x >= w_ || y >= h), tiles(k));  // if (x >= w || y >= h) return;
  else
    return tiles(k);
};
// template<typename T, int TILE> __global__ void surfel_render_tile(const T *__restrict__ s, int N, T f, int w, int h, T *__restrict__ d)
constexpr auto surfel_render_tile = surfel_body<true, false>;
constexpr auto surfel_no_early_return = surfel_body<false, false>;
constexpr auto surfel_fixed = surfel_body<false, true>;

using Blk = w::block<16, 16>;
using V = w::value<int>;

}  // namespace

#define SURFEL_PARAMS Blk, w::in<float>, V, w::value<float>, V, V, w::out<float>
// The original under trusted(...), to record; the fix, checked.
WARDEN_KERNEL(surfel_trusting_k, w::kernel<SURFEL_PARAMS>(w::testing::trusting(surfel_render_tile)).named("surfel_render_tile", "s", "N", "f", "w", "h", "d"));
WARDEN_KERNEL(surfel_no_return_trusting_k, w::kernel<SURFEL_PARAMS>(w::testing::trusting(surfel_no_early_return)).named("surfel_render_tile", "s", "N", "f", "w", "h", "d"));
WARDEN_KERNEL(surfel_fixed_k, w::kernel<SURFEL_PARAMS>(surfel_fixed).named("surfel_render_tile", "s", "N", "f", "w", "h", "d"));

namespace {

std::vector<float> surfels(int n) {  // the host's distributions, from a fixed seed
  std::mt19937 gen(19937);
  std::uniform_real_distribution<float> dis1(-5, 5), dis2(0.3f, 5), dis3(-1, 1), dis4(4e-4f, 2.5e-3f);
  std::vector<float> h_src(at(n * COL_DIM));
  for (int i = 0; i < n; i++) {
    h_src[at(i * COL_DIM + COL_P_X)] = dis1(gen);
    h_src[at(i * COL_DIM + COL_P_Y)] = dis1(gen);
    h_src[at(i * COL_DIM + COL_P_Z)] = dis2(gen);
    const float nx = dis3(gen), ny = dis3(gen), nz = dis3(gen), len = std::sqrt(nx * nx + ny * ny + nz * nz);
    h_src[at(i * COL_DIM + COL_N_X)] = nx / len;
    h_src[at(i * COL_DIM + COL_N_Y)] = ny / len;
    h_src[at(i * COL_DIM + COL_N_Z)] = nz / len;
    h_src[at(i * COL_DIM + COL_RSq)] = dis4(gen);
  }
  return h_src;
}

std::vector<float> render(const std::vector<float>& s, int N, float f, int w_, int h) {
  std::vector<float> d(at(w_ * h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w_; ++x) {
      const float rx = static_cast<float>(x) - (w_ - 1) * 0.5f, ry = static_cast<float>(y) - (h - 1) * 0.5f, rz = f;
      float dMin = 1e20f;
      for (int i = 0; i < N; ++i) {
        const float* p = &s[at(i * COL_DIM)];
        const float alpha = (p[COL_P_X] * p[COL_N_X] + p[COL_P_Y] * p[COL_N_Y] + p[COL_P_Z] * p[COL_N_Z]) /
                            (rx * p[COL_N_X] + ry * p[COL_N_Y] + rz * p[COL_N_Z]);
        const float t = rz * alpha, ex = rx * alpha - p[COL_P_X], ey = ry * alpha - p[COL_P_Y], ez = rz * alpha - p[COL_P_Z];
        if (ex * ex + ey * ey + ez * ez < p[COL_RSq] && t < dMin) dMin = t;
      }
      d[at(y * w_ + x)] = dMin > 100.f ? 0.f : dMin;
    }
  return d;
}

bool has(const w::recording& r, w::conflict_kind kind) {
  for (const auto& c : r.conflicts())
    if (c.kind == kind) return true;
  return false;
}

}  // namespace

TEST_CASE("hecbench surfel_render_tile (racy, issue #253): refused at compile time (W030 - without the early return W021), the "
          "recording shows the race - the fix is accepted and equals the reference",
          "[corpus2][hecbench][racy]") {
  // The original: sync() under the early return's guard x < w && y < h (W030), checked first.
  STATIC_REQUIRE(code_of<SURFEL_PARAMS>(surfel_render_tile) == code::W030);
  // Without the early return, the race of issue #253 remains: the next trip's copy into sh meets
  // this trip's reads with no barrier between (W021 [loop-carried-shared-race]).
  STATIC_REQUIRE(code_of<SURFEL_PARAMS>(surfel_no_early_return) == code::W021);
  // Both fixed: accepted.
  STATIC_REQUIRE(code_of<SURFEL_PARAMS>(surfel_fixed) == code::none);

  const float inverseFocalLength[3] = {0.005f, 0.02f, 0.036f};
  // The race is real: N = 270 > TILE makes two trips; on one block of 16 x 16 pixels (w, h
  // multiples of 16, so no thread returns early) the recording reports the read-write race on sh.
  {
    const int N = 270;
    auto d_src = w::to_device(surfels(N));
    w::device_buffer<float> d_dst(16 * 16);
    auto r = w::record(surfel_trusting_k, w::grid(1, 1), d_src, N, inverseFocalLength[0], 16, 16, d_dst);
    CHECK_FALSE(r.clean());
    CHECK(has(r, w::conflict_kind::read_write));
    CHECK_FALSE(has(r, w::conflict_kind::barrier_divergence));
    // The pair W021 names (without the early return) is a race its run reproduces.
    auto r_no_return = w::record(surfel_no_return_trusting_k, w::grid(1, 1), d_src, N, inverseFocalLength[0], 16, 16, d_dst);
    CHECK(w::testing::named_pair_meets<SURFEL_PARAMS>(surfel_no_early_return, r_no_return));
  }
  // With a single tile (N <= TILE, as the issue notes) no trip follows, and on a grid that overhangs
  // w x h the early return splits the barrier: the recording reports barrier divergence.
  {
    const int N = 20;
    auto d_src = w::to_device(surfels(N));
    w::device_buffer<float> d_dst(20 * 18);
    auto r = w::record(surfel_trusting_k, w::grid((20 + 15) / 16, (18 + 15) / 16), d_src, N, inverseFocalLength[1], 20, 18, d_dst);
    CHECK(has(r, w::conflict_kind::barrier_divergence));
    CHECK_FALSE(has(r, w::conflict_kind::read_write));
  }
  // The fix, on the original's launch shape: clean and equal to the reference (two trips on one
  // block; one trip on a grid that overhangs w x h, for the three focal lengths).
  for (auto [N, w_, h, f] : {std::tuple{270, 16, 16, inverseFocalLength[0]}, std::tuple{20, 20, 18, inverseFocalLength[0]},
                             std::tuple{20, 20, 18, inverseFocalLength[1]}, std::tuple{20, 20, 18, inverseFocalLength[2]}}) {
    {
      CAPTURE(N, w_, h, f);
      const auto src = surfels(N);
      auto d_src = w::to_device(src);
      w::device_buffer<float> d_dst(at(w_ * h));
      CHECK(w::record(surfel_fixed_k, w::grid((w_ + 15) / 16, (h + 15) / 16), d_src, N, f, w_, h, d_dst).clean());
      corpus::check_close(w::to_host(d_dst), render(src, N, f, w_, h), 1e-3);
    }
  }
}
