// Rodinia, kmeans: yuhc/gpu-rodinia (commit 9c10d3ea), cuda/kmeans/kmeans_cuda_kernel.cu, kernel
// invert_mapping (host code in cuda/kmeans/kmeans_cuda.cu, allocateMemory), ported by hand. One
// thread per point, point_id = threadIdx.x + blockDim.x * blockIdx.x, guarded by point_id < npoints:
// the point's nfeatures features, row-major in input, are stored column-major in output,
// output[point_id + npoints * i] = input[point_id * nfeatures + i] for i in [0, nfeatures). npoints
// and nfeatures are the kernel's int parameters; the trailing `return;` is nothing. Launch as
// allocateMemory: num_threads = 16 * 16 = 256, num_blocks = ceil(npoints / 256) rounded UP to a
// square (num_blocks_perdim = ceil(sqrt(num_blocks)), num_blocks = num_blocks_perdim^2), so the
// grid overhangs npoints by whole blocks: 1000 points take 4 blocks (one partial), 1300 take 9
// (6 needed), 2048 take 9 (8 needed). (kmeansPoint, the other kernel, reads textures and is not
// ported.)
//
// Verdict: ACCEPTED with no launch obligation, and RUNS AS WRITTEN: clean and equal to the
// reference (a transpose) on the host's square grids, including blocks wholly past npoints.
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures)
constexpr auto invert_mapping = [](auto k, auto input, auto output, auto npoints, auto nfeatures) {
  auto point_id = k.thread_id() + k.block_dim() * k.block_id();
  return w::when(point_id < npoints, w::for_range(k, 0, nfeatures, [&](auto, auto i) {
                   return output[point_id + npoints * i] = input[point_id * nfeatures + i];
                 }));
};

using Blk = w::block<256>;

}  // namespace

#define KM_PARAMS Blk, w::in<float>, w::out<float>, w::value<int>, w::value<int>

WARDEN_KERNEL(invert_mapping_k, w::kernel<KM_PARAMS>(invert_mapping).named("invert_mapping", "input", "output", "npoints", "nfeatures"));

TEST_CASE("rodinia kmeans invert_mapping: accepted with no obligation, clean on the host's square grids, equal to the reference",
          "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<KM_PARAMS>(invert_mapping) == code::none);
  CHECK(w::obligations_of(invert_mapping_k).empty());

  for (auto [npoints, nfeatures] : {std::pair{1000, 34}, std::pair{1300, 5}, std::pair{2048, 1}}) {
    CAPTURE(npoints, nfeatures);
    // allocateMemory: num_blocks = npoints / num_threads (+1 on a remainder), then a square.
    const unsigned num_threads = 16 * 16;
    unsigned num_blocks = static_cast<unsigned>(npoints) / num_threads;
    if (static_cast<unsigned>(npoints) % num_threads > 0) num_blocks++;
    unsigned num_blocks_perdim = static_cast<unsigned>(std::sqrt(static_cast<double>(num_blocks)));
    while (num_blocks_perdim * num_blocks_perdim < num_blocks) num_blocks_perdim++;
    num_blocks = num_blocks_perdim * num_blocks_perdim;

    std::vector<float> input(at(npoints * nfeatures)), ref(input.size());
    for (std::size_t e = 0; e < input.size(); ++e) input[e] = static_cast<float>((e * 7919) % 1013) * 0.5f;
    for (int p = 0; p < npoints; ++p)
      for (int i = 0; i < nfeatures; ++i) ref[at(p + npoints * i)] = input[at(p * nfeatures + i)];
    auto d_in = w::to_device(input);
    w::device_buffer<float> d_out(input.size());
    CHECK(w::record(invert_mapping_k, w::grid(static_cast<int>(num_blocks)), d_in, d_out, npoints, nfeatures).clean());
    CHECK(w::to_host(d_out) == ref);
  }
}
