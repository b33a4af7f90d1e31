// W010 in a program that also launches the kernel (the normal case): the diagnostic must be the
// only error on every compiler; the launch of a rejected kernel adds nothing (issue 16, item 1).
#include <warden/warden.hpp>

#include <vector>

namespace w = warden;

WARDEN_KERNEL(halve, w::kernel<w::block<128>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
                auto i = k.global_id();
#ifdef WARDEN_DEFECT
                return w::when(i < in.size(), out[i / 2] = in[i]);  // threads 2j and 2j + 1 store to one element
#else
                return w::when(i < in.size(), out[i] = in[i] / 2);
#endif
              }));

int main() {
  auto in = w::to_device(std::vector<float>(256, 1.f));
  w::device_buffer<float> out(256);
  w::launch(w::on_cpu, halve, w::grid_for(256), in, out);
  const auto record = w::record(halve, w::grid_for(256), in, out);
  return record.clean() ? 0 : 1;
}
