// Runs the warden Blelloch scan on the default backend at two sizes (one not a multiple of the
// 256-element slice) and checks every element against an exclusive prefix sum per slice.
#include <cstdio>
#include <vector>

#include "blelloch_scan.hpp"

namespace {

bool run(std::size_t n) {
  namespace w = warden;
  constexpr std::size_t slice = examples::scan_elements;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>((i * 13) % 7) - 3;
  w::device_buffer<int> din = w::to_device(in);
  w::device_buffer<int> dout(n);
  w::launch(examples::blelloch_scan, w::grid(static_cast<int>((n + slice - 1) / slice)), din, dout);
  const std::vector<int> out = w::to_host(dout);

  std::size_t wrong = 0;
  int sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % slice == 0) sum = 0;
    wrong += out[i] != sum;
    sum += in[i];
  }
  std::printf("blelloch_scan: n=%zu on the %s backend: %zu elements differ from the reference -> %s\n", n,
              w::default_backend() == w::backend_kind::cuda ? "cuda" : "cpu", wrong, wrong == 0 ? "OK" : "MISMATCH");
  return wrong == 0;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 18, std::size_t{1000}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
