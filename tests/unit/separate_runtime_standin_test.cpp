// A CUDA program on warden::runtime: the launch-time checks and the pool are compiled once, by the
// host compiler without the CUDA runtime, and called from files compiled with it (nvcc, or here
// the runtime stand-in). What they ask of the program's streams must not depend on which of the
// two compiled them: an inline function has one definition in a program, and the library's copy
// is the one its own code runs. Until 2026-12-07, stream_ref::issuable_here was `true` without the
// CUDA runtime, so on warden::runtime a pool allocation or a buffer on another thread's
// per-thread default stream went through unrefused (E111), where a header-only program refused it.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <vector>

#include "cuda_standin.hpp"

namespace w = warden;
namespace standin = cuda_standin;

static_assert(WARDEN_SEPARATE_RUNTIME == 1 && WARDEN_CUDA_RUNTIME == 1, "this test is a CUDA program on warden::runtime");

TEST_CASE("warden::runtime's pool refuses another thread's per-thread stream (E111), as header-only does",
          "[standin][separate-runtime][per-thread][E111]") {
  standin::reset();
  w::stream_ref foreign;
  std::thread([&] { foreign = w::stream_ref(cudaStreamPerThread); }).join();
  w::memory_pool pool(w::cuda_async_resource{});
  CHECK_THROWS_WITH(pool.allocate(64, foreign),
                    Catch::Matchers::StartsWith("E111 [foreign-stream] warden::memory_pool: its stream_ref was made from cudaStreamPerThread"));
  CHECK_THROWS_AS(w::device_buffer<int>(4, foreign), w::foreign_stream_error);
  CHECK(pool.stats().allocation_count == 0);  // nothing was allocated
}

TEST_CASE("warden::runtime's pool takes this thread's per-thread stream (E111's twin)", "[standin][separate-runtime][per-thread]") {
  standin::reset();
  const w::stream_ref here(cudaStreamPerThread);
  CHECK(here.per_thread());
  CHECK(reinterpret_cast<std::uintptr_t>(cudaStreamPerThread) == w::stream_ref::per_thread_handle);
  w::device_buffer<int> b(4, here);
  const auto source = w::to_device(std::vector<int>(4, 7));
  w::copy_async(b, source, here);
  CHECK(w::to_host(b) == std::vector<int>(4, 7));
}
