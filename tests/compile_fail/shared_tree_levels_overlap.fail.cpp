// W020: a halving tree whose number of levels is a parameter, with the guard t <= s: at level 1
// (s = 64) thread 64 stores the element thread 0 reads. The twin (t < s) is accepted with a launch
// obligation: the loop over the levels runs at most 32 trips (E106 at launch otherwise).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(tree, w::kernel<w::block<256>, w::in<int>, w::out<int>, w::value<int>>(
    [](auto k, auto in, auto out, auto levels) {
      return w::shared<int, 256>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto i = k.global_id();
        return w::seq(w::when(i < in.size(), tile[t] = in[i]).otherwise(tile[t] = 0), w::sync(),
                      w::for_range(k, 0, levels, [&](auto, auto level) {
                        auto s = 128 >> level;
#ifdef WARDEN_DEFECT
                        auto active = t <= s && t + s < 256;
#else
                        auto active = t < s;
#endif
                        return w::seq(w::when(active, tile[t] = tile[t] + tile[t + s]), w::sync());
                      }),
                      w::when(t == 0, out[k.block_id()] = tile[0]));
      });
    }));

int main() {
  auto in = w::to_device(std::vector<int>(256, 1));
  w::device_buffer<int> out(1);
  w::launch(w::on_cpu, tree, w::grid(1), in, out, 8);
  return w::to_host(out)[0] == 256 ? 0 : 1;
}
