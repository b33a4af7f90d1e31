// W008: a float stored into a uint8_t buffer would drop its fraction without a word, as C++'s
// implicit conversion does (issue 16, item 7). The twin is the message's fix, followed literally:
// gray[i] = w::convert<unsigned char>(w::round(value)), which rounds 127.5 to 128.
#include <warden/warden.hpp>

#include <cstdint>
#include <vector>

namespace w = warden;

WARDEN_KERNEL(to_gray, w::kernel<w::block<128>, w::in<float>, w::out<std::uint8_t>>([](auto k, auto luma, auto gray) {
                auto i = k.global_id();
#ifdef WARDEN_DEFECT
                return w::when(i < gray.size(), gray[i] = luma[i] * 255.f);
#else
                return w::when(i < gray.size(), gray[i] = w::convert<unsigned char>(w::round(luma[i] * 255.f)));
#endif
              }).named("to_gray", "luma", "gray"));

int main() {
  auto luma = w::to_device(std::vector<float>(256, 0.5f));
  w::device_buffer<std::uint8_t> gray(256);
  w::launch(w::on_cpu, to_gray, w::grid_for(256), luma, gray);
  return w::to_host(gray)[0] == 128 ? 0 : 1;
}
