// W020: the README's first kernel without its barrier: thread 0 loads tile[255], which thread 255
// stores in the same phase. The quickstart shows this diagnostic, and README.md quotes it
// (scripts/readme-diagnostic checks the quote against g++'s output: CTest readme_diagnostic).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(reverse_block, w::kernel<w::block<256>, w::in<float>, w::out<float>>(
    [](auto k, auto in, auto out) {
      return w::shared<float, 256>(k, [&](auto k, auto tile) {
        auto t = k.thread_id();
        auto g = k.global_id();
#ifdef WARDEN_DEFECT
        return w::seq(tile[t] = in[g], out[g] = tile[255 - t]);  // forgot w::sync()
#else
        return w::seq(tile[t] = in[g], w::sync(), out[g] = tile[255 - t]);
#endif
      });
    }));

int main() {
  w::device_buffer<float> in = w::to_device(std::vector<float>(1 << 12, 1.f));
  w::device_buffer<float> out(1 << 12);
  w::launch(w::on_cpu, reverse_block, w::grid_for(1 << 12), in, out);
  return w::to_host(out)[0] == 1.f ? 0 : 1;
}
