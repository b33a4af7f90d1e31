// W050 [bank-conflict] as an error. The lints are warnings (deprecation warnings, so that g++,
// clang++ and nvcc all print them); a project that wants them to fail its build makes that
// warning an error, with -Werror=deprecated-declarations or, as here, a pragma. One warp writes a
// column of a 32 x 32 tile: its lanes are 32 words apart, all in one bank (32 ways). The twin pads
// the rows to 33 words: every lane in its own bank, and it compiles. (A one-warp kernel, so that
// the case costs a compile, not a listing of tests/compile_warn's 1024-thread transpose.)
#pragma GCC diagnostic error "-Wdeprecated-declarations"
#include <warden/warden.hpp>

namespace w = warden;

#ifdef WARDEN_DEFECT
inline constexpr int pad = 0;
#else
inline constexpr int pad = 1;
#endif

WARDEN_KERNEL(column_through_tile, w::kernel<w::block<32>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  return w::shared<float, 32, 32, pad>(k, [&](auto k, auto tile) {
    auto t = k.thread_id();
    return w::seq(tile(t, 0) = in[t], w::sync(), out[t] = tile(t, 0));
  });
}));

int main() { return column_through_tile.describe().accesses.size() == 4 ? 0 : 1; }
