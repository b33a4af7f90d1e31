// typed_views: saxpy on the host through views whose access mode is in their type.
// x is viewed read-only and y read-write; swapping the modes does not compile (W003/W004).
#include <warden/warden.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

namespace access = warden::access;

// y = a * x + y, with the permissions spelled out in the parameter types.
void saxpy(float a, warden::host_view<const float, access::read> x,
           warden::host_view<float, access::read_write> y) {
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = a * x[i] + y[i];
}

// Runs saxpy at size n and compares with a plain loop; returns true when they agree.
bool run(std::size_t n) {
  std::vector<float> x(n), y(n), reference(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.5f;
    y[i] = static_cast<float>(i % 13);
    reference[i] = 2.f * x[i] + y[i];
  }
  saxpy(2.f, warden::view_of<access::read>(x), warden::view_of<access::read_write>(y));

  float max_error = 0.f;
  for (std::size_t i = 0; i < n; ++i) max_error = std::fmax(max_error, std::fabs(y[i] - reference[i]));
  const bool ok = max_error == 0.f;
  std::printf("typed_views: saxpy n=%zu on host views: max |error| vs reference = %g -> %s\n", n,
              static_cast<double>(max_error), ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  for (std::size_t n : {std::size_t{1} << 20, std::size_t{1000}}) ok = run(n) && ok;
  return ok ? 0 : 1;
}
