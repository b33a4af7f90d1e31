// "CUDA by Example" (Sanders, Kandrot), chapter 9, the histogram privatised in shared memory:
// CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-, chapter09/hist_gpu_shmem_atomics.cu
// (commit 25ea41ce), kernel histo_kernel, ported by hand. Each block zeroes temp[256] (one store
// per thread, the block has 256 threads), counts its grid-stride share of the bytes with
// shared-memory atomicAdd, and after a barrier adds temp[threadIdx.x] to histo[threadIdx.x] with a
// global atomicAdd. size is the kernel's long parameter. Launch as main: histo_kernel<<<blocks * 2,
// 256>>> with blocks = prop.multiProcessorCount; the book's SIZE is 100 MiB of random bytes, scaled
// here to 100 KiB and 1 MiB + 3 for the cpu backend, on grids for 4 and 66 multiprocessors.
// Language pieces: the while (i < size) { ...; i += stride; } loop with stride = blockDim.x *
// gridDim.x is w::grid_stride over [0, size).
//
// ACCEPTED, no launch obligation: temp[t] is stored by its own thread before a barrier, updated
// only by atomics in the next phase, and read by its own thread after the second barrier; the
// global bins are updated only by atomics. A byte indexes temp[256] in range by its type. Runs
// clean and counts exactly as a plain loop does.
#include "../corpus/corpus.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void histo_kernel(unsigned char *buffer, long size, unsigned int *histo)
constexpr auto histo_kernel = [](auto k, auto buffer, auto size, auto histo) {
  return w::shared<unsigned, 256>(k, [&](auto k, auto temp) {  // __shared__ unsigned int temp[256]
    return w::seq(temp[k.thread_id()] = 0u, w::sync(),
                  w::grid_stride(k, size, [&](auto, auto i) { return w::atomic_add(temp[buffer[i]], 1u); }),
                  w::sync(),
                  w::atomic_add(histo[k.thread_id()], temp[k.thread_id()]));
  });
};

using Blk = w::block<256>;
using P = w::value<long>;

}  // namespace

WARDEN_KERNEL(histo_k, w::kernel<Blk, w::in<std::uint8_t>, P, w::atomic<unsigned>>(histo_kernel).named("histo_kernel", "buffer", "size", "histo"));

TEST_CASE("corpus2 CUDA by Example histo_kernel (shared atomics): accepted, clean, equal to the reference", "[corpus2][cuda-by-example]") {
  STATIC_REQUIRE(code_of<Blk, w::in<std::uint8_t>, P, w::atomic<unsigned>>(histo_kernel) == code::none);
  const std::string ob = w::obligations_of(histo_k);
  CAPTURE(ob);
  CHECK(ob.empty());
  for (long size : {100L * 1024, 300001L}) {
    std::vector<std::uint8_t> buffer(static_cast<std::size_t>(size));
    unsigned state = 12345u;  // big_random_block: rand() bytes; a fixed LCG here
    for (auto& byte : buffer) byte = static_cast<std::uint8_t>((state = state * 1103515245u + 12345u) >> 16);
    std::vector<unsigned> ref(256, 0u);
    for (auto byte : buffer) ++ref[byte];
    auto dev_buffer = w::to_device(buffer);
    for (int multiprocessors : {4, 66}) {
      CAPTURE(size, multiprocessors);
      auto dev_histo = w::to_device(std::vector<unsigned>(256, 0u));  // cudaMemset(dev_histo, 0, ...)
      CHECK(w::record(histo_k, w::grid(multiprocessors * 2), dev_buffer, size, dev_histo).clean());
      CHECK(w::to_host(dev_histo) == ref);
    }
  }
}
