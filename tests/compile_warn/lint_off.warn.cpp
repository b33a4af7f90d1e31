// W050 turned off where the conflict is intended: the twin wraps the strided tile accesses in
// w::lint_off<w::W050>(...) and must print no lint; without it (the defect) W050 fires, 2 ways.
#include <warden/warden.hpp>

namespace w = warden;

#ifdef WARDEN_DEFECT
#define STRIDED(...) w::seq(__VA_ARGS__)
#else
#define STRIDED(...) w::lint_off<w::W050>(__VA_ARGS__)
#endif

WARDEN_KERNEL(pairs, w::kernel<w::block<64>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 128>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return STRIDED(tile[t * 2] = in[t], tile[t * 2 + 1] = in[t + 64], w::sync(), out[t] = tile[t * 2] + tile[t * 2 + 1]);
  });
}));

int main() { return pairs.describe().accesses.empty() ? 1 : 0; }
