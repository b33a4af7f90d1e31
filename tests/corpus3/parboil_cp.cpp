// Parboil, cp (Coulombic potential on a 2-D slice of a lattice): abduld/Parboil (commit 07aee839, a
// mirror of Parboil 1), benchmarks/cp/src/cuda/cuenergy_pre8_coalesce.cu, kernel cenergy (host
// code in benchmarks/cp/src/cuda/main.cu, sizes in cuenergy.h), ported by hand. A block of
// BLOCKSIZEX x BLOCKSIZEY = 16 x 8 threads; each thread computes UNROLLX = 8 lattice points of one
// row, BLOCKSIZEX apart: xindex = blockIdx.x * blockDim.x * UNROLLX + threadIdx.x, yindex =
// blockIdx.y * blockDim.y + threadIdx.y, outaddr = gridDim.x * blockDim.x * UNROLLX * yindex +
// xindex (all unsigned int, the products by __umul24). For every atom of the __constant__ float4
// atominfo[MAXATOMS] (x, y, z = (zplane - z)^2 precomputed by copyatomstoconstbuf, w = charge)
// it adds w / sqrtf(dx^2 + dy^2 + dz^2) to eight accumulators, dx stepping by gridspacing *
// BLOCKSIZEX; then energygrid[outaddr + c * BLOCKSIZEX] += energyvalx(c + 1), c < 8. No guard: the
// host's grid is Gsz = (volsize.x / (BLOCKSIZEX * UNROLLX), volsize.y / BLOCKSIZEY), rounded down,
// and the rows of the output are gridDim.x * BLOCKSIZEX * UNROLLX apart (not volsize.x: for a
// volsize.x that is not a multiple of 128 the kernel writes a narrower layout into the start of the
// buffer). main() launches cenergy once per MAXATOMS atoms, copying each chunk to the constant
// buffer first, and accumulates into one energy grid (memset to 0). Here MAXATOMS = 40 and 100
// atoms (launches of 40, 40 and 20 atoms), volsize 256 x 16 (grid 2 x 2) and 300 x 20 (grid 2 x 2,
// rounded down).
//
// Translation: atominfo is an in<float4_> parameter of MAXATOMS elements (the guide: __constant__
// arrays are in<T> parameters), its fields w::field; the host's cudaMemcpyToSymbol of a chunk is a
// fresh MAXATOMS-element buffer holding the chunk. The eight named accumulators energyvalx1..8 are
// a w::registers<float, 8> indexed by w::unroll<8> counters, and dx1..dx8, each the previous plus
// gridspacing_u, a local dx advanced after each use (the same additions, in the same order); the
// eight stores are a w::unroll<8>. 1.0f / sqrtf(...) is 1.f / w::sqrt(...). The unsigned indices
// are warden's int ids (the values are the same: below 2^31).
//
// Verdict: ACCEPTED with no launch obligation; RUNS AS WRITTEN: every launch clean, the energy grid
// equal to the reference.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int BLOCKSIZEX = 16, BLOCKSIZEY = 8, UNROLLX = 8;
constexpr int MAXATOMS = 40;  // #define MAXATOMS 4000 (cuenergy.h), scaled to the cpu backend

struct float4_ {  // CUDA's float4
  float x, y, z, w;
};

// __global__ void cenergy(int numatoms, float gridspacing, float * energygrid), with __constant__ float4 atominfo[MAXATOMS]
constexpr auto cenergy = [](auto k, auto numatoms, auto gridspacing, auto energygrid, auto atominfo) {
  auto xindex = k.block_id() * k.block_dim() * UNROLLX + k.thread_id();
  auto yindex = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  auto outaddr = (k.grid_dim() * k.block_dim() * UNROLLX) * yindex + xindex;
  auto coory = gridspacing * yindex;
  auto coorx = gridspacing * xindex;
  auto gridspacing_u = gridspacing * BLOCKSIZEX;
  return w::registers<float, UNROLLX>(k, [&](auto k, auto energyvalx) {
    return w::seq(w::for_range(k, 0, numatoms, [&](auto k, auto atomid) {
                    return w::local(k, coory - w::field<&float4_::y>(atominfo[atomid]), [&](auto k, auto dy) {
                      return w::local(k, (dy * dy) + w::field<&float4_::z>(atominfo[atomid]), [&](auto k, auto dyz2) {
                        return w::local(k, coorx - w::field<&float4_::x>(atominfo[atomid]), [&](auto k, auto dx) {
                          return w::unroll<UNROLLX>(k, [&](auto, auto c) {
                            return w::seq(energyvalx[c] += w::field<&float4_::w>(atominfo[atomid]) * (1.0f / w::sqrt(dx * dx + dyz2)),
                                          dx += gridspacing_u);
                          });
                        });
                      });
                    });
                  }),
                  w::unroll<UNROLLX>(k, [&](auto, auto c) { return energygrid[outaddr + c * BLOCKSIZEX] += energyvalx[c]; }));
  });
};

using Blk = w::block<BLOCKSIZEX, BLOCKSIZEY>;

}  // namespace

#define CP_PARAMS Blk, w::value<int>, w::value<float>, w::inout<float>, w::in<float4_>

WARDEN_KERNEL(cenergy_k, w::kernel<CP_PARAMS>(cenergy).named("cenergy", "numatoms", "gridspacing", "energygrid", "atominfo"));

TEST_CASE("parboil cp cenergy: accepted, clean over the host's chunks of atoms, equal to the reference", "[corpus3][parboil]") {
  STATIC_REQUIRE(code_of<CP_PARAMS>(cenergy) == code::none);
  const std::string ob = w::obligations_of(cenergy_k);
  CAPTURE(ob);
  CHECK(ob.empty());

  const int atomcount = 100;
  const float gridspacing = 0.1f;
  for (auto [vx, vy] : {std::pair{256, 16}, std::pair{300, 20}}) {
    CAPTURE(vx, vy);
    // initatoms: a repeatable arrangement of point charges in the volume
    std::vector<float> atoms(at(4 * atomcount));
    for (int i = 0; i < atomcount; ++i) {
      atoms[at(4 * i)] = static_cast<float>((i * 37) % 101) / 101.f * gridspacing * static_cast<float>(vx);
      atoms[at(4 * i + 1)] = static_cast<float>((i * 53) % 97) / 97.f * gridspacing * static_cast<float>(vy);
      atoms[at(4 * i + 2)] = static_cast<float>((i * 29) % 89) / 89.f * gridspacing + 0.05f;
      atoms[at(4 * i + 3)] = static_cast<float>((i * 17) % 31) / 15.f - 1.f;
    }
    const int gx = vx / (BLOCKSIZEX * UNROLLX), gy = vy / BLOCKSIZEY;
    const int row = gx * BLOCKSIZEX * UNROLLX;  // the kernel's row stride
    std::vector<float> ref(at(vx * vy), 0.f);
    auto d_output = w::to_device(std::vector<float>(at(vx * vy), 0.f));  // cudaMemset(d_output, 0, volmemsz)
    bool clean = true;
    for (int atomstart = 0; atomstart < atomcount; atomstart += MAXATOMS) {
      const int runatoms = std::min(MAXATOMS, atomcount - atomstart);
      std::vector<float4_> atompre(MAXATOMS, float4_{0.f, 0.f, 0.f, 0.f});  // copyatomstoconstbuf, zplane 0
      for (int i = 0; i < runatoms; ++i) {
        const float* a = &atoms[at(4 * (atomstart + i))];
        const float dz = 0.f - a[2];
        atompre[at(i)] = float4_{a[0], a[1], dz * dz, a[3]};
      }
      // the kernel's sums, point by point
      for (int y = 0; y < gy * BLOCKSIZEY; ++y)
        for (int xb = 0; xb < gx * BLOCKSIZEX * UNROLLX; xb += BLOCKSIZEX * UNROLLX)
          for (int tx = 0; tx < BLOCKSIZEX; ++tx) {
            const int xindex = xb + tx;
            float e[UNROLLX] = {};
            for (int atomid = 0; atomid < runatoms; ++atomid) {
              const float dy = gridspacing * static_cast<float>(y) - atompre[at(atomid)].y;
              const float dyz2 = dy * dy + atompre[at(atomid)].z;
              float dx = gridspacing * static_cast<float>(xindex) - atompre[at(atomid)].x;
              for (int c = 0; c < UNROLLX; ++c) {
                e[c] += atompre[at(atomid)].w * (1.0f / std::sqrt(dx * dx + dyz2));
                dx += gridspacing * BLOCKSIZEX;
              }
            }
            for (int c = 0; c < UNROLLX; ++c) ref[at(row * y + xindex + c * BLOCKSIZEX)] += e[c];
          }
      auto d_atominfo = w::to_device(atompre);
      clean = clean && w::record(cenergy_k, w::grid(gx, gy), runatoms, gridspacing, d_output, d_atominfo).clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(d_output), ref, 1e-4);
  }
}
