// Rodinia, nn (nearest neighbour): yuhc/gpu-rodinia (commit 9c10d3ea), cuda/nn/nn_cuda.cu, kernel
// euclid, ported by hand. One thread per record: globalId = blockDim.x * (gridDim.x * blockIdx.y +
// blockIdx.x) + threadIdx.x on a 2-D grid of 1-D blocks, guarded by globalId < numRecords, stores
// (float)sqrt((lat - l.lat)^2 + (lng - l.lng)^2) for the record's LatLong l. The pointer
// `LatLong *latLong = d_locations + globalId` (made before the guard, dereferenced after it) is the
// element d_locations[globalId]; `latLong->lat` is w::field<&LatLong::lat>(...); sqrt of a float is
// w::sqrt. Launch as main(): threadsPerBlock = min(maxThreadsPerBlock, 256) = 256,
// blocks = ceilDiv(numRecords, 256), gridY = ceilDiv(blocks, maxGridX), gridX = ceilDiv(blocks, gridY),
// euclid<<<dim3(gridX, gridY), 256>>>. The device's maxGridX (65535) is scaled down with the data:
// here 4, so that 2000 records take a 4 x 2 grid and 2600 a 4 x 3 grid of which one block and a
// part of another hang past numRecords ("There will be no more than (gridY - 1) extra blocks").
//
// Verdict: ACCEPTED with no launch obligation, and RUNS AS WRITTEN: clean and equal to the
// reference on a 1-D grid, a 2-D grid and a 2-D grid that overhangs the records.
#include "../corpus/corpus.hpp"

#include <cmath>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

struct LatLong {
  float lat;
  float lng;
};

// __global__ void euclid(LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng)
constexpr auto euclid = [](auto k, auto d_locations, auto d_distances, auto numRecords, auto lat, auto lng) {
  auto globalId = k.block_dim() * (k.grid_dim() * k.block_id_y() + k.block_id()) + k.thread_id();
  auto latLong = [&] { return d_locations[globalId]; };  // LatLong *latLong = d_locations + globalId
  return w::when(globalId < numRecords,
                 d_distances[globalId] = w::sqrt((lat - w::field<&LatLong::lat>(latLong())) * (lat - w::field<&LatLong::lat>(latLong())) +
                                                 (lng - w::field<&LatLong::lng>(latLong())) * (lng - w::field<&LatLong::lng>(latLong()))));
};

using Blk = w::block<256>;

}  // namespace

#define NN_PARAMS Blk, w::in<LatLong>, w::out<float>, w::value<int>, w::value<float>, w::value<float>

WARDEN_KERNEL(euclid_k, w::kernel<NN_PARAMS>(euclid).named("euclid", "d_locations", "d_distances", "numRecords", "lat", "lng"));

TEST_CASE("rodinia nn euclid: accepted with no obligation, clean on the host's 2-D grids, equal to the reference", "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<NN_PARAMS>(euclid) == code::none);
  CHECK(w::obligations_of(euclid_k).empty());

  const unsigned long threadsPerBlock = 256;
  for (auto [numRecords, maxGridX] : {std::pair{1000, 65535UL}, std::pair{2000, 4UL}, std::pair{2600, 4UL}}) {
    CAPTURE(numRecords, maxGridX);
    const float lat = 30.f, lng = 90.f;
    std::vector<LatLong> locations(at(numRecords));
    for (int i = 0; i < numRecords; ++i)
      locations[at(i)] = {static_cast<float>((i * 37) % 181) - 90.f + 0.25f, static_cast<float>((i * 53) % 361) - 180.f + 0.5f};
    std::vector<float> ref(at(numRecords));
    for (int i = 0; i < numRecords; ++i) {
      const LatLong& l = locations[at(i)];
      ref[at(i)] = std::sqrt((lat - l.lat) * (lat - l.lat) + (lng - l.lng) * (lng - l.lng));
    }
    const unsigned long blocks = (static_cast<unsigned long>(numRecords) + threadsPerBlock - 1) / threadsPerBlock;  // ceilDiv
    const unsigned long gridY = (blocks + maxGridX - 1) / maxGridX;
    const unsigned long gridX = (blocks + gridY - 1) / gridY;
    auto d_locations = w::to_device(locations);
    w::device_buffer<float> d_distances(at(numRecords));
    CHECK(w::record(euclid_k, w::grid(static_cast<int>(gridX), static_cast<int>(gridY)), d_locations, d_distances, numRecords, lat, lng).clean());
    corpus::check_close(w::to_host(d_distances), ref);
  }
}
