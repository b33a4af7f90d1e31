// Compiled against the installed headers only: the umbrella header must be found through
// warden::warden's usage requirements, with nothing else installed (warden needs no Boost). Built
// twice: on warden::warden (header-only) and on warden::runtime (the launch-time checks from the
// installed library); both launch a kernel and see a launch refused with E101.
#include <warden/warden.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace w = warden;

WARDEN_KERNEL(doubled, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto in, auto out) {
                auto i = k.global_id();
                return w::when(i < in.size(), out[i] = 2 * in[i]);
              }).named("doubled", "in", "out"));

int main() {
  std::vector<int> data{1, 2, 3};
  auto rw = warden::view_of<warden::access::read_write>(data);
  rw[0] += 41;
  static_assert(warden::device_accessible<warden::space::pinned>);

  auto in = w::to_device(std::vector<int>(100, 21));
  w::device_buffer<int> out(100), short_out(50);
  w::launch(w::on_cpu, doubled, w::grid_for(100), in, out);
  const bool doubled_ok = w::to_host(out)[99] == 42;
  bool refused = false;
  try {
    w::launch(w::on_cpu, doubled, w::grid_for(100), in, short_out);
  } catch (const w::bounds_error& e) {
    refused = std::string(e.what()).rfind("E101 [out-of-bounds] doubled: ", 0) == 0;
  }
  std::printf("consumer: warden %d.%d.%d (separate runtime %d), data[0] = %d, kernel %s, E101 %s\n", warden::version_major,
              warden::version_minor, warden::version_patch, WARDEN_SEPARATE_RUNTIME, data[0], doubled_ok ? "ok" : "wrong",
              refused ? "raised" : "missing");
  return data[0] == 42 && doubled_ok && refused ? 0 : 1;
}
