// The CUDA upstreams, the event clock and the transfers on a real device.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

namespace {

__global__ void add_one(int* data, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) data[i] += 1;
}

template <class Resource>
void exercise(Resource resource) {
  warden::memory_pool pool(std::move(resource));
  std::vector<warden::pool_allocation> live;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{3} << 20, std::size_t{24} << 20})
    live.push_back(pool.allocate(bytes));
  for (const auto& a : live) {
    REQUIRE(a.ptr != nullptr);
    REQUIRE(reinterpret_cast<std::uintptr_t>(a.ptr) % 256 == 0);
    REQUIRE(cudaMemset(a.ptr, 0x5a, a.bytes) == cudaSuccess);
  }
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (const auto& a : live) pool.deallocate(a);
  CHECK(pool.stats().allocated_bytes == 0);
  pool.empty_cache();
  CHECK(pool.stats().reserved_bytes == 0);
}

}  // namespace

TEST_CASE("every CUDA upstream serves the pool", "[gpu][memory_pool]") {
  exercise(warden::cuda_resource{});
  exercise(warden::cuda_async_resource{});
  exercise(warden::pinned_resource{});
  exercise(warden::managed_resource{});
}

// [provokes-errors]: these two make CUDA calls fail on purpose; compute-sanitizer reports every
// failed call, so scripts/gpu-check runs the sanitizers with "~[provokes-errors]".
TEST_CASE("a device out of memory: out_of_memory with statistics, and the pool still works", "[gpu][memory_pool][provokes-errors]") {
  warden::memory_pool pool(warden::cuda_resource{});
  CHECK_THROWS_AS(pool.allocate(std::size_t{1} << 50), warden::out_of_memory);
  CHECK(pool.stats().oom_count == 1);
  const auto a = pool.allocate(1 << 20);
  CHECK(a.ptr != nullptr);
  pool.deallocate(a);
}

TEST_CASE("a CUDA failure becomes cuda_error naming the call and the error", "[gpu][errors][provokes-errors]") {
  try {
    WARDEN_CUDA_CHECK(cudaMemcpy(nullptr, reinterpret_cast<void*>(16), 64, cudaMemcpyDeviceToHost));
    FAIL("the copy must fail");
  } catch (const warden::cuda_error& e) {
    const std::string what = e.what();
    CHECK(what.find("cudaMemcpy") != std::string::npos);
    CHECK(what.find("cudaError") != std::string::npos);
  }
}

TEST_CASE("cross-stream reuse waits for the freeing stream's event", "[gpu][memory_pool]") {
  warden::memory_pool pool(warden::cuda_resource{});
  warden::stream s1, s2;
  const auto a = pool.allocate(4096, s1);
  pool.deallocate(a, s1);
  // Wait on the host until s1 has passed the free (a later ticket covers it): then s2 may take the block.
  pool.clock().wait(s1, pool.clock().record(s1));
  const auto b = pool.allocate(4096, s2);
  CHECK(b.ptr == a.ptr);
  pool.deallocate(b, s2);
}

TEST_CASE("transfers and a kernel in stream order", "[gpu][transfer]") {
  warden::stream s;
  std::vector<int> data(100'000);
  std::iota(data.begin(), data.end(), 0);
  warden::device_buffer<int> d = warden::to_device_async(data, s);
  add_one<<<(data.size() + 255) / 256, 256, 0, s.ref().native()>>>(d.data(), d.size());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  d.record_write(s);
  warden::pinned_buffer<int> back = warden::to_host_async(d, s);
  for (std::size_t i = 0; i < data.size(); ++i) REQUIRE(back[i] == data[i] + 1);
  CHECK(warden::to_host(d)[99'999] == 100'000);

  warden::managed_buffer<int> m(data.size());
  warden::copy(m, d);
  CHECK(m[5] == 6);
}
