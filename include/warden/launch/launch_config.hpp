#pragma once
// What a launch is given besides its kernel and arguments: the backend (w::on_cpu picks the cpu
// reference backend) and the grid (launch_config, made by grid_for or grid), with the stream.

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

#include "../backend/slots.hpp"
#include "../error.hpp"
#include "../stream.hpp"

namespace warden {

struct on_cpu_t {
  explicit constexpr on_cpu_t() = default;
};
inline constexpr on_cpu_t on_cpu{};

// The grid of a launch: a number of blocks, or enough blocks of the kernel's shape to cover
// nx (x ny (x nz)) threads; .on(stream) picks the stream. What it asks for is checked at launch
// (E102): no negative extent, none above CUDA's limits, no dimension with more threads than
// warden's int ids can number, and a grid_for with a dimension for each of the block's (a 1-D
// grid_for(n) on a 16x16 block would cover x only; it asks for grid_for(nx, ny)). An empty grid
// (grid_for(0), grid(0)) launches nothing.
class launch_config {
 public:
  launch_config(long long x, long long y, long long z) : extents_{x, y, z} {}
  launch_config(std::initializer_list<unsigned long long> elements) : extents_{0, 1, 1}, element_dims_(static_cast<int>(elements.size())) {
    int d = 0;
    for (unsigned long long e : elements) elements_[d++] = e;
  }
  launch_config on(stream_ref s) const {
    launch_config c = *this;
    c.stream_ = s;
    return c;
  }
  stream_ref stream() const { return stream_; }

  // The grid for a kernel with block shape Block; throws grid_error (E102) naming `kernel`.
  template <class Block>
  backend::dims3 blocks(std::string_view kernel = "kernel") const {
    long long extent[3] = {extents_[0], extents_[1], extents_[2]};
    const int block[3] = {Block::x, Block::y, Block::z};
    // What was asked for, in the user's words; built only for a message (a launch allocates nothing).
    const auto asked = [&] {
      std::string text;
      if (element_dims_ == 0) {
        text = "grid(" + std::to_string(extents_[0]) + ", " + std::to_string(extents_[1]) + ", " +
               std::to_string(extents_[2]) + ")";
      } else {
        text = "grid_for(";
        for (int d = 0; d < element_dims_; ++d) text += (d ? ", " : "") + std::to_string(elements_[d]);
        text += ")";
      }
      return text;
    };
    if (element_dims_ != 0) {
      const int block_dims = Block::z > 1 ? 3 : Block::y > 1 ? 2 : 1;
      if (element_dims_ < block_dims)
        throw grid_error(kernel, asked() + " covers " + std::string(element_dims_ == 1 ? "x only" : "x and y only") +
                                     ", but the block is " + std::to_string(Block::x) + "x" + std::to_string(Block::y) +
                                     (block_dims == 3 ? "x" + std::to_string(Block::z) : std::string()) +
                                     ": give one extent per block dimension, " +
                                     (block_dims == 2 ? "grid_for(nx, ny)" : "grid_for(nx, ny, nz)") +
                                     ", or a grid(...) of blocks");
      for (int d = 0; d < element_dims_; ++d) {
        const unsigned long long needed = elements_[d] / static_cast<unsigned long long>(block[d]) +
                                          (elements_[d] % static_cast<unsigned long long>(block[d]) != 0);
        extent[d] = needed > static_cast<unsigned long long>(max_extent[d]) ? max_extent[d] + 1LL : static_cast<long long>(needed);
      }
    }
    constexpr long long int_max = std::numeric_limits<int>::max();
    for (int d = 0; d < 3; ++d) {
      auto fail = [&](const std::string& why) {
        throw grid_error(kernel, asked() + " " + why);
      };
      const std::string dim(1, "xyz"[d]);  // short: no allocation
      if (extent[d] < 0) fail("has a negative extent in " + dim);
      if (extent[d] > max_extent[d])
        fail("needs " + std::to_string(extent[d]) + " blocks in " + dim + ", above CUDA's limit of " +
             std::to_string(max_extent[d]));
      if (extent[d] * block[d] > int_max)
        fail("has " + std::to_string(extent[d] * block[d]) + " threads in " + dim +
             ": warden's thread and global ids are int, which would overflow (at most " + std::to_string(int_max) + ")");
    }
    return {static_cast<int>(extent[0]), static_cast<int>(extent[1]), static_cast<int>(extent[2])};
  }

 private:
  static constexpr long long max_extent[3] = {2147483647LL, 65535LL, 65535LL};
  long long extents_[3];
  unsigned long long elements_[3] = {0, 1, 1};
  int element_dims_ = 0;  // 0: a grid of blocks; 1-3: grid_for with that many extents
  stream_ref stream_;
};

// Enough blocks to cover n threads along x (a 1-D block), nx x ny (a 2-D block; y may be 1 for a
// 1-D block too) or nx x ny x nz threads.
inline launch_config grid_for(std::size_t elements) { return launch_config({elements}); }
inline launch_config grid_for(std::size_t nx, std::size_t ny) { return launch_config({nx, ny}); }
inline launch_config grid_for(std::size_t nx, std::size_t ny, std::size_t nz) { return launch_config({nx, ny, nz}); }
inline launch_config grid(long long x, long long y = 1, long long z = 1) { return launch_config(x, y, z); }

}  // namespace warden
